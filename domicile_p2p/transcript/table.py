"""The host's authority over one table (sans I/O): it orders signed actions into events.

The host is not trusted (docs/ARCHITECTURE.md, section 6 "Nobody is
trusted"): a :class:`GameTable` only decides the order of events.  It accepts an
action when every peer's :class:`~domicile_p2p.transcript.replica.Replica`
will accept the resulting event, signs the event and links it into the
chain; it refuses anything else with a
:class:`~domicile_p2p.transcript.errors.Rejected` naming the seat at fault,
and nothing changes.

Usage (the network host wraps exactly this)::

    game_table = GameTable.open(host_identity, genesis_body)  # event 0
    new_events = game_table.submit(signed_action)             # or Rejected
    game_table.abort_stalled()                                # after a setup timeout
    game_table.time_up()                                      # the sand-glass ran out
    GameTable.resume(host_identity, events_from_disk)         # --resume

Two host statements follow an action by themselves, in the same
``submit``: the ``deal`` after the last entropy reveal, and ``game-over``
after the move that ends the game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from domicile_p2p.identity import Identity, PublicKey
from domicile_p2p.rules import TimeUp, due, time_up
from domicile_p2p.transcript.codec import GENESIS_PREV, Event, SignedAction
from domicile_p2p.transcript.errors import (
    HOST,
    Check,
    Fault,
    HostMisuse,
    MalformedEvent,
    Rejected,
    Violation,
)
from domicile_p2p.transcript.ledger import Ledger, Step, read_genesis
from domicile_p2p.transcript.replica import Record, Replica
from domicile_p2p.transcript.schema import (
    PROTOCOL_VERSION,
    AbortBody,
    Body,
    CardLists,
    DifficultyName,
    GenesisBody,
    Kind,
    PackRef,
    SeatEntry,
    TimeUpBody,
)


def make_genesis(
    *,
    game_id: bytes,
    host: PublicKey,
    difficulty: DifficultyName,
    seats: Sequence[tuple[str, PublicKey]],
    pack_id: str,
    pack_hash: str,
    cards: CardLists,
    timer: int | None = None,
) -> GenesisBody:
    """The genesis of a table: ``seats[0]`` is the Ghost, the others the investigators."""
    return GenesisBody(
        protocol=PROTOCOL_VERSION,
        game=game_id.hex(),
        host=host.hex,
        difficulty=difficulty,
        seats=tuple(SeatEntry(index, name, key.hex) for index, (name, key) in enumerate(seats)),
        pack=PackRef(pack_id, pack_hash),
        cards=cards,
        timer=timer,
    )


_NOT_DONE: Final[Mapping[Kind, str]] = {
    Kind.GHOST_COMMIT: "did not commit",
    Kind.ENTROPY_COMMIT: "did not commit",
    Kind.ENTROPY_REVEAL: "did not reveal its entropy",
    Kind.SLOT_COMMITS: "did not publish its slot commitments",
    Kind.REVEAL: "did not reveal its seed",
}
"""What a seat the table aborts for failed to do, by the kind it owed."""


class GameTable(Record):
    """The host's side of the protocol."""

    def __init__(self, host: Identity, genesis: Event) -> None:
        try:
            table_setup = read_genesis(genesis)
        except Fault as fault:
            raise HostMisuse(f"not a valid genesis: {fault.reason}") from None
        if table_setup.host_key != host.public_key:
            raise HostMisuse("the genesis names another host key than this identity's")
        super().__init__(table_setup, genesis)
        self._host = host

    @classmethod
    def open(cls, host: Identity, genesis: GenesisBody) -> GameTable:
        """A new table: signs the genesis as event 0."""
        game_id = bytes.fromhex(genesis.game)
        event = Event.create(
            host, game_id=game_id, seq=0, prev=GENESIS_PREV, statement=(Kind.GENESIS, genesis)
        )
        return cls(host, event)

    @classmethod
    def resume(cls, host: Identity, events: Iterable[Event]) -> GameTable:
        """The table of a saved transcript, every event re-checked (raises :class:`Violation`).

        A log that ends with a reveal proving the Ghost cheated is authentic
        and resumes (finished); :attr:`Ledger.cheat` says what it proves.
        """
        history = list(events)
        if not history:
            raise HostMisuse("there is no event to resume from")
        replica = Replica(history[0])
        for event in history[1:]:
            try:
                replica.receive(event)
            except Violation:
                if replica.ledger.cheat is None or replica.events[-1] is not event:
                    raise
        if replica.table_setup.host_key != host.public_key:
            raise HostMisuse("this transcript was hosted with another identity key")
        game_table = cls(host, replica.events[0])
        game_table._chain = replica._chain
        game_table._ledger = replica.ledger
        game_table._events = list(replica.events)
        return game_table

    # ----------------------------------------------------------------- actions

    def submit(self, action: SignedAction | bytes | object) -> tuple[Event, ...]:
        """Accept a player's signed action; the new events, in order.

        ``action`` is a :class:`SignedAction`, its canonical JSON bytes, or its
        JSON object as decoded from a wire message.  The result is the
        action's event, followed by the ``deal`` or ``game-over`` statement
        when this action makes one due.  Raises :class:`Rejected` (the
        submitting seat's fault) and changes nothing when the action is not
        well-formed, not signed by its seat's key, out of counter order, out
        of protocol order, against the rules, or carries a bad opening.

        The Ghost's reveal is accepted whenever its seed opens the Ghost's
        commitment, even when it proves the Ghost cheated: the proof belongs
        in the transcript, and :attr:`Ledger.cheat` says what it proves.
        """
        signed = self._parse(action)
        try:
            self._chain.check_action(signed, blame=HOST)
        except Fault as fault:
            raise Rejected(signed.seat, fault.check, fault.reason) from None
        event = self._order(action=signed)
        try:
            ledger = self._ledger.advance(event)
        except Fault as fault:
            raise Rejected(signed.seat, fault.check, fault.reason) from None
        self._append(event, ledger)
        new = [event]
        due = ledger.host_statement_due
        if due is Kind.DEAL:
            new.append(self._state(Kind.DEAL, ledger.expected_deal()))
        elif due is Kind.GAME_OVER:
            new.append(self._state(Kind.GAME_OVER, ledger.expected_game_over()))
        return tuple(new)

    def restore(self, event: Event) -> None:
        """Take back the next event of this table's history that its log lost (the host's
        log was rolled back, and a player who holds the event hands it back).

        It is checked exactly as a replica checks an event from the host: the chain
        link, this host's own signature, its author's signature and counter, and the
        ledger.  Raises :class:`Violation` and changes nothing when it is not.
        """
        try:
            self._chain.check(event)
            ledger = self._ledger.advance(event)
        except Fault as fault:
            raise Violation.from_fault(fault, event.seq) from None
        self._append(event, ledger)

    def abort(self, reason: str, seats: Sequence[int] = ()) -> Event:
        """Stop the game here, naming the ``seats`` it waited for in vain.

        Nothing secret is revealed by an abort.  Raises :class:`HostMisuse`
        once the game is finished (or already aborted).
        """
        body = AbortBody(reason, tuple(sorted(set(seats))))
        try:
            return self._state(Kind.ABORT, body)
        except Fault as fault:
            raise HostMisuse(f"cannot abort: {fault.reason}") from None

    def abort_stalled(self) -> Event:
        """Abort naming every seat the protocol is waiting for (call it after a timeout).

        In the setup these are the seats that have not committed or revealed;
        after the game (or an abort), the Ghost that has not revealed its seed.
        """
        seats = self.awaiting()
        if not seats:
            raise HostMisuse(f"no seat is holding up the table ({self.step.value})")
        names = ", ".join(self.table_setup.describe(seat) for seat in seats)
        owed = self.ledger.owed(seats[0])
        assert owed is not None  # it is awaited
        doing = _NOT_DONE[owed]
        return self.abort(f"{names} {doing} in time", seats)

    def time_up(self) -> Event:
        """The investigation's sand-glass ran out: a ``time-up`` statement that locks every
        placed marker where it stands and records the seats without one as no guess.

        The host's session decides when (it keeps the clock); raises
        :class:`HostMisuse` when time cannot run out now (no sand-glass at this
        table, or no investigation under way).
        """
        state = self._ledger.state
        if self.step is not Step.PLAY or state is None or TimeUp not in due(state).moves:
            raise HostMisuse("cannot call time now: no investigation is under way")
        called = time_up(state)
        try:
            return self._state(Kind.TIME_UP, TimeUpBody(called.locked, called.no_guess))
        except Fault as fault:
            raise HostMisuse(f"cannot call time: {fault.reason}") from None

    # ----------------------------------------------------------------- internals

    def _parse(self, action: object) -> SignedAction:
        if isinstance(action, SignedAction):
            return action
        try:
            if isinstance(action, bytes | bytearray):
                return SignedAction.from_json(bytes(action))
            return SignedAction.from_value(action)
        except MalformedEvent as exc:
            raise Rejected(None, Check.FORMAT, str(exc)) from None

    def _order(
        self, *, action: SignedAction | None = None, statement: tuple[Kind, Body] | None = None
    ) -> Event:
        return Event.create(
            self._host,
            game_id=self.table_setup.game_id,
            seq=self._chain.next_seq,
            prev=self._chain.head,
            action=action,
            statement=statement,
        )

    def _state(self, kind: Kind, body: Body) -> Event:
        event = self._order(statement=(kind, body))
        self._append(event, self._ledger.advance(event))
        return event

    def _append(self, event: Event, ledger: Ledger) -> None:
        self._chain.accept(event)
        self._ledger = ledger
        self._events.append(event)
