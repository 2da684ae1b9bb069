"""A Ghost that withholds its seed after the game, against a running host (real TLS
websockets, the host's own adapters and files): after ``setup_timeout`` the host
writes the abort naming the Ghost, archives the game (``games/GAME_ID.json``, logged
``game-ended``), the investigator's client sees the abort and is done, and ``verify``
reports the game aborted at the Ghost's fault."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from live_support import loopback_config, network_bot

from domicile_p2p.net.adapters.bot import BotBrain
from domicile_p2p.net.adapters.host import start_host
from domicile_p2p.net.join.codes import JoinCode
from domicile_p2p.net.sessions.host import HostLimits
from domicile_p2p.net.wire import Role
from domicile_p2p.transcript import Kind, SignedAction
from domicile_p2p.transcript.verify import verify

pytestmark = pytest.mark.slow

CODE = JoinCode(3, "owl", "quill")
TIMEOUT = 2.0


class Withholding(BotBrain):
    """The Ghost's bot, modified: it plays the game honestly and never reveals its seed."""

    def decide(self) -> SignedAction | None:
        player = self.session.player
        replica = player.replica
        if replica is not None and replica.ledger.owed(0) is Kind.REVEAL:
            return None
        return super().decide()


async def test_a_running_host_aborts_and_archives_a_game_whose_ghost_withholds_its_seed(
    tmp_path: Path,
) -> None:
    records: list[dict[str, Any]] = []
    host = await start_host(
        loopback_config(
            tmp_path / "host",
            investigators=1,
            codes=(CODE,),
            bot_seats=frozenset({1}),
            limits=HostLimits(setup_timeout=TIMEOUT),
        ),
        lambda event, fields: records.append({"event": event, **fields}),
    )
    url = f"wss://127.0.0.1:{host.port}"
    ghost = network_bot(tmp_path / "ghost", url, CODE, role=Role.GHOST)
    ghost.brain = Withholding(ghost.session, seed=5)
    playing = asyncio.create_task(ghost.play())
    try:

        async def ended() -> dict[str, Any]:
            while True:
                found = [r for r in records if r["event"] == "game-ended"]
                if found:
                    return found[0]
                await asyncio.sleep(0.05)

        record = await asyncio.wait_for(ended(), 120)
        room = host.rooms[CODE.nameplate]
        assert room.game is not None and room.game.ended
    finally:
        playing.cancel()
        await host.close()
    [aborted] = [r for r in records if r["event"] == "setup-aborted"]
    assert aborted["seats"] == [0] and "did not reveal its seed in time" in aborted["reason"]
    assert record["outcome"] == "aborted" and record["verified"] is False
    report = verify(Path(record["transcript"]))
    assert report.outcome == "aborted" and not report.valid
    assert report.error is not None and report.error.party == "ghost"
    assert "the Ghost never revealed its seed" in report.summary
