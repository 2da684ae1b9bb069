"""``domicile watch`` as a real process, joining a headless host's game in the middle."""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path

import pytest
from live_support import HostProcess, NetworkBot, domicile, environment
from live_support import network_bot as make_network_bot

from domicile_p2p.net.adapters.bot import BotOutcome
from domicile_p2p.net.join.codes import JoinCode

pytestmark = pytest.mark.slow

CODE = "3-owl-quill"


def _started(*args: str) -> subprocess.Popen[str]:
    """``domicile ARGS`` in a subprocess, its output read as text."""
    return subprocess.Popen(
        domicile(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=environment(),
    )  # fmt: skip


async def _play_holding(bot: NetworkBot, released: asyncio.Event) -> BotOutcome:
    """Play the seat, but make no move once the game is in play until ``released``: the
    table waits for this seat, so whatever the machine's load, a spectator started then
    arrives in the middle of the game."""
    client, brain = bot.client, bot.brain
    runner = asyncio.create_task(client.run())
    seen, refusals = -1, 0
    try:
        while not client.session.finished:
            if client.session.player.playing and not released.is_set():
                await released.wait()
            if len(client.refusals) != refusals:
                refusals = len(client.refusals)
                brain.refused()
            action = brain.decide()
            if action is not None:
                await client.submit(action)
            waiter = asyncio.create_task(client.wait_changed(seen))
            done, _ = await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
            if runner in done:
                waiter.cancel()
                runner.result()
                break
            seen = waiter.result()
        await runner
    finally:
        if not runner.done():
            runner.cancel()
    return brain.outcome()


async def test_a_spectator_process_joining_mid_game_writes_the_hosts_archive_byte_for_byte(
    tmp_path: Path,
) -> None:
    host = HostProcess(
        tmp_path / "host", "--investigators", "2", "--ghost", "bot", "--bots", "1",
        "--code", CODE,
    ).start()  # fmt: skip
    spectator: subprocess.Popen[str] | None = None
    try:
        await host.wait_for("listening")
        url = host.url
        released = asyncio.Event()
        seat = make_network_bot(tmp_path / "seat2", url, JoinCode(3, "owl", "quill"), seat=2)
        game = asyncio.create_task(_play_holding(seat, released))
        await host.wait_for("game-started")
        while not seat.session.player.playing:
            await asyncio.sleep(0.02)
        held_when_watching = seat.session.player.held
        watched = tmp_path / "watched.json"
        spectator = _started(
            "watch", "--connect", url, "--code", CODE, "--name", "Ada watching",
            "--data-dir", str(tmp_path / "spectator"), "--transcript", str(watched), "--log", "-",
        )  # fmt: skip
        watch = await host.wait_for("watch", timeout=60)
        released.set()
        outcome = await asyncio.wait_for(game, 120)
        out, err = await asyncio.to_thread(spectator.communicate, None, 60)
        ended = await host.wait_for("game-ended")
        assert await host.stop() == 0
    finally:
        host.close()
        if spectator is not None and spectator.poll() is None:
            spectator.kill()
    assert spectator.returncode == 0, err
    assert outcome.valid
    assert watch["name"] == "Ada watching" and watch["spectators"] == 1
    logs = [json.loads(line) for line in err.splitlines() if line.startswith("{")]
    [watching] = [record for record in logs if record["event"] == "watching"]
    # The others play on up to where the table waits for seat 2: still the middle of the game.
    assert 0 < held_when_watching <= watching["events"] < len(outcome.events), "mid-game"
    archive = Path(ended["transcript"])
    assert watched.read_bytes() == archive.read_bytes(), "byte for byte the host's archive"
    printed = [line for line in out.splitlines() if line[:5].strip().isdigit()]
    assert len(printed) == len(outcome.events), "one line per event, live"
    assert " lock " in out, "the events are printed with what they are"
    # It checks the card pack as `domicile verify` does: against the built-in one.
    assert "VALID" in out and "card pack was not checked" not in out, out[-600:]
    verified = subprocess.run(
        domicile("verify", str(watched)), capture_output=True, text=True, env=environment()
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr


async def test_a_spectator_process_watches_two_games_in_a_row_at_the_same_table(
    tmp_path: Path,
) -> None:
    """``domicile watch --games 2``: the spectator stays through the rematch, and its file
    of each game is byte for byte the host's archive of it."""
    host = HostProcess(
        tmp_path / "host", "--investigators", "2", "--ghost", "bot", "--bots", "1",
        "--code", CODE, "--games", "2", "--exit-when-done",
    ).start()  # fmt: skip
    watched = tmp_path / "watched"
    processes: list[subprocess.Popen[str]] = []
    try:
        await host.wait_for("listening")
        url = host.url
        spectator = _started(
            "watch", "--connect", url, "--code", CODE, "--data-dir", str(tmp_path / "sp"),
            "--games", "2", "--transcript-dir", str(watched), "--quiet",
        )  # fmt: skip
        processes.append(spectator)
        await host.wait_for("watch", timeout=60)  # in the lobby: the game waits for seat 2
        guest = _started(
            "bot", "--connect", url, "--code", CODE, "--data-dir", str(tmp_path / "guest"),
            "--seat", "2", "--games", "2",
        )  # fmt: skip
        processes.append(guest)
        out, err = await asyncio.to_thread(spectator.communicate, None, 240)
        await asyncio.to_thread(guest.communicate, None, 60)
        assert await host.exited(60) == 0
        await host.wait_for("stopped")  # every log line read
    finally:
        host.close()
        for process in processes:
            if process.poll() is None:
                process.kill()
    assert spectator.returncode == 0, err
    ended = [r for r in host.records if r["event"] == "game-ended"]
    assert [r["game"] for r in ended] == [1, 2]
    assert sorted(path.name for path in watched.iterdir()) == sorted(
        f"{r['game_id']}.jsonl" for r in ended
    )
    for record in ended:
        archive = Path(record["transcript"])
        assert (watched / f"{record['game_id']}.jsonl").read_bytes() == archive.read_bytes()
    assert len(out.strip().splitlines()) == 2, "the verdict of each game"
    assert [r["event"] for r in host.records].count("watch") == 1, "it watched both at once"
