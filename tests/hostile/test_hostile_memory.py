"""Memory: a client that pings without reading is dropped with its outbox bounded
(websockets' own pong replies count against it); a connection that has not proven the
code holds a small TLS read buffer, from its accept until it sits down.

Over real TLS websockets on 127.0.0.1, small: a 256 KiB outbox bound, a few
seconds of pings at most.
"""

from __future__ import annotations

import asyncio
import gc
import os
import socket
from asyncio.sslproto import SSLProtocol
from pathlib import Path

from hostile_support import Records, raw_connection
from live_support import LOOPBACK, loopback_config, network_bot
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from domicile_p2p.net.adapters.host import start_host
from domicile_p2p.net.adapters.outbox import READ_SLICE, OutboxLimits
from domicile_p2p.net.adapters.server import TLS_READ_CHUNK, TLS_UNPROVEN_CHUNK
from domicile_p2p.net.adapters.tls import client_context
from domicile_p2p.net.join.codes import JoinCode
from domicile_p2p.net.wire import Role

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


def _host_tls_layers() -> list[SSLProtocol]:
    """The server side's TLS layers alive in this process (the clients' are not server-side)."""
    return [
        thing
        for thing in gc.get_objects()
        if isinstance(thing, SSLProtocol) and thing._server_side and thing._transport is not None
    ]


async def test_a_connection_holds_a_small_tls_buffer_until_it_has_proven_the_code(
    tmp_path: Path,
) -> None:
    host = await start_host(
        loopback_config(tmp_path / "host", investigators=1, codes=(CODE,)), Records()
    )
    try:
        # Accepted, and not one TLS byte sent: the host holds its TLS layer already.
        silent = socket.create_connection((LOOPBACK, host.port))
        for _ in range(200):  # bounded: until the host has accepted it
            if _host_tls_layers():
                break
            await asyncio.sleep(0.05)
        [handshaking] = _host_tls_layers()
        assert len(handshaking._ssl_buffer) == TLS_UNPROVEN_CHUNK, "not asyncio's 256 KiB"
        silent.close()
        # Past TLS and the Welcome, idle, with no code: still small.
        idle = await raw_connection(host.port)
        await idle.recv()
        assert host.server is not None and host.server._server is not None
        [served] = host.server._server.connections
        layer = served.transport._ssl_protocol  # type: ignore[attr-defined]
        assert (layer.max_size, len(layer._ssl_buffer)) == (TLS_UNPROVEN_CHUNK,) * 2
        await idle.close()
        # A player who proved the code reads in bigger chunks.
        url = f"wss://{LOOPBACK}:{host.port}"
        ghost = network_bot(tmp_path / "ghost", url, CODE, role=Role.GHOST)
        playing = asyncio.ensure_future(ghost.play())
        seated = []
        for _ in range(600):  # bounded: until the host has seated it
            seated = [
                c.transport._ssl_protocol  # type: ignore[attr-defined]
                for c in host.server._server.connections
                if c.transport._ssl_protocol.max_size == TLS_READ_CHUNK  # type: ignore[attr-defined]
            ]
            if seated or playing.done():
                break
            await asyncio.sleep(0.05)
        playing.cancel()
        assert [len(layer._ssl_buffer) for layer in seated] == [TLS_READ_CHUNK]
    finally:
        await host.close()
