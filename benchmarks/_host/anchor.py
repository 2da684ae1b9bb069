"""The anchor: a bare websockets TLS fan-out server, what any host must at least do.

Same certificate kind, TLS 1.3 and websockets options as the host; it groups
connections into tables of seven and broadcasts each frame a client sends to
the seven, wrapped like an ``events`` frame of the same size, with no
parsing, signatures, rules or disk.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
from pathlib import Path

from _common import raise_nofile
from websockets.asyncio.server import ServerConnection, broadcast, serve

from domicile_p2p.net.adapters.tls import load_or_create_certificate, server_context


def main(tables: int, directory: Path) -> int:
    raise_nofile()
    asyncio.run(serve_tables(tables, directory))
    return 0


async def serve_tables(tables: int, directory: Path) -> None:
    """Serve until SIGTERM or SIGINT; announce the port as one JSON line on stdout."""
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
