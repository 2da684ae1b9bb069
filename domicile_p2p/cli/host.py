"""``domicile host``: serve tables on the LAN (or a server), with join codes and mDNS.

    domicile host --headless --name "Friday" --investigators 4 --bots 3,4 --ghost bot
    domicile host --headless --resume          # after a crash: every unfinished table is back
    domicile host --headless --bots all --ghost bot --lobby-wait 60   # friends may take bot seats
    domicile host --headless --games 3 --rotate   # three games at each table, the same code

Headless, it writes one JSON object per line (table codes, joins, leaves,
refused messages, game results) and stops cleanly on SIGTERM or Ctrl-C:
adverts withdrawn, clients told, logs flushed.  Without ``--headless`` the
same events are printed as short lines for a person at the terminal.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import resource
import signal
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Final

from domicile_p2p.cli import CommandError
from domicile_p2p.cli._browser_seats import (
    add_browser_seats_argument,
    check_browser_seats,
    print_browser_seats,
    serve_browser_seats,
)
from domicile_p2p.cli._network import name_argument
from domicile_p2p.cli._sandglass import add_timer_argument, timer_from
from domicile_p2p.identity import IdentityError
from domicile_p2p.net.adapters.gc_pauses import THAW_EVERY
from domicile_p2p.net.adapters.host import (
    DEFAULT_PORT,
    HostConfig,
    HostError,
    start_host,
)
from domicile_p2p.net.adapters.key_files import default_data_dir
from domicile_p2p.net.adapters.logs import human_lines, json_lines
from domicile_p2p.net.adapters.store import StoreError
from domicile_p2p.net.errors import BadJoinCode, NetError
from domicile_p2p.net.join.codes import parse_code
from domicile_p2p.net.sessions.guards.setup import DEFAULT_SETUP_TIMEOUT
from domicile_p2p.net.sessions.host import HostLimits
from domicile_p2p.rules import MAX_INVESTIGATORS, Difficulty
from domicile_p2p.text import inert
from domicile_p2p.transcript import TranscriptError

_DIFFICULTIES = ", ".join(d.value for d in Difficulty)
_HUMAN_QUIET = frozenset({"connected", "disconnected"})


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "host",
        help="host tables on this machine (TLS websockets, join codes, mDNS)",
        description=(
            "Serve one or more tables.  Each table has a code to read out loud "
            "(like 7-raven-lantern); players join with it, on the LAN by "
            "discovery or anywhere by address (wss://HOST:PORT)."
        ),
    )
    parser.add_argument("--headless", action="store_true", help="no UI: JSON log lines")
    add_browser_seats_argument(parser)
    parser.add_argument(
        "--name", default="Tortured Domicile", type=name_argument, help="the table's name"
    )
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"default {DEFAULT_PORT}")
    parser.add_argument(
        "--interface",
        metavar="IP",
        help="the IPv4 address to listen and advertise on (default: every interface)",
    )
    parser.add_argument(
        "--tables",
        type=int,
        default=1,
        metavar="N",
        help="1 to 9999 tables (more than 9: longer table numbers)",
    )
    parser.add_argument(
        "--investigators", type=int, default=3, metavar="K", help=f"1 to {MAX_INVESTIGATORS}"
    )
    parser.add_argument("--difficulty", default="normal", metavar="D", help=_DIFFICULTIES)
    add_timer_argument(parser)
    parser.add_argument(
        "--bots",
        default="none",
        metavar="SEATS",
        help="investigator seats the host plays with bots: 1,3,5 | all | all-but-one | none",
    )
    parser.add_argument(
        "--ghost", choices=("human", "bot"), default="human", help="who plays the Ghost"
    )
    parser.add_argument(
        "--lobby-wait",
        type=float,
        default=0.0,
        metavar="S",
        help=(
            "with --bots: keep the lobby open S seconds for people to take bot seats with the "
            "code before the game starts (default 0: start as soon as every seat is held)"
        ),
    )
    parser.add_argument(
        "--setup-timeout",
        type=float,
        default=DEFAULT_SETUP_TIMEOUT,
        metavar="S",
        help=(
            "seconds a setup step (or the Ghost's reveal after the game) may take before the game "
            "is aborted, naming who held it up "
            f"(default {DEFAULT_SETUP_TIMEOUT:g})"
        ),
    )
    parser.add_argument(
        "--ready-timeout",
        type=float,
        default=HostLimits().ready_timeout,
        metavar="S",
        help=(
            "seconds a person's seat may stay not ready in the lobby of a table's next game "
            f"before it is freed (default {HostLimits().ready_timeout:g}; the lobby says so)"
        ),
    )
    parser.add_argument(
        "--gc-thaw-every",
        type=float,
        default=THAW_EVERY,
        metavar="S",
        help=(
            "seconds between the garbage collector's visits of the whole heap, one long "
            "pause each (hundreds of ms at 1,000 tables); between them, cyclic garbage among "
            f"long-lived objects waits (default {THAW_EVERY:g})"
        ),
    )
    parser.add_argument(
        "--code",
        action="append",
        default=[],
        metavar="CODE",
        help="use this code (like 7-raven-lantern) for a table; repeat for more tables",
    )
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        help="certificate, keys and games (default: $DOMICILE_DATA_DIR, else the platform's; "
        "domicile paths shows it)",
    )
    parser.add_argument(
        "--resume", action="store_true", help="bring back every unfinished table of the last run"
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        metavar="S",
        help="seconds a hosted bot waits before each move (default: 0 headless, 1.5 otherwise)",
    )
    parser.add_argument(
        "--no-advertise", action="store_true", help="do not announce the tables by mDNS"
    )
    parser.add_argument(
        "--max-connections",
        type=int,
        metavar="N",
        help=(
            "network connections open at once; over it the oldest not yet seated gives way "
            "(default: the descriptor limit, ulimit -n, less 64 and 4 per table)"
        ),
    )
    parser.add_argument(
        "--max-per-address",
        type=int,
        default=_DEFAULT_LIMITS.max_per_address,
        metavar="N",
        help=(
            "network connections one address may have open "
            f"(default {_DEFAULT_LIMITS.max_per_address})"
        ),
    )
    parser.add_argument(
        "--connection-rate",
        type=float,
        default=_DEFAULT_LIMITS.connection_rate,
        metavar="N",
        help=(
            "new connections one address may open a second, in bursts of --max-per-address; "
            "more are closed at once, before TLS "
            f"(default {_DEFAULT_LIMITS.connection_rate:g})"
        ),
    )
    parser.add_argument(
        "--games",
        type=int,
        default=1,
        metavar="N",
        help=(
            "games each table plays one after the other, with the same code and the players "
            "still seated (each next game starts once every seat is ready); 0: until stopped "
            "(default 1)"
        ),
    )
    parser.add_argument(
        "--rest",
        type=float,
        default=15.0,
        metavar="S",
        help="with --games: seconds between a game's end and the next game's lobby (default 15)",
    )
    parser.add_argument(
        "--rotate",
        action="store_true",
        help="with --games: everyone moves round one seat at each next game (a new Ghost)",
    )
    parser.add_argument(
        "--exit-when-done",
        action="store_true",
        help="stop once every table has played its games (--games)",
    )
    parser.set_defaults(handler=run)


def browser_seats_from(args: argparse.Namespace, config: HostConfig) -> int:
    """How many browser seats to serve, checked against the table (0: none)."""
    if config.tables != 1 and args.browser_seats:
        raise CommandError("--browser-seats serves the seats of one table: drop --tables")
    return check_browser_seats(
        args.browser_seats,
        args.browser_port,
        interface=config.interface,
        open_seats=config.investigators - len(config.bot_seats - {0}),
    )


def bot_seats(text: str, investigators: int) -> frozenset[int]:
    """``--bots``: a comma-separated list of investigator seats, or all / all-but-one / none."""
    word = text.strip().lower()
    if word in ("", "none"):
        return frozenset()
    if word == "all":
        return frozenset(range(1, investigators + 1))
    if word == "all-but-one":
        return frozenset(range(2, investigators + 1))
    seats = set()
    for part in word.split(","):
        if not part.strip().isdigit():
            raise CommandError(f"--bots: {part!r} is not a seat number (1 to {investigators})")
        seat = int(part)
        if not 1 <= seat <= investigators:
            raise CommandError(f"--bots: seat {seat} is not an investigator seat 1-{investigators}")
        seats.add(seat)
    return frozenset(seats)


_DEFAULT_LIMITS: Final = HostLimits()
DESCRIPTORS_KEPT: Final = 64
"""Descriptors kept back from connections for the process itself (logs, certificate, mDNS)."""
DESCRIPTORS_PER_TABLE: Final = 4
"""Descriptors kept back per table for its files (event log, archive, their directories)."""


def max_connections(asked: int | None, tables: int) -> int:
    """``--max-connections``, or what the descriptor limit leaves after the host's own files."""
    if asked is not None:
        if asked < 1:
            raise CommandError("--max-connections is at least 1")
        return asked
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return _DEFAULT_LIMITS.max_connections
    return max(16, soft - DESCRIPTORS_KEPT - DESCRIPTORS_PER_TABLE * tables)


