"""A resumed host still knows which seats bots hold: its own bots by their keys, and the
players who joined as bots (``domicile bot``) because the table keeps their seats."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

from live_support import LOOPBACK, loopback_config, network_bot

from domicile_p2p.net.adapters.host import start_host
from domicile_p2p.net.adapters.store import HostStore
from domicile_p2p.net.join.codes import JoinCode
from domicile_p2p.net.wire import Role

CODE = JoinCode(5, "owl", "quill")


async def test_a_resumed_table_still_knows_the_seats_its_bot_players_hold(
    tmp_path: Path,
) -> None:
    # Without this a table of `domicile bot` processes came back after a crash with every
    # seat a person's, and in Stage Two each bot waited a minute for the others to lock.
    config = loopback_config(tmp_path / "host", codes=(CODE,), investigators=2)
    host = await start_host(config)
    url = f"wss://{LOOPBACK}:{host.port}"
    bots = [
        network_bot(tmp_path / "ghost", url, CODE, role=Role.GHOST, seed=0),
        network_bot(tmp_path / "ada", url, CODE, role=Role.INVESTIGATOR, seed=1),
        network_bot(tmp_path / "bea", url, CODE, person=True, role=Role.INVESTIGATOR),
    ]
    playing = [asyncio.ensure_future(bot.play(delay=0.5)) for bot in bots]
    try:
        room = host.rooms[CODE.nameplate]
        async with asyncio.timeout(60):
            while room.game is None:
                await asyncio.sleep(0.02)
        seat_of = {holder.name: seat for seat, holder in room.holders.items()}
        ada, bea = seat_of["Bot ada"], seat_of["Person bea"]
        [unfinished] = HostStore(tmp_path / "host").unfinished_tables()
        assert unfinished.stored.bot_players == {0, ada}, "kept when the game starts"
    finally:
        await host.close()
        for task in playing:
            task.cancel()
        for task in playing:
            with contextlib.suppress(BaseException):
                await task

    again = await start_host(loopback_config(tmp_path / "host", resume=True))
    try:
        holders = again.rooms[CODE.nameplate].holders
        assert {seat: holder.bot for seat, holder in holders.items()} == {
            0: True,
            ada: True,
            bea: False,
        }
    finally:
        await again.close()


def test_a_table_without_bot_players_reads_as_before(tmp_path: Path) -> None:
    """A ``table.json`` written before the field existed: no seat is a bot player's."""
    from domicile_p2p.net.adapters.store import StoredTable

    data = (
        b'{"bots":[],"code":"5-owl-quill","difficulty":"normal","investigators":2,'
        b'"name":"Tortured Domicile","nameplate":5,"timer":null}'
    )
    stored = StoredTable.from_json(data, tmp_path / "table.json")
    assert stored.bot_players == frozenset()
    assert StoredTable.from_json(stored.to_json(), tmp_path / "table.json") == stored
    with_players = StoredTable(stored.config, stored.bot_seats, bot_players=frozenset({0, 2}))
    assert b'"bot_players":[0,2]' in with_players.to_json()
    assert StoredTable.from_json(with_players.to_json(), tmp_path / "t.json") == with_players
