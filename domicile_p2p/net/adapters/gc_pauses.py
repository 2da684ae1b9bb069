"""The garbage collector's pauses on a host: kept short, and logged when long.

CPython's cyclic collector stops the event loop while it runs, and a full
(generation 2) collection visits every tracked object the process holds.  A
host of 1,000 tables holds millions of them (7,000 connections, every
table's game), so a full collection takes hundreds of milliseconds, and
every player of every table waits for it (measured: 205 ms at 300 tables,
``benchmarks/README.md``).

So the host moves what has survived a collection of the middle generation
out of the collector's way (``gc.freeze``): no later collection visits it
again, and full collections see only the few objects promoted since the last
freeze.  The middle generation is collected after every
:data:`MIDDLE_EVERY` young collections rather than CPython's 10: each of its
collections visits what survived the young ones since the last, which at
1,000 tables is the games' new long-lived objects (events, ledgers) of a few
seconds; at 10 that took 23-35 ms every ~3 s (measured), a fifth as many
objects a fifth as long.  What is frozen is then visited only twice (a young
and a middle collection) instead of again at every full collection.

The price: a reference cycle among frozen objects that becomes garbage is not
freed until the next thaw, so every :data:`THAW_EVERY` seconds the host
thaws everything and collects it at once (one long pause, logged: the whole
heap, hundreds of milliseconds at 1,000 tables) and freezes what survives
again.  Memory is so bounded by ten minutes of cyclic garbage; what dies
without a cycle (nearly everything: the games' states, frames, buffers) is
freed by its reference count at once, frozen or not.

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

from domicile_p2p.net.adapters.logs import LogSink

LONG_PAUSE: Final = 0.020
"""Seconds from which a collection is logged."""
THAW_EVERY: Final = 600.0
"""Seconds between thaws: how long cyclic garbage among frozen objects may wait."""
MIDDLE_EVERY: Final = 2
"""Young collections between two collections of the middle generation (CPython: 10)."""
FREEZE_FROM: Final = 1
"""The survivors of a collection of this generation or an older one are frozen."""


class PauseWatch:
    """Freezes what survives middle and full collections, thaws now and then, logs long pauses."""

    def __init__(
        self, log: LogSink, threshold: float = LONG_PAUSE, thaw_every: float = THAW_EVERY
    ) -> None:
        self._log = log
        self._threshold = threshold
        self._thaw_every = thaw_every
        self._started = 0.0
        self._began = 0.0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thaw_timer: asyncio.TimerHandle | None = None
        self.longest = 0.0
        self._noted: list[tuple[Any, float, Any, bool, float]] = []
        self._thresholds: tuple[int, int, int] | None = None

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        """Start now: what the process holds after start-up is frozen at once."""
        if self._loop is not None:
            return
        self._loop = loop
        young, _middle, old = self._thresholds = gc.get_threshold()
        gc.set_threshold(young, MIDDLE_EVERY, old)
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
        if self._thresholds is not None:
            gc.set_threshold(*self._thresholds)
            self._thresholds = None
        gc.unfreeze()

    def _thaw(self) -> None:
        """Visit everything once (and free the cycles that died frozen); freeze the rest."""
        if self._loop is None:
            return
        gc.unfreeze()
        gc.collect()  # the one long pause; the watch freezes its survivors right after
        self._thaw_timer = self._loop.call_later(self._thaw_every, self._thaw)

    def _callback(self, phase: str, info: Mapping[str, Any]) -> None:
        """Runs inside the collector, in whichever thread allocated: it only notes and
        hands over to the loop (logging here could wait on a lock its own thread holds)."""
        now = time.perf_counter()
        if phase == "start":
            self._started = now
            self._began = time.time()
            return
        took = now - self._started
        self.longest = max(self.longest, took)
        generation = info.get("generation", 0)
        freeze = generation >= FREEZE_FROM
        if took < self._threshold and not freeze:
            return
        self._noted.append((generation, took, info.get("collected"), freeze, self._began))
        loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop has closed meanwhile
                loop.call_soon_threadsafe(self._after_collection)

    def _after_collection(self) -> None:
        noted, self._noted = self._noted, []
        for generation, took, collected, _full, began in noted:
            if took >= self._threshold:
                self._log(
                    "gc-pause",
                    {
                        "generation": generation,
                        "ms": round(1000 * took, 1),
                        "collected": collected,
                        "began_unix": round(began, 3),  # to match a pause with slow replies
                    },
                )
        if self._loop is not None and any(entry[3] for entry in noted):
            gc.freeze()  # what survived a middle or full collection: out of every next one's way
