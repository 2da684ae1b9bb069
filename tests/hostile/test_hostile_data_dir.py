"""A careless operator's data dir: ``domicile host --resume`` on damaged files.

Each damage gives one plain line naming the file and what is wrong, and a
non-zero exit; nothing unfinished is discarded, moved or archived (the table's
directory is exactly as it was), and nothing ever blocks (a FIFO in place of
the event log is refused without being opened for a read that waits).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from live_support import domicile, environment, loopback_config

from domicile_p2p.net.adapters.host import start_host
from domicile_p2p.net.adapters.store import HostStore, StoredTable, StoreError
from domicile_p2p.net.join.codes import JoinCode

pytestmark = pytest.mark.slow

CODE = JoinCode(3, "owl", "quill")


async def _unfinished_game(data_dir: Path) -> None:
    """A host that stops in the middle of a game of bots."""
    config = loopback_config(
        data_dir,
        investigators=1,
        codes=(CODE,),
        bot_seats=frozenset({1}),
        ghost_bot=True,
        owner_starts=True,
        bot_delay=0.2,
    )
    host = await start_host(config, lambda event, fields: None)
    try:
        host.start_table()
        room = host.rooms[CODE.nameplate]
        while room.game is None or len(room.game.events) < 8:
            await asyncio.sleep(0.05)
    finally:
        await host.close()


@pytest.fixture(scope="module")
def unfinished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data_dir = tmp_path_factory.mktemp("unfinished")
    asyncio.run(_unfinished_game(data_dir))
    [table] = HostStore(data_dir).unfinished_tables()
    assert table.game_id is not None
    return data_dir


def _table(data_dir: Path) -> Path:
    return data_dir / "host" / "tables" / str(CODE.nameplate)


def _snapshot(directory: Path) -> dict[str, bytes | str]:
    """Every entry under ``directory``: a file's bytes, or what else it is."""
    entries: dict[str, bytes | str] = {}
    for path in sorted(directory.rglob("*")):
        name = str(path.relative_to(directory))
        if path.is_fifo():
            entries[name] = "fifo"
        elif path.is_dir():
            entries[name] = "dir"
        else:
            entries[name] = path.read_bytes()
    return entries


def _bad_bot_seat(table: Path) -> None:
    stored = json.loads((table / "table.json").read_bytes())
    stored["bots"] = [5]
    (table / "table.json").write_text(json.dumps(stored))


def _log_is_a_directory(table: Path) -> None:
    (table / "events.jsonl").unlink()
    (table / "events.jsonl").mkdir()


def _log_is_a_fifo(table: Path) -> None:
    (table / "events.jsonl").unlink()
    os.mkfifo(table / "events.jsonl")


def _no_table_file(table: Path) -> None:
    (table / "table.json").unlink()


def _previous_is_the_current_game(table: Path) -> None:
    first = json.loads((table / "events.jsonl").read_bytes().split(b"\n")[0])
    stored = json.loads((table / "table.json").read_bytes())
    stored["previous"] = first["body"]["game"]
    stored["games"] = 2
    (table / "table.json").write_text(json.dumps(stored))


@pytest.mark.parametrize(
    ("damage", "file", "what"),
    [
        (_bad_bot_seat, "table.json", "is damaged (a bot seat is 5, not 0 to 1)"),
        (_log_is_a_directory, "events.jsonl", "is a directory, not a file"),
        (_log_is_a_fifo, "events.jsonl", "is a FIFO (named pipe), not a file"),
        (_no_table_file, "table.json", "is missing: table 3's code and seats are lost"),
        (_previous_is_the_current_game, "table.json", "holds that game unfinished"),
    ],
    ids=["bad-bot-seat", "log-a-directory", "log-a-fifo", "no-table-json", "previous-current"],
)
def test_a_damaged_data_dir_stops_the_host_with_one_plain_line_and_loses_nothing(
    unfinished: Path,
    tmp_path: Path,
    damage: Callable[[Path], None],
    file: str,
    what: str,
) -> None:
    data_dir = tmp_path / "data"
    shutil.copytree(unfinished, data_dir)
    table = _table(data_dir)
    damage(table)
    before = _snapshot(data_dir)
    run = subprocess.run(
        domicile(
            "host",
            "--headless",
            "--resume",
            *("--interface", "127.0.0.1", "--port", "0", "--no-advertise"),
            *("--data-dir", str(data_dir)),
        ),
        capture_output=True,
        text=True,
        env=environment(),
        timeout=60,  # a FIFO must never block the host
        check=False,
    )
    assert run.returncode != 0
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    [line] = lines
    assert f"{table / file} " in line and what in line, line
    assert _snapshot(data_dir) == before, "nothing moved, discarded or archived"
    assert not (data_dir / "host" / "discarded").exists()


@pytest.mark.parametrize(
    ("field", "value", "what"),
    [
        ("bots", [5], "a bot seat is 5, not 0 to 1"),
        ("bots", 5, "bots is 5, not a list of seats"),
        ("bot_players", [2], "a bot player's seat is 2, not 0 to 1"),
        ("bot_players", "0", "bot_players is '0', not a list of seats"),
        ("owner", 9, "owner is 9, not 0 to 1"),
        ("port", 70000, "port is 70000, not 0 to 65535"),
        ("investigators", 0, "investigators is 0, not 1 to 6"),
        ("timer", 5, "the timer is 5, not 10 to 3600"),
        ("name", "Hall\x1b]0;x\x07", "cannot contain the C0 control U+001B"),
        ("name", " ", "cannot be blank"),
        ("previous", "x", "previous is 'x', not a game id"),
        ("games", True, "games is True, not a whole number"),
        ("code", "3-nope-nope", "damaged"),
        ("nameplate", 4, "the code 3-owl-quill is not table 4's"),
    ],
)
def test_every_field_of_table_json_is_checked_with_a_plain_reason(
    unfinished: Path, field: str, value: object, what: str
) -> None:
    path = _table(unfinished) / "table.json"
    stored = json.loads(path.read_bytes())
    stored[field] = value
    with pytest.raises(StoreError) as refused:
        StoredTable.from_json(json.dumps(stored).encode(), path)
    message = str(refused.value)
    assert message.startswith(f"{path} is damaged (") and what in message, message
    assert "\x1b" not in message