def config_from(args: argparse.Namespace) -> HostConfig:
    try:
        difficulty = Difficulty(args.difficulty)
    except ValueError:
        raise CommandError(f"--difficulty must be one of {_DIFFICULTIES}") from None
    try:
        codes = tuple(parse_code(code) for code in args.code)
    except BadJoinCode as exc:
        raise CommandError(f"--code: {exc}") from None
    if args.bot_delay is not None and args.bot_delay < 0:
        raise CommandError("--bot-delay cannot be negative")
    if not args.connection_rate > 0:
        raise CommandError("--connection-rate is more than 0")
    if args.max_per_address < 1:
        raise CommandError("--max-per-address is at least 1")
    if args.lobby_wait < 0:
        raise CommandError("--lobby-wait cannot be negative")
    if args.games < 0:
        raise CommandError("--games is 0 (until stopped) or more")
    if not 0 <= args.rest <= 86_400:
        raise CommandError("--rest is 0 to 86400 seconds")
    if args.rotate and args.games == 1:
        raise CommandError("--rotate moves the seats round between games: give --games 0 or 2+")
    if not 0 < args.ready_timeout <= 86_400:
        raise CommandError("--ready-timeout is more than 0 and at most 86400 seconds")
    if not 0 < args.setup_timeout <= 86_400:
        raise CommandError("--setup-timeout is more than 0 and at most 86400 seconds")
    delay = args.bot_delay if args.bot_delay is not None else (0.0 if args.headless else 1.5)
    config = HostConfig(
        data_dir=Path(args.data_dir) if args.data_dir else default_data_dir(),
        name=args.name,
        interface=args.interface,
        port=args.port,
        tables=args.tables,
        investigators=args.investigators,
        difficulty=difficulty,
        timer=timer_from(args.timer),
        bot_seats=bot_seats(args.bots, args.investigators),
        ghost_bot=args.ghost == "bot",
        lobby_wait=args.lobby_wait,
        codes=codes,
        resume=args.resume,
        games=args.games,
        rotate=args.rotate,
        rest=args.rest,
        bot_delay=delay,
        advertise=not args.no_advertise,
        limits=HostLimits(
            setup_timeout=args.setup_timeout,
            ready_timeout=args.ready_timeout,
            max_connections=max_connections(args.max_connections, args.tables),
            max_per_address=args.max_per_address,
            connection_rate=args.connection_rate,
        ),
        gc_thaw_every=args.gc_thaw_every,
    )
    try:
        config.check()
    except HostError as exc:
        raise CommandError(str(exc)) from None
    return config


