"""Memory: a client that pings without reading is dropped with its outbox bounded
(websockets' own pong replies count against it).

Over real TLS websockets on 127.0.0.1, small: a 256 KiB outbox bound, a few
seconds of pings at most.
"""

from __future__ import annotations

import asyncio
import os
import socket
from pathlib import Path

from hostile_support import Records
from live_support import LOOPBACK, loopback_config
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from domicile_p2p.net.adapters.host import start_host
from domicile_p2p.net.adapters.outbox import READ_SLICE, OutboxLimits
from domicile_p2p.net.adapters.tls import client_context
from domicile_p2p.net.join.codes import JoinCode

CODE = JoinCode(8, "owl", "quill")
LIMITS = OutboxLimits(bytes=256 * 1024, send_timeout=5.0, socket_buffer=64 * 1024)
PING = 125
"""The largest ping payload (a control frame's)."""


async def test_a_client_that_pings_without_reading_is_dropped_with_its_outbox_bounded(
    tmp_path: Path,
) -> None:
    log = Records()
    host = await start_host(
        loopback_config(tmp_path / "host", investigators=1, codes=(CODE,), outbox=LIMITS), log
    )
    try:
        raw = socket.socket()
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        raw.connect((LOOPBACK, host.port))
        raw.setblocking(False)
        websocket = await connect(
            f"wss://{LOOPBACK}:{host.port}",
            sock=raw,
            ssl=client_context(),
            server_hostname=LOOPBACK,
            compression=None,
            proxy=None,
            ping_interval=None,
            open_timeout=10,
        )
        await websocket.recv()  # the Welcome; from here it reads nothing, not even TLS
        tls = websocket.transport
        getattr(getattr(tls, "_ssl_protocol", None), "_transport", tls).pause_reading()
        loop = asyncio.get_running_loop()
        started, pings = loop.time(), 0
        while not log.named("stuck") and loop.time() - started < 20 and pings < 200_000:
            try:
                for _ in range(200):
                    websocket.protocol.send_ping(os.urandom(PING))
                    pings += 1
                websocket.send_data()
            except (ConnectionClosed, OSError, RuntimeError):
                break
            await asyncio.sleep(0.001)
        for _ in range(200):  # the host may still be reading the last pings
            if log.named("stuck"):
                break
            await asyncio.sleep(0.05)
        websocket.transport.abort()
        [stuck] = log.named("stuck")
        print(f"{pings} pings; dropped: {stuck}")
        # The host checks the bound after each slice of a read it parses: the pongs to
        # one slice's pings are all it can buffer beyond the bound.
        assert stuck["peak_bytes"] <= LIMITS.bytes + READ_SLICE, stuck
        assert stuck["reason"] in ("its outbox is full", "it stopped reading")
    finally:
        await host.close()
