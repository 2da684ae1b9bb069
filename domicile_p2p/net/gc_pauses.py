"""The garbage collector's pauses on a host: kept short, and logged when long.

CPython's cyclic collector stops the event loop while it runs, and a full
(generation 2) collection visits every tracked object the process holds.  A
host of 1,000 tables holds millions of them (7,000 connections, every
table's game), so a full collection takes hundreds of milliseconds, and
every player of every table waits for it (measured: 205 ms at 300 tables,
``benchmarks/README.md``).

So the host moves what has survived a full collection out of the
collector's way (``gc.freeze``): the next full collection visits only what
was allocated since, and stays short.  The price: a reference cycle among
frozen objects that becomes garbage is not freed until the next thaw, so
every :data:`THAW_EVERY` seconds the host thaws everything, and the next
full collection visits the whole heap once (one long pause, logged) and
frees those cycles; then it freezes again.

Every collection longer than a threshold is logged (``gc-pause``:
generation, milliseconds), for the operator and ``benchmarks/bench_host.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from collections.abc import Mapping
from typing import Any, Final

from domicile_p2p.net.logs import LogSink

LONG_PAUSE: Final = 0.020
"""Seconds from which a collection is logged."""
THAW_EVERY: Final = 600.0
"""Seconds between thaws: how long cyclic garbage among frozen objects may wait."""
_OLDEST: Final = 2


class PauseWatch:
    """Freezes what survives full collections, thaws now and then, logs long pauses."""

    def __init__(
        self, log: LogSink, threshold: float = LONG_PAUSE, thaw_every: float = THAW_EVERY
    ) -> None:
        self._log = log
        self._threshold = threshold
        self._thaw_every = thaw_every
        self._started = 0.0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thaw_timer: asyncio.TimerHandle | None = None
        self.longest = 0.0
        self._noted: list[tuple[Any, float, Any, bool]] = []

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        """Start now: what the process holds after start-up is frozen at once."""
        if self._loop is not None:
            return
        self._loop = loop
        gc.callbacks.append(self._callback)
        gc.collect()
        gc.freeze()
        self._thaw_timer = loop.call_later(self._thaw_every, self._thaw)

    def uninstall(self) -> None:
        if self._loop is None:
            return
        self._loop = None
        if self._callback in gc.callbacks:
            gc.callbacks.remove(self._callback)
        if self._thaw_timer is not None:
            self._thaw_timer.cancel()
        gc.unfreeze()

    def _thaw(self) -> None:
        """The next full collection visits everything (and frees old cycles)."""
        if self._loop is None:
            return
        gc.unfreeze()
        self._thaw_timer = self._loop.call_later(self._thaw_every, self._thaw)

    def _callback(self, phase: str, info: Mapping[str, Any]) -> None:
        """Runs inside the collector, in whichever thread allocated: it only notes and
        hands over to the loop (logging here could wait on a lock its own thread holds)."""
        now = time.perf_counter()
        if phase == "start":
            self._started = now
            return
        took = now - self._started
        self.longest = max(self.longest, took)
        full = info.get("generation") == _OLDEST
        if took < self._threshold and not full:
            return
        self._noted.append((info.get("generation"), took, info.get("collected"), full))
        loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop has closed meanwhile
                loop.call_soon_threadsafe(self._after_collection)

    def _after_collection(self) -> None:
        noted, self._noted = self._noted, []
        for generation, took, collected, _full in noted:
            if took >= self._threshold:
                self._log(
                    "gc-pause",
                    {"generation": generation, "ms": round(1000 * took, 1), "collected": collected},
                )
        if self._loop is not None and any(full for *_rest, full in noted):
            gc.freeze()  # what survived the full collection: out of the next one's way
