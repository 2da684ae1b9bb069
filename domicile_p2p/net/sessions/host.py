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
    start_table(nameplate, now)        the host's owner says start (a call, not a message)
    next_game(nameplate, now)          the host opens the lobby of a table's next game
    rotate_seats(nameplate, now)       the host's owner moves everyone round one seat

Each returns a list of effects (``effects.py``): messages to send, connections
to close, events to persist (fsync-ed *before* any later send), adverts to
refresh, finished games to archive, and log records.  Nothing else happens:
the same inputs always give the same outputs, which is what the fake-link
tests rely on.  A table is known by its ``nameplate``, its number (the one its
join code begins with, ``join/codes.py``); the wire calls it ``table``.

A connection goes through these phases (``connection.py``)::

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
              chain head, relayed to the table: ``relay.py``); in the lobby of
              a table's next game, Ready; Restore, when it holds events of the
              game the host's log lost (``relay.py``); Seen, once its person has
              seen a séance (``games.py``: the next glass waits for it).
    WATCHING  a spectator: no seat.  It gets what the seats get (the lobby,
              every event, the relayed heads, AllSeen) and may Fetch; an Act, a
              Head, a Ready or a Seen is refused (``spectator``) and counts as a
              refused message.

A table's game begins when its room says so (``room.py``: every seat held,
the owner's start, or the lobby wait over); a person may take the seat of
one of the host's bots in the lobby; a spectator watches without a seat; a
table outlives its game (a rematch, :meth:`HostSession.next_game`):
``lobby.py`` tells how.

The host's parts, each sans I/O with its own tests: ``handshake.py`` (HELLO to
SEATED or WATCHING: the PAKE, the confirmation, a resume, the handshake's
deadline), with ``admission.py`` (connection caps, shedding, the join queue,
PAKE failure counts); ``connection.py`` (a connection's state, how it is
refused); ``lobby.py`` (a seat taken, a spectator in, a seat left, ready, the
owner's start, the next game, a rotation), with ``lobby_clocks.py`` (the
lobbies' wait and ready clocks); ``games.py`` (a game begun, acted on, its
heads relayed and lost events restored (``relay.py``), its setup and
sand-glass clocks (``deadlines.py``), chat budgets (``chat.py``), a table set
aside); ``audience.py`` (who holds each seat and who watches) and
``fanout.py`` (what they get, in order); ``room.py`` (a table's seats and
lobby), ``game.py`` (its game), ``guards/`` (deadlines and cross-checks).
This module keeps the connections, hands each message to the part its phase
calls for, and puts the parts' answers together into effects, in order.

Whatever a connection sends, the worst it can do is lose its own
connection: a frame the codec refuses, a message at the wrong moment or an
action the table refuses gets a typed :class:`~domicile_p2p.net.wire.Error`
and changes nothing; too many of those, a flood or a handshake that does
not finish in time get a fatal one and a close.  Every other connection
and every table carry on, and every refusal is logged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final

from domicile_p2p.net.errors import WireError
from domicile_p2p.net.sessions.audience import Audience
from domicile_p2p.net.sessions.connection import (
    CLOSE_GOING_AWAY,
    Connection,
    Phase,
    Refusals,
)
from domicile_p2p.net.sessions.effects import (
    Close,
    ConnectionId,
    HostEffect,
    Log,
    Send,
)
from domicile_p2p.net.sessions.fanout import FanOut
from domicile_p2p.net.sessions.games import Games
from domicile_p2p.net.sessions.handshake import Entry, Handshake

