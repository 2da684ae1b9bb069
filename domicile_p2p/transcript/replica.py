"""A peer's copy of the transcript, checked event by event (sans I/O).

Every peer, the host's own process and ``domicile verify`` hold a
:class:`Replica`.  ``receive(event)`` checks the event completely before
accepting it: the hash chain and the host's signature, the player's
signature and counter, the setup order, every commitment opened, the deal,
the rules of the game on the public state, every opening of a correct
verdict, the host's game-over statement and, at the reveal, the whole game
replayed with the Ghost's secrets.  An event that fails any check raises a
:class:`~domicile_p2p.transcript.errors.Violation` naming its ``seq``, the
party at fault and why; the replica is then unchanged.  The one exception
is the Ghost's reveal: when its seed opens the Ghost's commitment the event
is kept (it is the proof), and then the :class:`Violation` it proves is
raised, naming the event where the Ghost cheated.

What a user interface needs is here too: :attr:`Replica.step` (where the
protocol stands), the public :attr:`Replica.state` and its
:attr:`Replica.phase`, :meth:`Replica.awaiting` (the setup's progress),
:attr:`Replica.last_verdicts`, the commitments and openings (on
:attr:`Replica.ledger`), and :attr:`Replica.head` to compare chain heads
with other peers.
"""

from __future__ import annotations

from collections.abc import Iterable

from domicile_p2p.rules import GameState, Phase, TableConfig, Verdict
from domicile_p2p.transcript.chain import Chain
from domicile_p2p.transcript.codec import Event
from domicile_p2p.transcript.errors import HOST, Check, Fault, MalformedEvent, Violation
from domicile_p2p.transcript.ledger import Ledger, Step, TableSetup, read_genesis


class Record:
    """What the table and every replica share: the events, their chain and their ledger."""

    def __init__(
        self, table_setup: TableSetup, genesis: Event, *, foreseen_seed: bytes | None = None
    ) -> None:
        self._chain = Chain(table_setup)
        self._chain.accept(genesis)
        self._ledger = Ledger.start(table_setup, foreseen_seed=foreseen_seed)
        self._events: list[Event] = [genesis]

    # ----------------------------------------------------------------- queries

    @property
    def table_setup(self) -> TableSetup:
        """The table the genesis event describes (config, keys, card ids)."""
        return self._ledger.table_setup

    @property
    def config(self) -> TableConfig:
        return self._ledger.table_setup.config

    @property
    def game_id(self) -> str:
        """The game id, as hex."""
        return self._ledger.table_setup.genesis.game

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    @property
    def ledger(self) -> Ledger:
        """Everything the events prove so far: commitments, openings, the public state..."""
        return self._ledger

    @property
    def step(self) -> Step:
        return self._ledger.step

    @property
    def state(self) -> GameState | None:
        """The public game state (``None`` until the tableau is dealt)."""
        return self._ledger.state

    @property
    def phase(self) -> Phase | None:
        """The phase of the round (``None`` until the tableau is dealt)."""
        state = self._ledger.state
        return None if state is None else state.phase

    @property
    def last_verdicts(self) -> tuple[Verdict, ...]:
        """The verdicts of the last séance (with :attr:`Ledger.openings` for the correct ones)."""
        state = self._ledger.state
        return () if state is None else state.last_seance

    @property
    def head(self) -> str:
        """The hash of the last event: the next event's ``prev``, and what peers compare."""
        return self._chain.head

    @property
    def next_seq(self) -> int:
        return self._chain.next_seq

    def last_counter(self, seat: int) -> int:
        """The counter of ``seat``'s last accepted action (0 before its first)."""
        return self._chain.last_counter(seat)

    def awaiting(self) -> tuple[int, ...]:
        """The seats the setup (or the reveal) is waiting for; see :meth:`Ledger.awaiting`."""
        return self._ledger.awaiting()

    @property
    def finished(self) -> bool:
        """The Ghost revealed its seed after the game ended, and every check passed."""
        return self._ledger.step is Step.FINISHED

    @property
    def over(self) -> bool:
        """Nothing more will happen at this table; see :attr:`Ledger.over`."""
        return self._ledger.over


class Replica(Record):
    """A peer's checked copy of the transcript."""

    def __init__(self, genesis: Event, *, authenticated: bool = False) -> None:
        """A replica of the game ``genesis`` opens (signature checked unless ``authenticated``)."""
        try:
            table_setup = read_genesis(genesis)
            if not authenticated:
                Chain(table_setup).check(genesis)
        except Fault as fault:
            raise Violation.from_fault(fault, genesis.seq) from None
        super().__init__(table_setup, genesis)

    @classmethod
    def read_ahead(
        cls, table_setup: TableSetup, genesis: Event, foreseen_seed: bytes | None
    ) -> Replica:
        """A replica for a verifier that holds the whole transcript (``verify``).

        ``table_setup`` is what ``genesis`` (already checked) describes; ``foreseen_seed``
        the seed the Ghost's reveal will bring, read ahead so that the game is
        replayed with the secrets once, as it goes (see :mod:`reveal`).  The
        replica checks exactly what any other does, event by event.
        """
        replica = cls.__new__(cls)
        Record.__init__(replica, table_setup, genesis, foreseen_seed=foreseen_seed)
        return replica

    @classmethod
    def from_events(cls, events: Iterable[Event]) -> Replica:
        """A replica that has received ``events`` (the first must be the genesis)."""
        iterator = iter(events)
        try:
            genesis = next(iterator)
        except StopIteration:
            raise Violation(0, HOST, Check.GENESIS, "there are no events") from None
        replica = cls(genesis)
        for event in iterator:
            replica.receive(event)
        return replica

    def receive(self, event: Event) -> None:
        """Check ``event`` and add it, or raise :class:`Violation` and change nothing."""
        try:
            self._chain.check(event)
            ledger = self._ledger.advance(event)
        except Fault as fault:
            raise Violation.from_fault(fault, event.seq) from None
        self._accept(event, ledger)

    def receive_value(self, value: object) -> Event:
        """Parse an event's JSON object (from the wire), receive it, and return it."""
        try:
            event = Event.from_value(value)
        except MalformedEvent as exc:
            raise Violation(self.next_seq, HOST, Check.FORMAT, str(exc)) from None
        self.receive(event)
        return event

    def receive_authenticated(self, event: Event) -> None:
        """Add an event whose chain link and signatures were already checked.

        For ``verify``, which checks every signature of a file in its own
        pass first, so that no signature is verified twice.
        """
        try:
            ledger = self._ledger.advance(event)
        except Fault as fault:
            raise Violation.from_fault(fault, event.seq) from None
        self._accept(event, ledger)

    def _accept(self, event: Event, ledger: Ledger) -> None:
        self._chain.accept(event)
        self._ledger = ledger
        self._events.append(event)
        if ledger.cheat is not None:
            # The reveal is authentic and now part of the record; what it proves is raised.
            raise Violation.from_fault(ledger.cheat, event.seq)


def replay_public(events: Iterable[Event]) -> GameState | None:
    """The public game state the events lead to (every event checked on the way)."""
    return Replica.from_events(events).state


def replay_secret(events: Iterable[Event]) -> GameState | None:
    """The game replayed with the Ghost's secrets (after the reveal; ``None`` before it)."""
    return Replica.from_events(events).ledger.replay
