"""What can go wrong with a transcript, as typed errors that say whose fault it is.

Every check of the protocol belongs to one :class:`Check` (the rows of
``domicile verify``).  A broken rule is first a :class:`Fault` (which check,
which party, why); then

- a :class:`~domicile_p2p.transcript.replica.Replica` turns it into a
  :class:`Violation`: the event ``seq`` where someone cheated or the host
  misbehaved, and who;
- a :class:`~domicile_p2p.transcript.table.GameTable` turns it into a
  :class:`Rejected`: the action a seat submitted is refused and nothing
  changes.  That is the submitting seat's fault.

Parties are named ``"host"``, ``"ghost"`` or ``"seat N"`` (an investigator).
Blame follows signatures: a player answers for what its signed action says,
the host for everything only the host decides (the order of events, the
chain, its own statements) and for admitting an action whose signature or
counter is wrong.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

HOST: Final = "host"
GHOST_PARTY: Final = "ghost"


def party(seat: int) -> str:
    """The name of the player in ``seat``: ``"ghost"`` for seat 0, else ``"seat N"``."""
    return GHOST_PARTY if seat == 0 else f"seat {seat}"


class Check(StrEnum):
    """The checks of a transcript, in the order ``domicile verify`` runs and prints them."""

    FORMAT = "format"
    GENESIS = "genesis"
    CARD_PACK = "card pack"
    HOST_SIGNATURES = "host signatures"
    HASH_CHAIN = "hash chain"
    PLAYER_SIGNATURES = "player signatures and counters"
    EVENT_ORDER = "event order"
    ENTROPY = "entropy commitments"
    DEAL = "joint seed and tableau"
    PUBLIC_RULES = "public rules"
    OPENINGS = "séance openings"
    GAME_OVER = "game over"
    GHOST_SEED = "ghost seed"
    SLOT_COMMITMENTS = "slot commitments"
    VERDICTS = "séance verdicts"
    DREAM_CARDS = "dream cards"
    CULPRIT = "culprit"
    COMPLETE = "complete"


class TranscriptError(Exception):
    """Base of every error of the transcript layer."""


class Fault(TranscriptError):
    """A rule of the protocol broken by one event (or one submitted action).

    ``seq`` is set when the fault lies in an earlier event than the one being
    processed (the reveal proves a séance of day 3 false: the fault is the
    séance's).
    """

    def __init__(self, check: Check, party: str, reason: str, *, seq: int | None = None) -> None:
        super().__init__(reason)
        self.check = check
        self.party = party
        self.reason = reason
        self.seq = seq


class Violation(TranscriptError):
    """An event that breaks the protocol: at ``seq``, ``party`` broke ``check``, for ``reason``."""

    def __init__(self, seq: int, party: str, check: Check, reason: str) -> None:
        super().__init__(f"event {seq}: {party} broke the {check.value} check: {reason}")
        self.seq = seq
        self.party = party
        self.check = check
        self.reason = reason

    @classmethod
    def from_fault(cls, fault: Fault, seq: int) -> Violation:
        return cls(
            fault.seq if fault.seq is not None else seq, fault.party, fault.check, fault.reason
        )


class Rejected(TranscriptError):
    """The table refused an action submitted for ``seat``; the table is unchanged.

    It is the submitting seat's fault (or whoever forged an action in its name).
    """

    def __init__(self, seat: int | None, check: Check, reason: str) -> None:
        who = "an unknown seat" if seat is None else party(seat)
        super().__init__(f"action of {who} refused ({check.value}): {reason}")
        self.seat = seat
        self.check = check
        self.reason = reason


class MalformedEvent(TranscriptError):
    """Bytes or a value that are not a well-formed event or signed action (see ``schema``)."""


class HostMisuse(TranscriptError):
    """The program hosting a table asked the table for something the protocol forbids."""


class AgentMisuse(TranscriptError):
    """A seat's agent was asked for something it cannot honestly sign now."""


class NotATranscript(TranscriptError):
    """A file that cannot be read, or that is not a domicile-p2p transcript at all."""