# HostLimits lives with the other limits; adapters and tests import it from here too.
from domicile_p2p.net.sessions.limits import HostLimits as HostLimits
from domicile_p2p.net.sessions.lobby import Lobbies
from domicile_p2p.net.sessions.lobby_clocks import LobbyClocks
from domicile_p2p.net.sessions.relay import Relay
from domicile_p2p.net.sessions.room import Room
from domicile_p2p.net.wire import (
    Act,
    ClientMessage,
    Confirm,
    Error,
    ErrorCode,
    Fetch,
    Head,
    Join,
    Ready,
    Restore,
    Resume,
    Seen,
    Watch,
)
from domicile_p2p.net.wire import event_frames as event_frames  # tests import it from here


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
        self._connections: dict[ConnectionId, Connection] = {}
        self._refusals = Refusals(self.limits.max_bad_frames, self._forget)
        self._handshake = Handshake(
            self.rooms,
            fingerprint,
            self.limits,
            nonce=nonce,
            connections=self._connections,
            refusals=self._refusals,
        )
        self._at_table = Audience(self.rooms)
        """Who holds each seat and who watches, per table (``audience.py``)."""
        self._fan_out = FanOut(self._at_table, self.limits.ready_timeout)
        relay = Relay()
        clocks = LobbyClocks(self.rooms.values(), self.limits.ready_timeout)
        self._games = Games(
            self.rooms,
            connections=self._connections,
            fan_out=self._fan_out,
            relay=relay,
            refusals=self._refusals,
            clocks=clocks,
            limits=self.limits,
            people=self._people,
        )
        self._lobbies = Lobbies(
            self.rooms,
            connections=self._connections,
            audience=self._at_table,
            fan_out=self._fan_out,
            refusals=self._refusals,
            relay=relay,
            clocks=clocks,
            limits=self.limits,
            begin=self._games.begin,
        )

    # ------------------------------------------------------------- queries

    def connected_seats(self, nameplate: int) -> set[int]:
        return self._at_table.seats(nameplate)

    def spectators(self, nameplate: int) -> int:
        """How many connections watch ``nameplate`` now."""
        return len(self._at_table.spectators(nameplate))

    def _people(self, nameplate: int) -> set[int]:
        """The seats of ``nameplate`` a person holds and is connected to (a seat joined as a
        bot, the host's own or ``domicile bot``'s, is not a person's): who sees a séance."""
        holders = self.rooms[nameplate].holders
        return {
            seat
            for seat in self._at_table.seats(nameplate)
            if seat in holders and not holders[seat].bot
        }

    def authenticated(self, connection: ConnectionId) -> bool:
        """Whether ``connection`` has proven the code (seated or watching) or its seat's key."""
        state = self._connections.get(connection)
        return state is not None and state.phase in (Phase.SEATED, Phase.WATCHING)

    def next_deadline(self) -> float | None:
        clocks = [self._handshake.deadline(), self._games.deadlines.deadline()]
        pending = [clock for clock in clocks if clock is not None]
        pending += self._lobbies.clocks.deadlines()
        return min(pending, default=None)

    # ------------------------------------------------------------- inputs

    def admits(self, remote: str, now: float) -> bool:
        """Whether a network connection from ``remote`` may open now (``connection_rate``).

        Asked before :meth:`connect`, when the socket is accepted and before anything is
        read from it: a refused one is closed there and never reaches the session.
        """
        return self._handshake.admission.admits(remote, now)

    def connect(
        self, connection: ConnectionId, remote: str, now: float, *, counted: bool = True
    ) -> list[HostEffect]:
        """A connection opened; ``counted=False`` for an in-process one (no descriptor)."""
        state, effects = self._handshake.open(connection, remote, now, counted=counted)
        self._connections[connection] = state
        if state.closing:
            return effects
        return effects + self._lobbies.watch(now)

    def receive(
        self, connection: ConnectionId, message: ClientMessage, now: float
    ) -> list[HostEffect]:
        effects = self._receive(connection, message, now)
        return (
            effects + self._handshake.admit(now) + self._lobbies.watch(now) + self._games.watch(now)
        )

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
                case Join() | Watch() if state.phase is Phase.HELLO:
                    return self._handshake.join(state, message, now)
                case Confirm() if state.phase is Phase.CONFIRM:
                    return self._enter(state, self._handshake.confirm(state, message, now), now)
                case Resume() if state.phase is Phase.HELLO:
                    return self._enter(state, self._handshake.resume(state, message, now), now)
                case Act() if state.phase is Phase.SEATED:
                    return self._games.act(state, message, now)
                case Fetch() if state.phase in (Phase.SEATED, Phase.WATCHING):
                    assert state.nameplate is not None
                    return self._fan_out.catch_up(
                        state.id, self.rooms[state.nameplate], message.since
                    )
                case Head() if state.phase is Phase.SEATED:
                    return self._games.head(state, message)
                case Restore() if state.phase in (Phase.SEATED, Phase.WATCHING):
                    return self._games.restore(state, message)
                case Seen() if state.phase is Phase.SEATED:
                    return self._games.seen(state, message, now)
                case Act() | Head() | Ready() | Seen() if state.phase is Phase.WATCHING:
                    return self._bad(
                        state,
                        ErrorCode.SPECTATOR,
                        f"a spectator holds no seat: it cannot {_SEATS_ONLY[type(message)]}",
                    )
                case Ready() if state.phase is Phase.SEATED:
                    return self._lobbies.ready(state, message, now)
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
            room = None if state.nameplate is None else self.rooms.get(state.nameplate)
            if room is not None and state.phase in (Phase.SEATED, Phase.WATCHING):
                return self._games.set_aside(
                    room, f"handle a {type(message).__name__.lower()}", exc
                )
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
        seat, nameplate = state.seat, state.nameplate
        if (
            state.phase is Phase.SEATED
            and nameplate is not None
            and seat is not None
            and self._at_table.holder(nameplate, seat) == connection
        ):
            self._games.left(nameplate, seat, now)  # a séance no longer waits for them
        effects: list[HostEffect] = [
            Log("disconnected", {"connection": connection}),
            *self._handshake.left(state, now),
            *self._handshake.admit(now),
        ]
        return effects + self._lobbies.leave(state) + self._games.watch(now)

    def tick(self, now: float) -> list[HostEffect]:
        effects = self._handshake.overdue(now) + self._handshake.admit(now)
        return effects + self._lobbies.watch(now) + self._games.watch(now)

    def shutdown(self) -> list[HostEffect]:
        """Tell every connection the host is going away (they will come back after a restart)."""
        effects: list[HostEffect] = []
        for state in list(self._connections.values()):
            if not state.closing:
                state.closing = True
                self._handshake.closed(state)
                effects.append(
                    Send(state.id, Error(ErrorCode.SHUTTING_DOWN, "the host is shutting down"))
                )
                effects.append(Close(state.id, CLOSE_GOING_AWAY, "host shutting down"))
        return effects

    # ------------------------------------------------------------- in: a seat, or watching

    def _enter(
        self, state: Connection, entry: Entry | list[HostEffect], now: float
    ) -> list[HostEffect]:
        """Seat (or let watch) the connection the handshake let in (``lobby.py``)."""
        if not isinstance(entry, Entry):
            return entry  # refused, or a resume whose key holds no seat
        self._handshake.settled(state)
        if entry.seat is None:
            return self._lobbies.spectate(state, entry)
        return self._lobbies.seat(state, entry, now)

    # ------------------------------------------------------------- the lobby (``lobby.py``)

    def start_table(
        self, nameplate: int, now: float, *, owner: int | None = None
    ) -> list[HostEffect]:
        """The host's owner says start (:meth:`Lobbies.start`); :class:`Refusal` for an
        unknown table or one whose game has started."""
        return self._lobbies.start(nameplate, now, owner=owner) + self._games.watch(now)

    def next_game(self, nameplate: int, now: float) -> list[HostEffect]:
        """Open the lobby of table ``nameplate``'s next game (:meth:`Lobbies.next_game`);
        :class:`Refusal` for an unknown table or one whose game is not over."""
        room, effects = self._lobbies.next_game(nameplate, now)
        self._games.deadlines.published(nameplate)
        return effects + self._lobbies.seats_moved(room, now) + self._games.watch(now)

    def rotate_seats(
        self, nameplate: int, now: float, bot_name: Callable[[int], str] | None = None
    ) -> list[HostEffect]:
        """The host's owner moves everyone round one seat in a lobby (:meth:`Lobbies.rotate`;
        a bot takes ``bot_name`` of its new seat); :class:`Refusal` for an unknown table or
        a game under way."""
        return self._lobbies.rotate(nameplate, now, bot_name) + self._games.watch(now)

    # ------------------------------------------------------------- refusals (``connection.py``)

    def _bad(self, state: Connection, code: ErrorCode, message: str) -> list[HostEffect]:
        return self._refusals.bad(state, code, message)

    def _fatal(self, state: Connection, code: ErrorCode, message: str) -> list[HostEffect]:
        return self._refusals.fatal(state, code, message)

    def _forget(self, state: Connection) -> None:
        """``state`` is refused for good: the handshake lets it go."""
        self._handshake.forget(state)


_SEATS_ONLY: Final[dict[type, str]] = {
    Act: "chat or act",
    Head: "sign a chain head",
    Ready: "say it is ready for a game",
    Seen: "say it has seen a séance",
}
"""What a spectator cannot do, by the message it tried it with."""
