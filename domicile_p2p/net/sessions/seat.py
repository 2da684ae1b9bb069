"""One seat's side of a networked game: the checked replica and the agent.

A client never trusts the host's events: each goes through its own
:class:`~domicile_p2p.transcript.Replica` (chain, signatures, counters,
setup, openings, rules) before anything looks at it, and an event the
replica refuses is reported as :class:`~domicile_p2p.net.errors.BadEvent`
naming the event, the party at fault and the rule.  The seat's
:class:`~domicile_p2p.transcript.SeatAgent` signs what the player (a person
or a bot) decides, and the protocol's own steps (commitments, reveals) are
produced by :meth:`SeatPlayer.due`.

The agent needs the seat's secret (the Ghost's seed, an investigator's
entropy), which lives in the player's data dir: written there (``0600``)
*before* the commitment to it is signed, so a client that crashes or is
killed comes back, rebuilds its agent from (secret, events) and can still
reveal.  This module never touches that file: once the genesis names the
seat, :attr:`SeatPlayer.needs_secret` holds until the adapter hands the
secret in with :meth:`SeatPlayer.keep_secret` (the session asks for it with
a :class:`~domicile_p2p.net.sessions.effects.SecretNeeded` effect).
"""

from __future__ import annotations

from domicile_p2p.identity import Identity
from domicile_p2p.net.errors import BadEvent, NetError
from domicile_p2p.net.sessions.guards.blame import blamed
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


class SeatPlayer:
    """The replica and agent of one seat, fed with the host's events in order.

    A spectator's (``spectator=True``) has the replica and no seat: it checks every
    event as a seat does, needs no secret and can never sign an action.
    """

    def __init__(self, identity: Identity, *, spectator: bool = False) -> None:
        self.identity = identity
        self.spectator = spectator
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
                replica = Replica(event)
                if not self.spectator:
                    self._check_seat(replica)
                self.replica = replica
            else:
                event = self.replica.receive_value(value)
        except Violation as violation:
            raise blamed(violation) from None
        except MalformedEvent as exc:
            raise BadEvent(f"the host sent a malformed event 0: {exc}") from None
        return event

    def _check_seat(self, replica: Replica) -> None:
        seat = self.seat
        if seat is None or seat not in replica.table_setup.seats:
            raise BadEvent(f"the genesis has no seat {seat} (the one the host gave this client)")
        if replica.table_setup.seat_keys[seat] != self.identity.public_key:
            raise BadEvent(f"the genesis gives seat {seat} to another key than this client's")

    @property
    def needs_secret(self) -> bool:
        """The genesis is in, and the agent waits for the seat's secret (see the module doc)."""
        return self.replica is not None and self.agent is None and not self.spectator

    def keep_secret(self, secret: bytes) -> None:
        """The seat's secret, as kept in the data dir: the agent can sign from now on."""
        replica, seat = self.replica, self.seat
        if replica is None or seat is None:
            raise NetError("no game has begun: there is no secret to keep yet")
        if self.agent is not None:
            return
        if seat == GHOST:
            self.agent = GhostAgent(self.identity, replica, secret)
        else:
            self.agent = InvestigatorAgent(self.identity, seat, replica, secret)

    @property
    def step(self) -> Step | None:
        return None if self.replica is None else self.replica.step

    @property
    def playing(self) -> bool:
        return self.step is Step.PLAY

    @property
    def finished(self) -> bool:
        """Nothing more is asked of this seat: the game is over (finished or aborted), and
        a Ghost has revealed its seed (after an abort too, unless it never played)."""
        replica = self.replica
        if replica is None:
            return False
        ledger = replica.ledger
        owes = self.seat is not None and ledger.owed(self.seat) is not None
        return ledger.over or (ledger.ended and not owes)

    def due(self) -> SignedAction | None:
        """The protocol step this seat owes now (a commitment, a reveal), signed; else ``None``.

        What is owed is the ledger's to say (``transcript.ledger.STEPS``), and
        nothing is owed once the game is over.
        """
        if self.agent is None:
            return None
        return self.agent.owed()

    def view(self) -> View | None:
        """What this seat may see (the Ghost's includes its secrets); ``None`` before the deal."""
        if self.agent is None or self.replica is None or self.replica.state is None:
            return None
        return self.agent.view()

    def play(self, action: Action) -> SignedAction:
        """Sign a move (raises the ``RuleError`` or ``AgentMisuse`` an illegal move deserves)."""
        if self.agent is None:
            raise NetError("the game has not begun")
        return self.agent.sign_move(action)

    def last_counter(self) -> int:
        if self.replica is None or self.seat is None:
            return 0
        return self.replica.last_counter(self.seat)
