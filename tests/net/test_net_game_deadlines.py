"""The games' deadlines on their own: a setup step not taken (``sessions/deadlines.py``)."""

from __future__ import annotations

from net_support import started_room

from domicile_p2p.net.sessions.deadlines import GameDeadlines


def test_a_stalled_setup_is_aborted_once_naming_the_seats_it_waits_for() -> None:
    started = started_room(1)
    room = started.room
    deadlines = GameDeadlines({room.nameplate: room}, setup_timeout=60.0)
    assert deadlines.deadline() is None, "nothing looked at yet"
    deadlines.look(10.0)
    assert deadlines.deadline() == 70.0
    assert deadlines.stalled(69.9) == []
    assert deadlines.stalled(70.0) == [room]
    statement = deadlines.abort(room)
    assert statement is not None and statement.lobby_changed and statement.start == 1
    assert statement.event["kind"] == "abort"
    assert statement.log.event == "setup-aborted"
    assert statement.log.fields["table"] == room.nameplate
    assert statement.log.fields["seats"] == [0, 1], "a list, as a log record holds it"
    assert deadlines.stalled(100.0) == [], "aborted once"
    deadlines.published(room.nameplate)
    deadlines.look(100.0)
    assert deadlines.deadline() is None, "a game that ended has no setup deadline"


def test_time_is_called_only_on_an_investigation_under_way_and_a_table_set_aside_stops() -> None:
    started = started_room(1, timer=60)
    room = started.room
    deadlines = GameDeadlines({room.nameplate: room}, setup_timeout=60.0)
    deadlines.look(0.0)
    assert deadlines.out_of_time(1000.0) == [], "the setup is not an investigation"
    assert deadlines.call_time(room) is None
    deadlines.forget(room.nameplate)
    assert deadlines.deadline() is None and deadlines.stalled(1000.0) == []
