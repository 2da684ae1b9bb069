"""The host's side of the protocol, sans I/O: connections in, effects out.

Theory of operation
-------------------
:class:`HostSession` is the whole host minus its sockets, files and clock.
The asyncio adapter (``adapters/server.py``) tells it what happened and carries out
what it returns, in order::

    admits(remote, now)                may a connection from there open? (asked at accept)
    connect(conn, remote, now)         a TLS websocket connection opened
    receive(conn, message, now)        a frame decoded into a wire message
    reject_frame(conn, error, now)     a frame the codec refused (WireError)
    disconnect(conn, now)              the connection is gone
    tick(now)                          time passed (handshake, lobby, setup, sand-glass deadlines)
    start_table(table, now)            the host's owner says start (a call, not a message)
    next_game(table, now)              the host opens the lobby of a table's next game
    rotate_seats(table, now)           the host's owner moves everyone round one seat

Each returns a list of effects (``effects.py``): messages to send, connections
to close, events to persist (fsync-ed *before* any later send), adverts to
refresh, finished games to archive, and log records.  Nothing else happens:
the same inputs always give the same outputs, which is what the fake-link
tests rely on.

A connection goes through these phases::

    HELLO     the host sent Welcome(nonce).  The client sends Join or Watch
              (with its PAKE message) -> QUEUED, or Resume (signature over
              the nonce) -> SEATED.
    QUEUED    the join waits its turn for the PAKE (``admission.py``: the
              address's guesses and the host's join rate) -> CONFIRM.
    CONFIRM   the host sent its PAKE reply and confirmation.  The client's
              Confirm carries its confirmation and its identity proof
              -> SEATED (a Join) or WATCHING (a Watch), or a fatal error
              (wrong code, counted per address).
    SEATED    the connection plays one seat: Act, Fetch, and Head (its signed
              chain head, relayed to the table: ``guards/heads.py``); in the
              lobby of a table's next game, Ready; Restore, when it holds
              events of the game the host's log lost (see below).
    WATCHING  a spectator: no seat.  It gets what the seats get (the lobby,
              every event, the relayed heads) and may Fetch; an Act, a Head or
              a Ready is refused (``spectator``) and counts as a refused message.

A spectator knows the code (the same PAKE as a player's) but holds no key the
transcript knows, so it can never act.  The events it gets are the ones every
seat gets, and those hold no secret before the Ghost's reveal by construction
(the commitments are salted): watching needs no secret-handling of its own.
At most ``max_spectators`` watch one table; the one more is refused
(``spectators-full``), and every spectator counts against the connection caps
like any other connection.

A table's game begins when its room says so (``room.py``: every seat held,
the owner's start, or the lobby wait over).  In the lobby a person may take
the seat of one of the host's bots: the bot's connection gets ``taken-over``
(fatal) and the bot steps aside.  No client message can start a game: only
the host's owner can, through :meth:`HostSession.start_table`.

A table outlives its game: :meth:`HostSession.next_game` opens the lobby of
its next one (a rematch, ``room.py``).  Every connection still seated stays,
and is told with a new ``Seated`` (its table's ``game`` one higher, no
events yet); the next genesis starts a new transcript.  Nothing starts that
lobby's game until every seat is ready (``Ready``, a client message; bots
always are) and the table's rule says so; but nobody can stall it: the
owner's start goes without the people not ready, and ``ready_timeout``
seconds after the lobby opened their seats are freed (each told why, with
a fatal ``game-started``).

A host whose log lost events (rolled back between runs) learns it from the
first peer that comes back holding more (its ``have``): it logs
``log-behind``, and the peer hands the lost events back (``Restore``).  Each
was signed by this host (and its author), so the game's table checks each as
a replica would and takes it as its next event; nothing else can be added.

The host's parts, each sans I/O with its own tests: ``admission.py`` (connection
caps, shedding, the join queue, PAKE failure counts), ``audience.py`` (who holds
each seat and who watches), ``chat.py`` (chat budgets), ``lobby_clocks.py`` (the
lobbies' wait and ready clocks),
``room.py`` (a table's seats and lobby), ``game.py`` (its game), ``guards/``
(deadlines and cross-checks).  This module keeps the connections' phases and
turns the parts' answers into effects.

Whatever a connection sends, the worst it can do is lose its own
connection: a frame the codec refuses, a message at the wrong moment or an
action the table refuses gets a typed :class:`~domicile_p2p.net.wire.Error`
and changes nothing; too many of those, a flood or a handshake that does
not finish in time get a fatal one and a close.  Every other connection
and every table carry on, and every refusal is logged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Final

from domicile_p2p.net.errors import WireError
from domicile_p2p.net.join.auth import proof_holds
from domicile_p2p.net.join.pake import Binding, HostReply, host_reply
from domicile_p2p.net.sessions.admission import Admission, Opening
from domicile_p2p.net.sessions.audience import Audience
from domicile_p2p.net.sessions.chat import ChatBudgets, chat_text
from domicile_p2p.net.sessions.effects import (
    Close,
    ConnectionId,
    GameFinished,
    HostEffect,
    Log,
    Persist,
    Send,
    TableChanged,
)
from domicile_p2p.net.sessions.guards.heads import HeadClaim
from domicile_p2p.net.sessions.guards.sandglass import SandGlass
from domicile_p2p.net.sessions.guards.setup import SetupWatch

# HostLimits lives with the other limits; adapters and tests import it from here too.
from domicile_p2p.net.sessions.limits import HostLimits as HostLimits
from domicile_p2p.net.sessions.limits import TokenBucket
from domicile_p2p.net.sessions.lobby_clocks import LobbyClocks
from domicile_p2p.net.sessions.room import (
    EventObject,
    Refusal,
    Room,
    SeatHolder,
    seat_name_allowed,
)
from domicile_p2p.net.wire import (
    PROTOCOL,
    Act,
    ClientMessage,
    Confirm,
    Error,
    ErrorCode,
    Fetch,
    Head,
    Join,
    PakeReply,
    PeerHead,
    Ready,
    Restore,
    Resume,
    Seated,
    Starts,
    Watch,
    Watching,
    Welcome,
    event_frames,
)

CLOSE_NORMAL: Final = 1000
CLOSE_GOING_AWAY: Final = 1001
CLOSE_POLICY: Final = 1008
NONCE_BYTES: Final = 32


class _Phase(Enum):
    HELLO = "hello"
    QUEUED = "queued"  # a join waiting its turn for the PAKE (per address, or the host's rate)
    CONFIRM = "confirm"
    SEATED = "seated"
    WATCHING = "watching"  # a spectator: no seat, the table's public events only


@dataclass(slots=True)
class _Connection:
    id: ConnectionId
    remote: str
    nonce: bytes
    opened: float
    bucket: TokenBucket
    phase: _Phase = _Phase.HELLO
    bad_frames: int = 0
    join: Join | Watch | None = None
    reply: HostReply | None = None
    table: int | None = None
    seat: int | None = None
    closing: bool = False
    counted: bool = True
    """A network connection (it holds a descriptor): counted against the connection caps."""
    log_fields: dict[str, Any] = field(default_factory=dict)


class HostSession:
    """Every table of one host and every connection to it (see the module docstring)."""

    def __init__(
        self,
        rooms: Iterable[Room],
        fingerprint: bytes,
        *,
        limits: HostLimits | None = None,
        nonce: Callable[[int], bytes],
    ) -> None:
        self.rooms: dict[int, Room] = {room.nameplate: room for room in rooms}
        self.fingerprint = fingerprint
        self.limits = limits or HostLimits()
        self._nonce = nonce
        self._connections: dict[ConnectionId, _Connection] = {}
        self._at_table = Audience(self.rooms)
        """Who holds each seat and who watches, per table (``audience.py``)."""
        self._handshaking: dict[ConnectionId, _Connection] = {}
        """Connections not seated yet and not closing (the handshake deadline's)."""
        self._lobby_clocks = LobbyClocks(self.rooms.values(), self.limits.ready_timeout)
        self._told_behind: set[tuple[int, str]] = set()
        """(table, game id) whose log a returning peer showed to be behind (logged once)."""
        self._published: set[int] = {
            nameplate for nameplate, room in self.rooms.items() if room.game is not None
        }
        """Tables with new events since the setup watch last looked (a resumed game too)."""
        self._admission = Admission(self.limits)
        self._setup = SetupWatch(self.limits.setup_timeout)
        self._sand_glass = SandGlass()
        self._chat = ChatBudgets(self.limits)

    # ------------------------------------------------------------- queries

    def connected_seats(self, table: int) -> set[int]:
        return self._at_table.seats(table)

    def spectators(self, table: int) -> int:
        """How many connections watch ``table`` now."""
        return len(self._at_table.spectators(table))

    def authenticated(self, connection: ConnectionId) -> bool:
        """Whether ``connection`` has proven the code (seated or watching) or its seat's key."""
        state = self._connections.get(connection)
        return state is not None and state.phase in (_Phase.SEATED, _Phase.WATCHING)

    def next_deadline(self) -> float | None:
        pending = [
            state.opened + self.limits.handshake_timeout for state in self._handshaking.values()
        ]
        joins_resume = self._admission.turns_resume_at()
        for clock in (self._setup.deadline(), self._sand_glass.deadline(), joins_resume):
            if clock is not None:
                pending.append(clock)
        pending += self._lobby_clocks.deadlines()
        return min(pending, default=None)

    # ------------------------------------------------------------- inputs

    def admits(self, remote: str, now: float) -> bool:
        """Whether a network connection from ``remote`` may open now (``connection_rate``).

        Asked before :meth:`connect`, when the socket is accepted and before anything is
        read from it: a refused one is closed there and never reaches the session.
        """
        return self._admission.admits(remote, now)

    def connect(
        self, connection: ConnectionId, remote: str, now: float, *, counted: bool = True
    ) -> list[HostEffect]:
        """A connection opened; ``counted=False`` for an in-process one (no descriptor)."""
        state = _Connection(
            id=connection,
            remote=remote,
            nonce=self._nonce(NONCE_BYTES),
            opened=now,
            bucket=TokenBucket(self.limits.message_rate, self.limits.message_burst),
            counted=counted,
        )
        self._connections[connection] = state
        effects: list[HostEffect] = [
            Log("connected", {"connection": connection, "remote": remote}),
        ]
        if counted:
            opening = self._admission.open(remote)
            if opening is Opening.ADDRESS_FULL:
                return effects + self._fatal(
                    state,
                    ErrorCode.RATE_LIMITED,
                    f"too many connections from your address (at most "
                    f"{self.limits.max_per_address} at once)",
                )
            if opening is Opening.HOST_FULL:
                effects += self._shed(state)
                if state.closing:
                    return effects
        self._handshaking[connection] = state
        return [
            *effects,
            Send(connection, Welcome(PROTOCOL, state.nonce.hex())),
            *self._watch_lobbies(now),
        ]

    def _shed(self, newcomer: _Connection) -> list[HostEffect]:
        """The host is at ``max_connections``: the oldest connection not yet seated gives
        way to ``newcomer``; with none, ``newcomer`` is refused."""
        oldest = next((state for state in self._handshaking.values() if state.counted), None)
        if oldest is None:
            return self._fatal(
                newcomer, ErrorCode.RATE_LIMITED, "the host has too many connections; try later"
            )
        if oldest.phase is _Phase.CONFIRM and oldest.reply is not None:
            self._leave_confirm(oldest, newcomer.opened, failed=True)
        return self._fatal(
            oldest,
            ErrorCode.RATE_LIMITED,
            "the host has too many connections: the oldest not seated gives way",
        )

    def receive(
        self, connection: ConnectionId, message: ClientMessage, now: float
    ) -> list[HostEffect]:
        effects = self._receive(connection, message, now)
        return effects + self._admit_joins(now) + self._watch_lobbies(now) + self._watch_setup(now)

    def _receive(
        self, connection: ConnectionId, message: ClientMessage, now: float
    ) -> list[HostEffect]:
        state = self._connections.get(connection)
        if state is None or state.closing:
            return []
        cost = self.limits.fetch_cost if isinstance(message, Fetch) else 1.0
        if not state.bucket.allow(now, cost):
            return self._fatal(state, ErrorCode.FLOOD, "too many messages; slow down")
        try:
            match message:
                case Join() | Watch() if state.phase is _Phase.HELLO:
                    return self._join(state, message, now)
                case Confirm() if state.phase is _Phase.CONFIRM:
                    return self._confirm(state, message, now)
                case Resume() if state.phase is _Phase.HELLO:
                    return self._resume(state, message, now)
                case Act() if state.phase is _Phase.SEATED:
                    return self._act(state, message, now)
                case Fetch() if state.phase in (_Phase.SEATED, _Phase.WATCHING):
                    return self._fetch(state, message)
                case Head() if state.phase is _Phase.SEATED:
                    return self._head(state, message)
                case Restore() if state.phase in (_Phase.SEATED, _Phase.WATCHING):
                    return self._restore(state, message)
                case Act() | Head() | Ready() if state.phase is _Phase.WATCHING:
                    return self._bad(
                        state,
                        ErrorCode.SPECTATOR,
                        f"a spectator holds no seat: it cannot {_SEATS_ONLY[type(message)]}",
                    )
                case Ready() if state.phase is _Phase.SEATED:
                    return self._ready(state, message, now)
                case _:
                    return self._bad(
                        state,
                        ErrorCode.UNEXPECTED,
                        f"a {type(message).__name__.lower()} message is not expected now "
                        f"({state.phase.value})",
                    )
        except WireError as exc:
            return self._bad(state, ErrorCode(exc.code), str(exc))
        except Exception as exc:  # a bug: contained to this connection's table
            room = None if state.table is None else self.rooms.get(state.table)
            if room is not None and state.phase in (_Phase.SEATED, _Phase.WATCHING):
                return self._set_aside(room, f"handle a {type(message).__name__.lower()}", exc)
            return [
                Log(
                    "host-error", {"connection": state.id, "error": f"{type(exc).__name__}: {exc}"}
                ),
                *self._fatal(state, ErrorCode.UNEXPECTED, "the host failed on this message"),
            ]

    def reject_frame(
        self, connection: ConnectionId, error: WireError, now: float
    ) -> list[HostEffect]:
        state = self._connections.get(connection)
        if state is None or state.closing:
            return []
        if not state.bucket.allow(now):
            return self._fatal(state, ErrorCode.FLOOD, "too many messages; slow down")
        return self._bad(state, ErrorCode(error.code), str(error))

    def disconnect(self, connection: ConnectionId, now: float) -> list[HostEffect]:
        state = self._connections.pop(connection, None)
        if state is None:
            return []
        self._handshaking.pop(connection, None)
        self._unqueue(state)
        if state.counted:
            self._admission.close(state.remote)
        effects: list[HostEffect] = [Log("disconnected", {"connection": connection})]
        if state.phase is _Phase.CONFIRM and state.reply is not None:
            # The client saw our confirmation and hung up: its code was wrong.
            self._leave_confirm(state, now, failed=True)
            effects.append(
                Log(
                    "refused",
                    {
                        "connection": connection,
                        "remote": state.remote,
                        "table": state.table,
                        "code": ErrorCode.WRONG_CODE.value,
                        "reason": "the client left after the PAKE (a wrong code)",
                        **state.log_fields,
                    },
                )
            )
        effects += self._admit_joins(now)
        if state.phase is _Phase.WATCHING and state.table is not None:
            self._at_table.stop_watching(state.table, connection)
            effects.append(Log("stopped-watching", {"table": state.table}))
            return effects
        if state.table is None or state.seat is None:
            return effects
        if not self._at_table.leave(state.table, state.seat, connection):
            return effects  # superseded earlier: the seat is someone else's connection now
        room = self.rooms[state.table]
        released = room.release(state.seat)
        effects.append(
            Log(
                "leave",
                {"table": state.table, "seat": state.seat, "seat_released": released},
            )
        )
        effects.extend(self._lobby_broadcast(room))
        effects.append(TableChanged(room.nameplate))
        return effects

    def tick(self, now: float) -> list[HostEffect]:
        effects: list[HostEffect] = []
        for state in list(self._handshaking.values()):
            if now - state.opened >= self.limits.handshake_timeout:
                if state.phase is _Phase.CONFIRM and state.reply is not None:
                    self._leave_confirm(state, now, failed=True)
                effects += self._fatal(state, ErrorCode.UNEXPECTED, "the handshake took too long")
        effects += self._admit_joins(now)
        return effects + self._watch_lobbies(now) + self._watch_setup(now)

    def shutdown(self) -> list[HostEffect]:
        """Tell every connection the host is going away (they will come back after a restart)."""
        effects: list[HostEffect] = []
        for state in list(self._connections.values()):
            if not state.closing:
                state.closing = True
                self._handshaking.pop(state.id, None)
                effects.append(
                    Send(state.id, Error(ErrorCode.SHUTTING_DOWN, "the host is shutting down"))
                )
                effects.append(Close(state.id, CLOSE_GOING_AWAY, "host shutting down"))
        return effects

    # ------------------------------------------------------------- handshake

    def _room(self, state: _Connection, protocol: int, table: int) -> Room:
        if protocol != PROTOCOL:
            raise Refusal(
                ErrorCode.PROTOCOL_VERSION,
                f"this host speaks protocol {PROTOCOL}, your client {protocol}: update one of them",
            )
        room = self.rooms.get(table)
        if room is None:
            raise Refusal(ErrorCode.UNKNOWN_TABLE, f"this host has no table {table}")
        if room.out_of_order is not None:
            raise Refusal(ErrorCode.UNEXPECTED, _out_of_order(room))
        return room

    def _check_rate(self, state: _Connection, now: float) -> None:
        wait = self._admission.retry_after(state.remote, now)
        if wait is not None:
            raise Refusal(
                ErrorCode.RATE_LIMITED,
                f"too many failed attempts from your address; try again in {int(wait) + 1} s",
            )

    def _failed(self, state: _Connection, now: float, code: ErrorCode, message: str) -> Refusal:
        count = self._admission.record_failure(state.remote, now)
        state.log_fields["failures"] = count
        return Refusal(code, message)

    def _join(self, state: _Connection, message: Join | Watch, now: float) -> list[HostEffect]:
        """Queue the join (or watch) for its PAKE (:meth:`_admit_joins` says when its turn
        comes).  A watch is counted and rate-limited exactly as a join: it guesses the code
        the same way."""
        try:
            room = self._room(state, message.protocol, message.table)
            seat_name_allowed(message.name)
            self._check_rate(state, now)
        except Refusal as refusal:
            return self._fatal(state, refusal.code, str(refusal))
        refused = self._admission.queue(state.id, state.remote)
        if refused is not None:
            return self._fatal(state, ErrorCode.RATE_LIMITED, refused)
        state.join, state.table, state.phase = message, room.nameplate, _Phase.QUEUED
        return []

    def _unqueue(self, state: _Connection) -> None:
        """``state`` no longer waits for its PAKE (its turn came, or it is gone)."""
        if state.phase is not _Phase.QUEUED:
            return
        state.phase = _Phase.HELLO
        self._admission.unqueue(state.remote)

    def _admit_joins(self, now: float) -> list[HostEffect]:
        """Give the waiting joins whose turn has come their PAKE (``admission.py`` says
        whose, within the per-address and whole-host budgets); refuse the ones from an
        address now over its failures.  A join not admitted waits (the handshake timeout
        bounds how long)."""
        effects: list[HostEffect] = []
        for connection, admitted in self._admission.turns(now, self._queued_from):
            state = self._connections[connection]
            self._unqueue(state)
            if admitted:
                effects += self._pake(state, now)
                continue
            try:
                self._check_rate(state, now)
            except Refusal as refusal:
                effects += self._fatal(state, refusal.code, str(refusal))
        return effects

    def _queued_from(self, connection: ConnectionId) -> str | None:
        """The remote of ``connection`` while its join waits its turn."""
        state = self._connections.get(connection)
        return state.remote if state is not None and state.phase is _Phase.QUEUED else None

    def _pake(self, state: _Connection, now: float) -> list[HostEffect]:
        """The host's half of the PAKE for a join whose turn has come."""
        message, table = state.join, state.table
        assert message is not None and table is not None
        room = self.rooms[table]
        binding = Binding(room.nameplate, self.fingerprint, bytes.fromhex(message.key), state.nonce)
        try:
            reply = host_reply(room.config.code, binding, bytes.fromhex(message.pake))
        except WireError as exc:
            # As costly as a wrong code, and as telling: it counts as a failure.
            state.join = state.table = None
            state.log_fields["failures"] = self._admission.record_failure(state.remote, now)
            return self._bad(state, ErrorCode(exc.code), str(exc))
        # From here the client can tell from our confirmation whether its code was right.
        # A client that then hangs up (or times out) is counted as a wrong code.
        self._admission.guessing(state.remote)
        state.reply, state.phase = reply, _Phase.CONFIRM
        return [Send(state.id, PakeReply(reply.message.hex(), reply.mac.hex()))]

    def _leave_confirm(self, state: _Connection, now: float, *, failed: bool) -> None:
        """The connection is past its PAKE (confirmed, refused, or gone)."""
        failures = self._admission.guessed(state.remote, now, failed=failed)
        state.reply = None
        if failures is not None:
            state.log_fields["failures"] = failures

    def _confirm(self, state: _Connection, message: Confirm, now: float) -> list[HostEffect]:
        join, reply = state.join, state.reply
        assert join is not None and reply is not None and state.table is not None
        room = self.rooms[state.table]
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
                return self._spectate(state, room, join, now)
            seat = room.seat_of(join.key)
            taken_back = seat is not None
            displaced = None
            if seat is None:
                seating = room.take_seat(join.key, join.name, join.role, join.seat, bot=join.bot)
                seat, displaced = seating.seat, seating.displaced
        except Refusal as refusal:
            return self._fatal(state, refusal.code, str(refusal))
        how = "rejoin" if taken_back else "take-over" if displaced is not None else "join"
        return self._sit(state, room, seat, join.have, how, join.name, now, displaced)

    def _resume(self, state: _Connection, message: Resume, now: float) -> list[HostEffect]:
        try:
            room = self._room(state, message.protocol, message.table)
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
            return self._fatal(state, refusal.code, str(refusal))
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
        holder = room.holders[seat]
        return self._sit(state, room, seat, message.have, "resume", holder.name, now)

    def _sit(
        self,
        state: _Connection,
        room: Room,
        seat: int,
        have: int,
        how: str,
        name: str,
        now: float,
        displaced: SeatHolder | None = None,
    ) -> list[HostEffect]:
        effects: list[HostEffect] = []
        previous = self._at_table.holder(room.nameplate, seat)
        if previous is not None and previous != state.id:
            old = self._connections.get(previous)
            if old is not None:
                old.table = old.seat = None
                if displaced is not None:
                    effects += self._fatal(
                        old, ErrorCode.TAKEN_OVER, f"{name} has taken this seat from its bot"
                    )
                else:
                    effects += self._fatal(
                        old, ErrorCode.SUPERSEDED, "you connected again from somewhere else"
                    )
        state.phase, state.table, state.seat = _Phase.SEATED, room.nameplate, seat
        state.join = state.reply = None
        self._handshaking.pop(state.id, None)
        self._at_table.sit(room.nameplate, seat, state.id)
        events = room.game.events if room.game is not None else ()
        effects.append(
            Log(
                how,
                {
                    "connection": state.id,
                    "remote": state.remote,
                    "table": room.nameplate,
                    "seat": seat,
                    "name": name,
                },
            )
        )
        effects += self._behind(room, state, have, seat)
        effects.append(Send(state.id, Seated(room.nameplate, seat, len(events), room.games)))
        start = min(have, len(events))
        effects += [Send(state.id, frame) for frame in event_frames(start, events[start:])]
        effects += self._lobby_broadcast(room)
        effects.append(TableChanged(room.nameplate))
        if room.may_start(now):
            effects += self._begin(room)
        return effects

    def _spectate(
        self, state: _Connection, room: Room, watch: Watch, now: float
    ) -> list[HostEffect]:
        """A spectator proved the code: it watches, or is refused when the table has enough."""
        watching = len(self._at_table.spectators(room.nameplate))
        if watching >= self.limits.max_spectators:
            raise Refusal(
                ErrorCode.SPECTATORS_FULL,
                f"{watching} people already watch this table (at most "
                f"{self.limits.max_spectators}); try again when one leaves",
            )
        state.phase, state.table = _Phase.WATCHING, room.nameplate
        state.join = state.reply = None
        self._handshaking.pop(state.id, None)
        watching = self._at_table.watch(room.nameplate, state.id, watch.name)
        events = room.game.events if room.game is not None else ()
        start = min(watch.have, len(events))
        return [
            *self._behind(room, state, watch.have, None),
            Log(
                "watch",
                {
                    "connection": state.id,
                    "remote": state.remote,
                    "table": room.nameplate,
                    "name": watch.name,
                    "spectators": watching,
                },
            ),
            Send(state.id, Watching(room.nameplate, len(events), room.games)),
            *(Send(state.id, frame) for frame in event_frames(start, events[start:])),
            Send(
                state.id,
                room.lobby(self.connected_seats(room.nameplate), self.limits.ready_timeout),
            ),
        ]

    # ------------------------------------------------------------- the start

    def start_table(self, table: int, now: float, *, owner: int | None = None) -> list[HostEffect]:
        """The host's owner says start: the game begins as soon as every seat is held.

        Seats still held by bots are played by those bots.  In the lobby of a next game
        the people not ready lose their seats (told why; the host fills them as it
        fills any empty seat); the ``owner``'s own seat counts as ready (its start says
        so).  :class:`Refusal` for an unknown table or one whose game has started.
        """
        room = self._room_named(table)
        room.request_start()
        if owner is not None and owner in room.holders and room.games > 1:
            room.set_ready(owner, True)
        effects: list[HostEffect] = [
            Log("start-requested", {"table": table, "seats_free": room.seats_free})
        ]
        effects += self._unseat_not_ready(room, "the host's owner started the game without you")
        if room.may_start(now):
            effects += self._begin(room)
        return effects + self._watch_setup(now)

    def next_game(self, table: int, now: float) -> list[HostEffect]:
        """Open the lobby of table ``table``'s next game, once its game is over (a rematch).

        Everyone still connected keeps their seat and gets ``Seated`` for the next game;
        the seats of those who left are free.  :class:`Refusal` for an unknown table
        or one whose game is not over.
        """
        room = self._room_named(table)
        previous = room.game.game_id if room.game is not None else None
        freed = room.next_game(self.connected_seats(table))
        if room.starts is Starts.WAIT:
            self._lobby_clocks.wait(room)
        room.open_lobby(now)
        self._lobby_clocks.ready_clock(room, now)
        self._published.add(table)
        effects: list[HostEffect] = [
            Log(
                "next-game",
                {"table": table, "game": room.games, "previous": previous, "freed": freed},
            )
        ]
        # Every spectator stays and watches the next game too, from its lobby (each game
        # a transcript of its own, from its genesis), before anything of it is sent.
        effects += [
            Send(connection, Watching(table, 0, room.games))
            for connection in self._at_table.spectators(table)
        ]
        return effects + self._seats_moved(room, now) + self._watch_setup(now)

    def rotate_seats(self, table: int, now: float) -> list[HostEffect]:
        """The host's owner moves everyone round one seat in a lobby (the next Ghost is the
        next seat's player).  :class:`Refusal` for an unknown table or a game under way."""
        room = self._room_named(table)
        moved = room.rotate()
        self._at_table.move(table, moved)
        for connection in self._at_table.seated(table):
            state = self._connections.get(connection)
            if state is not None and state.seat is not None:
                state.seat = moved[state.seat]
        if room.games > 1:
            # Nobody is ready after a rotation: a new deadline.
            self._lobby_clocks.ready_clock(room, now)
        effects: list[HostEffect] = [Log("seats-rotated", {"table": table})]
        return effects + self._seats_moved(room, now) + self._watch_setup(now)

    def _room_named(self, table: int) -> Room:
        room = self.rooms.get(table)
        if room is None:
            raise Refusal(ErrorCode.UNKNOWN_TABLE, f"this host has no table {table}")
        return room

    def _seats_moved(self, room: Room, now: float) -> list[HostEffect]:
        """Tell every seated connection where it sits now, in the lobby of ``room``'s game."""
        effects: list[HostEffect] = [
            Send(connection, Seated(room.nameplate, seat, 0, room.games))
            for seat, connection in self._at_table.holders(room.nameplate)
        ]
        effects += self._lobby_broadcast(room)
        effects.append(TableChanged(room.nameplate))
        if room.may_start(now):
            effects += self._begin(room)
        return effects

    def _ready(self, state: _Connection, message: Ready, now: float) -> list[HostEffect]:
        assert state.table is not None and state.seat is not None
        room = self.rooms[state.table]
        try:
            room.set_ready(state.seat, message.ready)
        except Refusal as refusal:
            return self._bad(state, refusal.code, str(refusal))
        state.bad_frames = 0
        effects: list[HostEffect] = [
            Log("ready", {"table": room.nameplate, "seat": state.seat, "ready": message.ready})
        ]
        effects += self._lobby_broadcast(room)
        if room.may_start(now):
            effects += self._begin(room)
        return effects

    def _watch_lobbies(self, now: float) -> list[HostEffect]:
        """Open every lobby's clock (at the first input); start the ``wait`` tables now due.

        Per input this looks only at the ``wait`` lobbies: a table of any other rule
        starts when its seats change (``_sit``) or its owner says so (``start_table``).
        """
        self._lobby_clocks.open(now)
        effects: list[HostEffect] = []
        for room in self._lobby_clocks.ready_over(now):
            timeout = self.limits.ready_timeout
            effects += self._unseat_not_ready(
                room, f"you were not ready within {timeout:g} s: your seat is free"
            )
            if room.may_start(now):
                effects += self._begin(room)
        for room in self._lobby_clocks.waiting():
            if room.may_start(now):
                effects += self._begin(room)
        return effects

    def _unseat_not_ready(self, room: Room, why: str) -> list[HostEffect]:
        """Free the seat of every person not ready in the lobby of ``room``'s next game (the
        owner starts without them, or their time ran out).  Each is told why, with
        ``game-started`` (fatal): the seats are being fixed without them, and they may
        watch the game instead (their client offers it) or go."""
        if room.game is not None or room.games == 1:
            return []
        effects: list[HostEffect] = []
        for seat in room.not_ready():
            holder = room.holders[seat]
            room.release(seat)
            effects.append(
                Log(
                    "unseated",
                    {"table": room.nameplate, "seat": seat, "name": holder.name, "reason": why},
                )
            )
            connection = self._at_table.unseat(room.nameplate, seat)
            state = None if connection is None else self._connections.get(connection)
            if state is not None and not state.closing:
                state.table = state.seat = None
                effects += self._fatal(
                    state, ErrorCode.GAME_STARTED, f"{why} (you were not ready); you may watch it"
                )
        if effects:
            effects += self._lobby_broadcast(room)
            effects.append(TableChanged(room.nameplate))
        return effects

    # ------------------------------------------------------------- play

    def _begin(self, room: Room) -> list[HostEffect]:
        try:
            events = room.start()
        except Exception as exc:  # a bug: nothing a guest sends makes a start fail
            return self._set_aside(room, "start", exc)
        assert room.game is not None
        self._lobby_clocks.stop(room.nameplate)
        effects: list[HostEffect] = [
            Log(
                "game-started",
                {"table": room.nameplate, "game_id": room.game.game_id, "name": room.config.name},
            ),
        ]
        return effects + self._publish(room, 0, events, lobby_changed=True)

    def _act(self, state: _Connection, message: Act, now: float) -> list[HostEffect]:
        assert state.table is not None and state.seat is not None
        room = self.rooms[state.table]
        if room.game is None:
            return self._bad(state, ErrorCode.UNEXPECTED, "the game has not begun yet")
        game_id = room.game.game_id
        chat = chat_text(message.action)
        if chat is not None:
            over = self._chat.refusal(room.nameplate, state.seat, game_id, chat, now)
            if over is not None:
                return self._bad(state, ErrorCode.CHAT_LIMIT, over)
        start = len(room.game.events)
        try:
            events = room.game.submit(state.seat, message.action)
        except Refusal as refusal:
            return self._bad(state, refusal.code, str(refusal))
        state.bad_frames = 0
        if chat is not None:
            self._chat.spend(room.nameplate, state.seat, game_id, chat)
        return self._publish(room, start, events, lobby_changed=False)

    def _head(self, state: _Connection, message: Head) -> list[HostEffect]:
        """Relay a seat's signed chain head to everyone else at its table (guards/heads.py)."""
        assert state.table is not None and state.seat is not None
        room = self.rooms[state.table]
        if room.game is None:
            return self._bad(state, ErrorCode.UNEXPECTED, "the game has not begun yet")
        claim = HeadClaim(
            state.seat, message.seq, bytes.fromhex(message.head), bytes.fromhex(message.sig)
        )
        problem = room.game.check_head(state.seat, claim)
        if problem is not None:
            return self._bad(state, ErrorCode.BAD_MESSAGE, problem)
        relay = PeerHead(state.seat, message.seq, message.head, message.sig)
        effects: list[HostEffect] = [
            Log("head", {"table": room.nameplate, "seat": state.seat, "seq": message.seq})
        ]
        effects += [
            Send(connection, relay) for connection in self._audience(room) if connection != state.id
        ]
        return effects

    # ------------------------------------------------------------- the setup's deadline

    def _watch_setup(self, now: float) -> list[HostEffect]:
        """Note where each table that published stands; abort the ones past the setup
        timeout, and call time on the investigations whose sand-glass ran out.

        A table's setup step and its investigation change only with its events
        (``_publish``), so the tables without new events need no look.
        """
        published, self._published = self._published, set()
        for nameplate in sorted(published):
            room = self.rooms[nameplate]
            game = room.game
            step = None if game is None or game.ended else game.step
            self._setup.observe(room.nameplate, step, now)
            investigation = None if game is None else game.investigation
            timer = None if game is None else game.timer
            self._sand_glass.observe(room.nameplate, investigation, timer, now)
        effects: list[HostEffect] = []
        for nameplate in self._setup.expired(now):
            effects += self._contained(self.rooms[nameplate], "abort", self._abort_stalled)
        for nameplate in self._sand_glass.expired(now):
            effects += self._contained(self.rooms[nameplate], "call time", self._time_up)
        return effects

    # ------------------------------------------------------------- one table's failure

    def _contained(
        self, room: Room, doing: str, work: Callable[[Room], list[HostEffect]]
    ) -> list[HostEffect]:
        """``work`` for ``room``; should it raise, the table is set aside and nothing else
        is touched (every other table, connection and clock carries on)."""
        try:
            return work(room)
        except Exception as exc:  # a bug of this table's: contained to it
            return self._set_aside(room, doing, exc)

    def _set_aside(self, room: Room, doing: str, error: Exception) -> list[HostEffect]:
        """Table ``room`` failed (a bug, never a guest's input): it is out of order until the
        host restarts (its log is as the last accepted event left it, for ``--resume``);
        its players and spectators are told and let go; no other table is touched."""
        nameplate = room.nameplate
        room.out_of_order = f"could not {doing} this table's game ({type(error).__name__}: {error})"
        self._lobby_clocks.stop(nameplate)
        self._setup.forget(nameplate)
        self._sand_glass.forget(nameplate)
        self._published.discard(nameplate)
        effects: list[HostEffect] = [
            Log(
                "table-failed",
                {"table": nameplate, "doing": doing, "error": f"{type(error).__name__}: {error}"},
            )
        ]
        for connection in self._audience(room):
            state = self._connections.get(connection)
            if state is not None and not state.closing:
                effects += self._fatal(state, ErrorCode.UNEXPECTED, _out_of_order(room))
        effects.append(TableChanged(nameplate))
        return effects

    def _time_up(self, room: Room) -> list[HostEffect]:
        self._sand_glass.forget(room.nameplate)
        assert room.game is not None
        return self._clock_statement(
            room, room.game.time_up, "time-up", ("locked", "no_guess"), lobby_changed=False
        )

    def _abort_stalled(self, room: Room) -> list[HostEffect]:
        self._setup.forget(room.nameplate)
        assert room.game is not None
        return self._clock_statement(
            room, room.game.abort_stalled, "setup-aborted", ("seats", "reason"), lobby_changed=True
        )

    def _clock_statement(
        self,
        room: Room,
        make: Callable[[], EventObject | None],
        log: str,
        fields: tuple[str, ...],
        *,
        lobby_changed: bool,
    ) -> list[HostEffect]:
        """The statement a deadline calls for (``None``: the table no longer needs it),
        logged with ``fields`` of its body, then published."""
        game = room.game
        assert game is not None
        start = len(game.events)
        event = make()
        if event is None:
            return []
        body = event["body"]
        logged = {name: _plain(body[name]) for name in fields}
        effects: list[HostEffect] = [Log(log, {"table": room.nameplate, **logged})]
        return effects + self._publish(room, start, [event], lobby_changed=lobby_changed)

    # ------------------------------------------------------------- a rolled-back log

    def _behind(
        self, room: Room, state: _Connection, have: int, seat: int | None
    ) -> list[HostEffect]:
        """A returning peer says it holds more of the table's game than the host: the host's
        log lost events (restored from an older copy, a disk that lied about a sync).  Said
        once per table and game, for the operator; the peer hands the events back
        (:meth:`_restore`).  A peer's word alone changes nothing: only events that check
        out (signed by this host) are taken."""
        game = room.game
        if game is None or have <= len(game.events):
            return []
        told = (room.nameplate, game.game_id)
        if told in self._told_behind:
            return []
        self._told_behind.add(told)
        return [
            Log(
                "log-behind",
                {
                    "table": room.nameplate,
                    "game_id": game.game_id,
                    "seat": seat,
                    "connection": state.id,
                    "host_events": len(game.events),
                    "player_events": have,
                    "note": (
                        "this table's log is behind what a returning player holds: it was "
                        "rolled back (events.jsonl restored from an older copy?); the "
                        "players hand the missing events back, and each is checked"
                    ),
                },
            )
        ]

    def _restore(self, state: _Connection, message: Restore) -> list[HostEffect]:
        """Events the host's log lost, handed back by a peer that holds them (WIRE.md 8)."""
        assert state.table is not None
        room = self.rooms[state.table]
        game = room.game
        if game is None:
            return self._bad(state, ErrorCode.UNEXPECTED, "the game has not begun yet")
        start = len(game.events)
        taken, problem = game.restore(message.start, message.events)
        effects: list[HostEffect] = []
        if taken:
            state.bad_frames = 0
            effects.append(
                Log(
                    "log-restored",
                    {
                        "table": room.nameplate,
                        "seat": state.seat,
                        "start": start,
                        "events": len(taken),
                    },
                )
            )
            effects += self._publish(room, start, taken, lobby_changed=False)
        if problem is not None:
            effects += self._bad(state, ErrorCode.BAD_MESSAGE, problem)
        return effects

    def _fetch(self, state: _Connection, message: Fetch) -> list[HostEffect]:
        assert state.table is not None
        room = self.rooms[state.table]
        events = room.game.events if room.game is not None else ()
        start = min(message.since, len(events))
        return [Send(state.id, frame) for frame in event_frames(start, events[start:])]

    def _publish(
        self, room: Room, start: int, events: Sequence[EventObject], *, lobby_changed: bool
    ) -> list[HostEffect]:
        """New events of a table: on disk first, then to every seat.

        A game that ended (or a change the caller names) also changes the
        lobby and the table's advert.
        """
        game = room.game
        assert game is not None
        frames = list(event_frames(start, events))
        self._published.add(room.nameplate)
        lines = game.lines[start : start + len(events)]
        effects: list[HostEffect] = [Persist(room.nameplate, tuple(lines))]
        effects += [Send(c, frame) for c in self._audience(room) for frame in frames]
        if game.ended:
            effects.append(GameFinished(room.nameplate, game.game_id))
        if lobby_changed or game.ended:
            effects += self._lobby_broadcast(room)
            effects.append(TableChanged(room.nameplate))
        return effects

    def _audience(self, room: Room) -> list[ConnectionId]:
        """Everyone who gets the table's events: its seats in seat order, then its spectators."""
        return self._at_table.everyone(room.nameplate)

    def _lobby_broadcast(self, room: Room) -> list[HostEffect]:
        lobby = room.lobby(self.connected_seats(room.nameplate), self.limits.ready_timeout)
        return [Send(connection, lobby) for connection in self._audience(room)]

    # ------------------------------------------------------------- refusals

    def _bad(self, state: _Connection, code: ErrorCode, message: str) -> list[HostEffect]:
        state.bad_frames += 1
        if state.bad_frames > self.limits.max_bad_frames:
            return self._fatal(state, code, f"{message} (too many bad messages)")
        return [
            Log(
                "rejected",
                {
                    "connection": state.id,
                    "remote": state.remote,
                    "table": state.table,
                    "seat": state.seat,
                    "code": code.value,
                    "reason": message,
                },
            ),
            Send(state.id, Error(code, _clip(message))),
        ]

    def _fatal(self, state: _Connection, code: ErrorCode, message: str) -> list[HostEffect]:
        self._unqueue(state)
        state.closing = True
        self._handshaking.pop(state.id, None)
        fields: dict[str, Any] = {
            "connection": state.id,
            "remote": state.remote,
            "table": state.table,
            "seat": state.seat,
            "code": code.value,
            "reason": message,
            **state.log_fields,
        }
        return [
            Log("refused", fields),
            Send(state.id, Error(code, _clip(message), fatal=True)),
            Close(state.id, CLOSE_POLICY, code.value),
        ]


_SEATS_ONLY: Final[dict[type, str]] = {
    Act: "chat or act",
    Head: "sign a chain head",
    Ready: "say it is ready for a game",
}
"""What a spectator cannot do, by the message it tried it with."""


def _plain(value: Any) -> Any:
    """A body field as a log record holds it: sequences as lists."""
    return list(value) if isinstance(value, tuple | list) else value


def _out_of_order(room: Room) -> str:
    return f"the host {room.out_of_order}; tell the host's operator"


def _clip(message: str) -> str:
    return message if len(message) <= 500 else message[:497] + "..."


def summary(effects: Iterable[HostEffect]) -> list[Mapping[str, Any]]:
    """The log records among ``effects`` (handy for tests and debugging)."""
    return [{"event": e.event, **e.fields} for e in effects if isinstance(e, Log)]
