"""The lobbies' clocks on their own (``sessions/lobby_clocks.py``)."""

from __future__ import annotations

from net_support import CODE, make_room

from domicile_p2p.identity import Identity
from domicile_p2p.net.join.codes import JoinCode
from domicile_p2p.net.sessions.lobby_clocks import LobbyClocks
from domicile_p2p.net.wire import Starts


def test_the_clocks_open_at_the_first_input_and_only_wait_lobbies_are_on_one() -> None:
    host = Identity.generate()
    waits = make_room(host, starts=Starts.WAIT, lobby_wait=30.0)
    full = make_room(host, code=JoinCode(8, CODE.first, CODE.second))
    clocks = LobbyClocks([waits, full], ready_timeout=120.0)
    assert clocks.waiting() == [waits]
    assert clocks.deadlines() == [], "no clock runs before the first input"
    clocks.open(5.0)
    clocks.open(9.0)
    assert clocks.deadlines() == [35.0], "the first input opens the clocks, once"
    clocks.stop(waits.nameplate)
    assert clocks.waiting() == [] and clocks.deadlines() == []


def test_a_ready_clock_runs_out_once() -> None:
    room = make_room(Identity.generate())
    clocks = LobbyClocks([room], ready_timeout=120.0)
    clocks.ready_clock(room, 10.0)
    assert clocks.deadlines() == [130.0]
    assert clocks.ready_over(129.0) == []
    assert clocks.ready_over(130.0) == [room]
    assert clocks.ready_over(200.0) == [], "once"
    clocks.wait(room)
    assert clocks.waiting() == [room]
