"""A running host's next games (``--games``): the lobby it opens by itself, and how a
table in that lobby comes back after a restart (``--resume``)."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from typing import Any

from live_support import loopback_config

from domicile_p2p.net.adapters.host import RunningHost, start_host
from domicile_p2p.net.adapters.store import HostStore
from domicile_p2p.net.join.codes import JoinCode
from domicile_p2p.transcript.files import read_transcript
from domicile_p2p.transcript.verify import verify

CODE = JoinCode(5, "owl", "quill")


async def _host(data_dir: Path, records: list[dict[str, Any]], **options: Any) -> RunningHost:
    config = loopback_config(
        data_dir,
        investigators=1,
        codes=(CODE,),
        bot_seats=frozenset({1}),
        ghost_bot=True,
        owner_starts=True,  # bots only: nothing starts before the owner says so
        games=3,
        rest=0,
        **options,
    )
    return await start_host(
        config, lambda event, fields: records.append({"event": event, **fields})
    )


async def _until(condition: Any, what: str, timeout: float = 120) -> None:
    async def wait() -> None:
        while not condition():
            await asyncio.sleep(0.02)

    try:
        await asyncio.wait_for(wait(), timeout)
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}") from None


async def test_the_next_games_lobby_opens_by_itself_and_comes_back_after_a_restart(
    tmp_path: Path,
) -> None:
    records: list[dict[str, Any]] = []
    host = await _host(tmp_path, records)
    try:
        room = host.rooms[CODE.nameplate]
        host.start_table()
        await _until(lambda: room.games == 2 and room.game is None, "the next game's lobby")
        [ended] = [r for r in records if r["event"] == "game-ended"]
        assert ended["game"] == 1 and ended["verified"]
        assert host.tables()[0].code == str(CODE)
    finally:
        await host.close()
    store = HostStore(tmp_path)
    [unfinished] = store.unfinished_tables()
    assert unfinished.game_id is None and unfinished.stored.games == 2
    assert unfinished.stored.previous == ended["game_id"]
    # A crash between table.json and the log's removal leaves the archived game's log.
    log = store.table_dir(CODE.nameplate) / "events.jsonl"
    shutil.copyfile(ended["transcript"], log)
    assert [t.game_id for t in store.unfinished_tables()] == [None], "known for the last game"

    records.clear()
    again = await _host(tmp_path, records, resume=True)
    try:
        room = again.rooms[CODE.nameplate]
        assert room.games == 2 and room.game is None, "the lobby of game 2, as it was"
        assert not log.exists() or log.read_bytes() == b"", "the old game's log is gone"
        assert again.tables()[0].code == str(CODE)
        again.start_table()
        await _until(lambda: len([r for r in records if r["event"] == "game-ended"]) == 1, "game 2")
    finally:
        await again.close()
    [second] = [r for r in records if r["event"] == "game-ended"]
    assert second["game"] == 2 and second["game_id"] != ended["game_id"]
    assert verify(Path(second["transcript"])).valid


async def test_rotate_moves_the_hosts_own_bots_round_and_the_next_game_is_played_out(
    tmp_path: Path,
) -> None:
    """``--rotate``: at the next game each of the host's bots sits one seat round (the
    investigator's bot is the Ghost now), plays there with its own key, and the game ends
    verified."""
    records: list[dict[str, Any]] = []
    host = await _host(tmp_path, records, rotate=True)
    try:
        room = host.rooms[CODE.nameplate]
        host.start_table()
        await _until(lambda: room.games == 2 and room.game is None, "the next game's lobby")
        [first] = [r for r in records if r["event"] == "game-ended"]
        host.start_table()
        await _until(lambda: len([r for r in records if r["event"] == "game-ended"]) == 2, "game 2")
    finally:
        await host.close()
    second = [r for r in records if r["event"] == "game-ended"][1]
    assert second["verified"] and second["game"] == 2
    keys, names = [], []
    for record in (first, second):
        genesis = read_transcript(Path(record["transcript"]))[0]
        keys.append([seat["key"] for seat in genesis.value["body"]["seats"]])
        names.append([seat["name"] for seat in genesis.value["body"]["seats"]])
    assert keys[1] == [keys[0][1], keys[0][0]], "the next seat's player is the Ghost"
    # Each bot takes the name of the seat it moved to: the Ghost's chair is named for it.
    assert names[1] == names[0] == ["Ghost bot", "Bot 1"]
    assert not [r for r in records if r["event"].startswith("bot-")], records
