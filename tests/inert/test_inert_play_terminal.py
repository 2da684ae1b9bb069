"""``domicile play`` in a real terminal: a peer's chat line carrying escape sequences
reaches the player's screen inert (issue 20, defect 2).

The player hosts a table for the LAN (on 127.0.0.1) in a pty; a hostile person joins
it over TLS with the code, takes a bot's seat and, once the game is on, says the
attack in the table talk.  Every byte the client writes to the terminal is kept.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from live_support import LOOPBACK, environment, network_bot
from pty_support import ATTACK, PtyProgram, assert_no_attack
from replay_support import Saying

from domicile_p2p.net.adapters.bot import BotBrain
from domicile_p2p.net.join.codes import parse_code
from domicile_p2p.net.wire import Role

pytestmark = pytest.mark.slow

SHOWN = b"\\x1b]0;pwned\\x07\\x1b]52;c;"
"""The start of the attack as the chat panel shows it (its first line: the panel wraps)."""


class HostileBrain(BotBrain):
    def _policy_for_seat(self) -> Any:
        policy = super()._policy_for_seat()
        if not isinstance(policy, Saying):
            said = Saying(policy, self.session.seat, f"hello {ATTACK}")
            policy = self._policy = said  # type: ignore[assignment]
        return policy


async def _table_of(data_dir: Path) -> tuple[str, int]:
    """The code and port of the table ``domicile play`` hosts (its ``table.json``)."""
    for _ in range(900):
        for table in data_dir.glob("**/tables/*/table.json"):
            stored = json.loads(table.read_text())
            if "port" in stored:
                return stored["code"], stored["port"]
        await asyncio.sleep(0.1)
    raise AssertionError(f"no table hosted in {data_dir}")


async def test_a_peers_chat_line_reaches_the_players_terminal_inert(tmp_path: Path) -> None:
    command = [
        *(sys.executable, "-m", "domicile_tui", "--interface", LOOPBACK, "--port", "0"),
        *("--data-dir", str(tmp_path / "player"), "--name", "Ada", "--investigators", "2"),
        *("--role", "investigator", "--bot-delay", "0"),
    ]
    player = PtyProgram(command, environment(), columns=120, lines=36)
    guest = None
    try:
        code, port = await _table_of(tmp_path / "player")
        guest = network_bot(
            tmp_path / "guest",
            f"wss://{LOOPBACK}:{port}",
            parse_code(code),
            role=Role.INVESTIGATOR,
            person=True,
        )
        guest.brain = HostileBrain(guest.session, seed=3)
        playing = asyncio.create_task(guest.play())
        await asyncio.to_thread(player.wait_for, b"Person guest")
        player.send(b"\r")  # the owner lights the candles
        await asyncio.to_thread(player.wait_for, SHOWN)
    finally:
        written = player.close()
        if guest is not None:
            playing.cancel()
            await asyncio.gather(playing, return_exceptions=True)
    assert_no_attack(written)
