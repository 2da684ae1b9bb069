"""Why an action was slow: the host's garbage-collection pauses and its waits for a CPU.

Every action whose last peer waited over the target is matched against the
host's logged ``gc-pause`` records and against the time its event-loop thread
spent runnable but not running (:class:`RunQueueWatch`).
"""

from __future__ import annotations

import bisect
import contextlib
import json
import math
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .servers import Server


@dataclass(frozen=True)
class GcPause:
    """One logged pause of the host's garbage collector."""

    generation: int
    ms: float
    began: float
    """CLOCK_MONOTONIC, from the logged wall-clock start (NaN when the log has none)."""
    collected: int

    def overlaps(self, start: float, end: float) -> bool:
        return self.began < end and self.began + self.ms / 1000 > start


def gc_pauses(servers: Sequence[Server]) -> list[GcPause]:
    """The hosts' logged garbage-collection pauses so far (``gc-pause`` records)."""
    to_monotonic = time.monotonic() - time.time()
    pauses: list[GcPause] = []
    for server in servers:
        with contextlib.suppress(FileNotFoundError):
            for line in server.log.read_text().splitlines():
                if '"gc-pause"' in line:
                    with contextlib.suppress(ValueError, KeyError, TypeError):
                        record = json.loads(line)
                        began = float(record.get("began_unix", math.nan)) + to_monotonic
                        pauses.append(
                            GcPause(
                                int(record["generation"]),
                                float(record["ms"]),
                                began,
                                int(record.get("collected") or 0),
                            )
                        )
    return pauses


class RunQueueWatch:
    """Samples how long the host's event-loop thread has waited for a CPU (schedstat).

    ``/proc/PID/task/PID/schedstat`` counts the nanoseconds a thread was runnable but
    not running: time the host lost to other processes on the same cores, which
    no change to the host can win back.  Sampled every few milliseconds from a thread
    of this script, so that a slow action can be matched with the waits inside it.
    """

    def __init__(self, pid: int, every: float = 0.005) -> None:
        self._path = Path(f"/proc/{pid}/task/{pid}/schedstat")
        self._every = every
        self.samples: list[tuple[float, float]] = []
        self._stop = False
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while not self._stop:
            with contextlib.suppress(OSError, ValueError, IndexError):
                waited = int(self._path.read_text().split()[1]) / 1e9
                self.samples.append((time.monotonic(), waited))
            time.sleep(self._every)

    def stop(self) -> None:
        self._stop = True
        self._thread.join(1)

    def waited(self, start: float, end: float) -> float:
        """Seconds the thread waited for a CPU from the last sample at or before ``start`` to
        the first at or after ``end`` (so at most one sampling period more on each side)."""
        if not self.samples:
            return 0.0
        moments = [moment for moment, _ in self.samples]
        first = max(0, bisect.bisect_right(moments, start) - 1)
        last = min(len(moments) - 1, bisect.bisect_left(moments, end))
        return max(0.0, self.samples[last][1] - self.samples[first][1])


def attribute_slow(
    slow: Sequence[tuple[float, float]],
    pauses: Sequence[GcPause],
    run_queue: RunQueueWatch | None,
) -> dict[str, float]:
    """Why each action over the target was slow: a logged GC pause inside it, the host's
    loop waiting >= 20 ms for a CPU inside it, or neither (the loop busy or blocked)."""
    counts: dict[str, float] = {"slow": len(slow), "gc": 0, "cpu_wait": 0, "other": 0}
    for sent, took in slow:
        if any(pause.overlaps(sent, sent + took) for pause in pauses):
            counts["gc"] += 1
        elif run_queue is not None and run_queue.waited(sent, sent + took) >= 0.020:
            counts["cpu_wait"] += 1
        else:
            counts["other"] += 1
    return counts


def pauses_waiting(
    pauses: Sequence[GcPause], run_queue: RunQueueWatch
) -> list[tuple[int, float, float, int]]:
    """Each pause: generation, ms, ms of it the host's loop waited for a CPU, objects freed."""
    return [
        (
            pause.generation,
            pause.ms,
            round(1000 * run_queue.waited(pause.began, pause.began + pause.ms / 1000), 1),
            pause.collected,
        )
        for pause in pauses
    ]
