"""bench_host on slow actions: a GC pause inside, the host waiting for a CPU, or neither."""

from __future__ import annotations

import os
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))  # the scripts import their shared _common module

from _host.slow import GcPause, RunQueueWatch, attribute_slow  # noqa: E402


def _watch(samples: list[tuple[float, float]]) -> RunQueueWatch:
    """A watch of this process, stopped at once, with the given (time, waited so far) samples."""
    watch = RunQueueWatch(os.getpid(), every=0.001)
    watch.stop()
    watch.samples = samples
    return watch


def test_the_wait_inside_an_interval_is_the_growth_of_the_counter_across_it() -> None:
    watch = _watch([(0.0, 1.0), (1.0, 1.0), (2.0, 1.05), (3.0, 1.05)])
    assert abs(watch.waited(1.5, 1.9) - 0.05) < 1e-9, "from the sample before to the one after"
    assert watch.waited(2.0, 3.0) == 0.0
    assert watch.waited(10.0, 11.0) == 0.0, "after the last sample: nothing known"
    assert _watch([]).waited(0.0, 1.0) == 0.0


def test_a_slow_action_is_blamed_on_a_pause_inside_it_first_then_on_a_cpu_wait() -> None:
    pause = GcPause(1, 30.0, 10.02, 0)  # generation 1, 30 ms from t=10.02
    watch = _watch([(19.9, 0.0), (20.0, 0.0), (20.1, 0.04), (30.0, 0.04), (30.2, 0.045)])
    slow = [
        (10.0, 0.08),  # the pause falls inside
        (10.06, 0.07),  # starts after the pause ended, no CPU wait: neither
        (19.95, 0.1),  # 40 ms waiting for a CPU
        (29.95, 0.1),  # 5 ms waiting: below 20 ms, neither
    ]
    counts = attribute_slow(slow, [pause], watch)
    assert counts == {"slow": 4, "gc": 1, "cpu_wait": 1, "other": 2}
    assert attribute_slow(slow, [], None) == {"slow": 4, "gc": 0, "cpu_wait": 0, "other": 4}
