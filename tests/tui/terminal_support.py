"""A program in a real terminal for the client's tests: tmux, keys sent as bursts.

Pilot waits for the app between two presses; a terminal does not.  tmux writes a
burst of keys at once (``send-keys Down Down Down``), as a held key or a fast
typist does.  Every wait here is for text on the screen, with a deadline far
beyond what an idle machine needs: never a guess at how long something takes.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable

DEADLINE = 90.0
"""Seconds to wait for a screen (a loaded machine starts Textual slowly)."""


class Terminal:
    """One program in its own tmux server (``-L``), so nothing else's sessions are touched."""

    def __init__(self, command: list[str], name: str, size: tuple[int, int] = (120, 36)) -> None:
        self.socket = f"domicile-test-{name}-{os.getpid()}"
        columns, lines = size
        self._tmux("new-session", "-d", "-s", "t", "-x", str(columns), "-y", str(lines), *command)

    def _tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=True
        )
        return done.stdout

    def keys(self, *keys: str) -> None:
        """Send ``keys`` in one ``send-keys``: tmux writes them as one burst."""
        self._tmux("send-keys", "-t", "t", *keys)

    def screen(self) -> list[str]:
        return self._tmux("capture-pane", "-p", "-t", "t").splitlines()

    def wait_for(self, found: Callable[[list[str]], str | None], what: str) -> str:
        deadline = time.monotonic() + DEADLINE
        while time.monotonic() < deadline:
            answer = found(self.screen())
            if answer is not None:
                return answer
            time.sleep(0.1)
        raise AssertionError(f"never saw {what}; the screen:\n" + "\n".join(self.screen()))

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


def text(wanted: str) -> Callable[[list[str]], str | None]:
    """Finds ``wanted`` anywhere on the screen."""
    return lambda lines: wanted if any(wanted in line for line in lines) else None
