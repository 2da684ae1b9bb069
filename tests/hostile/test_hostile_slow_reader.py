"""A client that stops reading: its outbox stays bounded, it is dropped, and it comes back.

The stuck player's socket has a tiny receive buffer and its websocket stops
taking frames in, so TCP pushes back on the host; meanwhile it keeps asking
for the whole transcript (``fetch 0``), the cheapest way to make the host
queue a lot for it.  The host's outbox for it is bounded in bytes, a frame
it does not take in within the send timeout gets it dropped, and everyone
else plays on.  Then it reads again, reconnects by itself with its key, and
the game ends with every transcript identical and verified.
"""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path
from typing import Any

import pytest
from hostile_support import LatencyProbe, Records, percentile
from live_support import LOOPBACK, loopback_config, network_bot
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from domicile_p2p.net import wire
from domicile_p2p.net.adapters.bot import BotBrain, run_bot
from domicile_p2p.net.adapters.client import Backoff, Dialed, PeerClient
from domicile_p2p.net.adapters.host import start_host
from domicile_p2p.net.adapters.key_files import load_or_create_identity
from domicile_p2p.net.adapters.outbox import OutboxLimits
from domicile_p2p.net.adapters.pins import PinStore
from domicile_p2p.net.adapters.seat_secrets import SeatSecrets
from domicile_p2p.net.adapters.tls import client_context, peer_fingerprint
from domicile_p2p.net.join.codes import JoinCode
from domicile_p2p.net.sessions.peer import PeerSession
from domicile_p2p.net.wire import Role

CODE = JoinCode(7, "owl", "quill")
BURST = 10
"""Fetches sent at once when it stops reading (the host's token bucket allows a dozen)."""
LIMITS = OutboxLimits(bytes=256 * 1024, send_timeout=1.0, socket_buffer=64 * 1024)


class StallingTransport:
    """A websocket that can stop reading, like a frozen process: not even TLS reads the socket.

    (The TLS layer would otherwise read ahead into its own buffer of 256 KiB.)
    """

    def __init__(self, websocket: ClientConnection, stalled: asyncio.Event) -> None:
        self.websocket = websocket
        self.reading = stalled

    def freeze(self) -> None:
        tls = self.websocket.transport
        socket_transport = getattr(getattr(tls, "_ssl_protocol", None), "_transport", tls)
        socket_transport.pause_reading()

    async def send(self, frame: str) -> None:
        await self.websocket.send(frame)

    async def recv(self) -> str | bytes:
        await self.reading.wait()
        return await self.websocket.recv()

    async def close(self) -> None:
        self.websocket.transport.abort()


def stalling_dialer(port: int, pins: PinStore, reading: asyncio.Event) -> Any:
    async def dial() -> Dialed:
        raw = socket.socket()
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        raw.connect((LOOPBACK, port))
        raw.setblocking(False)
        websocket = await connect(
            f"wss://{LOOPBACK}:{port}",
            sock=raw,
            ssl=client_context(),
            server_hostname=LOOPBACK,
            max_queue=1,  # take one frame in, then let TCP push back
            compression=None,
            proxy=None,
            ping_interval=None,
            open_timeout=10,
        )
        fingerprint = peer_fingerprint(websocket.transport.get_extra_info("ssl_object"))
        pinned = pins.check(f"{LOOPBACK}:{port}", fingerprint)
        return Dialed(StallingTransport(websocket, reading), fingerprint, pinned)

    return dial


@pytest.mark.slow
async def test_a_client_that_stops_reading_is_bounded_dropped_and_comes_back(
    tmp_path: Path,
) -> None:
    log = Records()
    host = await start_host(
        loopback_config(
            tmp_path / "host",
            investigators=2,
            codes=(CODE,),
            ghost_bot=True,
            bot_delay=0.01,
            outbox=LIMITS,
        ),
        log,
    )
    url = f"wss://{LOOPBACK}:{host.port}"
    try:
        honest = network_bot(tmp_path / "honest", url, CODE, seat=1, seed=1)
        probe = LatencyProbe(honest)
        honest_game = asyncio.create_task(honest.play(delay=0.01))

        data_dir = tmp_path / "stuck"
        pins = PinStore.in_data_dir(data_dir)
        reading = asyncio.Event()
        reading.set()
        session = PeerSession(
            load_or_create_identity(data_dir),
            CODE.nameplate,
            code=CODE,
            name="Stuck",
            role=Role.INVESTIGATOR,
            seat=2,
            bot=True,
        )
        client = PeerClient(
            session,
            stalling_dialer(host.port, pins, reading),
            SeatSecrets(data_dir),
            pins=pins,
            pin_key=f"{LOOPBACK}:{host.port}",
            backoff=Backoff(first=0.05, cap=0.2, attempts=50),
        )
        stuck_game = asyncio.create_task(run_bot(client, BotBrain(session, seed=2), delay=0.01))
        while not (session.player.playing and session.ready):
            await asyncio.sleep(0.01)

        # It stops reading and asks for the whole transcript, as fast as the host allows.
        loop = asyncio.get_running_loop()
        stalled_at = loop.time()
        reading.clear()
        transport = client._transport
        assert isinstance(transport, StallingTransport)
        transport.freeze()
        fetches = 0
        with_errors = None
        while loop.time() - stalled_at < 20:
            try:
                await transport.send(wire.text(wire.Fetch(0)))
                fetches += 1
            except (ConnectionClosed, OSError) as exc:
                with_errors = exc
                break
            if log.named("stuck"):
                break
            await asyncio.sleep(0.25)  # under the host's fetch rate: a patient attacker
        while not log.named("stuck") and loop.time() - stalled_at < 20:
            await asyncio.sleep(0.05)
        dropped_after = loop.time() - stalled_at
        [stuck] = log.named("stuck")
        held_when_stuck = session.player.held
        reading.set()  # it reads again; the client reconnects by itself
        await transport.close()
        outcomes = await asyncio.wait_for(asyncio.gather(honest_game, stuck_game), 90)
        await asyncio.wait_for(host.wait_done(), 10)
    finally:
        await host.close()
    assert stuck["peak_bytes"] <= LIMITS.bytes + wire.MAX_FRAME, stuck
    assert dropped_after < 15, "dropped once its buffers filled, within a send timeout"
    assert client.connections >= 2, "the stuck client came back"
    assert session.player.held > held_when_stuck
    assert all(outcome.valid for outcome in outcomes)
    lines = {tuple(e.line for e in outcome.events) for outcome in outcomes}
    assert len(lines) == 1
    during = probe.during(stalled_at, stalled_at + dropped_after)
    print(
        "hostile-slow-reader",
        json.dumps(
            {
                "fetches_sent_while_stuck": fetches,
                "send_error": type(with_errors).__name__ if with_errors else None,
                "dropped_after_s": round(dropped_after, 2),
                "peak_outbox_bytes": stuck["peak_bytes"],
                "reason": stuck["reason"],
                "honest_actions_meanwhile": len(during),
                "honest_max_ms_meanwhile": round(1000 * max(during, default=0.0), 1),
                "honest_p50_ms_meanwhile": round(1000 * percentile(during, 0.5), 1),
            }
        ),
    )
    assert max(during, default=0.0) < 2.0
