"""Host capacity and latency: K tables of 7 seats, every seat a TLS websocket on 127.0.0.1.

    python benchmarks/bench_host.py                          # K = 10 and 100, short windows
    python benchmarks/bench_host.py --tables 10 --tables 100 --tables 1000 --duration 60
    python benchmarks/bench_host.py --tables 10 --no-human --saturation --profile

What runs (every process started and stopped by this script):

- **hosts**: ``domicile host --headless --interface 127.0.0.1 --port 0
  --investigators 6 --no-advertise``, each in its own data dir.  One host
  process serves every table (``--tables-per-host``, 1,000 by default; a
  host takes up to 9,999 tables, numbered in their join codes); with a
  smaller ``--tables-per-host`` K tables take ceil(K / N) host processes, and
  host CPU and memory are summed over them.
- **load generators** (``--load-child`` processes of this script, one per
  125 tables by default), each multiplexing many tables from its own
  loopback source address (127.0.0.2, 127.0.0.3, ...: the host limits
  pending joins per address, so the processes join in parallel).  A table
  is seven real clients: seven TLS
  websockets, each joining its seat with the code (SPAKE2, identity proof)
  exactly as ``PeerSession`` does.  Once seated, the seven connections only
  read and time-stamp frames; one shared replica per table checks every
  event (chain, signatures, rules) and gives the seven seats' agents and
  ``make_policy`` bots the state to decide on, so the load generator pays
  for one replica per table rather than seven.
- **the anchor**: ``--bare-server`` processes of this script, a websockets TLS
  server (same certificate kind, TLS 1.3, the same websockets options) that
  groups connections into tables of seven and broadcasts each frame a client
  sends to the seven, wrapped like an ``events`` frame of the same size, with
  no parsing, signatures, rules or disk.  Same process layout (as many tables each),
  same load generator, same pace.

Phases: **human pace** (one action per table every ``--pace`` seconds, 3 by
default: the real game, bots deciding every move) and **saturation** (every
investigator of every table sends chat actions as fast as the host's flood
limit lets a connection send, ``--rate`` per second: signed actions that go
through the whole pipeline, signature, chain, rules, fsync and fan-out).

Measured: action-to-every-peer latency (send of the ``act`` to arrival of the
event on each of the seven connections) p50/p99, events per second, host CPU
(``/proc/PID/stat`` utime+stime over the window, in cores) and peak memory
(``VmHWM``), and per-core capacity = events/s / cores used.  ``--profile``
samples one host with py-spy during saturation and splits its time into
signature checks, signing, JSON, fsync, websockets/TLS fan-out and the rest.

Targets (issue 7): 1,000 tables on one host core at human pace with p99 <= 50 ms
and <= 1 GiB; per-core throughput at saturation >= 0.5 x the bare server.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import gc
import json
import math
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
from _common import (
    Report,
    Target,
    ms,
    parser,
    percentile,
    process_sample,
    raise_nofile,
    venv_bin,
)

TABLES_PER_HOST = 1000
TABLES_PER_LOAD_PROCESS = 125
SETUP_TIMEOUT = 3600.0
SEATS = 7
INVESTIGATORS = SEATS - 1
TARGET_P99_S = 0.050
TARGET_MEMORY = 1 << 30
TARGET_THROUGHPUT_RATIO = 0.5
PENDING_JOINS = 6
"""Joins in flight per server: under the host's ``pending_joins`` limit (8 per address)."""
EVENT_PAD = 430
"""Bytes of padding in the anchor's frames: a real event of a 6-investigator game is ~490 bytes."""


# =============================================================== the load generator (child)


class _EventStamp(msgspec.Struct):
    seat: int | None = None
    counter: int | None = None


class _Frame(msgspec.Struct):
    type: str
    start: int = 0
    events: list[_EventStamp] = msgspec.field(default_factory=list)


_frame_decoder = msgspec.json.Decoder(_Frame)


@dataclass
class Window:
    """The measurement window, on CLOCK_MONOTONIC (shared by every process)."""

    start: float = math.inf
    end: float = math.inf

    def inside(self, moment: float) -> bool:
        return self.start <= moment < self.end


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    """Per peer: send of the action to arrival of its event on one connection."""
    worst: list[float] = field(default_factory=list)
    """Per action: send to arrival on the last of the seven connections."""
    slow: list[tuple[float, float]] = field(default_factory=list)
    """Actions whose last peer waited over the target: (sent at, CLOCK_MONOTONIC; seconds)."""
    events: int = 0
    sent: int = 0
    refused: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


class TableLoad:
    """One table's seven connections, its shared replica and its pacer."""

    def __init__(self, spec: dict[str, Any], plan: dict[str, Any], stats: Stats, window: Window):
        self.spec = spec
        self.plan = plan
        self.stats = stats
        self.window = window
        self.connections: list[Any] = [None] * SEATS
        self.pending: dict[tuple[int, int], list[float]] = {}
        """(seat, counter) -> [sent at, arrivals so far, worst]."""
        self._changed = asyncio.Event()
        self.done = False
        self.counters = [0] * SEATS
        # Filled in by the domicile mode:
        self.replica: Any = None
        self.players: list[Any] = []
        self.policies: list[Any] = []
        self.identities: list[Any] = []
        self.seq = 0

    # ------------------------------------------------------------- waiting

    def notify(self) -> None:
        """Wake every waiter (each waits on the event that was current when it looked)."""
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    async def until(self, condition: Any, stop: float) -> bool:
        """Wait until ``condition()`` holds (True) or the clock passes ``stop`` (False)."""
        while True:
            changed = self._changed
            if condition():
                return True
            remaining = stop - time.monotonic()
            if remaining <= 0:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), min(remaining, 1.0))

    def in_flight(self, seat: int | None = None) -> bool:
        return any(seat is None or key[0] == seat for key in self.pending)

    # ------------------------------------------------------------- frames in

    def stamp(self, frame: str | bytes, now: float) -> _Frame | None:
        try:
            parsed = _frame_decoder.decode(frame)
        except msgspec.DecodeError:
            return None
        if parsed.type != "events":
            return parsed
        for event in parsed.events:
            if event.seat is None or event.counter is None:
                continue
            entry = self.pending.get((event.seat, event.counter))
            if entry is None:
                continue
            latency = now - entry[0]
            entry[1] += 1
            entry[2] = max(entry[2], latency)
            if self.window.inside(entry[0]):
                self.stats.latencies.append(latency)
            if entry[1] == SEATS:
                del self.pending[(event.seat, event.counter)]
                if self.window.inside(entry[0]):
                    self.stats.worst.append(entry[2])
                    if entry[2] > TARGET_P99_S:
                        self.stats.slow.append((entry[0], entry[2]))
                self.notify()
        return parsed

    def sent(self, seat: int, counter: int) -> None:
        now = time.monotonic()
        self.pending[(seat, counter)] = [now, 0, 0.0]
        if self.window.inside(now):
            self.stats.sent += 1

    def counted(self, count: int) -> None:
        if self.window.inside(time.monotonic()):
            self.stats.events += count


