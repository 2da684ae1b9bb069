"""The games under way, sans I/O: started, played, checked against their clocks.

Theory of operation
-------------------
:class:`Games` does what happens to a table's game once its room lets it
begin (``lobby.py`` says when, and hands it to :meth:`Games.begin`):

- a seat's ``Act`` (:meth:`Games.act`): a chat within the seat's budget
  (``chat.py``), then the game orders it (``game.py``: a refusal changes
  nothing) and the new events are published (``fanout.py``: on disk first,
  then to everyone at the table);
- a seat's ``Head`` and a peer's ``Restore`` (``relay.py``);
- a person's ``Seen`` (:meth:`Games.seen`): the séance before the round it names was
  seen; once every person has (or left), the round's glass turns and the table is
  told ``AllSeen`` (``guards/sandglass.py``);
- the games' clocks (``deadlines.py``, :meth:`Games.watch`): a stalled setup
  is aborted, a sand-glass run out calls time, each statement published like
  any event.

A bug of one table's (never a guest's input: every refusal is typed before
it gets here) sets that table aside (:meth:`Games.set_aside`): it is out of
order until the host restarts, its players and spectators are told and let
go, and nothing else is touched.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

from domicile_p2p.net.sessions.chat import ChatBudgets, chat_text
from domicile_p2p.net.sessions.connection import Connection, Refusals
from domicile_p2p.net.sessions.deadlines import GameDeadlines, Statement
from domicile_p2p.net.sessions.effects import ConnectionId, HostEffect, Log, Send, TableChanged
from domicile_p2p.net.sessions.fanout import FanOut
from domicile_p2p.net.sessions.handshake import out_of_order
from domicile_p2p.net.sessions.limits import HostLimits
from domicile_p2p.net.sessions.lobby_clocks import LobbyClocks
from domicile_p2p.net.sessions.relay import Relay
from domicile_p2p.net.sessions.room import EventObject, Refusal, Room
from domicile_p2p.net.wire import Act, AllSeen, ErrorCode, Head, Restore, Seen


class Games:
    """The games of every table of one host (see the module docstring)."""

    def __init__(
        self,
        rooms: Mapping[int, Room],
        *,
        connections: Mapping[ConnectionId, Connection],
        fan_out: FanOut,
        relay: Relay,
        refusals: Refusals,
        clocks: LobbyClocks,
        limits: HostLimits,
        people: Callable[[int], Collection[int]] = lambda nameplate: (),
    ) -> None:
        self.rooms = rooms
        self._connections = connections
        self._fan_out = fan_out
        self._relay = relay
        self._refusals = refusals
        self._clocks = clocks
        """The lobbies' clocks: a table's stops when its game begins or it is set aside."""
        self.deadlines = GameDeadlines(rooms, limits.setup_timeout, people)
        self._chat = ChatBudgets(limits)

    def begin(self, room: Room) -> list[HostEffect]:
        """``room``'s game begins (its room says it may): its first events, published."""
        try:
            events = room.start()
        except Exception as exc:  # a bug: nothing a guest sends makes a start fail
            return self.set_aside(room, "start", exc)
        assert room.game is not None
        self._clocks.stop(room.nameplate)
        effects: list[HostEffect] = [
            Log(
                "game-started",
                {"table": room.nameplate, "game_id": room.game.game_id, "name": room.config.name},
            ),
        ]
        return effects + self._publish(room, 0, events, lobby_changed=True)

    def act(self, state: Connection, message: Act, now: float) -> list[HostEffect]:
        """A seat's signed action (or chat, within its budget), ordered and published."""
        assert state.nameplate is not None and state.seat is not None
        room = self.rooms[state.nameplate]
        if room.game is None:
            return self._refusals.bad(state, ErrorCode.UNEXPECTED, "the game has not begun yet")
        game_id = room.game.game_id
        chat = chat_text(message.action)
        if chat is not None:
            over = self._chat.refusal(room.nameplate, state.seat, game_id, chat, now)
            if over is not None:
                return self._refusals.bad(state, ErrorCode.CHAT_LIMIT, over)
        start = len(room.game.events)
        try:
            events = room.game.submit(state.seat, message.action)
        except Refusal as refusal:
            return self._refusals.bad(state, refusal.code, str(refusal))
        state.bad_frames = 0
        if chat is not None:
            self._chat.spend(room.nameplate, state.seat, game_id, chat)
        return self._publish(room, start, events, lobby_changed=False)

    def seen(self, state: Connection, message: Seen, now: float) -> list[HostEffect]:
        """A person has seen the séance before round ``day``, ``stage`` (``guards/sandglass.py``).

        A round the game has not reached, or a later game than the table's, is refused
        (``unexpected``); an earlier round or game, or a game no longer in play (a séance
        seen as the next was told, or as the game ended), changes nothing: a client may
        always say what it has seen without its action in flight being mistaken for it."""
        assert state.nameplate is not None and state.seat is not None
        room = self.rooms[state.nameplate]
        game = room.game
        current = None if game is None or message.game != room.games else game.round
        said = (message.day, message.stage)
        if message.game > room.games:
            return self._refusals.bad(
                state, ErrorCode.UNEXPECTED, f"game {message.game} has not begun at this table"
            )
        if current is not None and said > current:
            return self._refusals.bad(
                state,
                ErrorCode.UNEXPECTED,
                f"day {message.day}, stage {message.stage} has not begun "
                f"(the game is at day {current[0]}, stage {current[1]})",
            )
        if current is not None:
            self.deadlines.seen(room.nameplate, state.seat, said, now)
        return []

    def left(self, nameplate: int, seat: int, now: float) -> None:
        """The person at ``seat`` disconnected: no séance waits for them."""
        self.deadlines.left(nameplate, seat, now)

    def head(self, state: Connection, message: Head) -> list[HostEffect]:
        """Relay a seat's signed chain head to everyone else at its table (``relay.py``)."""
        assert state.nameplate is not None and state.seat is not None
        room = self.rooms[state.nameplate]
        if room.game is None:
            return self._refusals.bad(state, ErrorCode.UNEXPECTED, "the game has not begun yet")
        relayed = self._relay.head(room.game, state.seat, message)
        if isinstance(relayed, str):
            return self._refusals.bad(state, ErrorCode.BAD_MESSAGE, relayed)
        effects: list[HostEffect] = [
            Log("head", {"table": room.nameplate, "seat": state.seat, "seq": message.seq})
        ]
        return effects + self._fan_out.others(room, state.id, relayed)

    def restore(self, state: Connection, message: Restore) -> list[HostEffect]:
        """Events the host's log lost, handed back by a peer that holds them (``relay.py``)."""
        assert state.nameplate is not None
        room = self.rooms[state.nameplate]
        if room.game is None:
            return self._refusals.bad(state, ErrorCode.UNEXPECTED, "the game has not begun yet")
        restored = self._relay.restore(room.nameplate, room.game, state.seat, message)
        effects = list(restored.log)
        if restored.taken:
            state.bad_frames = 0
            effects += self._publish(room, restored.start, restored.taken, lobby_changed=False)
        if restored.problem is not None:
            effects += self._refusals.bad(state, ErrorCode.BAD_MESSAGE, restored.problem)
        return effects

    def _publish(
        self, room: Room, start: int, events: Sequence[EventObject], *, lobby_changed: bool
    ) -> list[HostEffect]:
        """New events of a table, to everyone at it (``fanout.py``); its clocks look next."""
        self.deadlines.published(room.nameplate)
        return self._fan_out.events(room, start, events, lobby_changed=lobby_changed)

    # ------------------------------------------------------------- the deadlines

    def watch(self, now: float) -> list[HostEffect]:
        """Abort the games past the setup timeout, and call time on the investigations
        whose sand-glass ran out (``deadlines.py``)."""
        self.deadlines.look(now)
        effects: list[HostEffect] = []
        for room in self.deadlines.stalled(now):
            effects += self._contained(room, "abort", self._abort_stalled)
        for room in self.deadlines.out_of_time(now):
            effects += self._contained(room, "call time", self._time_up)
        for nameplate, (day, stage) in self.deadlines.all_seen():
            room = self.rooms[nameplate]
            effects.append(Log("all-seen", {"table": nameplate, "day": day, "stage": stage}))
            told = AllSeen(room.games, day, stage)
            effects += [Send(connection, told) for connection in self._fan_out.everyone(room)]
        return effects

    def _abort_stalled(self, room: Room) -> list[HostEffect]:
        return self._state(room, self.deadlines.abort(room))

    def _time_up(self, room: Room) -> list[HostEffect]:
        return self._state(room, self.deadlines.call_time(room))

    def _state(self, room: Room, statement: Statement | None) -> list[HostEffect]:
        """The statement a deadline called for, logged and published."""
        if statement is None:
            return []
        publish = self._publish(
            room, statement.start, [statement.event], lobby_changed=statement.lobby_changed
        )
        return [statement.log, *publish]

    # ------------------------------------------------------------- one table's failure

    def _contained(
        self, room: Room, doing: str, work: Callable[[Room], list[HostEffect]]
    ) -> list[HostEffect]:
        """``work`` for ``room``; should it raise, the table is set aside and nothing else
        is touched (every other table, connection and clock carries on)."""
        try:
            return work(room)
        except Exception as exc:  # a bug of this table's: contained to it
            return self.set_aside(room, doing, exc)

    def set_aside(self, room: Room, doing: str, error: Exception) -> list[HostEffect]:
        """Table ``room`` failed (a bug, never a guest's input): it is out of order until the
        host restarts (its log is as the last accepted event left it, for ``--resume``);
        its players and spectators are told and let go; no other table is touched."""
        nameplate = room.nameplate
        room.out_of_order = f"could not {doing} this table's game ({type(error).__name__}: {error})"
        self._clocks.stop(nameplate)
        self.deadlines.forget(nameplate)
        effects: list[HostEffect] = [
            Log(
                "table-failed",
                {"table": nameplate, "doing": doing, "error": f"{type(error).__name__}: {error}"},
            )
        ]
        for connection in self._fan_out.everyone(room):
            state = self._connections.get(connection)
            if state is not None and not state.closing:
                effects += self._refusals.fatal(state, ErrorCode.UNEXPECTED, out_of_order(room))
        effects.append(TableChanged(nameplate))
        return effects
