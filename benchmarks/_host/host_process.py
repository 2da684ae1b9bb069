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
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Final

from domicile_p2p.cli import build_parser
from domicile_p2p.cli import host as host_command

CHAT_CHARACTERS: Final = 2**31
"""Characters of chat a seat may send in one game here: more than a run can say."""


def main(argv: list[str]) -> int:
    """Run ``domicile host ARGV`` (its options and log lines) with the chat bound lifted."""
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
