"""``domicile host`` (for a person, without ``--headless``) and its JSON log write outside
text inert: a real host process under a pty, attacked over a real TLS websocket."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from live_support import LOOPBACK, domicile, environment
from pty_support import ATTACK, ATTACK_SHOWN, PtyProgram, assert_no_attack
from websockets.asyncio.client import connect

from domicile_p2p.net import wire
from domicile_p2p.net.adapters.tls import client_context

pytestmark = pytest.mark.slow


async def _send_unknown_field(port: int) -> None:
    """A join whose unknown field's name is the attack: no code needed at all."""
    async with connect(
        f"wss://{LOOPBACK}:{port}", ssl=client_context(), proxy=None, open_timeout=30
    ) as websocket:
        wire.decode_host(await websocket.recv())  # the Welcome
        await websocket.send(json.dumps({"type": "join", ATTACK: 1}))
        wire.decode_host(await websocket.recv())  # the refusal


def _host(tmp_path: Path, *extra: str) -> list[str]:
    """The host on a port the system picks: it says which in its first line."""
    return domicile(
        *("host", "--interface", LOOPBACK, "--port", "0", "--no-advertise"),
        *("--data-dir", str(tmp_path / "host"), *extra),
    )


async def test_the_operators_terminal_shows_an_attackers_field_name_inert(
    tmp_path: Path,
) -> None:
    host = PtyProgram(_host(tmp_path), environment())
    try:
        started = host.wait_for(b"Table ")
        said = re.search(rb"listening: .* port=(\d+)", started)
        assert said is not None, started
        port = int(said.group(1))
        await _send_unknown_field(port)
        written = host.wait_for(ATTACK_SHOWN.encode())
    finally:
        written = host.close()
    assert b"rejected" in written
    assert_no_attack(written)


async def test_the_json_log_escapes_c1_and_bidi_controls(tmp_path: Path) -> None:
    host = subprocess.Popen(
        _host(tmp_path, "--headless"), stdout=subprocess.PIPE, env=environment()
    )
    assert host.stdout is not None
    try:
        listening = json.loads(host.stdout.readline())
        assert listening["event"] == "listening"
        port = listening["port"]
        await _send_unknown_field(port)
        while b'"rejected"' not in (line := host.stdout.readline()):
            assert line, "the host stopped before it logged the refusal"
    finally:
        host.terminate()
        host.wait(20)
    assert_no_attack(line)
    assert ATTACK in json.loads(line)["reason"]
