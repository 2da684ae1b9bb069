"""What a table's seats and spectators get, on its own (``sessions/fanout.py``)."""

from __future__ import annotations

from net_support import started_room

from domicile_p2p.net.sessions.audience import Audience
from domicile_p2p.net.sessions.effects import (
    ConnectionId,
    GameFinished,
    Persist,
    Send,
    TableChanged,
)
from domicile_p2p.net.sessions.fanout import FanOut
from domicile_p2p.net.wire import Events, Lobby, PeerHead, event_frames


def test_new_events_are_persisted_before_everyone_gets_them_seats_first() -> None:
    started = started_room(1)
    room = started.room
    audience = Audience([room.nameplate])
    audience.watch(room.nameplate, ConnectionId(99), "Eve")
    audience.sit(room.nameplate, 1, ConnectionId(11))
    audience.sit(room.nameplate, 0, ConnectionId(10))
    fan_out = FanOut(audience, ready_timeout=30.0)
    assert room.game is not None
    events = room.game.events
    effects = fan_out.events(room, 0, events, lobby_changed=False)
    persist, *sends = effects
    assert persist == Persist(room.nameplate, tuple(room.game.lines))
    assert [send.connection for send in sends if isinstance(send, Send)] == [10, 11, 99]
    frames = list(event_frames(0, events))
    assert all(isinstance(frame, Events) for frame in frames)
    assert [send.message for send in sends if isinstance(send, Send)] == frames * 3
    changed = fan_out.events(room, len(events), [], lobby_changed=True)
    lobbies = [e for e in changed if isinstance(e, Send) and isinstance(e.message, Lobby)]
    assert [send.connection for send in lobbies] == [10, 11, 99]
    assert changed[-1] == TableChanged(room.nameplate)
    assert not any(isinstance(e, GameFinished) for e in effects + changed), "not over yet"


def test_a_catch_up_sends_what_a_connection_lacks_and_a_relay_skips_its_sender() -> None:
    started = started_room(1)
    room = started.room
    audience = Audience([room.nameplate])
    audience.sit(room.nameplate, 0, ConnectionId(10))
    audience.sit(room.nameplate, 1, ConnectionId(11))
    audience.watch(room.nameplate, ConnectionId(99), "Eve")
    fan_out = FanOut(audience, ready_timeout=30.0)
    assert room.game is not None
    held = len(room.game.events)
    frames = list(event_frames(held - 1, room.game.events[held - 1 :]))
    assert fan_out.catch_up(ConnectionId(11), room, held - 1) == [
        Send(ConnectionId(11), frame) for frame in frames
    ]
    assert frames and frames[0].start == held - 1, "from what it lacks on"
    assert fan_out.catch_up(ConnectionId(11), room, held + 5) == [], "nothing past the end"
    head = PeerHead(0, 0, "00" * 32, "00" * 64)
    assert fan_out.others(room, ConnectionId(10), head) == [
        Send(ConnectionId(11), head),
        Send(ConnectionId(99), head),
    ]
    lobby = fan_out.lobby_of(room)
    assert {status.seat for status in lobby.seats if status.connected} == {0, 1}
