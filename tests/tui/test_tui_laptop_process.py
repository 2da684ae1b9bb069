"""A table hosted by ``domicile play`` in a real terminal process, killed with ``kill -9``
in the middle of a round, started again with ``--resume``, played to the end and verified.

The player is driven through a pseudo-terminal the way a person would, with the keys the
investigator's table answers to (C goes back to the cards sought, Enter places the marker
on the card under the cursor, L locks it; any key ends a séance); the other seats are the
host's bots, at once.  Only 127.0.0.1 is used (the host listens and advertises there).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import pty
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

import pytest

from domicile_p2p import canonical

REPO = Path(__file__).resolve().parents[2]
LOOPBACK = "127.0.0.1"
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="a POSIX pseudo-terminal")


class TerminalPlayer:
    """``domicile play`` in a pseudo-terminal of 120x36; its screen output is drained (and
    kept, for a failure's message) so that the app never blocks writing to it."""

    def __init__(self, data_dir: Path, *extra: str) -> None:
        self.data_dir = data_dir
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            [str(REPO), str(REPO / "clients"), env.get("PYTHONPATH", "")]
        )
        env["TERM"] = "xterm-256color"
        env.pop("HTTPS_PROXY", None)
        env.pop("https_proxy", None)
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 36, 120, 0, 0))
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "domicile_p2p",
                "play",
                "--data-dir",
                str(data_dir),
                "--interface",
                LOOPBACK,
                "--bot-delay",
                "0",
                "--name",
                "Ada",
                *extra,
            ],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            start_new_session=True,
        )
        os.close(slave)
        self.output = bytearray()
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()

    def _drain(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.output += chunk
            del self.output[: max(0, len(self.output) - 20_000)]

    def press(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def kill(self) -> None:
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(10)
        os.close(self.master)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
        with contextlib.suppress(OSError):
            os.close(self.master)


def table_dir(data_dir: Path) -> Path:
    tables = sorted((data_dir / "host" / "host" / "tables").glob("*/table.json"))
    assert len(tables) == 1, tables
    return tables[0].parent


def events_in(data_dir: Path) -> list[dict[str, object]]:
    try:
        path = table_dir(data_dir) / "events.jsonl"
        lines = path.read_bytes().splitlines()
    except (AssertionError, FileNotFoundError):
        return []
    return [canonical.decode(line) for line in lines if line.strip()]


def play_until(player: TerminalPlayer, done: object, timeout: float, what: str) -> None:
    """Press C, Enter and L in turn (back to the cards sought, start, place, lock, skip a
    séance) until ``done()``.  C first, as a person would: after a séance the cursor may
    still be on a category already found, where Enter is refused."""
    deadline = time.monotonic() + timeout
    keys = (b"c", b"\r", b"l")
    turn = 0
    started = False
    while not done():  # type: ignore[operator]
        tail = bytes(player.output[-3000:]).decode(errors="replace")
        if player.process.poll() is not None:
            code = player.process.returncode
            raise AssertionError(f"domicile play exited ({code}) before {what}: {tail!r}")
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}; the screen ended with {tail!r}")
        # Enter alone until the game is under way: in the lobby (and on the front door a
        # slow start may show first) L is "Learn to play", and a blind L wandered into the
        # tutorial's Ghost chapter.
        started = started or bool(events_in(player.data_dir))
        player.press(keys[turn % len(keys)] if started else b"\r")
        turn += 1
        time.sleep(0.25)


def mid_round(events: list[dict[str, object]]) -> bool:
    """A séance is behind us and the next round has begun: markers placed, no séance yet."""
    kinds = [event.get("kind") for event in events]
    if "seance" not in kinds:
        return False
    since = kinds[len(kinds) - 1 - kinds[::-1].index("seance") :]
    return since.count("place") >= 2


@pytest.mark.slow
def test_a_laptop_game_killed_mid_round_resumes_finishes_and_verifies(tmp_path: Path) -> None:
    data_dir = tmp_path / "ada"
    # Any free port, never the usual one another run's laptop may hold: the resumed table
    # takes it back all the same.
    first = TerminalPlayer(data_dir, "--port", "0")
    try:
        play_until(first, lambda: mid_round(events_in(data_dir)), 180, "a round under way")
    finally:
        first.kill()  # kill -9: no goodbye, no flush but the host's own fsync-ed log
    stored = json.loads((table_dir(data_dir) / "table.json").read_text())
    before = events_in(data_dir)
    assert stored["owner"] == 1 and mid_round(before)

    second = TerminalPlayer(data_dir, "--resume")
    games = data_dir / "host" / "games"
    try:
        play_until(second, lambda: any(games.glob("*.json")), 600, "the game's end")
    finally:
        second.stop()
    after = json.loads((table_dir(data_dir) / "table.json").read_text())
    assert after["code"] == stored["code"] and after["port"] == stored["port"]
    (archive,) = games.glob("*.json")
    resumed = events_in(data_dir)
    assert [canonical.encode(e) for e in resumed[: len(before)]] == [
        canonical.encode(e) for e in before
    ]  # the same chain, carried on
    verified = subprocess.run(
        [sys.executable, "-m", "domicile_p2p", "verify", str(archive)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(REPO / "clients")])},
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr
