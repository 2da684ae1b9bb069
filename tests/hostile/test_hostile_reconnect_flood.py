"""A reconnect flood: one address opening connections as fast as it can.

Each connection used to complete a TLS handshake (and a websocket one, and a Welcome)
before it was refused ``rate-limited``: four workers on one address made a host spend
90% of a core.  Now the host asks its session at accept (``HostSession.admits``), and an
address over its connection rate (``HostLimits.connection_rate``, in bursts of
``max_per_address``) is reset there, before a byte of TLS.

The first test shows it byte for byte against an in-process host; the second floods a
``domicile host`` subprocess beside an honest game and counts the connections that got
through.  The host's CPU share during the flood is printed (SECURITY.md's figure), not
asserted: it depends on the machine and its load.  ``make test`` floods for 5 seconds
against a host that lets an address open 4 connections a second (in bursts of 8), which
any flooder goes over however loaded the machine; ``make soak`` for 30 seconds from 4
processes against the host's default rate (``DOMICILE_SOAK_RECONNECT_*``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import ssl
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

from flood_support import FloodedHost, cpu_seconds, honest_pair
from hostile_support import Records
from live_support import LOOPBACK, environment, loopback_config, same_transcripts

from domicile_p2p.net.adapters.host import start_host
from domicile_p2p.net.adapters.tls import client_context
from domicile_p2p.net.join.codes import JoinCode
from domicile_p2p.net.sessions.host import HostLimits
from domicile_p2p.transcript.verify import verify

CODE = JoinCode(5, "owl", "quill")
SECONDS = float(os.environ.get("DOMICILE_SOAK_RECONNECT_SECONDS", "5"))
PROCESSES = int(os.environ.get("DOMICILE_SOAK_RECONNECT_PROCESSES", "1"))
RATE = float(os.environ.get("DOMICILE_SOAK_RECONNECT_RATE", "4"))
"""The host's ``--connection-rate``; its ``--max-per-address`` is twice that, at least 8."""
BURST = max(8, int(2 * RATE))
WORKERS = 4
"""asyncio loops per flooding process."""
FLOODER = Path(__file__).with_name("reconnect_flooder.py")
TLS_HANDSHAKE_RECORD = 0x16


def _client_hello() -> bytes:
    """The first bytes a TLS client sends (its ClientHello), made without a socket."""
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    tls = client_context().wrap_bio(incoming, outgoing, server_hostname=LOOPBACK)
    with contextlib.suppress(ssl.SSLWantReadError):
        tls.do_handshake()
    return outgoing.read()


async def _first_reply(port: int, address: str) -> bytes:
    """Connect from ``address``, send a ClientHello, and read what the host answers first
    (``b""`` if it closed or reset the connection without a byte)."""
    try:
        reader, writer = await asyncio.open_connection(LOOPBACK, port, local_addr=(address, 0))
    except ConnectionResetError:  # reset before the client even saw it open
        return b""
    try:
        with contextlib.suppress(ConnectionError):
            writer.write(_client_hello())
            await writer.drain()
        try:
            return await asyncio.wait_for(reader.read(1), 30)
        except ConnectionError:
            return b""
    finally:
        writer.transport.abort()


async def test_an_address_over_its_connection_rate_is_refused_before_any_tls_byte(
    tmp_path: Path,
) -> None:
    # Three at once, and no more for a thousand seconds: nothing refills during the test.
    limits = replace(HostLimits(), max_per_address=3, connection_rate=0.001)
    log = Records()
    host = await start_host(loopback_config(tmp_path / "host", limits=limits), log)
    try:
        burst = [await _first_reply(host.port, "127.0.0.2") for _ in range(3)]
        over = await _first_reply(host.port, "127.0.0.2")
        elsewhere = await _first_reply(host.port, "127.0.0.3")
    finally:
        await host.close()
    assert burst == [bytes([TLS_HANDSHAKE_RECORD])] * 3, "the burst gets its TLS handshakes"
    assert over == b"", "the fourth is closed before the host writes a byte of TLS"
    assert elsewhere == bytes([TLS_HANDSHAKE_RECORD]), "another address is not affected"
    [refused] = log.named("refused-at-accept")
    assert refused["remote"].startswith("127.0.0.2:") and refused["refused"] == 1


async def _reconnect_flood(port: int, address: str) -> list[dict[str, Any]]:
    """``PROCESSES`` flooders (``reconnect_flooder.py``) from ``address`` for ``SECONDS``;
    what each reports."""
    flooders = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            str(FLOODER),
            str(port),
            str(CODE.nameplate),
            address,
            str(SECONDS),
            str(WORKERS),
            stdout=asyncio.subprocess.PIPE,
            env=environment(),
        )
        for _ in range(PROCESSES)
    ]
    try:
        outputs = [await asyncio.wait_for(f.communicate(), SECONDS + 120) for f in flooders]
    finally:
        for flooder in flooders:
            if flooder.returncode is None:
                flooder.kill()
                await flooder.wait()
    return [json.loads(stdout.decode().splitlines()[-1]) for stdout, _ in outputs]


async def test_a_reconnect_flood_from_one_address_gets_only_its_connection_rate(
    tmp_path: Path,
) -> None:
    host = FloodedHost(
        tmp_path / "host",
        *("--investigators", "1", "--code", str(CODE)),
        *("--connection-rate", str(RATE), "--max-per-address", str(BURST)),
    )
    flooder = "127.0.0.9"
    try:
        await host.start()
        cpu_before = cpu_seconds(host.pid)
        flood = asyncio.ensure_future(_reconnect_flood(host.port, flooder))
        bots = honest_pair(tmp_path, host.port, CODE)
        outcomes = await asyncio.wait_for(asyncio.gather(*(bot.play() for bot in bots)), 600)
        reports = await flood
        cpu = cpu_seconds(host.pid) - cpu_before
        ended = await host.wait_for("game-ended", 60)
        assert host.alive()
        started = min(report["started"] for report in reports)
        elapsed = max(report["ended"] for report in reports) - started
        attempts = sum(report["attempts"] for report in reports)
        answers: Counter[str] = Counter()
        for report in reports:
            answers.update(report["answers"])
        print(
            f"reconnect flood: {attempts} connections tried in {elapsed:.1f} s "
            f"({attempts / elapsed:.0f}/s, {PROCESSES} x {WORKERS} workers, one address): "
            f"{dict(answers)}; host CPU {cpu:.1f} s over the flood and the game "
            f"({100 * cpu / elapsed:.0f}% of one core over the flood's time)"
        )
    finally:
        await host.stop()
    assert all(outcome.valid for outcome in outcomes), [o.report.summary for o in outcomes]
    assert same_transcripts(outcomes)
    assert ended["verified"] and verify(Path(ended["transcript"])).valid
    let_in = [r for r in host.named("connected") if r["remote"].startswith(f"{flooder}:")]
    budget = BURST + RATE * elapsed
    assert attempts > budget, "the flood went over its rate"
    # Every connection the session saw from the flooder was within its rate; the rest
    # were reset at accept, before their TLS handshakes.
    assert 0 < len(let_in) <= budget
    assert answers["refused"] >= attempts - budget
    assert host.named("refused-at-accept")
