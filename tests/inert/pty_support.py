"""A program under a pseudo-terminal, every byte it writes to the terminal kept."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import termios
import threading
import time
from collections.abc import Sequence

ATTACK = "\x1b]0;pwned\x07\x1b]52;c;cHduZWQ=\x07\x1b[2J\x1b[1;31;44m\x9b2J\u202e\u200b"
"""What a hostile peer sends as text: OSC 0 (the title), OSC 52 (the clipboard), a
screen clear, SGR colours, the 8-bit CSI, a right-to-left override, a zero-width space."""

ATTACK_BYTES = (
    b"\x1b]0;pwned",
    b"\x1b]52;",
    b"\x1b[1;31;44m",
    "\x9b".encode(),
    "\u202e".encode(),
    "\u200b".encode(),
)
"""The attack's bytes as a terminal would act on them; none may ever be written."""

ATTACK_SHOWN = "\\x1b]0;pwned\\x07"
"""How the start of :data:`ATTACK` reads once made inert."""


class PtyProgram:
    """``command`` with a pty as its stdin, stdout and stderr, sized ``columns`` x ``lines``."""

    def __init__(
        self, command: Sequence[str], env: dict[str, str], columns: int = 100, lines: int = 30
    ) -> None:
        leader, follower = pty.openpty()
        os.set_blocking(leader, True)
        env = {**env, "TERM": "xterm-256color", "COLUMNS": str(columns), "LINES": str(lines)}
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
        self.process = subprocess.Popen(
            list(command),
            stdin=follower,
            stdout=follower,
            stderr=follower,
            env=env,
            start_new_session=True,
        )
        os.close(follower)
        self._leader = leader
        self._written = bytearray()
        self._changed = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self._leader, 65536)
            except OSError:  # the program closed the terminal: EIO on Linux
                chunk = b""
            with self._changed:
                if not chunk:
                    self._changed.notify_all()
                    return
                self._written += chunk
                self._changed.notify_all()

    @property
    def written(self) -> bytes:
        with self._changed:
            return bytes(self._written)

    def wait_for(self, wanted: bytes, timeout: float = 90) -> bytes:
        """Every byte written up to and including the first ``wanted``."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while wanted not in self._written:
                left = deadline - time.monotonic()
                if left <= 0 or not self._reader.is_alive():
                    raise AssertionError(
                        f"never saw {wanted!r}; the program wrote:\n{bytes(self._written)!r}"
                    )
                self._changed.wait(left)
            return bytes(self._written)

    def send(self, data: bytes) -> None:
        os.write(self._leader, data)

    def close(self) -> bytes:
        """Stop the program (if it still runs) and return everything it wrote."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self._reader.join(10)
        os.close(self._leader)
        return bytes(self._written)


def assert_no_attack(written: bytes) -> None:
    for sequence in ATTACK_BYTES:
        assert sequence not in written, f"{sequence!r} reached the terminal"
