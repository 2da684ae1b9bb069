"""Connection floods from 127.0.0.0/8 against a host on 127.0.0.1: waves, churn, holders.

A flooder opens TLS websocket connections from several loopback source addresses
(127.0.0.2, 127.0.0.3, ...: all of them this machine) so that the host's per-address cap
does not refuse it before it fills the host.  Every loop here is bounded in count and in
time; nothing is asserted on time.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import resource
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from live_support import NetworkBot, domicile, environment, network_bot
from websockets.asyncio.client import ClientConnection, connect

from domicile_p2p.net.adapters.client import Backoff
from domicile_p2p.net.adapters.tls import client_context
from domicile_p2p.net.join.codes import JoinCode
from domicile_p2p.net.wire import Role

LOOPBACK = "127.0.0.1"
PER_SOURCE = 60
"""Connections a flooder opens from one source address (under the host's 64)."""


def source(index: int) -> str:
    """The loopback source address of the ``index``-th connection (127.0.0.2 on)."""
    return f"127.0.{2 + (index // PER_SOURCE) // 250}.{2 + (index // PER_SOURCE) % 250}"


async def flood_connection(port: int, index: int, timeout: float = 30.0) -> ClientConnection:
    """One idle connection that has read the host's Welcome."""
    websocket = await connect(
        f"wss://{LOOPBACK}:{port}",
        ssl=client_context(),
        server_hostname=LOOPBACK,
        compression=None,
        proxy=None,
        open_timeout=timeout,
        ping_interval=None,
        close_timeout=2,
        local_addr=(source(index), 0),
    )
    try:
        await asyncio.wait_for(websocket.recv(), timeout)
    except BaseException:
        websocket.transport.abort()
        raise
    return websocket


@dataclass
class Wave:
    opened: list[ClientConnection] = field(default_factory=list)
    failed: int = 0


async def open_wave(port: int, count: int, *, concurrency: int = 50, first: int = 0) -> Wave:
    """Open ``count`` idle connections, ``concurrency`` at a time (each attempt bounded),
    the ``first``-th connection's source address on (a wave from fresh addresses is not
    held back by the host's connection rate per address)."""
    wave = Wave()
    gate = asyncio.Semaphore(concurrency)

    async def one(index: int) -> None:
        async with gate:
            try:
                wave.opened.append(await flood_connection(port, first + index))
            except (OSError, TimeoutError, Exception):
                wave.failed += 1

    await asyncio.gather(*(one(index) for index in range(count)))
    return wave


async def close_wave(wave: Wave) -> None:
    """Close every connection of ``wave`` (a closing handshake each, bounded)."""

    async def one(websocket: ClientConnection) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(websocket.close(), 5)
        websocket.transport.abort()

    gate = asyncio.Semaphore(100)

    async def gated(websocket: ClientConnection) -> None:
        async with gate:
            await one(websocket)

    await asyncio.gather(*(gated(websocket) for websocket in wave.opened))
    wave.opened.clear()


async def churn(
    port: int, total: int, *, concurrency: int = 20, seconds: float = 600.0, first: int = 0
) -> int:
    """Connect, read the Welcome, close: ``total`` times (or until ``seconds`` pass), the
    ``first``-th connection's source address on (as :func:`open_wave`); how many completed."""
    done = 0
    deadline = time.monotonic() + seconds
    counter = iter(range(first, first + total))

    async def worker() -> None:
        nonlocal done
        for index in counter:
            if time.monotonic() > deadline:
                return
            try:
                websocket = await flood_connection(port, index)
            except Exception:
                continue
            with contextlib.suppress(Exception):
                await asyncio.wait_for(websocket.close(), 5)
            websocket.transport.abort()
            done += 1

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return done


def honest_pair(
    directory: Path, port: int, code: JoinCode, backoff: Backoff | None = None
) -> list[NetworkBot]:
    """The honest players: a Ghost and an investigator, bots over TLS from 127.0.0.1."""
    url = f"wss://{LOOPBACK}:{port}"
    return [
        network_bot(directory / name, url, code, role=role, seed=seed, backoff=backoff)
        for name, role, seed in (("ghost", Role.GHOST, 0), ("inv1", Role.INVESTIGATOR, 1))
    ]


def resident_bytes(pid: int) -> int:
    """The resident memory of process ``pid`` (Linux ``/proc``)."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError(f"no VmRSS for process {pid}")


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) process ``pid`` has used so far (Linux ``/proc``)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def open_descriptors(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


async def settle(measure: Callable[[], Any], *, rounds: int = 40, pause: float = 0.25) -> list[Any]:
    """``measure()`` ``rounds`` times, ``pause`` apart (the host closes what was closed)."""
    values = []
    for _ in range(rounds):
        values.append(measure())
        await asyncio.sleep(pause)
    return values


class FloodedHost:
    """``domicile host --headless`` in a subprocess whose log goes to a file (a flood's
    thousands of lines would fill a pipe and stop it), optionally under a descriptor
    limit of its own (``ulimit -n``, set in the child only)."""

    def __init__(self, data_dir: Path, *args: str, nofile: int | None = None) -> None:
        self.data_dir = data_dir
        self.log_path = data_dir.with_name(data_dir.name + ".log")
        data_dir.parent.mkdir(parents=True, exist_ok=True)
        self._log = open(self.log_path, "w", encoding="utf-8")  # noqa: SIM115
        self._offset = 0
        self.records: list[dict[str, Any]] = []

        def limit() -> None:
            if nofile is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

        self.process = subprocess.Popen(
            domicile(
                "host",
                "--headless",
                "--interface",
                LOOPBACK,
                "--port",
                "0",
                "--data-dir",
                str(data_dir),
                "--no-advertise",
                *args,
            ),
            stdout=self._log,
            stderr=subprocess.STDOUT,
            env=environment(),
            preexec_fn=limit,
        )
        self.port = 0

    def read(self) -> list[dict[str, Any]]:
        """The log records written since the last read (whole lines only)."""
        with open(self.log_path, encoding="utf-8", errors="replace") as log:
            log.seek(self._offset)
            text = log.read()
        complete = text.rfind("\n") + 1
        self._offset += len(text[:complete].encode("utf-8", errors="replace"))
        fresh = []
        for line in text[:complete].splitlines():
            try:
                fresh.append(json.loads(line))
            except ValueError:
                fresh.append({"event": "not-json", "line": line})
        self.records.extend(fresh)
        return fresh

    def named(self, event: str) -> list[dict[str, Any]]:
        self.read()
        return [record for record in self.records if record.get("event") == event]

    async def wait_for(self, event: str, seconds: float = 60.0) -> dict[str, Any]:
        for _ in range(int(seconds / 0.1)):
            found = self.named(event)
            if found:
                return found[0]
            if self.process.poll() is not None:
                raise AssertionError(f"the host exited ({self.process.returncode}) before {event}")
            await asyncio.sleep(0.1)
        raise AssertionError(f"no {event!r} from the host within {seconds} s")

    async def start(self) -> FloodedHost:
        self.port = int((await self.wait_for("listening"))["port"])
        return self

    @property
    def pid(self) -> int:
        return self.process.pid

    def alive(self) -> bool:
        return self.process.poll() is None

    async def stop(self) -> int:
        if self.process.poll() is None:
            self.process.terminate()
        try:
            return await asyncio.to_thread(self.process.wait, 30)
        finally:
            self.close()

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        self._log.close()
