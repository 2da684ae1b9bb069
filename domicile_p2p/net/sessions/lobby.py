"""The lobbies, sans I/O: who sits and who watches, ready, the start, the next game.

Theory of operation
-------------------
A connection the handshake let in (``handshake.py``'s ``Entry``) takes its
seat (:meth:`Lobbies.seat`), or watches (:meth:`Lobbies.spectate`); one gone
leaves its seat free while the game has not begun (:meth:`Lobbies.leave`).
A connection that takes back its seat from somewhere else supersedes the old
one (``superseded``, fatal).  In the lobby a person may take the seat of one
of the host's bots: the bot's connection gets ``taken-over`` (fatal) and the
bot steps aside.

A spectator knows the code (the same PAKE as a player's) but holds no key the
transcript knows, so it can never act.  The events it gets are the ones every
seat gets, and those hold no secret before the Ghost's reveal by construction
(the commitments are salted): watching needs no secret-handling of its own.
At most ``max_spectators`` watch one table; the one more is refused
(``spectators-full``), and every spectator counts against the connection caps
like any other connection.

A table's game begins when its room says so (``room.py``: every seat held,
the owner's start, or the lobby wait over).  No client message can start a
game: only the host's owner can (:meth:`Lobbies.start`).

A table outlives its game: :meth:`Lobbies.next_game` opens the lobby of its
next one (a rematch, ``room.py``).  Every connection still seated stays, and
is told with a new ``Seated`` (its table's ``game`` one higher, no events
yet); the next genesis starts a new transcript.  Nothing starts that lobby's
game until every seat is ready (``Ready``, :meth:`Lobbies.ready`; bots always
are) and the table's rule says so; but nobody can stall it: the owner's start
goes without the people not ready, and ``ready_timeout`` seconds after the
lobby opened their seats are freed (:meth:`Lobbies.watch`; each told why,
with a fatal ``game-started``).  The owner may move everyone round one seat
(:meth:`Lobbies.rotate`: the next Ghost is the next seat's player).

:class:`Lobbies` keeps the lobbies' clocks (``lobby_clocks.py``) and says
who is told what; a game that may begin is handed to ``begin``
(``HostSession``'s: it starts the game and publishes its first events).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from domicile_p2p.net.sessions.audience import Audience
from domicile_p2p.net.sessions.connection import Connection, Phase, Refusals
from domicile_p2p.net.sessions.effects import ConnectionId, HostEffect, Log, Send, TableChanged
from domicile_p2p.net.sessions.fanout import FanOut
from domicile_p2p.net.sessions.handshake import Entry
from domicile_p2p.net.sessions.limits import HostLimits
from domicile_p2p.net.sessions.lobby_clocks import LobbyClocks
from domicile_p2p.net.sessions.relay import Relay
from domicile_p2p.net.sessions.room import Refusal, Room
from domicile_p2p.net.wire import ErrorCode, Ready, Seated, Starts, Watching


class Lobbies:
    """The lobbies of every table of one host (see the module docstring)."""

    def __init__(
        self,
        rooms: Mapping[int, Room],
        *,
        connections: Mapping[ConnectionId, Connection],
        audience: Audience,
        fan_out: FanOut,
        refusals: Refusals,
        relay: Relay,
        clocks: LobbyClocks,
        limits: HostLimits,
        begin: Callable[[Room], list[HostEffect]],
    ) -> None:
        self.rooms = rooms
        self._connections = connections
        self._audience = audience
        self._fan_out = fan_out
        self._refusals = refusals
        self._relay = relay
        self._limits = limits
        self.ready_timeout = limits.ready_timeout
        self._begin = begin
        self.clocks = clocks

    def seat(self, state: Connection, entry: Entry, now: float) -> list[HostEffect]:
        """``state`` takes (or takes back) its seat: whoever held it goes (superseded, or
        a bot taken over); it gets ``Seated``, the events it lacks, and everyone the lobby.
        """
        assert entry.seat is not None
        effects: list[HostEffect] = []
        room, seat = entry.room, entry.seat
        previous = self._audience.holder(room.nameplate, seat)
        if previous is not None and previous != state.id:
            old = self._connections.get(previous)
            if old is not None:
                old.nameplate = old.seat = None
                if entry.displaced is not None:
                    effects += self._refusals.fatal(
                        old, ErrorCode.TAKEN_OVER, f"{entry.name} has taken this seat from its bot"
                    )
                else:
                    effects += self._refusals.fatal(
                        old, ErrorCode.SUPERSEDED, "you connected again from somewhere else"
                    )
        state.phase, state.nameplate, state.seat = Phase.SEATED, room.nameplate, seat
        self._audience.sit(room.nameplate, seat, state.id)
        held = len(room.game.events) if room.game is not None else 0
        effects.append(
            Log(
                entry.how,
                {
                    "connection": state.id,
                    "remote": state.remote,
                    "table": room.nameplate,
                    "seat": seat,
                    "name": entry.name,
                },
            )
        )
        effects += self._relay.behind(room.nameplate, room.game, state.id, entry.have, seat)
        effects.append(Send(state.id, Seated(room.nameplate, seat, held, room.games)))
        effects += self._fan_out.catch_up(state.id, room, entry.have)
        effects += self._fan_out.lobby(room)
        effects.append(TableChanged(room.nameplate))
        if room.may_start(now):
            effects += self._begin(room)
        return effects

    def spectate(self, state: Connection, entry: Entry) -> list[HostEffect]:
        """A spectator proved the code: it watches, or is refused when the table has enough."""
        room = entry.room
        watching = len(self._audience.spectators(room.nameplate))
        if watching >= self._limits.max_spectators:
            return self._refusals.fatal(
                state,
                ErrorCode.SPECTATORS_FULL,
                f"{watching} people already watch this table (at most "
                f"{self._limits.max_spectators}); try again when one leaves",
            )
        state.phase, state.nameplate = Phase.WATCHING, room.nameplate
        watching = self._audience.watch(room.nameplate, state.id, entry.name)
        held = len(room.game.events) if room.game is not None else 0
        return [
            *self._relay.behind(room.nameplate, room.game, state.id, entry.have, None),
            Log(
                "watch",
                {
                    "connection": state.id,
                    "remote": state.remote,
                    "table": room.nameplate,
                    "name": entry.name,
                    "spectators": watching,
                },
            ),
            Send(state.id, Watching(room.nameplate, held, room.games)),
            *self._fan_out.catch_up(state.id, room, entry.have),
            *self._fan_out.lobby(room),  # to it, and to everyone: one more watches
        ]

    def leave(self, state: Connection) -> list[HostEffect]:
        """``state`` disconnected: it stops watching, or frees its seat in a lobby (the
        seat of a game under way stays its player's)."""
        effects: list[HostEffect] = []
        if state.phase is Phase.WATCHING and state.nameplate is not None:
            self._audience.stop_watching(state.nameplate, state.id)
            effects.append(Log("stopped-watching", {"table": state.nameplate}))
            room = self.rooms.get(state.nameplate)
            if room is not None:
                effects += self._fan_out.lobby(room)  # one fewer watches
            return effects
        if state.nameplate is None or state.seat is None:
            return effects
        if not self._audience.leave(state.nameplate, state.seat, state.id):
            return effects  # superseded earlier: the seat is someone else's connection now
        room = self.rooms[state.nameplate]
        released = room.release(state.seat)
        effects.append(
            Log(
                "leave",
                {"table": state.nameplate, "seat": state.seat, "seat_released": released},
            )
        )
        effects.extend(self._fan_out.lobby(room))
        effects.append(TableChanged(room.nameplate))
        return effects

    def start(self, nameplate: int, now: float, *, owner: int | None = None) -> list[HostEffect]:
        """The host's owner says start: the game begins as soon as every seat is held.

        Seats still held by bots are played by those bots.  In the lobby of a next game
        the people not ready lose their seats (told why; the host fills them as it
        fills any empty seat); the ``owner``'s own seat counts as ready (its start says
        so).  :class:`Refusal` for an unknown table or one whose game has started.
        """
        room = self._room(nameplate)
        room.request_start()
        if owner is not None and owner in room.holders and room.games > 1:
            room.set_ready(owner, True)
        effects: list[HostEffect] = [
            Log("start-requested", {"table": nameplate, "seats_free": room.seats_free})
        ]
        effects += self._unseat_not_ready(room, "the host's owner started the game without you")
        if room.may_start(now):
            effects += self._begin(room)
        return effects

    def next_game(self, nameplate: int, now: float) -> tuple[Room, list[HostEffect]]:
        """Open the lobby of table ``nameplate``'s next game, once its game is over (a rematch);
        then tell the seats where they sit (:meth:`seats_moved`).

        Everyone still connected keeps their seat and gets ``Seated`` for the next game;
        the seats of those who left are free.  :class:`Refusal` for an unknown table
        or one whose game is not over (and nothing changes).
        """
        room = self._room(nameplate)
        previous = room.game.game_id if room.game is not None else None
        freed = room.next_game(self._audience.seats(nameplate))
        if room.starts is Starts.WAIT:
            self.clocks.wait(room)
        room.open_lobby(now)
        self.clocks.ready_clock(room, now)
        effects: list[HostEffect] = [
            Log(
                "next-game",
                {"table": nameplate, "game": room.games, "previous": previous, "freed": freed},
            )
        ]
        # Every spectator stays and watches the next game too, from its lobby (each game
        # a transcript of its own, from its genesis), before anything of it is sent.
        effects += [
            Send(connection, Watching(nameplate, 0, room.games))
            for connection in self._audience.spectators(nameplate)
        ]
        return room, effects

    def rotate(
        self, nameplate: int, now: float, bot_name: Callable[[int], str] | None = None
    ) -> list[HostEffect]:
        """The host's owner moves everyone round one seat in a lobby (the next Ghost is the
        next seat's player; a bot takes ``bot_name`` of its new seat).  :class:`Refusal` for
        an unknown table or a game under way."""
        room = self._room(nameplate)
        moved = room.rotate(bot_name)
        self._audience.move(nameplate, moved)
        for connection in self._audience.seated(nameplate):
            state = self._connections.get(connection)
            if state is not None and state.seat is not None:
                state.seat = moved[state.seat]
        if room.games > 1:
            # Nobody is ready after a rotation: a new deadline.
            self.clocks.ready_clock(room, now)
        effects: list[HostEffect] = [Log("seats-rotated", {"table": nameplate})]
        return effects + self.seats_moved(room, now)

    def _room(self, nameplate: int) -> Room:
        room = self.rooms.get(nameplate)
        if room is None:
            raise Refusal(ErrorCode.UNKNOWN_TABLE, f"this host has no table {nameplate}")
        return room

    def seats_moved(self, room: Room, now: float) -> list[HostEffect]:
        """Tell every seated connection where it sits now, in the lobby of ``room``'s game."""
        effects: list[HostEffect] = [
            Send(connection, Seated(room.nameplate, seat, 0, room.games))
            for seat, connection in self._audience.holders(room.nameplate)
        ]
        effects += self._fan_out.lobby(room)
        effects.append(TableChanged(room.nameplate))
        if room.may_start(now):
            effects += self._begin(room)
        return effects

    def ready(self, state: Connection, message: Ready, now: float) -> list[HostEffect]:
        """A seat says whether it is ready (the lobby of a next game), or is refused."""
        assert state.nameplate is not None and state.seat is not None
        room = self.rooms[state.nameplate]
        try:
            room.set_ready(state.seat, message.ready)
        except Refusal as refusal:
            return self._refusals.bad(state, refusal.code, str(refusal))
        state.bad_frames = 0
        effects: list[HostEffect] = [
            Log("ready", {"table": room.nameplate, "seat": state.seat, "ready": message.ready})
        ]
        effects += self._fan_out.lobby(room)
        if room.may_start(now):
            effects += self._begin(room)
        return effects

    def watch(self, now: float) -> list[HostEffect]:
        """Open every lobby's clock (at the first input); start the ``wait`` tables now due.

        Per input this looks only at the ``wait`` lobbies: a table of any other rule
        starts when its seats change (a connection let in) or its owner says so
        (:meth:`start`).
        """
        self.clocks.open(now)
        effects: list[HostEffect] = []
        for room in self.clocks.ready_over(now):
            timeout = self.ready_timeout
            effects += self._unseat_not_ready(
                room, f"you were not ready within {timeout:g} s: your seat is free"
            )
            if room.may_start(now):
                effects += self._begin(room)
        for room in self.clocks.waiting():
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
            connection = self._audience.unseat(room.nameplate, seat)
            state = None if connection is None else self._connections.get(connection)
            if state is not None and not state.closing:
                state.nameplate = state.seat = None
                effects += self._refusals.fatal(
                    state, ErrorCode.GAME_STARTED, f"{why} (you were not ready); you may watch it"
                )
        if effects:
            effects += self._fan_out.lobby(room)
            effects.append(TableChanged(room.nameplate))
        return effects
