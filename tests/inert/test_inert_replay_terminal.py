"""``domicile replay`` in a real terminal: a saved game's chat line carrying escape
sequences is shown inert, and none of its bytes reaches the terminal (issue 20)."""

from __future__ import annotations

import sys

import pytest
from live_support import environment
from pty_support import ATTACK_BYTES, PtyProgram
from replay_support import hostile_game

from domicile_p2p.transcript.files import read_transcript
from domicile_p2p.transcript.schema import Kind

pytestmark = pytest.mark.slow

RIGHT = b"\x1b[C"
LAUNCHER = "import sys; from domicile_tui.launcher import main; sys.exit(main())"
"""The installed ``domicile`` command, run from the checkout."""


def test_a_replayed_chat_line_reaches_the_terminal_inert() -> None:
    path = hostile_game()
    said = next(
        index for index, event in enumerate(read_transcript(path)) if event.kind is Kind.CHAT
    )
    viewer = PtyProgram(
        [sys.executable, "-c", LAUNCHER, "replay", str(path)],
        environment(),
        columns=160,
        lines=40,
    )
    try:
        viewer.wait_for(b"(1 of ")  # the first event, once the file is verified
        viewer.send(RIGHT * said)
        written = viewer.wait_for(b"said \\x1b]0;pwned\\x07")
    finally:
        written = viewer.close()
    for sequence in (b"\x1b]0;pwned", b"\x1b]52;", b"\x1b[1;31m", *ATTACK_BYTES[3:]):
        assert sequence not in written, f"{sequence!r} reached the terminal"
