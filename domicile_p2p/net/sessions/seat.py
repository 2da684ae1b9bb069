"""One seat's side of a networked game: the checked replica, the agent, the kept secrets.

A client never trusts the host's events: each goes through its own
:class:`~domicile_p2p.transcript.Replica` (chain, signatures, counters,
setup, openings, rules) before anything looks at it, and an event the
replica refuses is reported as :class:`BadEvent` naming the event, the party
at fault and the rule.  The seat's :class:`~domicile_p2p.transcript.SeatAgent`
signs what the player (a person or a bot) decides, and the protocol's own
steps (commitments, reveals) are produced by :meth:`SeatPlayer.due`.

The Ghost's seed and an investigator's entropy are written to the client's
data dir (``0600``) *before* the commitment to them is signed, so a client
that crashes or is killed comes back, rebuilds its agent from (secret,
events) and can still reveal: nothing it committed to is lost.
"""

from __future__ import annotations

import re
import secrets as random_bytes
from pathlib import Path
from typing import Final

from domicile_p2p.fairness.commit import ENTROPY_BYTES, SEED_BYTES
from domicile_p2p.identity import Identity, read_private_file, write_private_file
from domicile_p2p.net.errors import NetError
from domicile_p2p.net.sessions.guards.setup import over
from domicile_p2p.rules import GHOST, Action, View
from domicile_p2p.transcript import (
    Event,
    GhostAgent,
    InvestigatorAgent,
    MalformedEvent,
    Replica,
    SignedAction,
    Violation,
)
from domicile_p2p.transcript.ledger import Step

SECRETS_DIR: Final = "secrets"
_GAME_ID: Final = re.compile(r"^[0-9a-f]{32}$")


class BadEvent(NetError):
    """The host sent an event this client can prove wrong (or one that contradicts its own)."""

    def __init__(self, message: str, violation: Violation | None = None) -> None:
        super().__init__(message)
        self.violation = violation


class SeatSecrets:
    """The Ghost's seeds and investigators' entropies, one file per game and seat, ``0600``."""

    def __init__(self, data_dir: Path) -> None:
        self.directory = data_dir / SECRETS_DIR

    def _load_or_create(self, name: str, size: int) -> bytes:
        path = self.directory / name
        try:
            value = read_private_file(path)
        except FileNotFoundError:
            value = random_bytes.token_bytes(size)
            if not write_private_file(path, value, exclusive=True):
                value = read_private_file(path)  # another process of ours was first
        if len(value) != size:
            raise NetError(f"{path} is damaged ({len(value)} bytes, not {size})")
        return value

    def ghost_seed(self, game_id: str) -> bytes:
        return self._load_or_create(f"{_checked(game_id)}-ghost.seed", SEED_BYTES)

    def entropy(self, game_id: str, seat: int) -> bytes:
        return self._load_or_create(f"{_checked(game_id)}-seat{seat}.entropy", ENTROPY_BYTES)


def _checked(game_id: str) -> str:
    if not _GAME_ID.match(game_id):
        raise ValueError(f"not a game id: {game_id!r}")
    return game_id


class SeatPlayer:
    """The replica and agent of one seat, fed with the host's events in order."""

    def __init__(self, identity: Identity, secrets: SeatSecrets) -> None:
        self.identity = identity
        self.secrets = secrets
        self.seat: int | None = None
        self.replica: Replica | None = None
        self.agent: GhostAgent | InvestigatorAgent | None = None

    @property
    def held(self) -> int:
        return 0 if self.replica is None else self.replica.next_seq

    def line(self, seq: int) -> bytes:
        assert self.replica is not None
        return self.replica.events[seq].line

    def receive(self, value: object) -> Event:
        """Check and add the next event; :class:`BadEvent` if it breaks the protocol."""
        try:
            if self.replica is None:
                event = Event.from_value(value)
                self.replica = Replica(event)
                self._seat_agent()
            else:
                event = self.replica.receive_value(value)
        except Violation as violation:
            # Imported here: guard_blame's Cheat is a BadEvent of this module.
            from domicile_p2p.net.sessions.guards.blame import blamed

            raise blamed(violation) from None
        except MalformedEvent as exc:
            raise BadEvent(f"the host sent a malformed event 0: {exc}") from None
        return event

    def _seat_agent(self) -> None:
        replica = self.replica
        assert replica is not None
        seat = self.seat
        if seat is None or seat not in replica.table.seats:
            raise BadEvent(f"the genesis has no seat {seat} (the one the host gave this client)")
        if replica.table.seat_keys[seat] != self.identity.public_key:
            raise BadEvent(f"the genesis gives seat {seat} to another key than this client's")
        if seat == GHOST:
            self.agent = GhostAgent(
                self.identity, replica, self.secrets.ghost_seed(replica.game_id)
            )
        else:
            self.agent = InvestigatorAgent(
                self.identity, seat, replica, self.secrets.entropy(replica.game_id, seat)
            )

    @property
    def step(self) -> Step | None:
        return None if self.replica is None else self.replica.step

    @property
    def playing(self) -> bool:
        return self.step is Step.PLAY

    @property
    def finished(self) -> bool:
        """Nothing more will happen at this table (the seed is revealed, or the abort is final)."""
        replica = self.replica
        if replica is None:
            return False
        return over(replica)

    def due(self) -> SignedAction | None:
        """The protocol step this seat owes now (a commitment, a reveal), signed; else ``None``."""
        replica, agent = self.replica, self.agent
        if replica is None or agent is None or agent.seat not in replica.awaiting():
            return None
        ledger = replica.ledger
        if isinstance(agent, GhostAgent):
            if replica.step is Step.COMMITMENTS:
                return agent.commit()
            if replica.step is Step.SLOT_COMMITMENTS:
                return agent.commit_slots()
            if replica.step in (Step.REVEAL, Step.ABORTED):
                return agent.reveal()
            return None
        if replica.step is Step.COMMITMENTS and ledger.entropy_commits[agent.seat - 1] is None:
            return agent.commit_entropy()
        if replica.step is Step.REVEALS and ledger.entropies[agent.seat - 1] is None:
            return agent.reveal_entropy()
        return None

    def view(self) -> View | None:
        """What this seat may see (the Ghost's includes its secrets); ``None`` before the deal."""
        if self.agent is None or self.replica is None or self.replica.state is None:
            return None
        return self.agent.view()

    def play(self, action: Action) -> SignedAction:
        """Sign a move (raises the ``RuleError`` or ``AgentMisuse`` an illegal move deserves)."""
        if self.agent is None:
            raise NetError("the game has not begun")
        return self.agent.act(action)

    def last_counter(self) -> int:
        if self.replica is None or self.seat is None:
            return 0
        return self.replica.last_counter(self.seat)
