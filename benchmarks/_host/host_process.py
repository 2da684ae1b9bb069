"""``domicile host`` as the benchmark runs it: the same command, the per-seat chat bound lifted.

Saturation has every investigator chat ``--rate`` times a second (18 by
default, under the host's flood limit of 20 messages a second per
connection).  A real host also bounds each seat's chat (issue 16:
``HostLimits.chat_rate`` 0.5 a second, bursts of 5, 20,000 characters a
game) and refuses the rest with ``chat-limit``, so against it no saturation
chat after the first few would become an event.  The benchmark's hosts are
that command with only this bound raised to the flood limit's rate and burst
(and the characters out of reach); the bound is still checked for every chat,
so the host does per event exactly the work a real host does.

On ``SIGUSR1`` it writes one line to its log: the CPU time (``time.thread_time``) its
Ed25519 verifies and signs took so far and how many there were
(``{"event": "bench-signatures", ...}``), so the benchmark can compare the host's own
signature work over a window with the same calls timed alone.  Timing them costs two
clock reads a call (well under a microsecond each).
"""

from __future__ import annotations

import asyncio
import json
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Final

from domicile_p2p.cli import build_parser
from domicile_p2p.cli import host as host_command
from domicile_p2p.identity import Identity, PublicKey

SIGNATURE_LINE: Final = "bench-signatures"

CHAT_CHARACTERS: Final = 2**31
"""Characters of chat a seat may send in one game here: more than a run can say."""


class SignatureClock:
    """CPU time and calls of ``PublicKey.verifies`` and ``Identity.sign`` in this process."""

    def __init__(self) -> None:
        self.seconds = {"verify": 0.0, "sign": 0.0}
        self.calls = {"verify": 0, "sign": 0}
        PublicKey.verifies = self._timed("verify", PublicKey.verifies)  # type: ignore[method-assign]
        Identity.sign = self._timed("sign", Identity.sign)  # type: ignore[method-assign]

    def _timed(self, name: str, call: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any) -> Any:
            started = time.thread_time()
            try:
                return call(*args)
            finally:
                self.seconds[name] += time.thread_time() - started
                self.calls[name] += 1

        return timed

    def write(self, signum: int, frame: object) -> None:
        line = {"event": SIGNATURE_LINE, "seconds": self.seconds, "calls": self.calls}
        sys.stdout.write(json.dumps(line) + "\n")
        sys.stdout.flush()


def main(argv: list[str]) -> int:
    """Run ``domicile host ARGV`` (its options and log lines) with the chat bound lifted."""
    clock = SignatureClock()
    signal.signal(signal.SIGUSR1, clock.write)
    args = build_parser("host").parse_args(["host", *argv])
    config = host_command.config_from(args)
    limits = config.limits
    lifted = replace(
        limits,
        chat_rate=limits.message_rate,
        chat_burst=limits.message_burst,
        chat_characters=CHAT_CHARACTERS,
    )
    return asyncio.run(
        host_command.serve(replace(config, limits=lifted), args.headless, args.exit_when_done)
    )
