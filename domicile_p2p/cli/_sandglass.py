"""``--timer SECONDS``, the table's sand-glass: one option for ``domicile host`` and ``play``.

A module of its own (not a command: its name starts with ``_``) so that
``domicile play`` can offer the option without importing the host's network stack.
"""

from __future__ import annotations

import argparse

from domicile_p2p.cli import CommandError
from domicile_p2p.rules import MAX_TIMER, MIN_TIMER


def add_timer_argument(parser: argparse.ArgumentParser) -> None:
    """``--timer SECONDS``: the investigation's sand-glass (``domicile host`` and ``play``)."""
    parser.add_argument(
        "--timer",
        type=int,
        metavar="SECONDS",
        help=f"a sand-glass for each investigation, {MIN_TIMER} to {MAX_TIMER} seconds: when it "
        "runs out, placed markers lock where they stand and no marker is no guess "
        "(default: no time limit)",
    )


def timer_from(seconds: int | None) -> int | None:
    """The ``--timer`` value, checked against the protocol's range."""
    if seconds is not None and not MIN_TIMER <= seconds <= MAX_TIMER:
        raise CommandError(f"--timer is {MIN_TIMER} to {MAX_TIMER} seconds, not {seconds}")
    return seconds
