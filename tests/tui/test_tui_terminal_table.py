"""The table in a real terminal at 80x24, the size of a laptop's default terminal.

``domicile play`` runs in tmux, offline or hosting on 127.0.0.1; keys go as a
terminal sends them (a burst in one ``send-keys``), and every wait is for text on
the screen with a deadline (``terminal_support``), never a guess at how long the
table takes.
"""

from __future__ import annotations

import re
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from terminal_support import Terminal, text

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

LAPTOP = (80, 24)
LAUNCHER = str(Path(sys.executable).with_name("domicile"))
"""The installed ``domicile`` command (its launcher ends the process once play is over)."""


def play(tmp_path: Path, *options: str) -> list[str]:
    """``domicile play`` as the installed command runs it, with ``options``, two
    investigators, instant bots and this test's data dir; ``EXITED`` shows once it ends."""
    command = [
        *(LAUNCHER, "play", "--investigators", "2", "--bot-delay", "0"),
        *("--name", "Ada", "--data-dir", str(tmp_path / "data"), "--interface", "127.0.0.1"),
        *options,
    ]
    return ["sh", "-c", '"$@"; echo EXITED; sleep 600', "play", *command]


TABLES = {
    "offline": ("--offline", "--seed", "3"),
    "hosted": ("--seed", "3"),
}


@pytest.fixture(params=list(TABLES))
def table(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Terminal]:
    term = Terminal(play(tmp_path, *TABLES[request.param]), f"table-{request.param}", LAPTOP)
    try:
        yield term
    finally:
        term.close()


def test_enter_then_l_in_one_burst_places_the_marker_then_locks_it(table: Terminal) -> None:
    table.wait_for(text("Press Enter to"), "the lobby")
    table.keys("Enter")
    table.wait_for(text("seek a Character"), "the table")
    # Down Down Enter l, as one burst: L is handled only once the marker Enter placed is
    # acknowledged, so it locks it (before, the lock went first and was refused).
    table.keys("Down", "Down", "Enter", "l")
    # Locked: the prompt says so, or (the bot locked already) the séance judges the marker.
    table.wait_for(locked, "the marker locked")
    assert not any("must place the marker" in line for line in table.screen())


def locked(lines: list[str]) -> str | None:
    for line in lines:
        if "Your marker is locked." in line or "The séance of day 1" in line:
            return line
        if "must place the marker" in line:
            raise AssertionError("the lock was refused: " + "\n".join(lines))
    return None


def lobby_field(lines: list[str], label: str) -> str | None:
    """A value the host's lobby shows (``Table code   7-harbor-horn``)."""
    for line in lines:
        match = re.search(rf"{label}\s+(\S+)", line)
        if match:
            return match.group(1)
    return None


def test_a_guest_whose_host_left_quits_at_once_and_says_so(tmp_path: Path) -> None:
    host = Terminal(play(tmp_path / "host", "--seed", "3"), "quit-host", LAPTOP)
    guest = Terminal(play(tmp_path / "guest", "--menu"), "quit-guest", LAPTOP)
    try:
        code = host.wait_for(lambda lines: lobby_field(lines, "Table code"), "the code")
        address = host.wait_for(lambda lines: lobby_field(lines, "Address"), "the address")
        guest.wait_for(text("Join a table by its address"), "the front door")
        guest.keys("a")
        guest.wait_for(text("Table code"), "the join form")
        guest.keys("C-u", *code, "Tab", "C-u", *address, "Enter")
        host.wait_for(text("Friends can take"), "the lobby")
        host.wait_for(lambda lines: "person" in "\n".join(lines) or None, "the guest seated")
        host.keys("Enter")
        guest.wait_for(text("Stage One"), "the guest at the table")
        host.close()  # the host's laptop is gone at once, as with kill -9
        guest.wait_for(text("The host is away"), "the guest waiting for its host")
        guest.keys("C-q")
        guest.wait_for(text("Your seat waits for you"), "the question")
        guest.keys("y")
        # "Quitting: leaving the table…" shows while it leaves (too briefly, on an idle
        # machine, for a look every 0.1 s to catch: tests/tui/test_tui_key_order.py checks
        # it is said), then the process ends: no more "host is away" counting meanwhile.
        guest.wait_for(text("EXITED"), "the process to end")
    finally:
        host.close()
        guest.close()


def test_a_players_seance_passes_by_itself(tmp_path: Path) -> None:
    table = Terminal(play(tmp_path, "--offline", "--seed", "3"), "seance-passes", LAPTOP)
    try:
        table.wait_for(text("Press Enter to"), "the lobby")
        table.keys("Enter")
        table.wait_for(text("seek a Character"), "the table")
        table.keys("Down", "Enter", "l")
        table.wait_for(text("The séance of day 1"), "the séance")
        # No key: the outcome is told, stays up a moment, and the table goes on to day 2.
        table.wait_for(text("Day 2 of 7"), "day 2 without a key")
        assert not any("The séance of day 1" in line for line in table.screen())
    finally:
        table.close()


GLASS_LEFT = re.compile(r"⧗ Sand-glass .* (\d+):(\d\d) left")


def seconds_left(lines: list[str]) -> int | None:
    for line in lines:
        match = GLASS_LEFT.search(line)
        if match:
            return int(match.group(1)) * 60 + int(match.group(2))
    return None


def test_the_next_sand_glass_waits_until_the_seance_has_been_seen(tmp_path: Path) -> None:
    options = ("--offline", "--seed", "3", "--timer", "30")
    table = Terminal(play(tmp_path, *options), "glass-waits", LAPTOP)
    try:
        table.wait_for(text("Press Enter to"), "the lobby")
        table.keys("Enter")
        table.wait_for(text("seek a Character"), "the table")
        table.keys("Down", "Enter", "l")
        table.wait_for(text("The séance of day 1"), "the séance")
        # The bots' Ghost gives day 2's dreams at once, under the séance; the glass turns
        # only once the player has seen it (here: it passed by itself, its telling and its
        # moment take ~10 s), SEANCE_SEEN_WITHIN (15 s) after it at most, so the glass is
        # still full then (a glass turned at the give would read ~0:20 by then; 0:28 leaves
        # room for a slow machine).
        table.wait_for(
            lambda lines: ("Day 2 of 7" in "\n".join(lines) and seconds_left(lines)) or None,
            "day 2's glass",
        )
        left = seconds_left(table.screen())
        assert left is not None and left >= 28, "\n".join(table.screen())
    finally:
        table.close()
