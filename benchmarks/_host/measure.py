"""One kind of server at one K: start it and its load generators, measure every phase.

The parent starts the servers (:mod:`.servers`) and one load generator process
per ``TABLES_PER_LOAD_PROCESS`` tables (:class:`LoadGenerators`), waits until
every seat is taken, then for each phase tells the load generators when to
begin, reads the servers' CPU and GC log around the window, and collects
what the load generators stamped (:func:`_measure_phase`).
"""

from __future__ import annotations

import contextlib
import json
import math
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from _common import process_sample

from . import signatures
from .host_process import SIGNATURE_LINE
from .layout import SCRIPT
from .profiling import Profile, read_profile, start_py_spy
from .servers import (
    Server,
    ServerOptions,
    cpu_seconds,
    disk_thread_seconds,
    peak_memory,
    setup_aborts,
    start_servers,
    stop_servers,
)
from .slow import RunQueueWatch, attribute_slow, gc_pauses, pauses_waiting

TABLES_PER_LOAD_PROCESS = 125


@dataclass(frozen=True)
class RunOptions:
    """What a run of one kind needs of the command line."""

    servers: ServerOptions
    rate: float
    load_processes: int
    profile: bool
    profile_out: Path | None


@dataclass
class PhaseResult:
    name: str
    latencies: list[float]
    worst: list[float]
    events: int
    sent: int
    duration: float
    host_cores: float
    load_cores: float
    failures: list[str]
    refused: list[str]
    load_lag_p99: float
    """The worst load generator's event-loop lag, p99: the floor under any latency it reports."""
    load_lag_max: float
    profile: Profile | None = None
    gc_pauses: list[tuple[int, float]] = field(default_factory=list)
    """The host's garbage-collection pauses over 20 ms during the window: generation, ms."""
    slow_causes: dict[str, float] = field(default_factory=dict)
    """Actions over the target, by cause (``attribute_slow``), and the host's CPU wait."""
    pauses_waiting: list[tuple[int, float, float, int]] = field(default_factory=list)
    """Each long GC pause: generation, ms, ms of it the host's loop waited for a CPU, and
    how many objects it freed."""
    ed25519: signatures.Ed25519Cost | None = None
    """At saturation: the Ed25519 work of one event, measured just after the window."""
    disk_cores: float = 0.0
    """The share of ``host_cores`` the host's disk threads used (the logs' writes and syncs)."""
    inside: dict[str, float] | None = None
    """At saturation, a ``domicile host``'s own Ed25519 calls over the window: CPU seconds per
    verify and per sign (``host_process.SignatureClock``), and verifies per event."""

    @property
    def events_per_s(self) -> float:
        return self.events / self.duration

    @property
    def capacity_per_core(self) -> float:
        return self.events_per_s / self.host_cores if self.host_cores > 0 else math.nan

    @property
    def cpu_per_event(self) -> float:
        """The server's CPU seconds per event over the window."""
        return self.host_cores / self.events_per_s if self.events > 0 else math.nan

    @property
    def disk_cpu_per_event(self) -> float:
        """The part of :attr:`cpu_per_event` spent in the host's disk threads."""
        return self.disk_cores / self.events_per_s if self.events > 0 else math.nan


@dataclass(frozen=True)
class Setup:
    """What one run of a kind at one K cost before and around its phases."""

    tables_aborted_in_setup: int
    processes: int
    load_processes: int
    join_s: float
    peak_memory_bytes: int
    peak_memory_max_process_bytes: int


class LoadGenerators:
    """The load generator processes of one run (``bench_host.py --load-child``)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.label = kind
        self.children: list[subprocess.Popen[str]] = []

    def start(
        self, servers: Sequence[Server], phases: list[dict[str, Any]], options: RunOptions
    ) -> None:
        """One process per ``TABLES_PER_LOAD_PROCESS`` tables (or as many as asked)."""
        specs = [spec for server in servers for spec in server.tables]
        tables = len(specs)
        wanted = options.load_processes or math.ceil(tables / TABLES_PER_LOAD_PROCESS)
        groups = max(1, min(wanted, tables))
        self.label = f"{self.kind}, K={tables}"
        for index in range(groups):
            # Each load generator has its own loopback source address, so its joins stay
            # under the host's limit of pending joins per address while the others join.
            plan = {
                "mode": self.kind,
                "source": f"127.0.0.{2 + index}",
                "tables": specs[index::groups],
                "rate": options.rate,
                "join_concurrency": 6,
                "phases": phases,
            }
            child = subprocess.Popen(
                [sys.executable, str(SCRIPT), "--load-child"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            self.children.append(child)
            self._tell(child, json.dumps(plan))

    def seated(self) -> float:
        """Wait until every seat is taken; the slowest load generator's join time."""
        records = self.hear_all()
        for record in records:
            if "error" in record:
                raise RuntimeError(f"a load generator ({self.label}): {record['error']}")
        return max(float(record["join_s"]) for record in records)

    def tell_all(self, line: str) -> None:
        for child in self.children:
            self._tell(child, line)

    def hear_all(self) -> list[dict[str, Any]]:
        """One JSON line from each load generator."""
        records = []
        for child in self.children:
            assert child.stdout is not None
            line = child.stdout.readline()
            if not line:
                raise RuntimeError(f"a load generator died ({self.label})")
            records.append(json.loads(line))
        return records

    def cpu_seconds(self) -> float:
        samples = [process_sample(child.pid) for child in self.children]
        if any(sample is None for sample in samples):
            raise RuntimeError("cannot read a load generator's /proc entry")
        return sum(sample.cpu for sample in samples if sample is not None)

    def finish(self) -> None:
        """Give the processes time to end (after ``stop``)."""
        for child in self.children:
            with contextlib.suppress(subprocess.TimeoutExpired):
                child.wait(30)

    def kill(self) -> None:
        """Kill any process still running."""
        for child in self.children:
            if child.poll() is None:
                child.kill()
                child.wait(5)

    @staticmethod
    def _tell(child: subprocess.Popen[str], line: str) -> None:
        assert child.stdin is not None
        child.stdin.write(line + "\n")
        child.stdin.flush()


