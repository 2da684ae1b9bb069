"""The handshake, sans I/O: from a connection's Welcome to its way in (or out).

Theory of operation
-------------------
:class:`Handshake` takes a connection from HELLO to the door of its table and
decides nothing past it::

    open      Welcome(nonce); the connection caps (``admission.py``): one over
              its address's cap is refused, one over the host's makes the
              oldest connection not yet in give way.
    join      a Join or Watch (its PAKE message): the protocol, the table, the
              name and the address's failures checked -> QUEUED.
    admit     the queued joins whose turn has come (``admission.py``) get the
              host's PAKE reply and confirmation -> CONFIRM.  From here the
              client can tell whether its code was right, so a client that
              then hangs up or times out counts as a wrong code.
    confirm   the client's confirmation and identity proof: an :class:`Entry`
              (the seat it takes or takes back, or a spectator's place), or a
              fatal ``wrong-code`` / ``bad-proof``, counted per address.
    resume    a seat's key signs the nonce: an :class:`Entry` to its seat;
              a key that holds no seat is told so (not fatal: it may join).

``HostSession`` seats (or lets watch) each :class:`Entry` and tells the
handshake (:meth:`Handshake.settled`); until then the connection is under the
handshake's deadline (``handshake_timeout``, :meth:`Handshake.overdue`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final

from domicile_p2p.net.errors import WireError
from domicile_p2p.net.join.auth import proof_holds
from domicile_p2p.net.join.pake import Binding, host_reply
from domicile_p2p.net.sessions.admission import Admission, Opening
from domicile_p2p.net.sessions.connection import Connection, Phase, Refusals
from domicile_p2p.net.sessions.effects import ConnectionId, HostEffect, Log, Send
from domicile_p2p.net.sessions.limits import HostLimits, TokenBucket
from domicile_p2p.net.sessions.room import Refusal, Room, SeatHolder, seat_name_allowed
from domicile_p2p.net.wire import (
    PROTOCOL,
    Confirm,
    Error,
    ErrorCode,
    Join,
    PakeReply,
    Resume,
    Watch,
    Welcome,
)

NONCE_BYTES: Final = 32


@dataclass(frozen=True, slots=True)
class Entry:
    """A connection the handshake let in: to a seat (``seat``), or to watch (``None``)."""

    room: Room
    how: str
    """``join``, ``rejoin``, ``take-over``, ``resume`` or ``watch`` (its log record)."""
    name: str
    have: int
    """How many events of the table's game the client holds already."""
    seat: int | None = None
    displaced: SeatHolder | None = None
    """The bot whose seat a person took (``take-over``)."""


