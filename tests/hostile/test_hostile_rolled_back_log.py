"""A host whose log was rolled back between runs (its ``events.jsonl`` restored from an
older copy): the first returning player holds signed events the host lost.  The host
notices, says so, checks the events the player hands back (each signed by its author
and by the host itself) and the game goes on, nothing lost.

Before: the host resumed 3 events short and said nothing, and every player stopped
with "the host has 22 events, but this client already holds 25".
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from live_support import HostProcess, network_bot

from domicile_p2p.net.join.codes import parse_code
from domicile_p2p.net.wire import Role
from domicile_p2p.transcript.files import read_transcript

pytestmark = pytest.mark.slow

CODE = parse_code("3-owl-quill")


async def test_a_rolled_back_log_is_noticed_and_the_players_hand_the_events_back(
    tmp_path: Path,
) -> None:
    host = HostProcess(tmp_path / "host", "--investigators", "1", "--code", str(CODE))
    host.start()
    games: list[asyncio.Task[object]] = []
    try:
        await host.wait_for("listening")
        ghost = network_bot(tmp_path / "ghost", host.url, CODE, role=Role.GHOST, seed=2)
        seeker = network_bot(tmp_path / "seeker", host.url, CODE, role=Role.INVESTIGATOR, seed=3)
        games = [asyncio.create_task(bot.play(delay=0.03)) for bot in (ghost, seeker)]
        while min(bot.session.player.held for bot in (ghost, seeker)) < 25:
            await asyncio.sleep(0.02)
        host.kill()  # kill -9, then the log loses its last events, as a restored copy would
        held = min(bot.session.player.held for bot in (ghost, seeker))
        log = tmp_path / "host" / "host" / "tables" / str(CODE.nameplate) / "events.jsonl"
        lines = log.read_bytes().splitlines(keepends=True)
        kept = held - 3
        log.write_bytes(b"".join(lines[:kept]))
        host.start("--resume")
        resumed = await host.wait_for("table-resumed")
        assert resumed["events"] == kept
        behind = await asyncio.wait_for(host.wait_for("log-behind"), 60)
        assert behind["host_events"] == kept and behind["player_events"] >= held
        assert "rolled back" in behind["note"]
        restored = await asyncio.wait_for(host.wait_for("log-restored"), 60)
        assert restored["start"] == kept and restored["events"] >= 3
        outcomes = await asyncio.wait_for(asyncio.gather(*games), 120)
        ended = await asyncio.wait_for(host.wait_for("game-ended"), 60)
        assert await host.stop() == 0
    finally:
        for game in games:
            game.cancel()
        host.close()
    archive = [event.line for event in read_transcript(Path(ended["transcript"]))]
    assert ended["verified"]
    for outcome in outcomes:
        assert outcome.valid, outcome.report.summary  # type: ignore[attr-defined]
        assert [event.line for event in outcome.events] == archive, "nothing lost"  # type: ignore[attr-defined]
