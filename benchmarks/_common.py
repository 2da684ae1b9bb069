"""What every benchmark shares: timing, the machine, process statistics and the output.

Every benchmark prints a table for people and then, as its very last line
of standard output, one JSON object for machines::

    {"benchmark": "selfplay", "machine": {...}, "params": {...},
     "results": {...}, "targets": [{"name": ..., "value": ..., "limit": ...,
     "better": "lower"|"higher", "met": true|false|null, "note": ...}]}

A target compares a *ratio* against its own anchor measured in the same run
wherever the issue asks for one, so the verdict holds on a noisy or slow
machine; absolute numbers are reported next to it.  ``met`` is ``null`` for
a target that could not be measured in this run (the note says why).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import resource
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
"""The repository root (benchmarks run from a checkout)."""

_CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


# ----------------------------------------------------------------- the machine


def cpu_model() -> str:
    """The CPU model name from /proc/cpuinfo ("unknown" where there is none)."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def machine() -> dict[str, Any]:
    """What the numbers were measured on."""
    return {
        "nproc": os.cpu_count(),
        "cpu": cpu_model(),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "system": f"{platform.system()} {platform.release()}",
    }


def venv_bin(name: str) -> str:
    """A console script next to the running interpreter (the venv's ``domicile``)."""
    candidate = Path(sys.executable).parent / name
    return str(candidate) if candidate.exists() else name


def raise_nofile(wanted: int = 65_536) -> int:
    """Raise this process's open-file limit as far as allowed; the soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            # Root may raise the hard limit too; an unprivileged user keeps what it has.
            with contextlib.suppress(ValueError, OSError):
                resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, wanted))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


# ----------------------------------------------------------------- processes


@dataclass(frozen=True, slots=True)
class ProcessSample:
    """CPU seconds (user + system) and memory of one process, read from /proc."""

    cpu: float
    rss_bytes: int
    peak_rss_bytes: int


def process_sample(pid: int) -> ProcessSample | None:
    """``/proc/PID/stat`` utime+stime and ``/proc/PID/status`` VmRSS/VmHWM; None once it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    # The command name (field 2) may contain spaces: split after its closing parenthesis.
    fields = stat[stat.rfind(")") + 2 :].split()
    utime, stime = int(fields[11]), int(fields[12])
    memory = {}
    for line in status.splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            memory[key] = int(value.split()[0]) * 1024
    return ProcessSample(
        (utime + stime) / _CLOCK_TICKS, memory.get("VmRSS", 0), memory.get("VmHWM", 0)
    )


# ----------------------------------------------------------------- timing


def percentile(values: Sequence[float], fraction: float) -> float:
    """The ``fraction`` quantile (0-1) by linear interpolation; NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    position = fraction * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


@dataclass(frozen=True, slots=True)
class Timing:
    """Seconds per call over several rounds: the rounds' median and their best."""

    median: float
    best: float
    rounds: int
    calls: int

    def as_json(self) -> dict[str, float | int]:
        return {"median_s": self.median, "best_s": self.best, "rounds": self.rounds}


def time_calls(
    call: Callable[[], object],
    *,
    calls: int = 1,
    rounds: int = 5,
    warmup: int = 1,
    clock: Callable[[], float] = time.perf_counter,
) -> Timing:
    """Time ``call`` ``calls`` times per round, ``rounds`` rounds, after ``warmup`` rounds.

    The median round is the number to report; the best is the least disturbed
    by other load.  Anchors and the measured code go through this same
    function so their ratio compares like with like.  ``clock`` is wall time
    unless asked otherwise (``time.thread_time``: CPU time, to compare with a
    process's CPU read from ``/proc``).
    """
    for _ in range(warmup):
        for _ in range(calls):
            call()
    per_call = []
    for _ in range(rounds):
        started = clock()
        for _ in range(calls):
            call()
        per_call.append((clock() - started) / calls)
    return Timing(statistics.median(per_call), min(per_call), rounds, calls)


def interleaved(
    calls: Mapping[str, Callable[[], object]], *, rounds: int = 5, warmup: int = 1
) -> dict[str, Timing]:
    """Time several calls round-robin (one round of each, then again), so that load
    which comes and goes on the machine hits every one of them alike."""
    for _ in range(warmup):
        for call in calls.values():
            call()
    samples: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(rounds):
        for name, call in calls.items():
            started = time.perf_counter()
            call()
            samples[name].append(time.perf_counter() - started)
    return {
        name: Timing(statistics.median(values), min(values), rounds, 1)
        for name, values in samples.items()
    }