def run_kind(
    kind: str,
    tables: int,
    phases: list[dict[str, Any]],
    options: RunOptions,
    directory: Path,
) -> tuple[list[PhaseResult], Setup]:
    """Every phase of one kind of server at K = ``tables``; every process stopped after."""
    servers = start_servers(kind, tables, directory / f"{kind}-{tables}", options.servers)
    load = LoadGenerators(kind)
    try:
        load.start(servers, phases, options)
        join_s = load.seated()
        results = []
        for number, phase in enumerate(phases):
            profiled = options.profile and kind == "domicile" and number == len(phases) - 1
            out = (
                options.profile_out or directory
            ) / f"py-spy-{kind}-k{tables}-{phase['name']}.txt"
            results.append(_measure_phase(phase, servers, load, out if profiled else None))
        load.tell_all("stop")
        peak, peak_process = peak_memory(servers)
        setup = Setup(
            setup_aborts(servers), len(servers), len(load.children), join_s, peak, peak_process
        )
        load.finish()
        return results, setup
    finally:
        load.kill()
        stop_servers(servers)


def _signature_lines(servers: Sequence[Server]) -> list[dict[str, Any]]:
    lines = []
    for line in servers[0].log.read_text().splitlines():
        if SIGNATURE_LINE in line:
            with contextlib.suppress(ValueError):
                lines.append(json.loads(line))
    return lines


def _ask_signatures(servers: Sequence[Server], seen: int) -> dict[str, Any] | None:
    """Have the (one) host write its Ed25519 clock; that line, once it is in its log."""
    servers[0].process.send_signal(signal.SIGUSR1)
    for _ in range(100):  # bounded: the host writes it at its next bytecode
        lines = _signature_lines(servers)
        if len(lines) > seen:
            return lines[-1]
        time.sleep(0.02)
    return None


def _inside(
    before: dict[str, Any] | None, after: dict[str, Any] | None, events: int
) -> dict[str, float] | None:
    if before is None or after is None or events <= 0:
        return None
    calls = {k: after["calls"][k] - before["calls"][k] for k in ("verify", "sign")}
    seconds = {k: after["seconds"][k] - before["seconds"][k] for k in ("verify", "sign")}
    if not calls["verify"] or not calls["sign"]:
        return None
    return {
        "verify_s": seconds["verify"] / calls["verify"],
        "sign_s": seconds["sign"] / calls["sign"],
        "verifies_per_event": calls["verify"] / events,
        "signs_per_event": calls["sign"] / events,
    }


def _measure_phase(
    phase: dict[str, Any], servers: Sequence[Server], load: LoadGenerators, profile: Path | None
) -> PhaseResult:
    """Start the phase, read the servers and load generators around its window."""
    go = time.monotonic() + 0.2
    load.tell_all(f"go {go}")
    time.sleep(max(0.0, go + phase["warmup"] - time.monotonic()))
    duration = phase["duration"]
    host = servers[0].process.pid
    clocked = phase["name"] == "saturation" and load.kind == "domicile" and len(servers) == 1
    seen = len(_signature_lines(servers)) if clocked else 0
    clock_before = _ask_signatures(servers, seen) if clocked else None
    host_before, pauses_before = cpu_seconds(servers), len(gc_pauses(servers))
    disk_before = disk_thread_seconds(servers)
    load_before = load.cpu_seconds()
    spy = start_py_spy(host, duration - 0.5, profile) if profile is not None else None
    window_start = time.monotonic()
    run_queue = RunQueueWatch(host) if len(servers) == 1 else None
    time.sleep(duration)
    host_cores = (cpu_seconds(servers) - host_before) / duration
    disk_cores = (disk_thread_seconds(servers) - disk_before) / duration
    clock_after = _ask_signatures(servers, seen + 1) if clocked else None
    pauses = gc_pauses(servers)[pauses_before:]
    load_cores = (load.cpu_seconds() - load_before) / duration
    reports = load.hear_all()
    if spy is not None:
        spy.wait(60)
    slow = [(sent, took) for report in reports for sent, took in report.get("slow", [])]
    waiting: list[tuple[int, float, float, int]] = []
    if run_queue is not None:
        run_queue.stop()
        waiting = pauses_waiting(pauses, run_queue)
    causes = attribute_slow(slow, pauses, run_queue)
    if run_queue is not None:
        waited = run_queue.waited(window_start, window_start + duration)
        causes["host_cpu_wait_ms_per_s"] = round(1000 * waited / duration, 1)
    return PhaseResult(
        phase["name"],
        [x for r in reports for x in r["latencies"]],
        [x for r in reports for x in r["worst"]],
        sum(r["events"] for r in reports),
        sum(r["sent"] for r in reports),
        duration,
        host_cores,
        load_cores,
        [f for r in reports for f in r["failures"]],
        [f for r in reports for f in r["refused"]],
        max((r["loop_lag_p99"] or 0.0 for r in reports), default=0.0),
        max((r["loop_lag_max"] or 0.0 for r in reports), default=0.0),
        read_profile(profile) if spy is not None and profile is not None else None,
        [(pause.generation, pause.ms) for pause in pauses],
        causes,
        waiting,
        # Just after the window, while the load generators wait for their next phase.
        signatures.measure() if phase["name"] == "saturation" else None,
        disk_cores,
        _inside(clock_before, clock_after, sum(r["events"] for r in reports)),
    )
