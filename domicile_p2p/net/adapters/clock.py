"""The time a host keeps: its deadlines (the sand-glass, the set-up watch, the lobby's wait)
fall due on a :class:`Clock`.

A host serving the LAN keeps the event loop's time (:class:`LoopClock`).  A test, or a
tool that plays a table faster or slower than the wall, gives the host a
:class:`SteppedClock` and moves it on when it likes: a deadline then falls due exactly
when the clock is moved past it, never because the machine was slow.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Protocol


class Clock(Protocol):
    """Seconds on a monotonic clock, and a wait for a deadline on it."""

    def now(self) -> float: ...

    async def wait(self, woken: asyncio.Event, deadline: float | None) -> None:
        """Return once ``woken`` is set or the clock reaches ``deadline`` (``None``: never)."""


class LoopClock:
    """The running event loop's time (what a host serving the LAN keeps)."""

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    async def wait(self, woken: asyncio.Event, deadline: float | None) -> None:
        # asyncio.timeout_at, not wait_for: on Python 3.11 wait_for swallows a cancel that
        # comes as ``woken`` is set, and the host's clock task, told to stop, went round
        # its loop again and waited forever (a closing host hung, about 1 in 10 under load).
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout_at(deadline):
                await woken.wait()


class SteppedClock:
    """A clock that stands still until :meth:`advance` moves it on."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._moved = asyncio.Event()

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        """Move the clock on by ``seconds``: whatever waits for a deadline now passed runs."""
        if seconds < 0:
            raise ValueError("a clock never goes back")
        self._now += seconds
        moved, self._moved = self._moved, asyncio.Event()
        moved.set()

    async def wait(self, woken: asyncio.Event, deadline: float | None) -> None:
        while not woken.is_set() and (deadline is None or self._now < deadline):
            waits = {asyncio.ensure_future(woken.wait()), asyncio.ensure_future(self._moved.wait())}
            try:
                await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for waiting in waits:
                    waiting.cancel()
