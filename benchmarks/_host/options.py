"""The command line of ``bench_host.py``, and the phases it asks for at each K."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from _common import parser

from .measure import TABLES_PER_LOAD_PROCESS, RunOptions
from .servers import KINDS, ServerOptions

TABLES_PER_HOST = 1000
SETUP_TIMEOUT = 3600.0


def parse(description: str, argv: list[str]) -> argparse.Namespace:
    """The options, checked; ``--quick`` sets the smoke test's tiny sizes."""
    options = _parser(description)
    args = options.parse_args(argv)
    if args.server_nice < 0 and os.geteuid() != 0:
        options.error("--server-nice below 0 raises the host's priority, which needs root (sudo)")
    if args.quick:
        args.tables, args.duration, args.warmup, args.pace = [1], 1.2, 0.3, 0.4
    args.sizes = sorted(set(args.tables or [10, 100]))
    return args


def run_options(args: argparse.Namespace) -> RunOptions:
    return RunOptions(
        ServerOptions(
            args.tables_per_host, args.setup_timeout, args.server_nice, args.gc_thaw_every
        ),
        args.rate,
        args.load_processes,
        args.profile,
        args.profile_out,
    )


def kinds(args: argparse.Namespace) -> tuple[str, ...]:
    """The servers measured: the host, then the anchor unless ``--no-anchor``."""
    return ("domicile",) if args.no_anchor else KINDS


def phases(args: argparse.Namespace, tables: int) -> list[dict[str, Any]]:
    """The phases measured at K = ``tables`` (saturation by default only at the smallest K)."""
    planned = []
    if not args.no_human:
        planned.append(
            {"name": "human", "pace": args.pace, "warmup": args.warmup, "duration": args.duration}
        )
    if not args.no_saturation and (args.saturation or tables == args.sizes[0]):
        planned.append(
            {
                "name": "saturation",
                "pace": 0.0,
                "warmup": min(args.warmup, 3),
                "duration": args.duration,
            }
        )
    return planned


def _parser(description: str) -> argparse.ArgumentParser:
    options = parser(description)
    options.add_argument(
        "--tables", type=int, action="append", help="K (repeatable; default 10, 100)"
    )
    options.add_argument(
        "--pace", type=float, default=3.0, help="seconds between a table's actions"
    )
    options.add_argument(
        "--rate",
        type=float,
        default=18.0,
        help="saturation: actions/s per investigator connection (host limit 20)",
    )
    options.add_argument("--duration", type=float, default=15.0, help="seconds measured per phase")
    options.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    options.add_argument(
        "--load-processes",
        type=int,
        default=0,
        help=f"load generator processes (default: one per {TABLES_PER_LOAD_PROCESS} tables)",
    )
    options.add_argument(
        "--tables-per-host",
        type=int,
        default=TABLES_PER_HOST,
        help=f"tables one host (and one anchor) process serves (default {TABLES_PER_HOST})",
    )
    options.add_argument(
        "--setup-timeout",
        type=float,
        default=SETUP_TIMEOUT,
        help=(
            "the hosts' --setup-timeout: every table plays only once all K x 7 seats are "
            "seated, minutes after the first tables filled, and the host's default (120 s) "
            f"would abort those before play begins (default here {SETUP_TIMEOUT:g})"
        ),
    )
    options.add_argument(
        "--server-nice",
        type=int,
        default=0,
        help=(
            "niceness of the host and anchor processes (negative needs root): on a shared "
            "machine, a stand-in for a host with a core of its own, ahead of the load "
            "generators and whatever else runs"
        ),
    )
    options.add_argument(
        "--gc-thaw-every",
        type=float,
        help="the host's --gc-thaw-every (default: the host's, 600 s): short, to see a thaw",
    )
    options.add_argument("--no-human", action="store_true", help="skip the human-pace phase")
    options.add_argument(
        "--saturation",
        action="store_true",
        help="add the saturation phase (default: only for the smallest K)",
    )
    options.add_argument("--no-saturation", action="store_true", help="skip saturation")
    options.add_argument("--no-anchor", action="store_true", help="skip the bare server")
    options.add_argument(
        "--profile", action="store_true", help="py-spy one host during the last phase"
    )
    options.add_argument("--profile-out", type=Path, help="keep py-spy's raw stacks in this dir")
    return options
