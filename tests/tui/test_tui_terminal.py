"""The client in a real terminal: ``domicile play`` in tmux, keys sent the way people send them.

Pilot waits for the app between two presses; a terminal does not.  tmux writes a
burst of keys at once (``send-keys Down Down Down``), as a held key or a fast
typist does, and each of them must act, in order.  The focused card is read off
the screen: the strip under the tableau names it in full.
"""

from __future__ import annotations

import re
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from terminal_support import Terminal, text

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

FOCUSED = re.compile(r"^ (\S.*?)  (Character|Location|Item)  ")
"""The detail strip: the focused card's full name, then its category."""


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    command = [
        *(sys.executable, "-m", "domicile_tui", "--offline", "--seed", "7", "--bot-delay", "0"),
        *("--name", "Ada", "--data-dir", str(tmp_path), "--interface", "127.0.0.1"),
    ]
    term = Terminal(command, "keys")
    try:
        yield term
    finally:
        term.close()


def focused_card(lines: list[str]) -> str | None:
    for line in lines:
        match = FOCUSED.match(line)
        if match:
            return match.group(1)
    return None


def settled_card(term: Terminal) -> str:
    """The focused card once the screen has stopped changing (every key has been handled)."""
    last, same = None, 0
    while same < 5:
        time.sleep(0.1)
        card = term.wait_for(focused_card, "a focused card")
        same = same + 1 if card == last else 0
        last = card
    assert last is not None
    return last


@pytest.mark.slow
def test_a_burst_of_arrow_keys_moves_the_cursor_once_per_key(terminal: Terminal) -> None:
    terminal.wait_for(text("Press Enter to light the candles"), "the lobby")
    terminal.keys("Enter")
    terminal.wait_for(text("seek a Character"), "the table")
    first = settled_card(terminal)

    # The reference: one key at a time, each handled before the next is sent.
    stepped = [first]
    for _ in range(3):
        terminal.keys("Down")
        stepped.append(settled_card(terminal))
    assert len(set(stepped)) == 4, f"Down one at a time must visit four cards: {stepped}"
    for _ in range(3):
        terminal.keys("Up")
        settled_card(terminal)
    assert settled_card(terminal) == first

    # The same keys in bursts: every one of them acts.
    terminal.keys("Down", "Down", "Down")
    assert settled_card(terminal) == stepped[3]
    terminal.keys("Up", "Up")
    assert settled_card(terminal) == stepped[1]
    terminal.keys("Down", "Up", "Down", "Down", "Up", "Down")
    assert settled_card(terminal) == stepped[3]

    # A move and Enter at once: the marker goes where the cursor went, not where it was.
    terminal.keys("Up", "Enter")
    terminal.wait_for(text(f"Your marker is on {stepped[2]}."), "the marker placed")

    # T and the words typed right after it: every letter goes into the chat line, none is
    # taken as a key of the table (L would lock the marker, D show the dreams).
    # and Enter says what was typed before it, not the letter typed right after it.
    terminal.keys("t", "l", "o", "l", "d", "Enter", "z")
    terminal.wait_for(text("A Ada  lold"), "the chat line said")
    settled_card(terminal)
    assert not any("loldz" in line for line in terminal.screen())


@pytest.fixture
def front_door(tmp_path: Path) -> Iterator[Terminal]:
    command = [
        *(sys.executable, "-m", "domicile_tui", "--menu", "--offline", "--name", "X"),
        *("--data-dir", str(tmp_path), "--interface", "127.0.0.1"),
    ]
    term = Terminal(command, "form")
    try:
        yield term
    finally:
        term.close()


def test_a_burst_of_keys_in_a_form_edits_each_field_in_order(front_door: Terminal) -> None:
    front_door.wait_for(text("Play offline against bots"), "the front door")
    front_door.keys("o")
    front_door.wait_for(text("A new offline table"), "the set-up form")
    # Backspace and Tab are keys the field and the screen bind (the letters are typed by
    # the field itself): each acts between the keys around it, as it came.
    front_door.keys("BSpace", "A", "n", "n", "Tab", "C-u", "F", "r", "i", "BSpace", "y")
    front_door.wait_for(text("Table name       Fry"), "the table's name typed")
    assert any(line.strip() == "Your name        Ann" for line in front_door.screen())
