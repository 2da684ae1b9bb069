"""The commands as separate processes: a headless host, bot clients, kill -9 and --resume."""

from __future__ import annotations

import asyncio
import signal
import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest
from live_support import (
    LOOPBACK,
    HostProcess,
    domicile,
    environment,
    loopback_config,
    network_bot,
)

from domicile_p2p.net.adapters.host import start_host
from domicile_p2p.net.join.codes import JoinCode
from domicile_p2p.transcript.files import read_transcript
from domicile_p2p.transcript.verify import verify

pytestmark = pytest.mark.slow

CODE = "3-owl-quill"


def _bot(port: int, data_dir: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        domicile(
            "bot",
            "--connect",
            f"wss://{LOOPBACK}:{port}",
            "--code",
            CODE,
            "--data-dir",
            str(data_dir),
            *extra,
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment(),
    )


async def _wait(process: subprocess.Popen[str], timeout: float = 90) -> tuple[int, str, str]:
    out, err = await asyncio.to_thread(process.communicate, None, timeout)
    return process.returncode, out, err


async def test_bot_processes_play_a_whole_game_against_a_headless_host(tmp_path: Path) -> None:
    host = HostProcess(
        tmp_path / "host", "--investigators", "2", "--code", CODE, "--exit-when-done"
    ).start()
    bots: list[subprocess.Popen[str]] = []
    try:
        table = await host.wait_for("table")
        assert table["code"] == CODE and table["table"] == 3
        listening = await host.wait_for("listening")
        roles = ["ghost", "investigator", "investigator"]
        bots = [
            _bot(
                host.port,
                tmp_path / f"bot{i}",
                "--role",
                role,
                "--transcript",
                str(tmp_path / f"{i}.json"),
            )
            for i, role in enumerate(roles)
        ]
        results = await asyncio.gather(*(_wait(bot) for bot in bots))
        ended = await host.wait_for("game-ended")
        assert await host.exited() == 0
        await host.wait_for("stopped")
    finally:
        host.close()
        for bot in bots:
            if bot.poll() is None:
                bot.kill()
    assert [code for code, _, _ in results] == [0, 0, 0], [err for _, _, err in results]
    assert ended["verified"] is True
    archive = [e.line for e in read_transcript(Path(ended["transcript"]))]
    for index in range(3):
        assert [e.line for e in read_transcript(tmp_path / f"{index}.json")] == archive
    assert verify(Path(ended["transcript"])).valid
    joins = [r for r in host.records if r["event"] == "join"]
    assert sorted(r["seat"] for r in joins) == [0, 1, 2]
    assert listening["fingerprint"] and len(listening["phrase"].split()) == 6


async def test_kill_9_of_the_host_then_resume_and_the_game_completes(tmp_path: Path) -> None:
    code = JoinCode(3, "owl", "quill")
    host = HostProcess(
        tmp_path / "host",
        "--investigators",
        "2",
        "--code",
        CODE,
        "--ghost",
        "bot",
        "--bots",
        "1",
        "--bot-delay",
        "0.03",
    ).start()
    try:
        await host.wait_for("listening")
        first = await host.wait_for("table")
        player = network_bot(tmp_path / "player", host.url, code, seat=2)
        game = asyncio.create_task(player.play(delay=0.03))
        started = await host.wait_for("game-started")
        while player.session.player.held < 20:
            await asyncio.sleep(0.02)
        host.kill()  # kill -9, in the middle of the game
        held_at_kill = player.session.player.held
        assert not player.session.finished
        host.start("--resume")
        resumed = await host.wait_for("table-resumed")
        assert resumed["state"] == "playing" and resumed["game_id"] == started["game_id"]
        table = await host.wait_for("table")
        assert table["code"] == first["code"] == CODE, "the same code after the restart"
        outcome = await asyncio.wait_for(game, 90)
        ended = await host.wait_for("game-ended")
        assert await host.stop() == 0, "SIGTERM is a clean stop"
        await host.wait_for("stopped")
    finally:
        host.close()
    assert held_at_kill < len(outcome.events)
    assert outcome.valid, outcome.report.summary
    assert player.client.connections >= 2, "the client reconnected by itself"
    assert ended["game_id"] == started["game_id"] and ended["verified"]
    archive = read_transcript(Path(ended["transcript"]))
    assert [e.line for e in archive] == [e.line for e in outcome.events], "nothing lost"
    assert [r["event"] for r in player.logs].count("seated") >= 2
    assert any(r["event"] == "reconnecting" for r in player.logs)
    assert any(r["event"] == "resume" and r["seat"] == 2 for r in host.records), (
        "the client took its seat back by proving its key, without the code"
    )


async def test_a_ghost_bot_process_killed_mid_game_comes_back_and_finishes(tmp_path: Path) -> None:
    """The Ghost's seed lives only in its client's data dir (0600): after kill -9 and a
    restart, the same seed is still there, so the reveal at the end opens every commitment."""
    records: list[dict[str, Any]] = []
    code = JoinCode(3, "owl", "quill")
    host = await start_host(
        loopback_config(
            tmp_path / "host",
            investigators=2,
            codes=(code,),
            bot_seats=frozenset({1, 2}),
            bot_delay=0.02,
        ),
        lambda event, fields: records.append({"event": event, **fields}),
    )
    try:
        args = ("--role", "ghost", "--bot-delay", "0.03", "--transcript", str(tmp_path / "t.json"))
        bot = _bot(host.port, tmp_path / "ghost", *args)
        room = host.rooms[3]
        while room.game is None or len(room.game.events) < 20:
            await asyncio.sleep(0.02)
        bot.send_signal(signal.SIGKILL)
        await asyncio.to_thread(bot.wait, 10)
        await asyncio.sleep(0.3)
        stalled_at = len(room.game.events)
        assert not room.game.ended, "the game waits for the missing player"
        [seed] = (tmp_path / "ghost" / "secrets").iterdir()
        assert stat.S_IMODE(seed.stat().st_mode) == 0o600
        kept = seed.read_bytes()
        again = _bot(host.port, tmp_path / "ghost", *args)
        code_, _out, err = await _wait(again)
        await asyncio.wait_for(host.wait_done(), 10)
    finally:
        await host.close()
    assert code_ == 0, err
    assert stalled_at < len(room.game.events)
    [ended] = [r for r in records if r["event"] == "game-ended"]
    assert ended["verified"]
    assert [e.line for e in read_transcript(tmp_path / "t.json")] == [
        e.line for e in read_transcript(Path(ended["transcript"]))
    ]
    assert [r["seat"] for r in records if r["event"] == "rejoin"] == [0]
    assert seed.read_bytes() == kept
    reveal = read_transcript(Path(ended["transcript"]))[-1]
    assert reveal.kind.value == "reveal" and reveal.value["body"]["seed"] == kept.hex()


async def test_two_games_in_a_row_at_the_same_table_with_the_same_guest(tmp_path: Path) -> None:
    """``domicile host --games 2`` and ``domicile bot --games 2``: the guest stays seated,
    the second game has the same code and a new game id, and the guest's file of each game
    is byte for byte the host's archive of it."""
    host = HostProcess(
        tmp_path / "host",
        "--investigators",
        "2",
        "--code",
        CODE,
        "--ghost",
        "bot",
        "--bots",
        "1",
        "--games",
        "2",
        "--rest",
        "0",
        "--exit-when-done",
    ).start()
    guest: subprocess.Popen[str] | None = None
    games = tmp_path / "guest-games"
    try:
        table = await host.wait_for("table")
        await host.wait_for("listening")
        guest = _bot(
            host.port,
            tmp_path / "guest",
            "--seat",
            "2",
            "--games",
            "2",
            "--transcript-dir",
            str(games),
        )
        code_, out, err = await _wait(guest, timeout=240)
        assert await host.exited(60) == 0
        await host.wait_for("stopped")
    finally:
        host.close()
        if guest is not None and guest.poll() is None:
            guest.kill()
    assert code_ == 0, err
    assert table["code"] == CODE and table["game"] == 1
    ended = [r for r in host.records if r["event"] == "game-ended"]
    assert [(r["game"], r["verified"]) for r in ended] == [(1, True), (2, True)]
    assert ended[0]["game_id"] != ended[1]["game_id"]
    [next_game] = [r for r in host.records if r["event"] == "next-game"]
    assert next_game["game"] == 2 and next_game["freed"] == []
    joins = [r for r in host.records if r["event"] in ("join", "rejoin", "resume")]
    assert [r["seat"] for r in joins if r["seat"] == 2] == [2], "the guest sat down once"
    assert sorted(path.name for path in games.iterdir()) == sorted(
        f"{r['game_id']}.jsonl" for r in ended
    )
    for record in ended:
        archive = Path(record["transcript"])
        assert archive.name == f"{record['game_id']}.json"
        assert (games / f"{record['game_id']}.jsonl").read_bytes() == archive.read_bytes()
        assert verify(archive).valid
    guest_keys = {
        read_transcript(Path(r["transcript"]))[0].value["body"]["seats"][2]["key"] for r in ended
    }
    assert len(guest_keys) == 1, "the same guest in seat 2 of both games"
    assert len(out.strip().splitlines()) == 2, "the guest said how each game verified"