async def serve(
    config: HostConfig,
    headless: bool,
    exit_when_done: bool,
    browser_seats: int = 0,
    browser_port: int = 0,
) -> int:
    log = json_lines(sys.stdout) if headless else human_lines(sys.stdout, quiet=_HUMAN_QUIET)
    host = await start_host(config, log)
    if not headless:
        print(f"Host fingerprint: {host.certificate.phrase}")
        for table in host.tables():
            urls = " or ".join(host.urls)
            print(f"Table '{inert(table.name)}': code {table.code}  (join at {urls})")
    closers: list[Callable[[], Awaitable[None]]] = []
    if browser_seats:
        try:
            close_seats, seat_urls = await serve_browser_seats(host, browser_seats, browser_port)
        except BaseException:
            await host.close()
            raise
        closers.append(close_seats)
        if not headless:
            print_browser_seats(seat_urls)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(signum, stop.set)
    waiters: list[asyncio.Future[Any]] = [
        asyncio.ensure_future(stop.wait()),
        asyncio.ensure_future(host.wait_failed()),
    ]
    if exit_when_done:
        waiters.append(asyncio.ensure_future(host.wait_done()))
    try:
        await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for waiter in waiters:
            waiter.cancel()
        for close in closers:
            await close()
        await host.close()
    if host.failure is not None:
        raise CommandError(host.failure, 1)
    return 0


def run(args: argparse.Namespace) -> int:
    config = config_from(args)
    seats = browser_seats_from(args, config)
    try:
        return asyncio.run(
            serve(config, args.headless, args.exit_when_done, seats, args.browser_port)
        )
    except (HostError, StoreError, IdentityError) as exc:
        raise CommandError(str(exc)) from None
    except TranscriptError as exc:
        raise CommandError(f"a saved table's log does not check out: {exc}", 1) from None
    except NetError as exc:
        raise CommandError(str(exc), 1) from None
