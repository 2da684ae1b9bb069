"""The servers under test: start them, learn their tables, read their CPU, stop them.

``domicile`` servers are ``domicile host --headless`` processes (run as
``bench_host.py --domicile-host``: :mod:`.host_process`), each in its own
data dir, announcing their port and each table's code as JSON lines;
``bare`` servers are the anchor (:mod:`.anchor`), started as
``bench_host.py --bare-server``.  K tables take ceil(K / per_host) processes of either kind.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from _common import process_sample

from .layout import INVESTIGATORS, SCRIPT

KINDS = ("domicile", "bare")
LABELS = {"domicile": "domicile host", "bare": "bare TLS fan-out (anchor)"}
"""What the report's rows call each kind of server."""


@dataclass
class Server:
    """One host (or anchor) process and its tables."""

    process: subprocess.Popen[bytes]
    log: Path
    port: int = 0
    tables: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class ServerOptions:
    """How the servers are run (from the command line)."""

    per_host: int
    setup_timeout: float
    nice: int = 0
    gc_thaw_every: float | None = None


def _split(total: int, size: int) -> list[int]:
    return [min(size, total - start) for start in range(0, total, size)]


def _host_command(count: int, index: int, data: Path, options: ServerOptions) -> list[str]:
    command = [
        sys.executable,
        str(SCRIPT),
        "--domicile-host",
        "--headless",
        "--interface",
        "127.0.0.1",
        "--port",
        "0",
        "--tables",
        str(count),
        "--investigators",
        str(INVESTIGATORS),
        "--no-advertise",
        "--setup-timeout",
        str(options.setup_timeout),
        "--name",
        f"Bench {index}",
        "--data-dir",
        str(data),
        # Each load generator plays 125 tables (875 connections) from its own address.
        "--max-per-address",
        "1000",
    ]
    if options.gc_thaw_every is not None:
        command += ["--gc-thaw-every", str(options.gc_thaw_every)]
    return command


def _wait_for_lines(
    path: Path, process: subprocess.Popen[bytes], count: int
) -> list[dict[str, Any]]:
    deadline = time.monotonic() + 300  # a hundred hosts starting at once on two cores
    while time.monotonic() < deadline:
        records = []
        with contextlib.suppress(FileNotFoundError):
            for line in path.read_text().splitlines():
                with contextlib.suppress(ValueError):
                    records.append(json.loads(line))
        if len(records) >= count:
            return records
        if process.poll() is not None:
            raise RuntimeError(f"{process.args!r} exited with {process.returncode}: {records}")
        time.sleep(0.05)
    raise RuntimeError(f"{process.args!r} did not start in time")


def _learn_tables(kind: str, server: Server, count: int, first_key: int) -> None:
    """Read what a started server announced: its port and, for a host, each table's code."""
    url = "wss://127.0.0.1:{}"
    if kind == "domicile":
        records = _wait_for_lines(server.log, server.process, 1 + count)
        listening = next(r for r in records if r["event"] == "listening")
        server.port = int(listening["port"])
        tables = [r for r in records if r["event"] == "table"]
        server.tables = [
            {
                "key": first_key + number,
                "url": url.format(server.port),
                "nameplate": record["table"],
                "code": record["code"],
            }
            for number, record in enumerate(tables)
        ]
    else:
        records = _wait_for_lines(server.log, server.process, 1)
        server.port = int(records[0]["port"])
        server.tables = [
            {"key": first_key + number, "url": url.format(server.port)} for number in range(count)
        ]


def start_servers(kind: str, total: int, directory: Path, options: ServerOptions) -> list[Server]:
    """Start every server process; if any fails to come up, stop the ones already started."""
    servers: list[Server] = []
    counts = _split(total, options.per_host)
    try:
        for index, count in enumerate(counts):
            data = directory / f"{kind}-{index}"
            data.mkdir(parents=True)
            if kind == "domicile":
                command = _host_command(count, index, data, options)
            else:
                command = [sys.executable, str(SCRIPT), "--bare-server", str(count), str(data)]
            log = data / "stdout.jsonl"
            with open(log, "wb") as out:
                process = subprocess.Popen(
                    command,
                    stdout=out,
                    stderr=subprocess.DEVNULL,
                    preexec_fn=_niceness(options.nice),
                )
            servers.append(Server(process, log))
        # Started all at once above; now read what each announced.
        first_key = 0
        for server, count in zip(servers, counts, strict=True):
            _learn_tables(kind, server, count, first_key)
            first_key += len(server.tables)
    except BaseException:
        stop_servers(servers)
        raise
    return servers


def _niceness(nice: int) -> Any:
    return (lambda: os.setpriority(os.PRIO_PROCESS, 0, nice)) if nice else None


def stop_servers(servers: Sequence[Server]) -> None:
    for server in servers:
        if server.process.poll() is None:
            server.process.send_signal(signal.SIGTERM)
    for server in servers:
        try:
            server.process.wait(20)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait(5)


def cpu_seconds(servers: Sequence[Server]) -> float:
    """CPU seconds (user + system) the servers have used so far, summed."""
    total = 0.0
    for server in servers:
        sample = process_sample(server.process.pid)
        if sample is not None:
            total += sample.cpu
    return total


def disk_thread_seconds(servers: Sequence[Server]) -> float:
    """CPU seconds (user + system) the servers' threads other than the event loop's have
    used so far, summed: the disk threads' writes and ``fdatasync`` of the event logs
    (which the anchor does not have), and the rare executor job (a heap trim).  CPython
    3.11 does not name its threads for the kernel, so the loop's (the main thread) is the
    one left out."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in _pids(servers):
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{pid}/task").iterdir():
                if task.name == str(pid):
                    continue
                with contextlib.suppress(OSError):
                    stat = (task / "stat").read_text()
                    fields = stat[stat.rfind(")") + 2 :].split()
                    total += int(fields[11]) + int(fields[12])
    return total / ticks


def peak_memory(servers: Sequence[Server]) -> tuple[int, int]:
    """The servers' peak resident memory (``VmHWM``): summed, and the largest process's."""
    peaks = [sample.peak_rss_bytes for sample in map(process_sample, _pids(servers)) if sample]
    return sum(peaks), max(peaks, default=0)


def setup_aborts(servers: Sequence[Server]) -> int:
    """How many tables the hosts aborted in their setup (``setup-aborted`` log records)."""
    return sum(
        line.count('"setup-aborted"')
        for server in servers
        for line in server.log.read_text().splitlines()
    )


def _pids(servers: Sequence[Server]) -> list[int]:
    return [server.process.pid for server in servers]
