"""The report of ``bench_host.py``: one row per server, K and phase; the targets; notes.

Targets (issue 7): 1,000 tables on one host core at human pace with p99 <= 50
ms and <= 1 GiB; per-core throughput at saturation >= 0.5 x the bare server.
Issue 11 adds, beside the last: the host's CPU per event at saturation <= 1.3
x (the bare fan-out's CPU per event + the Ed25519 work of an event), all three
measured in the same run.
"""

from __future__ import annotations

import argparse
import math
import statistics
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from _common import Report, Target, ms, percentile

from .layout import SEATS, TARGET_P99_S
from .measure import PhaseResult, Setup
from .profiling import profile_notes
from .servers import LABELS

TARGET_MEMORY = 1 << 30
TARGET_THROUGHPUT_RATIO = 0.5
TARGET_CPU_PER_EVENT_RATIO = 1.3

Measured = dict[str, dict[int, list[PhaseResult]]]
"""Kind of server -> K -> its phases' results."""

COLUMNS = (
    "server",
    "K",
    "phase",
    "events/s",
    "p50 ms",
    "p99 ms",
    "p99 last peer ms",
    "host cores",
    "events/s per core",
    "peak MiB (sum)",
    "load gen cores",
    "load gen lag p99 ms",
    "host GC pauses > 20 ms (max ms)",
    "slow actions: gc/cpu wait/other; host CPU wait ms/s",
    "failures",
)


def start(args: argparse.Namespace, nofile: int) -> Report:
    """An empty report of this run's parameters (and a warning if file descriptors are short)."""
    report = Report(
        "host",
        {
            "tables": args.sizes,
            "pace_s": args.pace,
            "saturation_rate_per_connection": args.rate,
            "duration_s": args.duration,
            "warmup_s": args.warmup,
            "tables_per_host_process": args.tables_per_host,
            "server_nice": args.server_nice,
            "gc_thaw_every": args.gc_thaw_every,
            "nofile": nofile,
        },
        COLUMNS,
    )
    needed = max(args.sizes) * SEATS * 2 + 256
    if nofile < needed:
        report.note(f"RLIMIT_NOFILE is {nofile}; K={max(args.sizes)} needs about {needed}")
    return report


def add_run(
    report: Report, kind: str, tables: int, results: Sequence[PhaseResult], setup: Setup
) -> None:
    """The rows of one kind of server at one K, its results and its profile."""
    record: dict[str, Any] = {"setup": asdict(setup)}
    report.results[f"{kind}_k{tables}"] = record
    for result in results:
        report.row(
            LABELS[kind],
            tables,
            result.name,
            result.events_per_s,
            ms(percentile(result.latencies, 0.5)),
            ms(percentile(result.latencies, 0.99)),
            ms(percentile(result.worst, 0.99)),
            result.host_cores,
            result.capacity_per_core,
            setup.peak_memory_bytes / 2**20,
            result.load_cores,
            ms(result.load_lag_p99),
            _pause_summary(result.gc_pauses),
            _causes_summary(result.slow_causes),
            len(result.failures),
        )
        record[result.name] = _result_json(result)
        if result.profile:
            for text in profile_notes(f"{kind} K={tables}", result.profile, result.cpu_per_event):
                report.note(text)


def add_failure(report: Report, kind: str, tables: int, error: Exception) -> None:
    report.note(f"{kind} K={tables}: could not be measured: {error}")
    report.results[f"{kind}_k{tables}"] = {"error": str(error)}


def finish(report: Report, measured: Measured, tables_per_host: int) -> None:
    """The targets, and the note on how K tables map to host processes."""
    _human_targets(report, measured)
    for tables, results in measured["domicile"].items():
        mine = _phase(results, "saturation")
        anchor = _phase(measured["bare"].get(tables, []), "saturation")
        if mine is not None:
            _saturation_targets(report, tables, mine, anchor)
    report.note(
        f"one host process serves up to {tables_per_host} tables: K tables run as "
        f"ceil(K/{tables_per_host}) host processes; CPU and memory are their sums"
    )


def _result_json(result: PhaseResult) -> dict[str, Any]:
    return {
        "events_per_s": result.events_per_s,
        "actions_sent": result.sent,
        "latency_p50_s": percentile(result.latencies, 0.5),
        "latency_p99_s": percentile(result.latencies, 0.99),
        "latency_last_peer_p99_s": percentile(result.worst, 0.99),
        "samples": len(result.latencies),
        "host_cores": result.host_cores,
        "events_per_s_per_core": result.capacity_per_core,
        "cpu_per_event_s": result.cpu_per_event,
        "disk_threads_cpu_per_event_s": result.disk_cpu_per_event,
        "ed25519_inside_host": result.inside,
        "load_cores": result.load_cores,
        "load_loop_lag_p99_s": result.load_lag_p99,
        "load_loop_lag_max_s": result.load_lag_max,
        "host_gc_pauses_ms": result.gc_pauses,
        "slow_actions_by_cause": result.slow_causes,
        "host_gc_pauses_generation_ms_cpu_wait_ms_collected": result.pauses_waiting,
        "failures": result.failures,
        "refused": result.refused,
        "profile": result.profile.shares if result.profile else None,
        "profile_cpu_self": result.profile.self_time if result.profile else None,
        "profile_cpu_under": result.profile.host_inclusive if result.profile else None,
        "ed25519": result.ed25519.as_json() if result.ed25519 else None,
    }


