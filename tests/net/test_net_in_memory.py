"""The host with no listener (an offline table): the LAN's host over local links alone,
its draws from one seed, its deadlines on a clock the test moves on."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from domicile_p2p.bots import make_policy
from domicile_p2p.fairness.seeds import HOST, SelfplaySeeds
from domicile_p2p.identity import Identity
from domicile_p2p.net.adapters.clock import SteppedClock
from domicile_p2p.net.adapters.draws import SeededDraws
from domicile_p2p.net.adapters.host import HostConfig, TableHost
from domicile_p2p.net.adapters.in_memory import start_in_memory_host
from domicile_p2p.packs import Pack, load_default_pack
from domicile_p2p.rules import GHOST, Action, Policy, View
from domicile_p2p.transcript import Event
from domicile_p2p.transcript.schema import GenesisBody, Kind
from domicile_p2p.transcript.verify import verify

PACK = load_default_pack()
TURNS = 100_000
"""Turns of the event loop a table of bots with no delay gets to reach a point (it needs
a few thousand for a whole game; nothing here waits on the wall clock)."""


def bots_only(data_dir: Path, **options: Any) -> HostConfig:
    settings: dict[str, Any] = {
        "investigators": 2,
        "bot_seats": frozenset({1, 2}),
        "ghost_bot": True,
        "advertise": False,
        "pack": PACK,
        **options,
    }
    return HostConfig(data_dir=data_dir, **settings)


async def until(condition: Callable[[], bool], what: str) -> None:
    """Let the table run until ``condition`` holds (everything is in this loop: no clock)."""
    for _ in range(TURNS):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError(f"the table never reached {what}")


def events_of(host: TableHost) -> tuple[Event, ...]:
    [room] = host.rooms.values()
    return room.game.event_objects if room.game is not None else ()


def genesis_of(events: tuple[Event, ...]) -> GenesisBody:
    body = events[0].body
    assert isinstance(body, GenesisBody)
    return body


async def play_to_the_end(data_dir: Path, seed: int) -> tuple[TableHost, tuple[Event, ...]]:
    host = await start_in_memory_host(bots_only(data_dir), draws=SeededDraws(seed))
    try:
        await asyncio.wait_for(host.wait_done(), 120)
        return host, events_of(host)
    finally:
        await host.close()


async def test_a_table_with_no_listener_plays_a_whole_game_and_keeps_only_its_transcript(
    tmp_path: Path,
) -> None:
    host, events = await play_to_the_end(tmp_path / "offline", seed=11)
    assert host.port == 0 and host.urls == []  # nobody could dial it
    report = verify(list(events), pack=None)
    assert report.valid, report.summary
    game_id = genesis_of(events).game
    kept = sorted(path.relative_to(tmp_path) for path in tmp_path.rglob("*") if path.is_file())
    assert kept == [Path("offline", "games", f"{game_id}.json")]


async def test_a_seed_deals_and_plays_the_same_game_as_selfplay_would_every_time(
    tmp_path: Path,
) -> None:
    _, first = await play_to_the_end(tmp_path / "one", seed=5)
    _, second = await play_to_the_end(tmp_path / "two", seed=5)
    assert [event.link() for event in first] == [event.link() for event in second]
    schedule = SelfplaySeeds.from_number(5)
    genesis = genesis_of(first)
    assert genesis.game == schedule.game_id.hex()
    assert genesis.host == Identity.from_private_bytes(schedule.identity(HOST)).public_hex
    seat_keys = {entry.seat: entry.key for entry in genesis.seats}
    assert seat_keys[1] == Identity.from_private_bytes(schedule.identity(1)).public_hex
    _, other = await play_to_the_end(tmp_path / "three", seed=6)
    assert genesis_of(other).game != genesis.game


class Dawdler:
    """An investigator who never investigates: only a sand-glass ends its day."""

    def act(self, view: View) -> Action | None:
        return None


def dawdlers(seat: int, pack: Pack, seed: int) -> Policy:
    return make_policy(seat, pack, seed) if seat == GHOST else Dawdler()


async def test_the_sand_glass_runs_out_when_the_clock_is_moved_on_and_not_before(
    tmp_path: Path,
) -> None:
    clock = SteppedClock()
    config = bots_only(tmp_path, timer=30, policies=dawdlers)
    host = await start_in_memory_host(config, draws=SeededDraws(3), clock=clock)

    def investigating() -> bool:
        [room] = host.rooms.values()
        return room.game is not None and room.game.investigation is not None

    def time_up() -> bool:
        return any(event.kind == Kind.TIME_UP for event in events_of(host))

    try:
        await until(investigating, "the first investigation")
        clock.advance(29)
        seen = len(events_of(host))
        for _ in range(1_000):  # the table has nothing to do until the glass runs out
            await asyncio.sleep(0)
        assert len(events_of(host)) == seen and not time_up()
        clock.advance(1)
        await until(time_up, "the host calling time")
    finally:
        await host.close()
