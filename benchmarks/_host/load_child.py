"""One load generator process: many tables from one loopback source address.

It talks to the parent over its standard streams, one JSON line each way:

- in: the plan (``mode``, ``source``, ``tables``, ``rate``, ``join_concurrency``,
  ``phases``); out: ``{"seated": N, "join_s": S}`` once every seat is taken
  (or ``{"error": ...}``);
- then per phase, in: ``go T`` (the phase starts at CLOCK_MONOTONIC ``T``, its
  window ``warmup`` later); out: the phase's measurements (:func:`_phase_report`);
  ``stop`` instead of ``go`` ends the run.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import importlib
import json
import os
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

from _common import percentile, process_sample, raise_nofile

from .layout import SEATS
from .load_table import FrameHandler, Stats, TableLoad, Window, read_frames

PENDING_JOINS = 6
"""Joins in flight per server: under the host's ``pending_joins`` limit (8 per address)."""


def main() -> int:
    raise_nofile()
    plan = json.loads(sys.stdin.readline())
    asyncio.run(_run(plan))
    return 0


async def _run(plan: dict[str, Any]) -> None:
    # load_domicile or load_bare: each has join_seat, frames and pacer.
    mode = importlib.import_module(f".load_{plan['mode']}", __package__)
    stats = Stats()
    window = Window()
    tables = [TableLoad(spec, plan, stats, window) for spec in plan["tables"]]
    started = time.monotonic()
    try:
        await _join(tables, plan, mode.join_seat)
    except Exception as exc:  # a refused join: tell the parent why, in one line
        _say({"error": f"joining failed: {exc!r}"})
        return
    joined = time.monotonic() - started
    readers = _read_all(tables, mode.frames)
    # The load generator's own pauses must not pass for the host's latency: move what the
    # joins allocated out of the collector's way, and watch the event loop's lag.
    gc.collect()
    gc.freeze()
    lags: list[float] = []
    monitor = asyncio.ensure_future(_watch_lag(lags, window))
    _say({"seated": len(tables), "join_s": joined})
    line = await _hear()
    for phase in plan["phases"]:
        if not line.startswith("go"):  # "stop"
            break
        window.start = float(line.split()[1]) + phase["warmup"]
        window.end = window.start + phase["duration"]
        before = (len(stats.latencies), len(stats.worst), len(stats.slow))
        pacer = mode.pacer(phase["pace"])
        await asyncio.gather(
            *(pacer(table, phase["pace"], plan["rate"], window.end) for table in tables)
        )
        await asyncio.sleep(0.3)  # the last events' arrivals
        _say(_phase_report(phase["name"], stats, before, lags))
        stats.events = stats.sent = 0
        stats.refused.clear()
        line = await _hear()
    await _hang_up(tables)
    for reader in readers:
        reader.cancel()
    monitor.cancel()


def _read_all(
    tables: list[TableLoad], frames: Callable[[TableLoad], FrameHandler]
) -> list[asyncio.Task[None]]:
    """A reader per connection; one connection per table also feeds ``frames(table)``."""
    readers = []
    for table in tables:
        checking = frames(table)
        for seat, websocket in enumerate(table.connections):
            on_frame = checking if seat == 0 else None
            readers.append(asyncio.ensure_future(read_frames(table, seat, websocket, on_frame)))
    return readers


async def _join(
    tables: list[TableLoad], plan: dict[str, Any], join: Callable[[TableLoad, int], Awaitable[None]]
) -> None:
    """Seat 0 first at every table (the Ghost), then the others, all tables at once.

    At most a few joins in flight per server (the host refuses more than 8 pending joins
    from one address) and a bounded number overall (each costs two SPAKE2 operations).
    """
    per_server = {spec["url"]: asyncio.Semaphore(PENDING_JOINS) for spec in plan["tables"]}
    overall = asyncio.Semaphore(plan["join_concurrency"])

    async def take_seat(table: TableLoad, seat: int) -> None:
        async with per_server[table.spec["url"]], overall:
            await join(table, seat)

    await asyncio.gather(*(take_seat(table, 0) for table in tables))
    await asyncio.gather(*(take_seat(table, seat) for table in tables for seat in range(1, SEATS)))


def _phase_report(
    name: str, stats: Stats, before: tuple[int, int, int], lags: list[float]
) -> dict[str, Any]:
    """What the parent reads of one phase: the stamps since ``before``, counts, own lag."""
    latencies, worst, slow = before
    lag = sorted(lags)
    lags.clear()
    own = process_sample(os.getpid())
    if own is None:
        raise RuntimeError("cannot read this process's own /proc entry")
    return {
        "phase": name,
        "latencies": [round(x, 6) for x in stats.latencies[latencies:]],
        "worst": [round(x, 6) for x in stats.worst[worst:]],
        "slow": [[round(a, 4), round(b, 4)] for a, b in stats.slow[slow:]],
        "events": stats.events,
        "sent": stats.sent,
        "refused": stats.refused[:5],
        "failures": stats.failures[:5],
        "cpu": own.cpu,
        "loop_lag_p99": percentile(lag, 0.99) if lag else None,
        "loop_lag_max": lag[-1] if lag else None,
    }


async def _hang_up(tables: list[TableLoad]) -> None:
    for table in tables:
        table.done = True
    for table in tables:
        for websocket in table.connections:
            if websocket is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(websocket.close(), 2)


async def _watch_lag(lags: list[float], window: Window) -> None:
    """How late a 10 ms sleep wakes up, during the window: this process's own scheduling delay."""
    while True:
        before = time.monotonic()
        await asyncio.sleep(0.01)
        late = time.monotonic() - before - 0.01
        if window.inside(before):
            lags.append(late)


def _say(record: dict[str, Any]) -> None:
    print(json.dumps(record), flush=True)


async def _hear() -> str:
    return await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
