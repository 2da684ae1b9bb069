"""One process of a reconnect flood, run by ``test_hostile_reconnect_flood.py``.

``python reconnect_flooder.py PORT TABLE SOURCE SECONDS WORKERS``: ``WORKERS`` asyncio
loops from the address ``SOURCE`` against ``wss://127.0.0.1:PORT``, for ``SECONDS``:
connect (TLS, websocket, the Welcome) and, when the host lets the connection in, send a
join to ``TABLE`` with a malformed PAKE element and read the answer; as fast as they
can.  Prints one
JSON line: the attempts, the answers by kind, and when the flood started and ended
(``time.monotonic``, the same clock in every process of this machine).

A process of its own, so that several can flood at once (the attacker of issue 20
ran four): one Python process making TLS connections is slower than the host taking
them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import time

from websockets.asyncio.client import connect

from domicile_p2p.net import wire
from domicile_p2p.net.adapters.tls import client_context

LOOPBACK = "127.0.0.1"


class Flood:
    def __init__(self, port: int, table: int, source: str, seconds: float) -> None:
        self.port = port
        self.table = table
        self.source = source
        self.deadline = time.monotonic() + seconds
        self.attempts = 0
        self.answers: dict[str, int] = {}

    async def worker(self) -> None:
        join = wire.text(
            wire.Join(wire.PROTOCOL, self.table, "00" * 32, "Flood", wire.Role.ANY, "ff" * 33)
        )
        for _attempt in range(10_000_000):
            if time.monotonic() > self.deadline:
                return
            self.attempts += 1
            try:
                websocket = await connect(
                    f"wss://{LOOPBACK}:{self.port}",
                    ssl=client_context(),
                    server_hostname=LOOPBACK,
                    compression=None,
                    proxy=None,
                    open_timeout=10,
                    ping_interval=None,
                    close_timeout=2,
                    local_addr=(self.source, 0),
                )
            except Exception:
                self.count("refused")
                continue
            try:
                await asyncio.wait_for(websocket.recv(), 10)  # the Welcome
                await websocket.send(join)
                reply = wire.decode_host(await asyncio.wait_for(websocket.recv(), 10))
                self.count(reply.code.value if isinstance(reply, wire.Error) else reply.type)
            except Exception:
                self.count("closed")
            finally:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(websocket.close(), 2)
                websocket.transport.abort()

    def count(self, what: str) -> None:
        self.answers[what] = self.answers.get(what, 0) + 1


async def main(port: int, table: int, source: str, seconds: float, workers: int) -> None:
    flood = Flood(port, table, source, seconds)
    started = time.monotonic()
    await asyncio.gather(*(flood.worker() for _ in range(workers)))
    print(
        json.dumps(
            {
                "attempts": flood.attempts,
                "answers": flood.answers,
                "started": started,
                "ended": time.monotonic(),
            }
        ),
        flush=True,
    )


if __name__ == "__main__":
    port, table, source, seconds, workers = sys.argv[1:]
    asyncio.run(main(int(port), int(table), source, float(seconds), int(workers)))