def _phase(results: Sequence[PhaseResult], name: str) -> PhaseResult | None:
    return next((result for result in results if result.name == name), None)


def _human_targets(report: Report, measured: Measured) -> None:
    human = {k: _phase(rs, "human") for k, rs in measured["domicile"].items()}
    biggest = max((k for k, r in human.items() if r is not None), default=None)
    if biggest is None:
        return
    result = human[biggest]
    assert result is not None
    note = "" if biggest >= 1000 else f"measured at K={biggest}, not 1,000"
    memory = report.results[f"domicile_k{biggest}"]["setup"]["peak_memory_bytes"]
    report.targets += [
        Target(
            f"human pace p99 latency, K={biggest}",
            ms(percentile(result.latencies, 0.99)),
            ms(TARGET_P99_S),
            "lower",
            " ms",
            note,
        ),
        Target(
            f"human pace host cores, K={biggest}", result.host_cores, 1.0, "lower", " cores", note
        ),
        Target(
            f"host peak memory (sum), K={biggest}",
            memory / 2**20,
            TARGET_MEMORY / 2**20,
            "lower",
            " MiB",
            note,
        ),
    ]


def _saturation_targets(
    report: Report, tables: int, mine: PhaseResult, anchor: PhaseResult | None
) -> None:
    """Per host core against the bare server (issue 7), and CPU per event against the
    bare server's plus the Ed25519 work of an event (issue 11), side by side."""
    note = "no anchor run" if anchor is None else ""
    throughput = None if anchor is None else mine.capacity_per_core / anchor.capacity_per_core
    report.targets.append(
        Target(
            f"saturation events/s per host core vs bare, K={tables}",
            throughput,
            TARGET_THROUGHPUT_RATIO,
            "higher",
            "x",
            note,
        )
    )
    costs = [r.ed25519 for r in (mine, anchor) if r is not None and r.ed25519 is not None]
    verify = statistics.mean(cost.verify for cost in costs) if costs else math.nan
    sign = statistics.mean(cost.sign for cost in costs) if costs else math.nan
    bare = anchor.cpu_per_event if anchor is not None else math.nan
    floor = bare + verify + sign
    value = mine.cpu_per_event / floor if anchor is not None else None
    report.targets.append(
        Target(
            f"saturation host CPU per event vs (bare + Ed25519), K={tables}",
            value,
            TARGET_CPU_PER_EVENT_RATIO,
            "lower",
            "x",
            note,
        )
    )
    report.results[f"saturation_cpu_per_event_k{tables}"] = {
        "host_s": mine.cpu_per_event,
        "bare_s": bare,
        "ed25519_verify_s": verify,
        "ed25519_sign_s": sign,
        "ratio": value,
    }
    ed25519 = f"Ed25519 verify {_us(verify)} + sign {_us(sign)}"
    if anchor is not None:
        ed25519 = f"anchor {_us(floor)} = bare fan-out {_us(bare)} + {ed25519}"
    if mine.inside is not None:
        report.note(
            f"saturation K={tables}, the host's own Ed25519 calls over the window: verify "
            f"{_us(mine.inside['verify_s'])} and sign {_us(mine.inside['sign_s'])} a call "
            f"({mine.inside['verifies_per_event']:.2f} verifies and "
            f"{mine.inside['signs_per_event']:.2f} signs an event), against {_us(verify)} "
            f"and {_us(sign)} alone"
        )
    report.note(
        f"saturation K={tables}, CPU per event: host {_us(mine.cpu_per_event)} (its disk "
        f"threads {_us(mine.disk_cpu_per_event)}); {ed25519} "
        "(cryptography alone, CPU time, just after each window)"
    )


def _us(seconds: float) -> str:
    return f"{seconds * 1e6:.0f} us"


def _pause_summary(pauses: Sequence[tuple[int, float]]) -> str:
    """``count (longest ms)`` of the host's long garbage-collection pauses."""
    return f"{len(pauses)} ({max((took for _, took in pauses), default=0.0):.0f})"


def _causes_summary(causes: dict[str, float]) -> str:
    if not causes:
        return "-"
    return (
        f"{causes.get('slow', 0):.0f}: {causes.get('gc', 0):.0f}/{causes.get('cpu_wait', 0):.0f}/"
        f"{causes.get('other', 0):.0f}; {causes.get('host_cpu_wait_ms_per_s', math.nan)}"
    )
