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


def test_the_next_glass_waits_at_most_seance_seen_within_for_people_who_never_say_seen() -> None:
    glass = SandGlass()
    glass.observe(4, (1, 1), 30, now=100.0, round=(1, 1), people={1, 2})
    assert glass.deadline() == 130.0  # day 1: no séance before it
    glass.observe(4, None, 30, now=120.0, round=(1, 1), people={1, 2})  # every marker locked
    glass.observe(4, None, 30, now=121.0, round=(2, 1), people={1, 2})  # the séance, and day 2
    glass.observe(4, (2, 1), 30, now=122.0, round=(2, 1), people={1, 2})  # the Ghost gave at once
    assert glass.deadline() == 121.0 + SEANCE_SEEN_WITHIN + 30
    glass.observe(4, None, 30, now=150.0, round=(2, 1), people={1, 2})
    glass.observe(4, None, 30, now=151.0, round=(3, 1), people={1, 2})
    late = 151.0 + SEANCE_SEEN_WITHIN + 5  # the Ghost thought long: the glass runs from the give
    glass.observe(4, (3, 1), 30, now=late, round=(3, 1), people={1, 2})
    assert glass.deadline() == late + 30
    glass.seen(4, 1, (3, 1), now=late + 1)  # seen after the wait: changes nothing, says nothing
    glass.seen(4, 2, (3, 1), now=late + 1)
    assert glass.deadline() == late + 30 and glass.all_seen() == []


def _told_day_2(glass: SandGlass, people: set[int]) -> None:
    """Day 1 under way at 100, its séance told at 121 to ``people``, day 2 given at 122."""
    glass.observe(4, (1, 1), 30, now=100.0, round=(1, 1), people=people)
    glass.observe(4, None, 30, now=121.0, round=(2, 1), people=people)
    glass.observe(4, (2, 1), 30, now=122.0, round=(2, 1), people=people)


def test_the_next_glass_turns_once_everyone_has_seen_the_seance() -> None:
    glass = SandGlass()
    _told_day_2(glass, {1, 3})
    assert glass.deadline() == 121.0 + SEANCE_SEEN_WITHIN + 30  # nobody has said seen yet
    glass.seen(4, 1, (2, 1), now=124.0)
    assert glass.deadline() == 121.0 + SEANCE_SEEN_WITHIN + 30 and glass.all_seen() == []
    glass.seen(4, 3, (2, 1), now=126.0)  # the last person: the glass turns now
    assert glass.deadline() == 126.0 + 30
    assert glass.all_seen() == [(4, (2, 1))]
    assert glass.all_seen() == []  # said once


def test_seen_before_the_give_turns_the_glass_at_the_give() -> None:
    glass = SandGlass()
    glass.observe(4, (1, 1), 30, now=100.0, round=(1, 1), people={1})
    glass.observe(4, None, 30, now=121.0, round=(2, 1), people={1})
    glass.seen(4, 1, (2, 1), now=123.0)
    assert glass.all_seen() == [(4, (2, 1))]
    glass.observe(4, (2, 1), 30, now=125.0, round=(2, 1), people={1})
    assert glass.deadline() == 125.0 + 30


def test_a_table_without_people_turns_the_glass_at_the_give() -> None:
    glass = SandGlass()
    _told_day_2(glass, set())  # bots only (or only spectators watch)
    assert glass.deadline() == 122.0 + 30
    assert glass.all_seen() == [(4, (2, 1))]


def test_a_person_who_left_is_not_waited_for_and_a_wrong_round_changes_nothing() -> None:
    glass = SandGlass()
    _told_day_2(glass, {1, 2})
    glass.seen(4, 1, (1, 1), now=123.0)  # an earlier round's séance
    glass.seen(4, 5, (2, 1), now=123.0)  # a seat nobody waits for
    glass.seen(4, 1, (2, 1), now=123.0)
    glass.seen(4, 1, (2, 1), now=123.5)  # twice is once
    assert glass.deadline() == 121.0 + SEANCE_SEEN_WITHIN + 30
    glass.left(4, 2, now=124.0)  # the other person disconnected
    assert glass.deadline() == 124.0 + 30
    assert glass.all_seen() == [(4, (2, 1))]
