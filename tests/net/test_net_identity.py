"""Over real TLS: a wrong code, a different certificate at a pinned address, and junk frames."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from live_support import (
    LOOPBACK,
    domicile,
    environment,
    loopback_config,
    network_bot,
    same_transcripts,
)
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosedError

from domicile_p2p.net.adapters.client import open_websocket
from domicile_p2p.net.adapters.host import RunningHost, start_host
from domicile_p2p.net.adapters.pins import PinStore
from domicile_p2p.net.adapters.tls import client_context
from domicile_p2p.net.address import Address
from domicile_p2p.net.errors import HostIdentityChanged, Refused, WrongCode
from domicile_p2p.net.join.codes import JoinCode
from domicile_p2p.net.wire import MAX_FRAME, Role

CODE = JoinCode(6, "moth", "lantern")


async def _host(
    data_dir: Path, records: list[dict[str, Any]], port: int = 0, **options: Any
) -> RunningHost:
    config = loopback_config(data_dir, port=port, codes=(CODE,), **options)
    return await start_host(
        config, lambda event, fields: records.append({"event": event, **fields})
    )


def _events(records: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    return [record for record in records if record["event"] == name]


async def test_a_wrong_code_is_refused_once_counted_and_never_retried(tmp_path: Path) -> None:
    records: list[dict[str, Any]] = []
    host = await _host(tmp_path / "host", records, investigators=1)
    try:
        url = f"wss://{LOOPBACK}:{host.port}"
        wrong = network_bot(tmp_path / "wrong", url, JoinCode(6, "moth", "owl"))
        with pytest.raises(WrongCode, match="wrong table code"):
            await asyncio.wait_for(wrong.play(), 10)
        assert wrong.client.connections == 1, "a wrong code is not retried"
        await asyncio.sleep(0.1)
        [refused] = _events(records, "refused")
        assert refused["code"] == "wrong-code" and refused["failures"] == 1
        assert PinStore.in_data_dir(tmp_path / "wrong").get(f"{LOOPBACK}:{host.port}") is None
        # The CLI says it plainly, with its own exit code, at once.
        process = await asyncio.create_subprocess_exec(
            *domicile(
                "bot", "--connect", url, "--code", "6-moth-owl", "--data-dir", str(tmp_path / "cli")
            ),
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=environment(),
        )
        _, err = await asyncio.wait_for(process.communicate(), 30)
        assert process.returncode == 3
        assert b"wrong table code" in err and b"Traceback" not in err
    finally:
        await host.close()


@pytest.mark.slow
async def test_a_different_certificate_at_a_pinned_address_is_refused_not_retried(
    tmp_path: Path,
) -> None:
    records: list[dict[str, Any]] = []
    first = await _host(tmp_path / "first", records, investigators=1)
    port = first.port
    url = f"wss://{LOOPBACK}:{port}"
    try:
        bot = network_bot(tmp_path / "player", url, CODE, role=Role.INVESTIGATOR)
        task = asyncio.create_task(bot.play())
        while not bot.session.seated:
            await asyncio.sleep(0.01)
        pinned = PinStore.in_data_dir(tmp_path / "player").get(f"{LOOPBACK}:{port}")
        assert pinned == first.certificate.fingerprint
    finally:
        await first.close()
    # Another host (another data dir, so another certificate) takes over the address.
    seen_by_impostor: list[dict[str, Any]] = []
    impostor = await _host(tmp_path / "impostor", seen_by_impostor, port=port, investigators=1)
    try:
        started = time.monotonic()
        with pytest.raises(HostIdentityChanged, match="host identity changed"):
            await asyncio.wait_for(task, 30)
        assert time.monotonic() - started < 10, "refused at once, not retried in a loop"
        assert len(_events(seen_by_impostor, "connected")) == 1, "one attempt, no retry loop"
        assert not _events(seen_by_impostor, "join")
        # A fresh client with the same data dir is refused too, by the CLI, exit code 4.
        process = await asyncio.create_subprocess_exec(
            *domicile(
                "bot", "--connect", url, "--code", str(CODE), "--data-dir", str(tmp_path / "player")
            ),
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=environment(),
        )
        _, err = await asyncio.wait_for(process.communicate(), 30)
        assert process.returncode == 4 and b"host identity changed" in err
        impostor_seats = impostor.rooms[CODE.nameplate].seats_free
        assert impostor_seats == 2, "the client never sat down at the impostor's table"
    finally:
        await impostor.close()


@pytest.mark.slow
async def test_oversized_garbage_and_flooding_connections_are_cut_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    records: list[dict[str, Any]] = []
    host = await _host(tmp_path / "host", records, investigators=3)
    url = f"wss://{LOOPBACK}:{host.port}"
    try:
        bots = [
            network_bot(tmp_path / f"b{seat}", url, CODE, seat=seat, seed=seat) for seat in range(3)
        ]
        game = asyncio.gather(*(bot.play(delay=0.01) for bot in bots))
        # Seat 3 floods once seated: it is cut off, the others wait for it, it comes back.
        flooder = network_bot(tmp_path / "b3", url, CODE, seat=3)
        flooding = asyncio.create_task(flooder.client.run())
        while not flooder.session.caught_up:
            await asyncio.sleep(0.01)
        transport = flooder.client._transport
        assert transport is not None
        for _ in range(100):
            await transport.send('{"type":"fetch","since":0}')
        with pytest.raises(Refused) as cut:
            await asyncio.wait_for(flooding, 10)
        assert cut.value.code == "flood"
        address = Address.parse(url)
        big, _ = await open_websocket(address)
        await big.recv()  # Welcome
        await big.send('{"type":"fetch","since":0,"x":"' + "x" * MAX_FRAME + '"}')
        with pytest.raises(ConnectionClosedError):
            for _ in range(5):
                await asyncio.wait_for(big.recv(), 5)
        assert big.close_code == 1009, "message too big: this connection only is closed"
        junk, _ = await open_websocket(address)
        await junk.recv()
        for _ in range(10):
            await junk.send("not json at all")
        replies = []
        with pytest.raises(ConnectionClosedError):
            while True:
                replies.append(await asyncio.wait_for(junk.recv(), 5))
        assert '"code":"bad-frame"' in replies[0] and '"fatal":true' in replies[-1]
        async with connect(url, ssl=client_context(), proxy=None) as stranger:
            await stranger.recv()
            await stranger.send('{"type":"act","action":{}}')
            reply = await asyncio.wait_for(stranger.recv(), 5)
            assert '"code":"unexpected"' in reply and '"fatal":false' in reply
        back = network_bot(tmp_path / "b3", url, CODE, seat=3, seed=3)
        outcomes = [*await asyncio.wait_for(asyncio.gather(game, back.play()), 60)]
        outcomes = [*outcomes[0], outcomes[1]]
    finally:
        await host.close()
    assert all(outcome.valid for outcome in outcomes) and same_transcripts(outcomes)
    codes = [record.get("code") for record in _events(records, "refused")]
    assert {"too-large", "bad-frame", "flood"} <= set(codes), codes
    assert len(_events(records, "rejected")) >= 5, "each bad frame was logged"
    assert [r["seat"] for r in _events(records, "rejoin")] == [3]