async def _reader(table: TableLoad, seat: int, websocket: Any, on_frame: Any) -> None:
    from websockets.exceptions import ConnectionClosed

    try:
        async for frame in websocket:
            now = time.monotonic()
            parsed = table.stamp(frame, now)
            if on_frame is not None and parsed is not None:
                on_frame(frame, parsed)
    except ConnectionClosed as closed:
        if not table.done:
            table.stats.failures.append(f"table {table.spec['key']} seat {seat}: {closed}")
    except Exception as exc:  # a bug here must end the run loudly, not hang it
        table.stats.failures.append(f"table {table.spec['key']} seat {seat}: {exc!r}")


# ------------------------------------------------------------- domicile mode


async def _dial(table: TableLoad, url: str) -> tuple[Any, bytes]:
    """A TLS websocket as ``client.open_websocket`` opens it, from this process's source address."""
    from websockets.asyncio.client import connect

    from domicile_p2p.net.adapters.tls import client_context, peer_fingerprint
    from domicile_p2p.net.wire import MAX_FRAME

    websocket = await connect(
        url,
        ssl=client_context(),
        max_size=MAX_FRAME,
        compression=None,
        proxy=None,
        open_timeout=60,
        ping_interval=10,
        ping_timeout=20,
        close_timeout=2,
        user_agent_header=None,
        local_addr=(table.plan["source"], 0),
    )
    return websocket, peer_fingerprint(websocket.transport.get_extra_info("ssl_object"))


async def join_seat(table: TableLoad, seat: int) -> None:
    """Connect and take ``seat`` with the code, as PeerSession does; leave the socket seated."""
    from domicile_p2p.identity import Identity
    from domicile_p2p.net.address import Address
    from domicile_p2p.net.join.codes import parse_code
    from domicile_p2p.net.sessions.effects import Transmit
    from domicile_p2p.net.sessions.peer import PeerSession
    from domicile_p2p.net.wire import Role, decode_host, text

    spec = table.spec
    identity = Identity.generate()
    table.identities[seat] = identity
    session = PeerSession(
        identity,
        None,  # type: ignore[arg-type]  # secrets live in this process only (see TableLoad)
        spec["nameplate"],
        code=parse_code(spec["code"]),
        name=f"Load {seat}",
        role=Role.GHOST if seat == 0 else Role.INVESTIGATOR,
        seat=seat,
        bot=True,
    )
    websocket, fingerprint = await _dial(table, Address.parse(spec["url"]).url)
    effects = session.connection_made(fingerprint, False)
    while not session.seated:
        for effect in effects:
            if isinstance(effect, Transmit):
                await websocket.send(text(effect.message))
        frame = await asyncio.wait_for(websocket.recv(), 60)
        effects = session.receive(decode_host(frame))
    table.connections[seat] = websocket


def _start_domicile_game(table: TableLoad, genesis: dict[str, Any]) -> None:
    from domicile_p2p.bots import make_policy
    from domicile_p2p.net.sessions.seat import SeatPlayer
    from domicile_p2p.packs import load_default_pack
    from domicile_p2p.transcript import Event, GhostAgent, InvestigatorAgent, Replica

    replica = Replica(Event.from_value(genesis))
    pack = load_default_pack()
    table.replica = replica
    for seat in range(SEATS):
        player = SeatPlayer(table.identities[seat], None)  # type: ignore[arg-type]
        player.seat = seat
        player.replica = replica
        if seat == 0:
            player.agent = GhostAgent(table.identities[0], replica, os.urandom(32))
        else:
            player.agent = InvestigatorAgent(table.identities[seat], seat, replica, os.urandom(32))
        table.players.append(player)
        table.policies.append(make_policy(seat, pack, random.getrandbits(62)))


def _domicile_frames(table: TableLoad) -> Any:
    """The frame handler of the table's one checking connection: events into the replica."""
    from domicile_p2p.net.wire import Events, decode_host

    def on_frame(frame: str | bytes, parsed: _Frame) -> None:
        if parsed.type != "events":
            return
        message = decode_host(frame)
        assert isinstance(message, Events)
        fresh = 0
        for offset, value in enumerate(message.events):
            seq = message.start + offset
            if table.replica is None:
                if seq == 0:
                    _start_domicile_game(table, value)
                    fresh += 1
                continue
            if seq == table.replica.next_seq:
                table.replica.receive_value(value)
                fresh += 1
        table.counted(fresh)
        table.notify()

    return on_frame