def ratio(value: float, anchor: float) -> float:
    return value / anchor if anchor > 0 else float("inf")


# ----------------------------------------------------------------- output


@dataclass(slots=True)
class Target:
    """One target of the issue: ``value`` against ``limit``; ``met`` None when not measured."""

    name: str
    value: float | None
    limit: float
    better: str  # "lower" or "higher"
    unit: str = ""
    note: str = ""

    @property
    def met(self) -> bool | None:
        if self.value is None or self.value != self.value:  # not measured, or NaN
            return None
        return self.value <= self.limit if self.better == "lower" else self.value >= self.limit

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "value": self.value,
            "limit": self.limit,
            "better": self.better,
            "unit": self.unit,
            "met": self.met,
            "note": self.note,
        }


@dataclass(slots=True)
class Report:
    """Rows for the human table, results and targets for the JSON line."""

    benchmark: str
    params: dict[str, Any]
    columns: tuple[str, ...]
    rows: list[tuple[Any, ...]] = field(default_factory=list)
    results: dict[str, Any] = field(default_factory=dict)
    targets: list[Target] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def row(self, *cells: Any) -> None:
        self.rows.append(cells)

    def note(self, text: str) -> None:
        self.notes.append(text)

    def emit(self, stream: Any = None) -> None:
        """Print the table, the targets and the notes, then the JSON line (always last)."""
        out = stream or sys.stdout
        print(render_table(self.columns, self.rows), file=out)
        if self.targets:
            print(file=out)
            print(
                render_table(
                    ("target", "value", "limit", "verdict"),
                    [
                        (
                            t.name,
                            "not measured" if t.value is None else f"{_cell(t.value)}{t.unit}",
                            f"{'<=' if t.better == 'lower' else '>='} {_cell(t.limit)}{t.unit}",
                            {True: "met", False: "MISSED", None: "n/a"}[t.met],
                        )
                        for t in self.targets
                    ],
                ),
                file=out,
            )
        for text in self.notes:
            print(f"note: {text}", file=out)
        line = {
            "benchmark": self.benchmark,
            "machine": machine(),
            "params": self.params,
            "results": self.results,
            "targets": [t.as_json() for t in self.targets],
            "notes": self.notes,
        }
        text = json.dumps(_finite(line), sort_keys=True, default=_json_default, allow_nan=False)
        print(text, file=out, flush=True)


def _finite(value: Any) -> Any:
    """NaN and infinities (a rate over nothing) as null: the JSON line stays strict JSON."""
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(item) for item in value]
    if isinstance(value, Timing):
        return value.as_json()
    return value


def _json_default(value: Any) -> Any:
    if isinstance(value, Timing):
        return value.as_json()
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"not JSON: {type(value).__name__}")


def _cell(value: Any) -> str:
    if isinstance(value, float):
        if value != value:  # NaN
            return "-"
        if value == 0:
            return "0"
        magnitude = abs(value)
        if magnitude >= 1000:
            return f"{value:,.0f}"
        if magnitude >= 10:
            return f"{value:.1f}"
        if magnitude >= 0.01:
            return f"{value:.3f}"
        return f"{value:.2e}"
    if value is None:
        return "-"
    return str(value)


def render_table(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A plain aligned table (also valid GitHub Markdown)."""
    cells = [[_cell(c) for c in row] for row in rows]
    widths = [len(c) for c in columns]
    for row in cells:
        for index, cell in enumerate(row):
            widths[index] = max(widths[index], len(cell))

    def line(values: Sequence[str]) -> str:
        return "| " + " | ".join(v.ljust(w) for v, w in zip(values, widths, strict=True)) + " |"

    rule = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(columns), rule, *(line(row) for row in cells)])


def parser(description: str) -> argparse.ArgumentParser:
    """The options every benchmark takes; add its own sizes to it."""
    result = argparse.ArgumentParser(description=description)
    result.add_argument(
        "--quick",
        action="store_true",
        help="tiny sizes: checks the benchmark runs (the smoke test), measures nothing useful",
    )
    return result


@contextlib.contextmanager
def stopwatch() -> Iterator[Callable[[], float]]:
    """``with stopwatch() as elapsed: ...; elapsed()`` seconds since the block began."""
    started = time.perf_counter()
    yield lambda: time.perf_counter() - started


def ms(seconds: float) -> float:
    return seconds * 1000.0
