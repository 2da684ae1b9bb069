"""Whether the replay viewer can open a file at all: the command's quick check.

``domicile replay FILE`` says in one line why a file cannot be a transcript
(missing, unreadable, empty, not a genesis first, another protocol version)
before its screen opens.  This runs before the first frame, so it reads the
file and its first line only, with the game's file helpers, and loads
neither the events' schema nor the verifier (``tests/tui/test_tui_replay_startup.py``).
"""

from __future__ import annotations

from pathlib import Path

from domicile_p2p.client_api import (
    NotATranscript,
    check_version,
    looks_like_transcript,
    read_bytes,
    split_lines,
)


class ReplayError(Exception):
    """A file the viewer cannot open; the message says why, in one line."""


def check_openable(path: Path) -> None:
    """:class:`ReplayError` unless ``path`` can be read and looks like a transcript of this
    protocol (quick: the command says so before the viewer opens)."""
    try:
        data = read_bytes(path)
        check_version(data)
    except NotATranscript as error:
        raise ReplayError(str(error)) from None
    lines = split_lines(data)
    if not lines:
        raise ReplayError(f"{path}: not a domicile-p2p transcript: the file is empty")
    if not looks_like_transcript(lines[0]):
        raise ReplayError(
            f"{path}: not a domicile-p2p transcript: its first line is not a genesis event"
        )