def _decide(table: TableLoad, chat_only: bool, turn: int) -> tuple[int, Any] | None:
    """The next action of the table (which seat sends it, signed), or None for now."""
    from domicile_p2p.rules import RuleError
    from domicile_p2p.transcript.errors import AgentMisuse
    from domicile_p2p.transcript.ledger import Step

    replica = table.replica
    if replica is None:
        return None
    order = [(turn + i) % SEATS for i in range(SEATS)]
    for seat in order:
        due = table.players[seat].due()
        if due is not None:
            return seat, due
    if replica.step is not Step.PLAY:
        return None
    if chat_only:
        seat = 1 + turn % INVESTIGATORS
        return seat, table.players[seat].agent.chat(f"load {turn}: the candle gutters")
    for seat in order:
        player = table.players[seat]
        view = player.view()
        if view is None:
            continue
        action = table.policies[seat].act(view)
        if action is None:
            continue
        try:
            return seat, player.play(action)
        except (RuleError, AgentMisuse) as exc:
            table.stats.refused.append(f"seat {seat}: {exc}")
    return None


async def _next_decision(
    table: TableLoad, chat_only: bool, turn: int, stop: float
) -> tuple[int, Any] | None:
    """Wait until the table has something to do (see :func:`_decide`); None at ``stop``."""
    found: list[tuple[int, Any]] = []

    def decided() -> bool:
        decision = _decide(table, chat_only, turn)
        if decision is not None:
            found.append(decision)
        return decision is not None

    return found[0] if await table.until(decided, stop) else None


async def _at_pace(
    table: TableLoad, pace: float, stop: float, act: Callable[[int], Awaitable[bool]]
) -> None:
    """One action of the table every ``pace`` seconds (``act(turn)``; False: no more to send).

    The domicile host and the bare anchor are driven by this one loop, so that they
    are offered exactly the same load.
    """
    turn = 0
    due_at = time.monotonic() + random.uniform(0, pace)
    while time.monotonic() < stop:
        await asyncio.sleep(max(0.0, due_at - time.monotonic()))
        due_at += pace
        # One action in flight per table: the last one must have reached all seven.
        if not await table.until(lambda: not table.in_flight(), stop):
            return
        if not await act(turn):
            return
        turn += 1


async def _pace_domicile(table: TableLoad, pace: float, rate: float, stop: float) -> None:
    """Human pace: one action of the table every ``pace`` seconds, the bots playing the game."""
    from domicile_p2p.net.wire import Act, text

    async def act(turn: int) -> bool:
        chosen = await _next_decision(table, False, turn, stop)
        if chosen is None:
            return False
        seat, action = chosen
        table.sent(seat, action.counter)
        await table.connections[seat].send(text(Act(action.value)))
        return True

    await _at_pace(table, pace, stop, act)


async def _saturate_domicile(table: TableLoad, pace: float, rate: float, stop: float) -> None:
    """Saturation: the setup as fast as it goes, then every investigator chats at ``rate``/s."""
    from domicile_p2p.net.wire import Act, text
    from domicile_p2p.transcript.ledger import Step

    turn = 0
    while time.monotonic() < stop:
        if not await table.until(lambda: not table.in_flight(), stop):
            return
        if table.replica is not None and table.replica.step is Step.PLAY:
            break
        chosen = await _next_decision(table, True, turn, stop)
        if chosen is None:
            return
        seat, action = chosen
        table.sent(seat, action.counter)
        await table.connections[seat].send(text(Act(action.value)))
        turn += 1

    async def chatter(seat: int) -> None:
        agent = table.players[seat].agent
        last = 0.0
        number = 0
        while time.monotonic() < stop:
            if not await table.until(lambda: not table.in_flight(seat), stop):
                return
            await asyncio.sleep(max(0.0, last + 1.0 / rate - time.monotonic()))
            last = time.monotonic()
            action = agent.chat(f"load {number}: the candle gutters")
            number += 1
            table.sent(seat, action.counter)
            await table.connections[seat].send(text(Act(action.value)))

    await asyncio.gather(*(chatter(seat) for seat in range(1, SEATS)))


# ------------------------------------------------------------- bare mode


async def join_bare(table: TableLoad, seat: int) -> None:
    from websockets.asyncio.client import connect

    from domicile_p2p.net.adapters.tls import client_context

    websocket = await connect(
        table.spec["url"],
        ssl=client_context(),
        compression=None,
        proxy=None,
        open_timeout=60,
        ping_interval=10,
        ping_timeout=20,
        max_size=64 * 1024,
        local_addr=(table.plan["source"], 0),
    )
    await websocket.send(json.dumps({"table": table.spec["key"], "seat": seat}))
    await asyncio.wait_for(websocket.recv(), 60)  # the welcome
    table.connections[seat] = websocket


def _bare_frames(table: TableLoad) -> Any:
    def on_frame(frame: str | bytes, parsed: _Frame) -> None:
        if parsed.type == "events":
            table.counted(len(parsed.events))

    return on_frame


async def _pace_bare(table: TableLoad, pace: float, rate: float, stop: float) -> None:
    pad = "x" * EVENT_PAD

    async def send(seat: int) -> None:
        table.counters[seat] += 1
        counter = table.counters[seat]
        table.sent(seat, counter)
        await table.connections[seat].send(
            f'{{"seat":{seat},"counter":{counter},"kind":"chat","pad":"{pad}"}}'
        )

    if pace > 0:

        async def act(turn: int) -> bool:
            await send(turn % SEATS)
            return True

        await _at_pace(table, pace, stop, act)
        return

    async def chatter(seat: int) -> None:
        last = 0.0
        while time.monotonic() < stop:
            if not await table.until(lambda: not table.in_flight(seat), stop):
                return
            await asyncio.sleep(max(0.0, last + 1.0 / rate - time.monotonic()))
            last = time.monotonic()
            await send(seat)

    await asyncio.gather(*(chatter(seat) for seat in range(1, SEATS)))


