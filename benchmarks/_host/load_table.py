"""One table of the load generator: its seven connections, their time stamps, its pace.

Whichever server is under test, a table is measured the same way: every
frame that arrives on any of its seven connections is stamped
(:meth:`TableLoad.stamp`), and an action is done once its event has reached
all seven.  Both servers are offered the same load by :func:`at_pace`.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from .layout import SEATS, TARGET_P99_S


class _EventStamp(msgspec.Struct):
    seat: int | None = None
    counter: int | None = None


class Frame(msgspec.Struct):
    """What the load generator reads of every frame: its type and its events' origins."""

    type: str
    start: int = 0
    events: list[_EventStamp] = msgspec.field(default_factory=list)


_frame_decoder = msgspec.json.Decoder(Frame)

FrameHandler = Callable[[str | bytes, Frame], None]
"""What the table's checking connection does with each frame, after its stamp."""

Pacer = Callable[["TableLoad", float, float, float], Awaitable[None]]
"""How a phase drives one table: ``pacer(table, pace, rate, stop)``."""


@dataclass
class Window:
    """The measurement window, on CLOCK_MONOTONIC (shared by every process)."""

    start: float = math.inf
    end: float = math.inf

    def inside(self, moment: float) -> bool:
        return self.start <= moment < self.end


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    """Per peer: send of the action to arrival of its event on one connection."""
    worst: list[float] = field(default_factory=list)
    """Per action: send to arrival on the last of the seven connections."""
    slow: list[tuple[float, float]] = field(default_factory=list)
    """Actions whose last peer waited over the target: (sent at, CLOCK_MONOTONIC; seconds)."""
    events: int = 0
    sent: int = 0
    refused: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


class TableLoad:
    """One table's seven connections, its shared replica and its pacer."""

    def __init__(self, spec: dict[str, Any], plan: dict[str, Any], stats: Stats, window: Window):
        self.spec = spec
        self.plan = plan
        self.stats = stats
        self.window = window
        self.connections: list[Any] = [None] * SEATS
        self.pending: dict[tuple[int, int], list[float]] = {}
        """(seat, counter) -> [sent at, arrivals so far, worst]."""
        self._changed = asyncio.Event()
        self.done = False
        self.counters = [0] * SEATS
        # Filled in by the domicile mode:
        self.replica: Any = None
        self.players: list[Any] = []
        self.policies: list[Any] = []
        self.identities: list[Any] = [None] * SEATS

    # ------------------------------------------------------------- waiting

    def notify(self) -> None:
        """Wake every waiter (each waits on the event that was current when it looked)."""
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    async def until(self, condition: Callable[[], bool], stop: float) -> bool:
        """Wait until ``condition()`` holds (True) or the clock passes ``stop`` (False)."""
        while True:
            changed = self._changed
            if condition():
                return True
            remaining = stop - time.monotonic()
            if remaining <= 0:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), min(remaining, 1.0))

    def in_flight(self, seat: int | None = None) -> bool:
        return any(seat is None or key[0] == seat for key in self.pending)

    # ------------------------------------------------------------- frames in

    def stamp(self, frame: str | bytes, now: float) -> Frame | None:
        try:
            parsed = _frame_decoder.decode(frame)
        except msgspec.DecodeError:
            return None
        if parsed.type != "events":
            return parsed
        for event in parsed.events:
            if event.seat is None or event.counter is None:
                continue
            entry = self.pending.get((event.seat, event.counter))
            if entry is None:
                continue
            latency = now - entry[0]
            entry[1] += 1
            entry[2] = max(entry[2], latency)
            if self.window.inside(entry[0]):
                self.stats.latencies.append(latency)
            if entry[1] == SEATS:
                del self.pending[(event.seat, event.counter)]
                if self.window.inside(entry[0]):
                    self.stats.worst.append(entry[2])
                    if entry[2] > TARGET_P99_S:
                        self.stats.slow.append((entry[0], entry[2]))
                self.notify()
        return parsed

    def sent(self, seat: int, counter: int) -> None:
        now = time.monotonic()
        self.pending[(seat, counter)] = [now, 0, 0.0]
        if self.window.inside(now):
            self.stats.sent += 1

    def counted(self, count: int) -> None:
        if self.window.inside(time.monotonic()):
            self.stats.events += count


async def read_frames(
    table: TableLoad, seat: int, websocket: Any, on_frame: FrameHandler | None
) -> None:
    """Stamp every frame of one connection until it closes (a failure unless the run is done)."""
    from websockets.exceptions import ConnectionClosed

    try:
        async for frame in websocket:
            now = time.monotonic()
            parsed = table.stamp(frame, now)
            if on_frame is not None and parsed is not None:
                on_frame(frame, parsed)
    except ConnectionClosed as closed:
        if not table.done:
            table.stats.failures.append(f"table {table.spec['key']} seat {seat}: {closed}")
    except Exception as exc:  # a bug here must end the run loudly, not hang it
        table.stats.failures.append(f"table {table.spec['key']} seat {seat}: {exc!r}")


async def at_pace(
    table: TableLoad, pace: float, stop: float, act: Callable[[int], Awaitable[bool]]
) -> None:
    """One action of the table every ``pace`` seconds (``act(turn)``; False: no more to send).

    The domicile host and the bare anchor are driven by this one loop, so that they
    are offered exactly the same load.
    """
    turn = 0
    due_at = time.monotonic() + random.uniform(0, pace)
    while time.monotonic() < stop:
        await asyncio.sleep(max(0.0, due_at - time.monotonic()))
        due_at += pace
        # One action in flight per table: the last one must have reached all seven.
        if not await table.until(lambda: not table.in_flight(), stop):
            return
        if not await act(turn):
            return
        turn += 1


async def chatter(
    table: TableLoad, seat: int, rate: float, stop: float, send: Callable[[], Awaitable[None]]
) -> None:
    """Saturation, one investigator: ``send()`` at ``rate`` per second, once the seat's
    previous action has reached all seven (the closed loop both servers are driven by)."""
    last = 0.0
    while time.monotonic() < stop:
        if not await table.until(lambda: not table.in_flight(seat), stop):
            return
        await asyncio.sleep(max(0.0, last + 1.0 / rate - time.monotonic()))
        last = time.monotonic()
        await send()
