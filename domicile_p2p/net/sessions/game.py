"""The host's game at one table: the transcript's :class:`~domicile_p2p.transcript.GameTable`.

The network layer does not sign, chain or judge anything itself: it hands
each signed action to the ``GameTable`` (signatures, counters, protocol order,
the rules engine, openings) and relays the events it returns.  This module
only translates: the table's typed refusals into wire error codes, and its
events into the JSON objects the wire carries.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from domicile_p2p.identity import Identity, PublicKey
from domicile_p2p.net.sessions.guards.heads import HeadClaim, host_check
from domicile_p2p.net.sessions.room import EventObject, Refusal, RoomConfig, SeatHolder
from domicile_p2p.net.wire import ErrorCode
from domicile_p2p.rules import Investigation, due
from domicile_p2p.transcript import Check, Event, GameTable, Rejected, SignedAction, make_genesis
from domicile_p2p.transcript.errors import HostMisuse, MalformedEvent, Violation
from domicile_p2p.transcript.ledger import Step
from domicile_p2p.transcript.packref import PackLike, card_lists

_CODES: Final[dict[Check, ErrorCode]] = {
    Check.FORMAT: ErrorCode.BAD_ACTION,
    Check.PLAYER_SIGNATURES: ErrorCode.BAD_SIGNATURE,
}


class HostedGame:
    """A :class:`~domicile_p2p.net.sessions.room.Game` backed by the transcript's ``GameTable``."""

    def __init__(self, game_table: GameTable) -> None:
        self.game_table = game_table
        self._values: list[EventObject] = [event.value for event in game_table.events]
        self._lines: list[bytes] = [event.line for event in game_table.events]

    @classmethod
    def start(
        cls,
        host: Identity,
        config: RoomConfig,
        holders: Sequence[SeatHolder],
        pack: PackLike,
        *,
        game_id: bytes,
    ) -> HostedGame:
        """A new game: the genesis names every seat's key, the pack and ``game_id``
        (``GAME_ID_BYTES`` fresh random bytes, drawn by the adapter)."""
        genesis = make_genesis(
            game_id=game_id,
            host=host.public_key,
            difficulty=config.difficulty.value,
            seats=[(holder.name, PublicKey.from_hex(holder.key)) for holder in holders],
            pack_id=pack.id,
            pack_hash=pack.content_hash,
            cards=card_lists(pack),
            timer=config.timer,
        )
        return cls(GameTable.open(host, genesis))

    @classmethod
    def resume(cls, host: Identity, events: Sequence[Event]) -> HostedGame:
        """The game of a saved log, every event checked again."""
        return cls(GameTable.resume(host, events))

    @property
    def game_id(self) -> str:
        return self.game_table.game_id

    @property
    def events(self) -> Sequence[EventObject]:
        return self._values

    @property
    def lines(self) -> Sequence[bytes]:
        return self._lines

    @property
    def event_objects(self) -> tuple[Event, ...]:
        return self.game_table.events

    @property
    def ended(self) -> bool:
        """The game is over: finished, or aborted (``Ledger.ended``).  A Ghost's reveal that
        follows an abort is still taken (and the game archived again with it)."""
        return self.game_table.ledger.ended

    def submit(self, seat: int, action: Mapping[str, Any]) -> Sequence[EventObject]:
        try:
            signed = SignedAction.from_value(dict(action))
        except MalformedEvent as exc:
            raise Refusal(ErrorCode.BAD_ACTION, f"not a well-formed signed action: {exc}") from None
        if signed.seat != seat:
            raise Refusal(
                ErrorCode.NOT_YOUR_SEAT,
                f"you play seat {seat}; an action of seat {signed.seat} is not yours to send",
            )
        try:
            events = self.game_table.submit(signed)
        except Rejected as rejected:
            raise Refusal(self._code(signed, rejected), str(rejected)) from None
        values = [event.value for event in events]
        self._values.extend(values)
        self._lines.extend(event.line for event in events)
        return values

    def restore(
        self, start: int, values: Sequence[Mapping[str, Any]]
    ) -> tuple[Sequence[EventObject], str | None]:
        """Events ``start``, ... handed back by a player after this host's log lost them.

        Those the host holds already must be the very same; each one it lacks must be
        the next event of its history, signed by this host (and its author), as any
        replica checks it.  The events taken back (to persist and publish), and why the
        rest were not (``None``: all were fine).
        """
        taken: list[EventObject] = []
        for offset, value in enumerate(values):
            seq = start + offset
            held = len(self._values)
            try:
                event = Event.from_value(dict(value))
            except MalformedEvent as exc:
                return taken, f"event {seq} handed back is malformed: {exc}"
            if event.seq != seq:
                return taken, f"event {seq} handed back says it is event {event.seq}"
            if seq < held:
                if event.line != self._lines[seq]:
                    return taken, f"event {seq} handed back is not the one this host holds"
                continue
            if seq > held:
                return taken, f"this host holds {held} events: event {seq} does not follow"
            try:
                self.game_table.restore(event)
            except Violation as violation:
                return taken, f"event {seq} handed back does not check out: {violation}"
            taken.append(self._keep(event))
        return taken, None

    @property
    def step(self) -> Step:
        return self.game_table.step

    def abort_stalled(self) -> EventObject | None:
        return self._statement(self.game_table.abort_stalled)  # None: nobody to wait for after all

    @property
    def investigation(self) -> Investigation | None:
        """The investigation the host's sand-glass times now (``rules.due``), if any."""
        state = self.game_table.state
        if self.game_table.step is not Step.PLAY or state is None:
            return None
        now = due(state)
        return now.investigation if now.timed else None

    @property
    def round(self) -> tuple[int, int] | None:
        """The day and stage of the game under way (a séance moves it on)."""
        state = self.game_table.state
        if self.game_table.step is not Step.PLAY or state is None:
            return None
        return state.day, int(state.stage)

    @property
    def timer(self) -> int | None:
        return self.game_table.table_setup.config.timer

    def time_up(self) -> EventObject | None:
        return self._statement(self.game_table.time_up)  # None: the investigation ended by itself

    def _statement(self, make: Callable[[], Event]) -> EventObject | None:
        """A statement the host's clock calls for, or ``None`` when the table no longer needs it."""
        try:
            event = make()
        except HostMisuse:
            return None
        return self._keep(event)

    def check_head(self, seat: int, claim: HeadClaim) -> str | None:
        game_table = self.game_table
        return host_check(
            game_table.events,
            game_table.table_setup.seat_keys,
            game_table.table_setup.game_id,
            seat,
            claim,
        )

    def abort(self, reason: str, seats: Sequence[int] = ()) -> EventObject:
        try:
            event = self.game_table.abort(reason, seats)
        except HostMisuse as exc:
            raise Refusal(ErrorCode.GAME_OVER, str(exc)) from None
        return self._keep(event)

    def _keep(self, event: Event) -> EventObject:
        self._values.append(event.value)
        self._lines.append(event.line)
        return event.value

    def _code(self, signed: SignedAction, rejected: Rejected) -> ErrorCode:
        if (
            rejected.check is Check.PLAYER_SIGNATURES
            and signed.seat in self.game_table.table_setup.seats
            and signed.counter <= self.game_table.last_counter(signed.seat)
            and signed.signature_valid(self.game_table.table_setup.seat_keys[signed.seat])
        ):
            return ErrorCode.REPLAY  # a genuine action of this seat, sent again
        return _CODES.get(rejected.check, ErrorCode.RULE)
