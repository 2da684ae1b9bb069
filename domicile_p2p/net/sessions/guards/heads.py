"""Signed chain heads: peers compare histories to catch a host that shows each a different one.

The host orders the events, so a dishonest host could show two players two
different, each perfectly valid, histories (drop a chat for one of them,
order two moves differently for the other).  Every replica checks its own
history, but cannot see anyone else's.  So, at the end of each round, every
seat signs the head of the chain it holds and sends it to the host, which
relays it to everyone else at the table::

    claim = (seat, seq, head)      head = link(event seq), the next event's prev
    sig   = Ed25519(seat key, frame("domicile-p2p/v1/net/chain-head",
                                    game id, u32be(seat), u32be(seq), head))

A peer receiving a claim for an event it holds compares the head with its
own: a difference is a :class:`SplitHistory`, proof (signed by the other
seat, and the host signed both events) that the host showed that seat
another history.  A claim for an event the peer has not reached yet waits
until it does.  The host cannot forge a claim (it has no seat's key): a
claim whose signature fails is :class:`ForgedHead`.  An honest host relays
only claims that match its own chain (:func:`host_check`), so a lying peer
cannot frame it.

What this does not catch: a host that withholds every claim.  The final
head is therefore also shown as words (:func:`head_phrase`) on every end
screen, for people to compare out loud, and any two saved transcripts can
be compared offline.

Sans I/O: :class:`HeadWatch` (one per seat) decides which claims to sign
and checks the ones relayed to it; the sessions only carry them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from domicile_p2p.fairness.commit import frame, u32
from domicile_p2p.identity import Identity, PublicKey
from domicile_p2p.net.errors import BadEvent, HostMisbehaved
from domicile_p2p.net.join.words import phrase
from domicile_p2p.transcript import Event, Kind
from domicile_p2p.transcript.replica import Record

HEAD_DOMAIN: Final = "domicile-p2p/v1/net/chain-head"
HEAD_BYTES: Final = 32

CHECKPOINT_KINDS: Final = frozenset(
    {Kind.DEAL, Kind.SEANCE, Kind.CULPRIT_SEANCE, Kind.GAME_OVER, Kind.ABORT}
)
"""The events after which every seat signs its head: the end of the setup, of each round
(each séance closes a round), and of the game."""

MAX_PENDING: Final = 64
"""Claims kept for events not received yet; a host flooding them cannot grow a peer's memory."""


def head_message(game_id: bytes, seat: int, seq: int, head: bytes) -> bytes:
    """The bytes a seat signs to state that its chain, after event ``seq``, has ``head``."""
    return frame(HEAD_DOMAIN, game_id, u32(seat), u32(seq), head)


@dataclass(frozen=True, slots=True)
class HeadClaim:
    """Seat ``seat`` holds a chain whose event ``seq`` links to ``head``, signed."""

    seat: int
    seq: int
    head: bytes
    sig: bytes

    @classmethod
    def sign(
        cls, identity: Identity, game_id: bytes, seat: int, seq: int, head: bytes
    ) -> HeadClaim:
        signature = identity.sign(head_message(game_id, seat, seq, head))
        return cls(seat, seq, head, signature)

    def valid(self, key: PublicKey, game_id: bytes) -> bool:
        if len(self.head) != HEAD_BYTES or not 0 <= self.seq < 2**32:
            return False
        if not 0 <= self.seat < 2**32:
            return False
        return key.verifies(self.sig, head_message(game_id, self.seat, self.seq, self.head))


def head_phrase(head: bytes) -> str:
    """A chain head as six words, for people to compare across screens at the end."""
    return phrase(head)


class SplitHistory(BadEvent):
    """The host showed another seat a different history: its signed head differs from ours."""

    def __init__(self, seat_name: str, seq: int, ours: bytes, theirs: bytes) -> None:
        super().__init__(
            f"the host cheated: it showed {seat_name} a different history than this client "
            f"(event {seq} links to {theirs.hex()[:16]}... there, {ours.hex()[:16]}... here)"
        )
        self.seq = seq
        self.ours = ours
        self.theirs = theirs


class ForgedHead(HostMisbehaved):
    """The host relayed a chain head that the seat it names never signed."""


def host_check(
    events: Sequence[Event],
    seat_keys: Sequence[PublicKey],
    game_id: bytes,
    seat: int,
    claim: HeadClaim,
) -> str | None:
    """Why an honest host must not relay ``claim`` from the player of ``seat``; ``None``: relay it.

    The claim must be the sender's own, signed by its key, about an event the
    host has, and agree with the host's chain (a peer that claims another
    head is lying, or its copy is damaged: either way not the host's doing).
    """
    if claim.seat != seat:
        return f"you play seat {seat}; a chain head of seat {claim.seat} is not yours to send"
    if not claim.valid(seat_keys[seat], game_id):
        return "the chain head's signature does not verify under your seat's key"
    if claim.seq >= len(events):
        return f"there is no event {claim.seq} yet"
    if events[claim.seq].link() != claim.head:
        return f"event {claim.seq} does not link to that head on this host"
    return None


class HeadWatch:
    """One seat's side: the claims it owes, and the check of every claim relayed to it."""

    def __init__(self) -> None:
        self._scanned = 0
        self._pending: dict[tuple[int, int], HeadClaim] = {}
        self.agreed: dict[int, int] = {}
        """For each other seat, the last event up to which its history is known to be ours."""

    def due(self, identity: Identity, seat: int, record: Record) -> list[HeadClaim]:
        """Sign a claim for every checkpoint event received since the last call."""
        events = record.events
        game_id = record.table_setup.game_id
        claims = [
            HeadClaim.sign(identity, game_id, seat, event.seq, event.link())
            for event in events[self._scanned :]
            if event.kind in CHECKPOINT_KINDS
        ]
        self._scanned = len(events)
        return claims

    def receive(self, record: Record, claim: HeadClaim) -> None:
        """Check a claim the host relayed (raises :class:`SplitHistory` or :class:`ForgedHead`)."""
        table_setup = record.table_setup
        if claim.seat not in table_setup.seats:
            raise ForgedHead(
                f"the host relayed a chain head of seat {claim.seat}, not at this table"
            )
        if not claim.valid(table_setup.seat_keys[claim.seat], table_setup.game_id):
            raise ForgedHead(
                f"the host relayed a chain head that {table_setup.describe(claim.seat)} "
                "never signed"
            )
        if claim.seq < record.next_seq:
            self._compare(record, claim)
        elif len(self._pending) < MAX_PENDING:
            self._pending[(claim.seat, claim.seq)] = claim

    def caught_up(self, record: Record) -> None:
        """Compare the claims that were waiting for events this seat now holds."""
        ready = [claim for key, claim in self._pending.items() if key[1] < record.next_seq]
        for claim in ready:
            del self._pending[(claim.seat, claim.seq)]
            self._compare(record, claim)

    def _compare(self, record: Record, claim: HeadClaim) -> None:
        ours = record.events[claim.seq].link()
        if ours != claim.head:
            raise SplitHistory(record.table_setup.describe(claim.seat), claim.seq, ours, claim.head)
        self.agreed[claim.seat] = max(self.agreed.get(claim.seat, -1), claim.seq)