# ------------------------------------------------------------- the child's main


def _domicile_pacer(pace: float) -> Any:
    return _pace_domicile if pace > 0 else _saturate_domicile


async def load_child(plan: dict[str, Any]) -> dict[str, Any]:
    bare = plan["mode"] == "bare"
    stats = Stats()
    window = Window()
    tables = [TableLoad(spec, plan, stats, window) for spec in plan["tables"]]
    # At most a few joins in flight per server (the host refuses more than 8 pending joins
    # from one address) and a bounded number overall (each costs two SPAKE2 operations).
    per_server = {spec["url"]: asyncio.Semaphore(PENDING_JOINS) for spec in plan["tables"]}
    overall = asyncio.Semaphore(plan["join_concurrency"])
    readers: list[asyncio.Task[None]] = []
    started = time.monotonic()
    for table in tables:
        table.identities = [None] * SEATS
    join = join_bare if bare else join_seat

    # Seat 0 first at every table (the Ghost), then the others, all tables at once.
    async def take_seat(table: TableLoad, number: int) -> None:
        async with per_server[table.spec["url"]], overall:
            await join(table, number)

    try:
        await asyncio.gather(*(take_seat(table, 0) for table in tables))
        await asyncio.gather(
            *(take_seat(table, number) for table in tables for number in range(1, SEATS))
        )
    except Exception as exc:  # a refused join: tell the parent why, in one line
        print(json.dumps({"error": f"joining failed: {exc!r}"}), flush=True)
        return {}
    joined = time.monotonic() - started
    for table in tables:
        handler = _bare_frames(table) if bare else _domicile_frames(table)
        for seat in range(SEATS):
            readers.append(
                asyncio.ensure_future(
                    _reader(table, seat, table.connections[seat], handler if seat == 0 else None)
                )
            )
    # The load generator's own pauses must not pass for the host's latency: move what the
    # joins allocated out of the collector's way, and watch the event loop's lag.
    gc.collect()
    gc.freeze()
    lags: list[float] = []
    monitor = asyncio.ensure_future(_watch_lag(lags, window))
    print(json.dumps({"seated": len(tables), "join_s": joined}), flush=True)
    line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    go = float(line.split()[1])
    for phase in plan["phases"]:
        window.start = go + phase["warmup"]
        window.end = window.start + phase["duration"]
        stats_before = (len(stats.latencies), len(stats.worst), len(stats.slow))
        pacer = _pace_bare if bare else _domicile_pacer(phase["pace"])
        await asyncio.gather(
            *(pacer(table, phase["pace"], plan["rate"], window.end) for table in tables)
        )
        await asyncio.sleep(0.3)  # the last events' arrivals
        lag = sorted(lags)
        lags.clear()
        lat = stats.latencies[stats_before[0] :]
        worst = stats.worst[stats_before[1] :]
        print(
            json.dumps(
                {
                    "phase": phase["name"],
                    "latencies": [round(x, 6) for x in lat],
                    "worst": [round(x, 6) for x in worst],
                    "slow": [[round(a, 4), round(b, 4)] for a, b in stats.slow[stats_before[2] :]],
                    "events": stats.events,
                    "sent": stats.sent,
                    "refused": stats.refused[:5],
                    "failures": stats.failures[:5],
                    "cpu": (process_sample(os.getpid()) or process_sample_missing()).cpu,
                    "loop_lag_p99": percentile(lag, 0.99) if lag else None,
                    "loop_lag_max": lag[-1] if lag else None,
                }
            ),
            flush=True,
        )
        stats.events = stats.sent = 0
        stats.refused.clear()
        line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        if not line.startswith("go"):
            break
        go = float(line.split()[1])
    for table in tables:
        table.done = True
    for table in tables:
        for websocket in table.connections:
            if websocket is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(websocket.close(), 2)
    for reader in readers:
        reader.cancel()
    monitor.cancel()
    return {}


async def _watch_lag(lags: list[float], window: Window) -> None:
    """How late a 10 ms sleep wakes up, during the window: this process's own scheduling delay."""
    while True:
        before = time.monotonic()
        await asyncio.sleep(0.01)
        late = time.monotonic() - before - 0.01
        if window.inside(before):
            lags.append(late)


def process_sample_missing() -> Any:
    raise RuntimeError("cannot read this process's own /proc entry")


# =============================================================== the anchor server (child)


