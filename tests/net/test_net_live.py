"""Whole games over real websockets and TLS 1.3 on 127.0.0.1."""

from __future__ import annotations

import asyncio
import ssl
from pathlib import Path
from typing import Any

import pytest
from live_support import LOOPBACK, loopback_config, network_bot, same_transcripts

from domicile_p2p.net.adapters.host import RunningHost, start_host
from domicile_p2p.net.adapters.pins import PinStore
from domicile_p2p.net.join.codes import JoinCode
from domicile_p2p.net.wire import Role
from domicile_p2p.transcript.files import read_transcript
from domicile_p2p.transcript.verify import verify

CODE = JoinCode(5, "owl", "quill")


async def _host(tmp_path: Path, records: list[dict[str, Any]], **options: Any) -> RunningHost:
    config = loopback_config(tmp_path / "host", codes=(CODE,), **options)
    return await start_host(
        config, lambda event, fields: records.append({"event": event, **fields})
    )


@pytest.mark.slow
async def test_a_bot_ghost_and_six_bot_investigators_play_over_tls(tmp_path: Path) -> None:
    records: list[dict[str, Any]] = []
    host = await _host(tmp_path, records, investigators=6)
    try:
        url = f"wss://{LOOPBACK}:{host.port}"
        bots = [network_bot(tmp_path / "ghost", url, CODE, role=Role.GHOST, seed=0)]
        bots += [
            network_bot(tmp_path / f"inv{n}", url, CODE, role=Role.INVESTIGATOR, seed=n)
            for n in range(1, 7)
        ]
        outcomes = await asyncio.wait_for(asyncio.gather(*(bot.play() for bot in bots)), 90)
        await asyncio.wait_for(host.wait_done(), 10)
    finally:
        await host.close()
    assert sorted(bot.session.seat for bot in bots) == list(range(7))
    assert bots[0].session.seat == 0
    assert all(outcome.valid for outcome in outcomes), [o.report.summary for o in outcomes]
    assert same_transcripts(outcomes), "every client ends with the same transcript"
    [ended] = [r for r in records if r["event"] == "game-ended"]
    archived = read_transcript(Path(ended["transcript"]))
    assert [e.line for e in archived] == [e.line for e in outcomes[0].events]
    assert verify(Path(ended["transcript"])).valid
    fingerprint = host.certificate.fingerprint
    for directory in ["ghost", *(f"inv{n}" for n in range(1, 7))]:
        pins = PinStore.in_data_dir(tmp_path / directory)
        assert pins.get(f"{LOOPBACK}:{host.port}") == fingerprint, "pinned after the PAKE"


async def test_the_server_speaks_tls_1_3_only(tmp_path: Path) -> None:
    records: list[dict[str, Any]] = []
    host = await _host(tmp_path, records, investigators=1)
    try:
        old = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        old.check_hostname = False
        old.verify_mode = ssl.CERT_NONE
        old.maximum_version = ssl.TLSVersion.TLSv1_2
        with pytest.raises((ssl.SSLError, ConnectionResetError)):
            await asyncio.open_connection(LOOPBACK, host.port, ssl=old)
        modern = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        modern.check_hostname = False
        modern.verify_mode = ssl.CERT_NONE
        _reader, writer = await asyncio.open_connection(LOOPBACK, host.port, ssl=modern)
        assert writer.get_extra_info("ssl_object").version() == "TLSv1.3"
        writer.close()
    finally:
        await host.close()


async def test_one_host_serves_several_tables_each_with_its_own_code(tmp_path: Path) -> None:
    records: list[dict[str, Any]] = []
    config = loopback_config(
        tmp_path / "host",
        tables=3,
        investigators=1,
        ghost_bot=True,
        bot_seats=frozenset({1}),
        name="Night",
    )
    host = await start_host(
        config, lambda event, fields: records.append({"event": event, **fields})
    )
    try:
        await asyncio.wait_for(host.wait_done(), 60)
    finally:
        await host.close()
    tables = host.tables()
    assert len({table.code for table in tables}) == 3
    assert len({table.nameplate for table in tables}) == 3
    assert sorted(table.name for table in tables) == ["Night 1", "Night 2", "Night 3"]
    ended = [r for r in records if r["event"] == "game-ended"]
    assert len(ended) == 3 and all(r["verified"] for r in ended)
    for record in ended:
        assert (tmp_path / "host" / "games" / f"{record['game_id']}.json").is_file()
    [ghost_seed] = (tmp_path / "host").glob(
        f"host/tables/{tables[0].nameplate}/bots/seat0/secrets/*"
    )
    assert oct(ghost_seed.stat().st_mode & 0o777) == "0o600", "the bot Ghost's seed is private"


async def test_a_twelve_table_host_reads_each_tls_connection_with_a_small_buffer(
    tmp_path: Path,
) -> None:
    """Twelve tables in one process (numbers past 9), and 4 KiB TLS reads per connection
    until it proves the code (``hostile/test_hostile_memory.py`` follows one further)."""
    from domicile_p2p.net.adapters.client import open_websocket
    from domicile_p2p.net.adapters.server import TLS_UNPROVEN_CHUNK
    from domicile_p2p.net.address import Address

    records: list[dict[str, Any]] = []
    host = await _host(tmp_path, records, tables=12)
    try:
        numbers = sorted(table.nameplate for table in host.tables())
        assert len(numbers) == 12 and max(numbers) >= 10
        websocket, _fingerprint = await open_websocket(Address.parse(host.url))
        try:
            await websocket.recv()  # the welcome: the host has the connection
            assert host.server is not None and host.server._server is not None
            [served] = host.server._server.connections
            protocol = served.transport._ssl_protocol  # type: ignore[attr-defined]
            assert protocol.max_size == TLS_UNPROVEN_CHUNK
            assert len(protocol._ssl_buffer) == TLS_UNPROVEN_CHUNK
        finally:
            await websocket.close()
    finally:
        await host.close()
