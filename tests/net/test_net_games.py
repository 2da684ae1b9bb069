"""The games under way on their own: begun, acted on, timed, set aside (``games.py``)."""

from __future__ import annotations

from net_support import make_room, started_room

from domicile_p2p.identity import Identity
from domicile_p2p.net.sessions.audience import Audience
from domicile_p2p.net.sessions.connection import Connection, Phase, Refusals
from domicile_p2p.net.sessions.effects import (
    Close,
    ConnectionId,
    HostEffect,
    Log,
    Persist,
    Send,
    TableChanged,
)
from domicile_p2p.net.sessions.fanout import FanOut
from domicile_p2p.net.sessions.games import Games
from domicile_p2p.net.sessions.limits import HostLimits, TokenBucket
from domicile_p2p.net.sessions.lobby_clocks import LobbyClocks
from domicile_p2p.net.sessions.relay import Relay
from domicile_p2p.net.sessions.room import Room
from domicile_p2p.net.wire import Act, Error, ErrorCode, Role


def _games(
    room: Room, limits: HostLimits | None = None
) -> tuple[Games, dict[ConnectionId, Connection], LobbyClocks]:
    limits = limits or HostLimits()
    audience = Audience([room.nameplate])
    connections: dict[ConnectionId, Connection] = {}
    for seat in range(len(room.config.seats)):
        state = Connection(
            ConnectionId(10 + seat), f"10.0.0.{seat}:1", b"\0" * 32, 0.0, TokenBucket(1, 1)
        )
        state.phase, state.nameplate, state.seat = Phase.SEATED, room.nameplate, seat
        connections[state.id] = state
        audience.sit(room.nameplate, seat, state.id)
    clocks = LobbyClocks([room], limits.ready_timeout)
    games = Games(
        {room.nameplate: room},
        connections=connections,
        fan_out=FanOut(audience, limits.ready_timeout),
        relay=Relay(),
        refusals=Refusals(limits.max_bad_frames, lambda _state: None),
        clocks=clocks,
        limits=limits,
    )
    return games, connections, clocks


def _sent(effects: list[HostEffect], connection: int) -> list[object]:
    return [e.message for e in effects if isinstance(e, Send) and e.connection == connection]


def test_a_game_begins_with_its_events_on_disk_before_anyone_gets_them() -> None:
    room = make_room(Identity.generate(), investigators=1)
    for seat in range(2):
        room.take_seat(Identity.generate().public_hex, f"P{seat}", Role.ANY, seat)
    games, _connections, _clocks = _games(room)
    started, *published = games.begin(room)
    assert isinstance(started, Log) and started.event == "game-started"
    assert room.game is not None and isinstance(published[0], Persist)
    assert [e.connection for e in published if isinstance(e, Send)][:2] == [10, 11]
    assert published[-1] == TableChanged(room.nameplate), "the lobby and the advert change"
    assert games.deadlines.deadline() is None, "looked at only on the next watch"
    assert games.watch(0.0) == [] and games.deadlines.deadline() is not None


def test_an_action_the_game_refuses_or_a_chat_over_its_budget_changes_nothing() -> None:
    started = started_room(1)
    games, connections, _clocks = _games(started.room, HostLimits(chat_characters=5))
    assert started.room.game is not None
    held = len(started.room.game.events)
    seat = connections[ConnectionId(11)]
    [_log, refused] = games.act(seat, Act({"kind": "place"}), 0.0)
    assert isinstance(refused, Send) and isinstance(refused.message, Error)
    chat = Act({"kind": "chat", "body": {"text": "far too long a line"}})
    [_log, over] = games.act(seat, chat, 0.0)
    assert isinstance(over, Send) and isinstance(over.message, Error)
    assert over.message.code == ErrorCode.CHAT_LIMIT
    assert len(started.room.game.events) == held and seat.bad_frames == 2


def test_a_stalled_setup_is_aborted_and_published() -> None:
    started = started_room(1)
    games, _connections, _clocks = _games(started.room, HostLimits(setup_timeout=60.0))
    games.deadlines.published(started.room.nameplate)
    assert games.watch(0.0) == []
    aborted, persisted, *sent = games.watch(60.0)
    assert isinstance(aborted, Log) and aborted.event == "setup-aborted"
    assert isinstance(persisted, Persist) and len(persisted.lines) == 1
    assert [e.connection for e in sent if isinstance(e, Send)][:2] == [10, 11]
    assert started.room.game is not None and started.room.game.ended


def test_a_table_set_aside_lets_everyone_at_it_go_and_stops_its_clocks() -> None:
    started = started_room(1)
    room = started.room
    games, connections, _clocks = _games(room)
    games.deadlines.published(room.nameplate)
    games.watch(0.0)
    effects = games.set_aside(room, "call time", RuntimeError("a bug"))
    assert room.out_of_order == "could not call time this table's game (RuntimeError: a bug)"
    for connection in (10, 11):
        [told] = _sent(effects, connection)
        assert isinstance(told, Error) and told.fatal and told.code == ErrorCode.UNEXPECTED
        assert connections[ConnectionId(connection)].closing
    assert sum(isinstance(e, Close) for e in effects) == 2
    assert effects[-1] == TableChanged(room.nameplate)
    assert games.deadlines.deadline() is None, "its clocks stopped"