async def bare_server(tables: int, directory: Path) -> None:
    from websockets.asyncio.server import ServerConnection, broadcast, serve

    from domicile_p2p.net.adapters.tls import load_or_create_certificate, server_context

    certificate = load_or_create_certificate(directory)
    groups: dict[int, list[ServerConnection]] = {}
    sequence: dict[int, int] = {}

    async def handle(websocket: ServerConnection) -> None:
        hello = json.loads(await websocket.recv())
        key = int(hello["table"])
        group = groups.setdefault(key, [])
        group.append(websocket)
        await websocket.send('{"type":"welcome"}')
        try:
            async for frame in websocket:
                seq = sequence.get(key, 0)
                sequence[key] = seq + 1
                body = frame if isinstance(frame, str) else frame.decode("utf-8", "replace")
                broadcast(group, f'{{"type":"events","start":{seq},"events":[{body}]}}')
        finally:
            group.remove(websocket)

    server = await serve(
        handle,
        "127.0.0.1",
        0,
        ssl=server_context(certificate),
        max_size=64 * 1024,
        max_queue=32,
        compression=None,
        ping_interval=10,
        ping_timeout=20,
        close_timeout=2,
        server_header=None,
    )
    port = next(iter(server.sockets)).getsockname()[1]
    print(json.dumps({"event": "listening", "port": port, "tables": tables}), flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    await stop.wait()
    server.close()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(server.wait_closed(), 5)


# =============================================================== the parent


@dataclass
class Server:
    """One host (or anchor) process and its tables."""

    process: subprocess.Popen[bytes]
    port: int
    tables: list[dict[str, Any]]
    log: Path


def _split(total: int, size: int) -> list[int]:
    return [min(size, total - start) for start in range(0, total, size)]


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


def start_servers(
    kind: str,
    total: int,
    directory: Path,
    per_host: int,
    setup_timeout: float,
    nice: int = 0,
    gc_thaw_every: float | None = None,
) -> list[Server]:
    """Start every server process; if any fails to come up, stop the ones already started."""
    servers: list[Server] = []
    try:
        return _start_servers(
            kind, total, directory, per_host, setup_timeout, nice, gc_thaw_every, servers
        )
    except BaseException:
        stop_servers(servers)
        raise


def _start_servers(
    kind: str,
    total: int,
    directory: Path,
    per_host: int,
    setup_timeout: float,
    nice: int,
    gc_thaw_every: float | None,
    servers: list[Server],
) -> list[Server]:
    next_key = 0
    for index, count in enumerate(_split(total, per_host)):
        data = directory / f"{kind}-{index}"
        data.mkdir(parents=True)
        log = data / "stdout.jsonl"
        if kind == "domicile":
            command = [
                venv_bin("domicile"),
                "host",
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
                str(setup_timeout),
                "--name",
                f"Bench {index}",
                "--data-dir",
                str(data),
            ]
            if gc_thaw_every is not None:
                command += ["--gc-thaw-every", str(gc_thaw_every)]
        else:
            command = [sys.executable, __file__, "--bare-server", str(count), str(data)]
        with open(log, "wb") as out:
            process = subprocess.Popen(
                command,
                stdout=out,
                stderr=subprocess.DEVNULL,
                preexec_fn=(lambda: os.setpriority(os.PRIO_PROCESS, 0, nice)) if nice else None,
            )
        servers.append(Server(process, 0, [], log))
    for server in servers:  # started all at once above; now read what each announced
        index = servers.index(server)
        count = _split(total, per_host)[index]
        if kind == "domicile":
            records = _wait_for_lines(server.log, server.process, 1 + count)
            listening = next(r for r in records if r["event"] == "listening")
            server.port = int(listening["port"])
            for record in records:
                if record["event"] == "table":
                    server.tables.append(
                        {
                            "key": next_key,
                            "url": f"wss://127.0.0.1:{server.port}",
                            "nameplate": record["table"],
                            "code": record["code"],
                        }
                    )
                    next_key += 1
        else:
            records = _wait_for_lines(server.log, server.process, 1)
            server.port = int(records[0]["port"])
            for _ in range(count):
                server.tables.append({"key": next_key, "url": f"wss://127.0.0.1:{server.port}"})
                next_key += 1
    return servers


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
    profile: dict[str, float] | None = None
    gc_pauses: list[tuple[int, float]] = field(default_factory=list)
    """The host's garbage-collection pauses over 20 ms during the window: generation, ms."""
    slow_causes: dict[str, float] = field(default_factory=dict)
    """Actions over the target, by cause (``attribute_slow``), and the host's CPU wait."""
    pauses_waiting: list[tuple[int, float, float, int]] = field(default_factory=list)
    """Each long GC pause: generation, ms, ms of it the host's loop waited for a CPU, and
    how many objects it freed."""

    @property
    def events_per_s(self) -> float:
        return self.events / self.duration

    @property
    def capacity_per_core(self) -> float:
        return self.events_per_s / self.host_cores if self.host_cores > 0 else math.nan


def _gc_pauses(servers: Sequence[Server]) -> list[tuple[int, float]]:
    """The host's logged garbage-collection pauses so far (``gc-pause``: generation, ms)."""
    return [(record[0], record[1]) for record in _gc_pause_records(servers)]


def _gc_pause_records(servers: Sequence[Server]) -> list[tuple[int, float, float, int]]:
    """Generation, ms, start (CLOCK_MONOTONIC, from the logged wall-clock start), collected."""
    to_monotonic = time.monotonic() - time.time()
    pauses: list[tuple[int, float, float, int]] = []
    for server in servers:
        with contextlib.suppress(FileNotFoundError):
            for line in server.log.read_text().splitlines():
                if '"gc-pause"' in line:
                    with contextlib.suppress(ValueError, KeyError, TypeError):
                        record = json.loads(line)
                        began = float(record.get("began_unix", math.nan)) + to_monotonic
                        pauses.append(
                            (
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
        import threading

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
    pauses: Sequence[tuple[int, float, float, int]],
    run_queue: RunQueueWatch | None,
) -> dict[str, float]:
    """Why each action over the target was slow: a logged GC pause inside it, the host's
    loop waiting >= 20 ms for a CPU inside it, or neither (the loop busy or blocked)."""
    counts: dict[str, float] = {"slow": len(slow), "gc": 0, "cpu_wait": 0, "other": 0}
    for sent, took in slow:
        overlapping = [p for p in pauses if p[2] < sent + took and p[2] + p[1] / 1000 > sent]
        if overlapping:
            counts["gc"] += 1
        elif run_queue is not None and run_queue.waited(sent, sent + took) >= 0.020:
            counts["cpu_wait"] += 1
        else:
            counts["other"] += 1
    return counts


def _cpu(servers: Sequence[Server]) -> float:
    total = 0.0
    for server in servers:
        sample = process_sample(server.process.pid)
        if sample is not None:
            total += sample.cpu
    return total


def _profile_host(pid: int, seconds: float, out: Path) -> subprocess.Popen[bytes] | None:
    spy = shutil.which("py-spy") or venv_bin("py-spy")
    if not Path(spy).exists() and shutil.which(spy) is None:
        return None
    return subprocess.Popen(
        [
            spy,
            "record",
            "--pid",
            str(pid),
            "--duration",
            str(max(1, int(seconds))),
            "--rate",
            "250",
            "--format",
            "raw",
            "--idle",
            "--nonblocking",
            "--output",
            str(out),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


PROFILE_CATEGORIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("idle (waiting in select)", ("select (selectors.py", "select (")),
    # os.fdatasync is C code: py-spy shows its Python caller (the log's sync, in a disk thread).
    ("fsync (event log, disk threads)", ("fsync", "fdatasync", "AppendLog.sync (")),
    ("signature checks (Ed25519 verify)", ("verify (cryptography", "verifies (")),
    ("signing (Ed25519 sign)", ("sign (cryptography", "sign (domicile_p2p/identity")),
    ("hashing (SHA-256 links, commitments)", ("hashlib", "tagged_hash", "digest (")),
    ("JSON (canonical, msgspec, json)", ("canonical.py", "json/", "msgspec", "wire.py")),
    ("TLS (ssl)", ("ssl.py", "sslproto.py", "_ssl")),
    ("websockets framing", ("websockets/",)),
    ("asyncio machinery", ("asyncio/",)),
    ("rules engine, ledger, table", ("rules/", "transcript/")),
    ("host session and server (routing, fan-out loops)", ("domicile_p2p/net/",)),
)


IDLE_POOL_THREAD = "_worker (concurrent/futures/thread.py:81)"
"""The leaf frame of a pool thread waiting on its queue (CPython 3.11)."""


def classify(frames: Sequence[str]) -> str:
    """The category of a sample: the first category (in the order above) that the
    leaf-most frame belonging to any category matches: self time by module."""
    for frame in reversed(frames):
        for name, needles in PROFILE_CATEGORIES:
            if any(needle in frame for needle in needles):
                return name
    return "other"


def summarize_profile(path: Path) -> dict[str, float]:
    """Shares of py-spy's samples (raw collapsed stacks, idle included) by category.

    The event loop's idle time counts; a pool thread waiting for work (the disk threads
    between commits) does not: it is not time any event waits for.
    """
    counts: dict[str, float] = {}
    total = 0
    with contextlib.suppress(FileNotFoundError):
        for line in path.read_text().splitlines():
            stack, _, number = line.rpartition(" ")
            if not number.isdigit() or stack.endswith(IDLE_POOL_THREAD):
                continue
            samples = int(number)
            total += samples
            name = classify(stack.split(";"))
            counts[name] = counts.get(name, 0) + samples
    if total == 0:
        return {}
    return {name: count / total for name, count in counts.items()}


def run_kind(
    kind: str,
    tables: int,
    phases: list[dict[str, Any]],
    args: Any,
    directory: Path,
) -> tuple[list[PhaseResult], dict[str, Any]]:
    servers = start_servers(
        kind,
        tables,
        directory / f"{kind}-{tables}",
        args.tables_per_host,
        args.setup_timeout,
        args.server_nice,
        args.gc_thaw_every,
    )
    children: list[subprocess.Popen[str]] = []
    try:
        specs = [spec for server in servers for spec in server.tables]
        groups = max(
            1, min(args.load_processes or math.ceil(tables / TABLES_PER_LOAD_PROCESS), tables)
        )
        for index in range(groups):
            # Each load generator has its own loopback source address, so its joins stay
            # under the host's limit of pending joins per address while the others join.
            plan = {
                "mode": kind,
                "source": f"127.0.0.{2 + index}",
                "tables": specs[index::groups],
                "rate": args.rate,
                "join_concurrency": 6,
                "phases": phases,
            }
            child = subprocess.Popen(
                [sys.executable, __file__, "--load-child"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            assert child.stdin is not None
            child.stdin.write(json.dumps(plan) + "\n")
            child.stdin.flush()
            children.append(child)
        join_times = []
        for child in children:
            assert child.stdout is not None
            line = child.stdout.readline()
            if not line:
                raise RuntimeError(f"a load generator died while joining ({kind}, K={tables})")
            record = json.loads(line)
            if "error" in record:
                raise RuntimeError(f"a load generator ({kind}, K={tables}): {record['error']}")
            join_times.append(record["join_s"])
        results = []
        for number, phase in enumerate(phases):
            go = time.monotonic() + 0.2
            for child in children:
                assert child.stdin is not None
                child.stdin.write(f"go {go}\n")
                child.stdin.flush()
            time.sleep(max(0.0, go + phase["warmup"] - time.monotonic()))
            before = _cpu(servers)
            pauses_before = len(_gc_pauses(servers))
            load_before = sum(
                (process_sample(child.pid) or process_sample_missing()).cpu for child in children
            )
            spy = None
            profile_path = (args.profile_out or directory) / (
                f"py-spy-{kind}-k{tables}-{phase['name']}.txt"
            )
            if args.profile and kind == "domicile" and number == len(phases) - 1:
                spy = _profile_host(servers[0].process.pid, phase["duration"] - 0.5, profile_path)
            window_start = time.monotonic()
            run_queue = RunQueueWatch(servers[0].process.pid) if len(servers) == 1 else None
            time.sleep(phase["duration"])
            host_cores = (_cpu(servers) - before) / phase["duration"]
            pause_records = _gc_pause_records(servers)[pauses_before:]
            pauses = [(record[0], record[1]) for record in pause_records]
            load_after = sum(
                (process_sample(child.pid) or process_sample_missing()).cpu for child in children
            )
            reports = []
            for child in children:
                assert child.stdout is not None
                reports.append(json.loads(child.stdout.readline()))
            if spy is not None:
                spy.wait(60)
            if run_queue is not None:
                run_queue.stop()
            slow = [tuple(x) for r in reports for x in r.get("slow", [])]
            causes = attribute_slow(slow, pause_records, run_queue)
            if run_queue is not None:  # how much of each long pause the host spent waiting
                pauses_waiting = [
                    (
                        generation,
                        took,
                        round(1000 * run_queue.waited(began, began + took / 1000), 1),
                        collected,
                    )
                    for generation, took, began, collected in pause_records
                ]
            if run_queue is not None:
                causes["host_cpu_wait_ms_per_s"] = round(
                    1000
                    * run_queue.waited(window_start, window_start + phase["duration"])
                    / phase["duration"],
                    1,
                )
            results.append(
                PhaseResult(
                    phase["name"],
                    [x for r in reports for x in r["latencies"]],
                    [x for r in reports for x in r["worst"]],
                    sum(r["events"] for r in reports),
                    sum(r["sent"] for r in reports),
                    phase["duration"],
                    host_cores,
                    (load_after - load_before) / phase["duration"],
                    [f for r in reports for f in r["failures"]],
                    [f for r in reports for f in r["refused"]],
                    max((r["loop_lag_p99"] or 0.0 for r in reports), default=0.0),
                    max((r["loop_lag_max"] or 0.0 for r in reports), default=0.0),
                    summarize_profile(profile_path) if spy is not None else None,
                    pauses,
                    causes,
                    pauses_waiting if run_queue is not None else [],
                )
            )
            if number == len(phases) - 1:
                for child in children:
                    assert child.stdin is not None
                    child.stdin.write("stop\n")
                    child.stdin.flush()
        memory = [process_sample(server.process.pid) for server in servers]
        aborted = sum(
            line.count('"setup-aborted"')
            for server in servers
            for line in server.log.read_text().splitlines()
        )
        extra = {
            "tables_aborted_in_setup": aborted,
            "processes": len(servers),
            "load_processes": len(children),
            "join_s": max(join_times),
            "peak_memory_bytes": sum(m.peak_rss_bytes for m in memory if m is not None),
            "peak_memory_max_process_bytes": max(
                (m.peak_rss_bytes for m in memory if m is not None), default=0
            ),
        }
        for child in children:
            with contextlib.suppress(subprocess.TimeoutExpired):
                child.wait(30)
        return results, extra
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
                child.wait(5)
        stop_servers(servers)


def main(argv: list[str] | None = None) -> int:
    raw = sys.argv[1:] if argv is None else argv
    if raw[:1] == ["--load-child"]:
        raise_nofile()
        plan = json.loads(sys.stdin.readline())
        asyncio.run(load_child(plan))
        return 0
    if raw[:1] == ["--bare-server"]:
        raise_nofile()
        asyncio.run(bare_server(int(raw[1]), Path(raw[2])))
        return 0
    # Stopped from outside (a timeout, Ctrl-C): unwind, so every host and child is stopped.
    signal.signal(signal.SIGTERM, _exit_on_signal)
    options = parser(__doc__.splitlines()[0])
    options.add_argument(
        "--tables", type=int, action="append", help="K (repeatable; default 9, 18)"
    )
    options.add_argument(
        "--pace", type=float, default=3.0, help="seconds between a table's actions"
    )
    options.add_argument(
        "--rate",
        type=float,
        default=18.0,
        help="saturation: actions/s per investigator connection (host limit 20)",
    )
    options.add_argument("--duration", type=float, default=15.0, help="seconds measured per phase")
    options.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    options.add_argument(
        "--load-processes",
        type=int,
        default=0,
        help=f"load generator processes (default: one per {TABLES_PER_LOAD_PROCESS} tables)",
    )
    options.add_argument(
        "--tables-per-host",
        type=int,
        default=TABLES_PER_HOST,
        help=f"tables one host (and one anchor) process serves (default {TABLES_PER_HOST})",
    )
    options.add_argument(
        "--setup-timeout",
        type=float,
        default=SETUP_TIMEOUT,
        help=(
            "the hosts' --setup-timeout: every table plays only once all K x 7 seats are "
            "seated, minutes after the first tables filled, and the host's default (120 s) "
            f"would abort those before play begins (default here {SETUP_TIMEOUT:g})"
        ),
    )
    options.add_argument(
        "--server-nice",
        type=int,
        default=0,
        help=(
            "niceness of the host and anchor processes (negative needs root): on a shared "
            "machine, a stand-in for a host with a core of its own, ahead of the load "
            "generators and whatever else runs"
        ),
    )
    options.add_argument(
        "--gc-thaw-every",
        type=float,
        help="the host's --gc-thaw-every (default: the host's, 600 s): short, to see a thaw",
    )
    options.add_argument("--no-human", action="store_true", help="skip the human-pace phase")
    options.add_argument(
        "--saturation",
        action="store_true",
        help="add the saturation phase (default: only for the smallest K)",
    )
    options.add_argument("--no-saturation", action="store_true", help="skip saturation")
    options.add_argument("--no-anchor", action="store_true", help="skip the bare server")
    options.add_argument(
        "--profile", action="store_true", help="py-spy one host during the last phase"
    )
    options.add_argument("--profile-out", type=Path, help="keep py-spy's raw stacks in this dir")
    args = options.parse_args(raw)
    if args.server_nice < 0 and os.geteuid() != 0:
        options.error("--server-nice below 0 raises the host's priority, which needs root (sudo)")
    if args.quick:
        args.tables, args.duration, args.warmup, args.pace = [1], 1.2, 0.3, 0.4
    sizes = sorted(set(args.tables or [10, 100]))
    limit = raise_nofile()
    needed = max(sizes) * SEATS * 2 + 256
    report = Report(
        "host",
        {
            "tables": sizes,
            "pace_s": args.pace,
            "saturation_rate_per_connection": args.rate,
            "duration_s": args.duration,
            "warmup_s": args.warmup,
            "tables_per_host_process": args.tables_per_host,
            "server_nice": args.server_nice,
            "gc_thaw_every": args.gc_thaw_every,
            "nofile": limit,
        },
        (
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
        ),
    )
    if limit < needed:
        report.note(f"RLIMIT_NOFILE is {limit}; K={max(sizes)} needs about {needed}")
    with tempfile.TemporaryDirectory(prefix="bench-host-", ignore_cleanup_errors=True) as tmp:
        directory = Path(tmp)
        measured: dict[str, dict[int, list[PhaseResult]]] = {"domicile": {}, "bare": {}}
        for tables in sizes:
            phases = []
            if not args.no_human:
                phases.append(
                    {
                        "name": "human",
                        "pace": args.pace,
                        "warmup": args.warmup,
                        "duration": args.duration,
                    }
                )
            if not args.no_saturation and (args.saturation or tables == sizes[0]):
                phases.append(
                    {
                        "name": "saturation",
                        "pace": 0.0,
                        "warmup": min(args.warmup, 3),
                        "duration": args.duration,
                    }
                )
            if not phases:
                continue
            for kind in ("domicile", "bare"):
                if kind == "bare" and args.no_anchor:
                    continue
                try:
                    results, extra = run_kind(kind, tables, phases, args, directory)
                except Exception as exc:
                    report.note(f"{kind} K={tables}: could not be measured: {exc}")
                    report.results[f"{kind}_k{tables}"] = {"error": str(exc)}
                    break
                measured[kind][tables] = results
                report.results[f"{kind}_k{tables}"] = {"setup": extra}
                for result in results:
                    report.row(
                        "domicile host" if kind == "domicile" else "bare TLS fan-out (anchor)",
                        tables,
                        result.name,
                        result.events_per_s,
                        ms(percentile(result.latencies, 0.5)),
                        ms(percentile(result.latencies, 0.99)),
                        ms(percentile(result.worst, 0.99)),
                        result.host_cores,
                        result.capacity_per_core,
                        extra["peak_memory_bytes"] / 2**20,
                        result.load_cores,
                        ms(result.load_lag_p99),
                        _pause_summary(result.gc_pauses),
                        _causes_summary(result.slow_causes),
                        len(result.failures),
                    )
                    report.results[f"{kind}_k{tables}"][result.name] = {
                        "events_per_s": result.events_per_s,
                        "actions_sent": result.sent,
                        "latency_p50_s": percentile(result.latencies, 0.5),
                        "latency_p99_s": percentile(result.latencies, 0.99),
                        "latency_last_peer_p99_s": percentile(result.worst, 0.99),
                        "samples": len(result.latencies),
                        "host_cores": result.host_cores,
                        "events_per_s_per_core": result.capacity_per_core,
                        "load_cores": result.load_cores,
                        "load_loop_lag_p99_s": result.load_lag_p99,
                        "load_loop_lag_max_s": result.load_lag_max,
                        "host_gc_pauses_ms": result.gc_pauses,
                        "slow_actions_by_cause": result.slow_causes,
                        "host_gc_pauses_generation_ms_cpu_wait_ms_collected": (
                            result.pauses_waiting
                        ),
                        "failures": result.failures,
                        "refused": result.refused,
                        "profile": result.profile,
                    }
                    if result.profile:
                        _profile_notes(report, f"{kind} K={tables}", result.profile)
    _targets(report, measured, args)
    report.note(
        f"one host process serves up to {args.tables_per_host} tables: K tables run as "
        f"ceil(K/{args.tables_per_host}) host processes; CPU and memory are their sums"
    )
    report.emit()
    return 0


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


def _exit_on_signal(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def _profile_notes(report: Report, label: str, shares: dict[str, float]) -> None:
    """Wall-time shares (idle and fsync included), then shares of the CPU time alone."""
    for name, share in sorted(shares.items(), key=lambda item: -item[1]):
        report.note(f"profile {label}, wall: {share:6.1%}  {name}")
    busy = {n: v for n, v in shares.items() if not n.startswith(("idle", "fsync"))}
    total = sum(busy.values())
    for name, share in sorted(busy.items(), key=lambda item: -item[1]):
        report.note(f"profile {label}, CPU only: {share / total:6.1%}  {name}")


def _targets(report: Report, measured: dict[str, dict[int, list[PhaseResult]]], args: Any) -> None:
    human = {
        k: next((r for r in rs if r.name == "human"), None)
        for k, rs in measured["domicile"].items()
    }
    biggest = max((k for k, r in human.items() if r is not None), default=None)
    if biggest is not None:
        result = human[biggest]
        assert result is not None
        note = "" if biggest >= 1000 else f"measured at K={biggest}, not 1,000"
        report.targets.append(
            Target(
                f"human pace p99 latency, K={biggest}",
                ms(percentile(result.latencies, 0.99)),
                ms(TARGET_P99_S),
                "lower",
                " ms",
                note,
            )
        )
        report.targets.append(
            Target(
                f"human pace host cores, K={biggest}",
                result.host_cores,
                1.0,
                "lower",
                " cores",
                note,
            )
        )
        memory = report.results[f"domicile_k{biggest}"]["setup"]["peak_memory_bytes"]
        report.targets.append(
            Target(
                f"host peak memory (sum), K={biggest}",
                memory / 2**20,
                TARGET_MEMORY / 2**20,
                "lower",
                " MiB",
                note,
            )
        )
    for tables, results in measured["domicile"].items():
        mine = next((r for r in results if r.name == "saturation"), None)
        anchor_results = measured["bare"].get(tables, [])
        anchor = next((r for r in anchor_results if r.name == "saturation"), None)
        if mine is None:
            continue
        value = None
        note = "no anchor run" if anchor is None else ""
        if anchor is not None:
            value = mine.capacity_per_core / anchor.capacity_per_core
        report.targets.append(
            Target(
                f"saturation events/s per host core vs bare, K={tables}",
                value,
                TARGET_THROUGHPUT_RATIO,
                "higher",
                "x",
                note,
            )
        )


if __name__ == "__main__":
    sys.exit(main())
