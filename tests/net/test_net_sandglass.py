"""The host's sand-glass: its session calls time on an investigation when the timer runs out."""

from __future__ import annotations

import json
from pathlib import Path

from net_support import CODE, seated_table

from domicile_p2p.net.sessions.guards.sandglass import SEANCE_SEEN_WITHIN, SandGlass
from domicile_p2p.transcript.verify import verify


def test_the_sand_glass_runs_from_the_start_of_each_investigation() -> None:
    glass = SandGlass()
    assert glass.deadline() is None
    glass.observe(4, (1, 1), 30, now=100.0)
    glass.observe(4, (1, 1), 30, now=110.0)  # the same investigation: the clock keeps running
    assert glass.deadline() == 130.0
    assert glass.expired(129.9) == [] and glass.expired(130.0) == [4]
    glass.observe(4, (2, 1), 30, now=140.0)  # the next day's investigation: a new clock
    assert glass.deadline() == 170.0
    glass.observe(4, None, 30, now=150.0)  # the investigation ended by itself
    assert glass.deadline() is None and glass.expired(1000.0) == []
    glass.observe(5, (1, 1), None, now=0.0)  # a table without a sand-glass
    assert glass.deadline() is None


def test_the_host_calls_time_and_the_game_goes_on_to_a_valid_end(tmp_path: Path) -> None:
    network, peers = seated_table(tmp_path, timer=30)
    room = network.host.rooms[CODE.nameplate]

    def investigating() -> bool:
        return room.game is not None and room.game.investigation is not None

    network.run(peers, until=investigating)
    # The clock started when the host ordered the give that began the investigation.
    deadline = network.host.next_deadline()
    assert deadline is not None and network.now - 2 <= deadline - 30 <= network.now
    network.now = deadline - 0.5
    network.apply(network.host.tick(network.now))
    assert network.logged("time-up") == []
    network.now = deadline
    network.apply(network.host.tick(network.now))
    (called,) = network.logged("time-up")
    assert called["table"] == CODE.nameplate
    network.run(peers)
    lines = network.persisted[CODE.nameplate]
    assert [json.loads(line)["kind"] for line in lines].count("time-up") >= 1
    report = verify(b"".join(line + b"\n" for line in lines))
    assert report.valid, report.summary


def test_the_next_glass_is_turned_once_everyone_has_seen_the_seance() -> None:
    glass = SandGlass()
    glass.observe(4, (1, 1), 30, now=100.0, round=(1, 1))
    assert glass.deadline() == 130.0  # day 1: no séance before it
    glass.observe(4, None, 30, now=120.0, round=(1, 1))  # every marker locked
    glass.observe(4, None, 30, now=121.0, round=(2, 1))  # the séance, and day 2
    glass.observe(4, (2, 1), 30, now=122.0, round=(2, 1))  # the Ghost gave at once
    assert glass.deadline() == 121.0 + SEANCE_SEEN_WITHIN + 30
    glass.observe(4, None, 30, now=150.0, round=(2, 1))
    glass.observe(4, None, 30, now=151.0, round=(3, 1))
    late = 151.0 + SEANCE_SEEN_WITHIN + 5  # the Ghost thought long: the glass runs from the give
    glass.observe(4, (3, 1), 30, now=late, round=(3, 1))
    assert glass.deadline() == late + 30
