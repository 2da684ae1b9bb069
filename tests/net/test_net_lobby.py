"""The lobbies on their own: seats taken and left, spectators, the next game (``lobby.py``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from net_support import make_room

from domicile_p2p.identity import Identity
from domicile_p2p.net.sessions.audience import Audience
from domicile_p2p.net.sessions.connection import Connection, Phase, Refusals
from domicile_p2p.net.sessions.effects import ConnectionId, HostEffect, Log, Send
from domicile_p2p.net.sessions.fanout import FanOut
from domicile_p2p.net.sessions.handshake import Entry
from domicile_p2p.net.sessions.limits import HostLimits, TokenBucket
from domicile_p2p.net.sessions.lobby import Lobbies
from domicile_p2p.net.sessions.lobby_clocks import LobbyClocks
from domicile_p2p.net.sessions.relay import Relay
from domicile_p2p.net.sessions.room import Room
from domicile_p2p.net.wire import Error, ErrorCode, Lobby, Role, Seated, Watching


@dataclass
class Hall:
    lobbies: Lobbies
    room: Room
    connections: dict[ConnectionId, Connection]
    begun: list[int] = field(default_factory=list)

    def arrive(self, connection: int) -> Connection:
        state = Connection(
            ConnectionId(connection), f"10.0.0.{connection}:1", b"\0" * 32, 0.0, TokenBucket(1, 1)
        )
        self.connections[state.id] = state
        return state

    def sit(self, connection: int, seat: int, *, how: str = "join") -> list[HostEffect]:
        if seat not in self.room.holders:
            self.room.take_seat(Identity.generate().public_hex, f"P{seat}", Role.ANY, seat)
        entry = Entry(self.room, how, f"P{seat}", 0, seat)
        return self.lobbies.seat(self.arrive(connection), entry, 0.0)


def _hall(limits: HostLimits | None = None) -> Hall:
    limits = limits or HostLimits()
    room = make_room(Identity.generate(), investigators=1)
    audience = Audience([room.nameplate])
    connections: dict[ConnectionId, Connection] = {}
    begun: list[int] = []

    def begin(room: Room) -> list[HostEffect]:
        begun.append(room.nameplate)
        room.start()
        return [Log("begun")]

    lobbies = Lobbies(
        {room.nameplate: room},
        connections=connections,
        audience=audience,
        fan_out=FanOut(audience, limits.ready_timeout),
        refusals=Refusals(limits.max_bad_frames, lambda _state: None),
        relay=Relay(),
        clocks=LobbyClocks([room], limits.ready_timeout),
        limits=limits,
        begin=begin,
    )
    return Hall(lobbies, room, connections, begun)


def _to(effects: list[HostEffect], connection: int) -> list[object]:
    return [e.message for e in effects if isinstance(e, Send) and e.connection == connection]


def test_a_seat_taken_tells_everyone_and_the_last_one_begins_the_game() -> None:
    hall = _hall()
    first = hall.sit(1, 0)
    assert _to(first, 1)[0] == Seated(hall.room.nameplate, 0, 0, 1)
    assert isinstance(_to(first, 1)[-1], Lobby) and hall.begun == []
    second = hall.sit(2, 1)
    assert isinstance(_to(second, 1)[0], Lobby), "the one seated already sees the lobby change"
    assert hall.begun == [hall.room.nameplate] and second[-1] == Log("begun")


def test_a_seat_taken_back_from_elsewhere_supersedes_the_old_connection() -> None:
    hall = _hall()
    hall.sit(1, 0)
    old = hall.connections[ConnectionId(1)]
    again = hall.sit(2, 0, how="rejoin")
    [told] = _to(again, 1)
    assert isinstance(told, Error) and told.code == ErrorCode.SUPERSEDED and told.fatal
    assert old.closing and old.seat is None
    assert hall.lobbies.leave(old) == [], "the seat is the new connection's now"
    new = hall.connections[ConnectionId(2)]
    assert new.phase is Phase.SEATED and new.seat == 0
    [left, *told_everyone] = hall.lobbies.leave(new)
    assert left == Log("leave", {"table": hall.room.nameplate, "seat": 0, "seat_released": True})
    assert 0 not in hall.room.holders and told_everyone


def test_one_spectator_more_than_the_table_allows_is_refused() -> None:
    hall = _hall(HostLimits(max_spectators=1))
    eve, dan = hall.arrive(1), hall.arrive(2)
    watching = hall.lobbies.spectate(eve, Entry(hall.room, "watch", "Eve", 0))
    assert _to(watching, 1)[0] == Watching(hall.room.nameplate, 0, 1)
    assert eve.phase is Phase.WATCHING
    [refused] = _to(hall.lobbies.spectate(dan, Entry(hall.room, "watch", "Dan", 0)), 2)
    assert isinstance(refused, Error) and refused.code == ErrorCode.SPECTATORS_FULL
    assert dan.closing
    assert hall.lobbies.leave(eve) == [Log("stopped-watching", {"table": hall.room.nameplate})]


def test_the_next_games_lobby_frees_the_seats_of_people_not_ready_in_time() -> None:
    hall = _hall(HostLimits(ready_timeout=30.0))
    hall.sit(1, 0)
    hall.sit(2, 1)
    assert hall.room.game is not None
    hall.room.game.abort("the test ends it")  # type: ignore[attr-defined]
    room, opened = hall.lobbies.next_game(hall.room.nameplate, 100.0)
    assert room is hall.room and room.games == 2
    [next_game] = opened
    assert next_game == Log(
        "next-game",
        {"table": room.nameplate, "game": 2, "previous": next_game.fields["previous"], "freed": []},
    )
    moved = hall.lobbies.seats_moved(room, 100.0)
    assert _to(moved, 1)[0] == Seated(room.nameplate, 0, 0, 2)
    assert hall.begun == [room.nameplate], "nobody ready yet: no second start"
    assert hall.lobbies.watch(129.0) == []
    freed = hall.lobbies.watch(130.0)
    for connection in (1, 2):
        [told, *_] = _to(freed, connection)
        assert isinstance(told, Error) and told.code == ErrorCode.GAME_STARTED and told.fatal
    assert room.holders == {}