class Handshake:
    """Every connection of one host not yet in (see the module docstring)."""

    def __init__(
        self,
        rooms: Mapping[int, Room],
        fingerprint: bytes,
        limits: HostLimits,
        *,
        nonce: Callable[[int], bytes],
        connections: Mapping[ConnectionId, Connection],
        refusals: Refusals,
    ) -> None:
        self._rooms = rooms
        self.fingerprint = fingerprint
        self.limits = limits
        self._nonce = nonce
        self._connections = connections
        """Every connection of the host (``HostSession``'s): the queued joins are among them."""
        self._refusals = refusals
        self.admission = Admission(limits)
        self._pending: dict[ConnectionId, Connection] = {}
        """Connections not in yet and not closing (under the handshake's deadline)."""

    def deadline(self) -> float | None:
        """When the next handshake runs out of time, or the next queued join's turn comes."""
        pending = [state.opened + self.limits.handshake_timeout for state in self._pending.values()]
        joins_resume = self.admission.turns_resume_at()
        if joins_resume is not None:
            pending.append(joins_resume)
        return min(pending, default=None)

    # ------------------------------------------------------------- a connection's life

    def open(
        self, connection: ConnectionId, remote: str, now: float, *, counted: bool
    ) -> tuple[Connection, list[HostEffect]]:
        """A connection opened: welcomed, or refused (``closing``) by the connection caps."""
        state = Connection(
            id=connection,
            remote=remote,
            nonce=self._nonce(NONCE_BYTES),
            opened=now,
            bucket=TokenBucket(self.limits.message_rate, self.limits.message_burst),
            counted=counted,
        )
        effects: list[HostEffect] = [
            Log("connected", {"connection": connection, "remote": remote}),
        ]
        if counted:
            opening = self.admission.open(remote)
            if opening is Opening.ADDRESS_FULL:
                return state, effects + self._refusals.fatal(
                    state,
                    ErrorCode.RATE_LIMITED,
                    f"too many connections from your address (at most "
                    f"{self.limits.max_per_address} at once)",
                )
            if opening is Opening.HOST_FULL:
                effects += self._shed(state)
                if state.closing:
                    return state, effects
        self._pending[connection] = state
        return state, [*effects, Send(connection, Welcome(PROTOCOL, state.nonce.hex()))]

    def _shed(self, newcomer: Connection) -> list[HostEffect]:
        """The host is at ``max_connections``: the oldest connection not yet seated gives
        way to ``newcomer``; with none, ``newcomer`` is refused."""
        oldest = next((state for state in self._pending.values() if state.counted), None)
        if oldest is None:
            return self._refusals.fatal(
                newcomer, ErrorCode.RATE_LIMITED, "the host has too many connections; try later"
            )
        if oldest.phase is Phase.CONFIRM and oldest.reply is not None:
            self._leave_confirm(oldest, newcomer.opened, failed=True)
        return self._refusals.fatal(
            oldest,
            ErrorCode.RATE_LIMITED,
            "the host has too many connections: the oldest not seated gives way",
        )

    def settled(self, state: Connection) -> None:
        """``state`` is in (seated or watching): no handshake deadline, nothing kept of it."""
        state.join = state.reply = None
        self._pending.pop(state.id, None)

    def forget(self, state: Connection) -> None:
        """``state`` is refused for good: out of the join queue and off the deadline."""
        self._unqueue(state)
        self._pending.pop(state.id, None)

    def closed(self, state: Connection) -> None:
        """``state`` is closing (the host shuts down): off the deadline."""
        self._pending.pop(state.id, None)

    def left(self, state: Connection, now: float) -> list[HostEffect]:
        """``state`` disconnected; a client that left once it could tell its code was
        wrong (after the PAKE) counts as a wrong code."""
        self._pending.pop(state.id, None)
        self._unqueue(state)
        if state.counted:
            self.admission.close(state.remote)
        if state.phase is not Phase.CONFIRM or state.reply is None:
            return []
        self._leave_confirm(state, now, failed=True)
        return [
            Log(
                "refused",
                {
                    "connection": state.id,
                    "remote": state.remote,
                    "table": state.nameplate,
                    "code": ErrorCode.WRONG_CODE.value,
                    "reason": "the client left after the PAKE (a wrong code)",
                    **state.log_fields,
                },
            )
        ]

    def overdue(self, now: float) -> list[HostEffect]:
        """Refuse every connection whose handshake took longer than ``handshake_timeout``."""
        effects: list[HostEffect] = []
        for state in list(self._pending.values()):
            if now - state.opened >= self.limits.handshake_timeout:
                if state.phase is Phase.CONFIRM and state.reply is not None:
                    self._leave_confirm(state, now, failed=True)
                effects += self._refusals.fatal(
                    state, ErrorCode.UNEXPECTED, "the handshake took too long"
                )
        return effects

    # ------------------------------------------------------------- the messages

    def room(self, protocol: int, nameplate: int) -> Room:
        """The table a Join, Watch or Resume names, or :class:`Refusal`."""
        if protocol != PROTOCOL:
            raise Refusal(
                ErrorCode.PROTOCOL_VERSION,
                f"this host speaks protocol {PROTOCOL}, your client {protocol}: update one of them",
            )
        room = self._rooms.get(nameplate)
        if room is None:
            raise Refusal(ErrorCode.UNKNOWN_TABLE, f"this host has no table {nameplate}")
        if room.out_of_order is not None:
            raise Refusal(ErrorCode.UNEXPECTED, out_of_order(room))
        return room

    def join(self, state: Connection, message: Join | Watch, now: float) -> list[HostEffect]:
        """Queue the join (or watch) for its PAKE (:meth:`admit` says when its turn comes).
        A watch is counted and rate-limited exactly as a join: it guesses the code the
        same way."""
        try:
            room = self.room(message.protocol, message.table)
            seat_name_allowed(message.name)
            self._check_rate(state, now)
        except Refusal as refusal:
            return self._refusals.fatal(state, refusal.code, str(refusal))
        refused = self.admission.queue(state.id, state.remote)
        if refused is not None:
            return self._refusals.fatal(state, ErrorCode.RATE_LIMITED, refused)
        state.join, state.nameplate, state.phase = message, room.nameplate, Phase.QUEUED
        return []

    def admit(self, now: float) -> list[HostEffect]:
        """Give the waiting joins whose turn has come their PAKE (``admission.py`` says
        whose, within the per-address and whole-host budgets); refuse the ones from an
        address now over its failures.  A join not admitted waits (the handshake timeout
        bounds how long)."""
        effects: list[HostEffect] = []
        for connection, admitted in self.admission.turns(now, self._queued_from):
            state = self._connections[connection]
            self._unqueue(state)
            if admitted:
                effects += self._pake(state, now)
                continue
            try:
                self._check_rate(state, now)
            except Refusal as refusal:
                effects += self._refusals.fatal(state, refusal.code, str(refusal))
        return effects

    def confirm(self, state: Connection, message: Confirm, now: float) -> Entry | list[HostEffect]:
        """The client's confirmation and identity proof: its way in, or its refusal."""
        join, reply = state.join, state.reply
        assert join is not None and reply is not None and state.nameplate is not None
        room = self._rooms[state.nameplate]
        key = bytes.fromhex(join.key)
        confirmed = reply.client_confirmed(bytes.fromhex(message.mac))
        proved = confirmed and proof_holds(
            key, bytes.fromhex(message.proof), state.nonce, self.fingerprint, room.nameplate
        )
        self._leave_confirm(state, now, failed=not proved)
        try:
            if not confirmed:
                raise Refusal(ErrorCode.WRONG_CODE, "wrong table code")
            if not proved:
                raise Refusal(ErrorCode.BAD_PROOF, "the identity proof does not verify")
            if isinstance(join, Watch):
                return Entry(room, "watch", join.name, join.have)
            seat = room.seat_of(join.key)
            taken_back = seat is not None
            displaced = None
            if seat is None:
                seating = room.take_seat(join.key, join.name, join.role, join.seat, bot=join.bot)
                seat, displaced = seating.seat, seating.displaced
        except Refusal as refusal:
            return self._refusals.fatal(state, refusal.code, str(refusal))
        how = "rejoin" if taken_back else "take-over" if displaced is not None else "join"
        return Entry(room, how, join.name, join.have, seat, displaced)

    def resume(self, state: Connection, message: Resume, now: float) -> Entry | list[HostEffect]:
        """A seat's key proves itself on this connection's nonce: its way back to the seat."""
        try:
            room = self.room(message.protocol, message.table)
            self._check_rate(state, now)
            if not proof_holds(
                bytes.fromhex(message.key),
                bytes.fromhex(message.proof),
                state.nonce,
                self.fingerprint,
                room.nameplate,
            ):
                raise self._failed(
                    state, now, ErrorCode.BAD_PROOF, "the identity proof does not verify"
                )
        except Refusal as refusal:
            return self._refusals.fatal(state, refusal.code, str(refusal))
        seat = room.seat_of(message.key)
        if seat is None:
            # Not fatal: a client that still has the code may join instead, on this connection.
            return [
                Log("resume-refused", {"connection": state.id, "table": room.nameplate}),
                Send(
                    state.id,
                    Error(ErrorCode.NOT_SEATED, "your key holds no seat at this table"),
                ),
            ]
        return Entry(room, "resume", room.holders[seat].name, message.have, seat)

    # ------------------------------------------------------------- the steps

    def _check_rate(self, state: Connection, now: float) -> None:
        wait = self.admission.retry_after(state.remote, now)
        if wait is not None:
            raise Refusal(
                ErrorCode.RATE_LIMITED,
                f"too many failed attempts from your address; try again in {int(wait) + 1} s",
            )

    def _failed(self, state: Connection, now: float, code: ErrorCode, message: str) -> Refusal:
        count = self.admission.record_failure(state.remote, now)
        state.log_fields["failures"] = count
        return Refusal(code, message)

    def _unqueue(self, state: Connection) -> None:
        """``state`` no longer waits for its PAKE (its turn came, or it is gone)."""
        if state.phase is not Phase.QUEUED:
            return
        state.phase = Phase.HELLO
        self.admission.unqueue(state.remote)

    def _queued_from(self, connection: ConnectionId) -> str | None:
        """The remote of ``connection`` while its join waits its turn."""
        state = self._connections.get(connection)
        return state.remote if state is not None and state.phase is Phase.QUEUED else None

    def _pake(self, state: Connection, now: float) -> list[HostEffect]:
        """The host's half of the PAKE for a join whose turn has come."""
        message, nameplate = state.join, state.nameplate
        assert message is not None and nameplate is not None
        room = self._rooms[nameplate]
        binding = Binding(room.nameplate, self.fingerprint, bytes.fromhex(message.key), state.nonce)
        try:
            reply = host_reply(room.config.code, binding, bytes.fromhex(message.pake))
        except WireError as exc:
            # As costly as a wrong code, and as telling: it counts as a failure.
            state.join = state.nameplate = None
            state.log_fields["failures"] = self.admission.record_failure(state.remote, now)
            return self._refusals.bad(state, ErrorCode(exc.code), str(exc))
        # From here the client can tell from our confirmation whether its code was right.
        # A client that then hangs up (or times out) is counted as a wrong code.
        self.admission.guessing(state.remote)
        state.reply, state.phase = reply, Phase.CONFIRM
        return [Send(state.id, PakeReply(reply.message.hex(), reply.mac.hex()))]

    def _leave_confirm(self, state: Connection, now: float, *, failed: bool) -> None:
        """The connection is past its PAKE (confirmed, refused, or gone)."""
        failures = self.admission.guessed(state.remote, now, failed=failed)
        state.reply = None
        if failures is not None:
            state.log_fields["failures"] = failures


def out_of_order(room: Room) -> str:
    """What a player of a table set aside (``Room.out_of_order``) is told."""
    return f"the host {room.out_of_order}; tell the host's operator"
