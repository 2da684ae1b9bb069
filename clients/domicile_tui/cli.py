"""``domicile play``: open a table and play it in the terminal.

Registered through the ``domicile_p2p.commands`` entry point, so the game
package never imports the client.  With no arguments it opens a table on
this laptop at once (hosted for the LAN when the network layer is present,
offline otherwise), seats the player, fills every other seat with bots and
shows the lobby; ``--menu`` starts at the front door instead.
"""

from __future__ import annotations

import argparse
import gc
import getpass
import os
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from domicile_p2p.client_api import (
    CommandError,
    add_browser_seats_argument,
    add_timer_argument,
    timer_from,
)
from domicile_p2p.rules import MAX_INVESTIGATORS, Difficulty
from domicile_tui.pacing import DEFAULT_MEAN, BotPace
from domicile_tui.session import MAX_NAME_LENGTH, Role, SettingsError, TableSettings, clean_name

if TYPE_CHECKING:
    from domicile_p2p.client_api import UnfinishedTable
    from domicile_tui.connect import TableDoor
    from domicile_tui.ticket import SeatRequest


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play at a table in the terminal (hosts one on this laptop by default)",
        description=(
            "Open a table and play Tortured Domicile. With no arguments: host a table here, "
            "sit at it, and let bots take every other seat."
        ),
    )
    parser.add_argument(
        "--role",
        choices=[*(role.value for role in Role), ANY_SEAT],
        help="play as the Ghost or as an Investigator (default: investigator; with "
        "--connect: any free seat)",
    )
    parser.add_argument(
        "--difficulty",
        choices=[d.value for d in Difficulty],
        help="default: normal (or the config file's: domicile paths shows where it is)",
    )
    parser.add_argument(
        "--investigators",
        type=int,
        default=3,
        metavar="K",
        help=f"investigators at the table, 1 to {MAX_INVESTIGATORS} (default: 3)",
    )
    parser.add_argument("--name", help="your name at the table (default: your login name)")
    parser.add_argument("--table-name", help="the table's name (default: NAME's table)")
    parser.add_argument(
        "--interface", metavar="IP", help="the address to host on and advertise (LAN play)"
    )
    parser.add_argument(
        "--port",
        type=int,
        metavar="PORT",
        help="the port to host on (default: 47470, or any free one when that is taken; "
        "0: any free one); a resumed table takes its old port back when it is free",
    )
    parser.add_argument(
        "--offline", action="store_true", help="play in this process only, against bots"
    )
    parser.add_argument(
        "--menu", action="store_true", help="start at the front door (host, join or offline)"
    )
    parser.add_argument(
        "--tutorial",
        action="store_true",
        help="learn to play: a guided first game against bots, offline, in three short chapters",
    )
    parser.add_argument(
        "--chapter",
        type=int,
        choices=(1, 2, 3),
        metavar="N",
        help="with --tutorial: begin at chapter N (1 an investigator's round, 2 the Ghost's "
        "give, 3 Stage Two)",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="bring back the unfinished table this laptop hosted (same code, seats and game)",
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        metavar="DIR",
        help="where keys and transcripts are kept (default: $DOMICILE_DATA_DIR, else the "
        "platform's; domicile paths shows it)",
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=DEFAULT_MEAN,
        metavar="S",
        help=f"seconds a bot takes per action, on average (default: {DEFAULT_MEAN}; 0: at once)",
    )
    parser.add_argument(
        "--pack", type=Path, metavar="DIR", help="a card pack directory (default: the built-in)"
    )
    parser.add_argument(
        "--seed", type=int, help="deal a fixed game (offline tables; for demos and bug reports)"
    )
    add_timer_argument(parser)
    add_browser_seats_argument(parser)
    joining = parser.add_argument_group(
        "joining a table from the command line (straight to its lobby, no front door)"
    )
    joining.add_argument(
        "--connect", metavar="URL", help="the table's address, wss://HOST:PORT (needs --code)"
    )
    joining.add_argument(
        "--code",
        # The variable's name is the game's CODE_VARIABLE (a test holds them the same): its
        # module is not loaded before the first screen.
        help="the table's code, as the host's screen shows it (default: $DOMICILE_TABLE_CODE, "
        "which other users cannot read as they can a command line)",
    )
    joining.add_argument(
        "--fingerprint",
        metavar="HEX",
        help="the host's certificate fingerprint (64 hex digits; any other host is refused)",
    )
    joining.add_argument(
        "--watch", action="store_true", help="watch the table without a seat (with --connect)"
    )
    parser.set_defaults(handler=play)


ANY_SEAT = "any"
"""``--role any``: whichever seat is free at a table joined with ``--connect``."""
HOSTING_ONLY = ("offline", "menu", "tutorial", "resume", "browser_seats")
"""Options that open a table of one's own, which ``--connect`` does not."""


def default_player_name() -> str:
    try:
        return clean_name(getpass.getuser().capitalize(), "player name")
    except (SettingsError, OSError, KeyError):
        return "Investigator"


def settings_from(args: argparse.Namespace) -> TableSettings:
    name = args.name if args.name is not None else default_player_name()
    if args.role == ANY_SEAT and args.connect is None:
        raise CommandError("--role any is for joining a table: add --connect and --code")
    hosted_role = Role.INVESTIGATOR if args.role in (None, ANY_SEAT) else Role(args.role)
    try:
        player = clean_name(name, "player name")
        table = args.table_name if args.table_name is not None else f"{player}'s table"
        return TableSettings(
            table_name=table[:MAX_NAME_LENGTH],
            player_name=player,
            role=hosted_role,
            difficulty=Difficulty(args.difficulty or Difficulty.NORMAL.value),
            investigators=args.investigators,
            timer=timer_from(args.timer),
        )
    except SettingsError as error:
        raise CommandError(str(error)) from None


def seat_request_from(args: argparse.Namespace, settings: TableSettings) -> SeatRequest | None:
    """``--connect URL --code CODE``: the seat asked for, checked as the join form checks
    it (the same one-line errors); ``None`` when no table is to be joined."""
    from domicile_tui.screens.join import JoinError, ticket_for
    from domicile_tui.ticket import SeatRequest

    if args.connect is None:
        for option in ("code", "fingerprint"):
            if getattr(args, option) is not None:
                raise CommandError(f"--{option} is for joining a table: add --connect URL")
        if args.watch:
            raise CommandError("--watch is for joining a table: add --connect URL and --code")
        return None
    from domicile_p2p.client_api import CODE_VARIABLE

    code = args.code if args.code is not None else os.environ.get(CODE_VARIABLE)
    if code is None:
        raise CommandError("--connect needs the table's code: add --code CODE")
    for option in HOSTING_ONLY:
        if getattr(args, option):
            flag = option.replace("_", "-")
            raise CommandError(f"--connect joins a table across the network: drop --{flag}")
    if args.watch and args.role is not None:
        raise CommandError("--watch takes no seat: drop --role")
    if not args.connect.strip():
        raise CommandError("--connect needs the table's address, wss://HOST:PORT")
    try:
        ticket = ticket_for(
            code,
            found=None,
            address_text=args.connect,
            fingerprint_text=args.fingerprint or "",
            lan=(),
        )
    except JoinError as error:
        raise CommandError(f"cannot join: {error}") from None
    role = None if args.role in (None, ANY_SEAT) else Role(args.role)
    return SeatRequest(ticket, settings.player_name, role, watch=args.watch)


def browser_seats_from(args: argparse.Namespace, settings: TableSettings) -> int:
    """``--browser-seats N``: how many of the hosted table's investigator seats to serve to
    browsers (0: none), checked as ``domicile host`` checks them (every seat but the
    player's is a bot's that a person may take)."""
    if not args.browser_seats:
        return 0
    for option in ("offline", "tutorial", "menu"):
        if getattr(args, option):
            raise CommandError(f"--browser-seats serves a table hosted at once: drop --{option}")
    from domicile_p2p.client_api import check_browser_seats

    player = 1 if settings.role is Role.INVESTIGATOR else 0
    return check_browser_seats(
        args.browser_seats,
        args.browser_port,
        interface=args.interface,
        open_seats=settings.investigators - player,
    )


def door_from(args: argparse.Namespace) -> TableDoor:
    """The door to tables the options ask for: the card pack loaded, the bots' pace."""
    from domicile_p2p.client_api import PackError, load_default_pack, load_pack
    from domicile_tui.connect import TableDoor

    pace = pace_from(args)
    if args.port is not None and not 0 <= args.port <= 65535:
        raise CommandError(f"--port is 0 to 65535, not {args.port}")
    try:
        pack = load_pack(args.pack) if args.pack is not None else load_default_pack()
    except PackError as error:
        raise CommandError(f"cannot use the card pack: {error}") from None
    return TableDoor(
        pack=pack,
        pace=pace,
        seed=args.seed,
        data_dir=args.data_dir,
        interface=args.interface,
        port=args.port,
        lan=not args.offline,
        browser_seats=args.browser_seats,
        browser_port=args.browser_port,
    )


def pace_from(args: argparse.Namespace) -> BotPace:
    try:
        return BotPace(args.bot_delay)
    except ValueError as error:
        raise CommandError(str(error)) from None


def open_door(args: argparse.Namespace, settings: TableSettings) -> TableDoor:
    """The door, checked against the table in ``settings``, and what its tables run on."""
    from domicile_p2p.client_api import PackError
    from domicile_p2p.rules import DIFFICULTY_RULES

    door = door_from(args)
    extra_cards = DIFFICULTY_RULES[settings.difficulty].extra_tableau_cards
    try:
        door.pack.check_table(settings.investigators, settings.investigators + extra_cards)
    except PackError as error:
        raise CommandError(f"the card pack cannot serve this table: {error}") from None
    door.load()
    return door


def joining_door(args: argparse.Namespace) -> TableDoor:
    """The door to a table joined with ``--connect`` (the network stack loaded)."""
    door = door_from(args)
    door.load()
    return door


def unfinished_from(args: argparse.Namespace) -> UnfinishedTable:
    """``--resume``: the unfinished table of the data dir, or a one-line error saying why not."""
    from domicile_p2p.client_api import StoreError, default_data_dir
    from domicile_tui.connect import unfinished_table

    if args.offline:
        raise CommandError("--resume brings back a table hosted for the LAN: drop --offline")
    data_dir = args.data_dir if args.data_dir is not None else default_data_dir()
    try:
        unfinished = unfinished_table(data_dir)
    except StoreError as error:
        raise CommandError(f"cannot resume: {error}") from None
    if unfinished is None:
        raise CommandError(f"no unfinished table to resume in {data_dir}")
    return unfinished


def play(args: argparse.Namespace) -> int:
    """Show the first screen at once; the card pack, the game and the network load behind it.

    A pack of one's own (``--pack``) is loaded first, so that its errors come before the
    screen; the built-in pack loads in the app's first moments (see ``DomicileApp``).

    The cyclic garbage collector is paused until the first frame is painted (the launcher
    pauses it even before this module loads): loading Textual and the client makes
    long-lived objects (classes, functions, styles), and it ran 113-121 times over them
    before the first frame, freeing ~500 objects of ~38,000, for 6 % of the CPU time.
    """
    gc.disable()
    try:
        return _play(args)
    finally:
        gc.enable()


def _play(args: argparse.Namespace) -> int:
    from domicile_p2p.client_api import apply_config
    from domicile_tui.app import SEANCE_PASSES_AFTER, DomicileApp

    apply_config(args)  # the config file's defaults, for the options not given
    settings = settings_from(args)
    pace_from(args)  # a bad delay is a one-line error before the screen too
    if args.tutorial and args.resume:
        raise CommandError("--tutorial plays a game of its own: drop --resume")
    if args.chapter is not None and not args.tutorial:
        raise CommandError("--chapter chooses where the tutorial begins: add --tutorial")
    seat = seat_request_from(args, settings)
    browser_seats_from(args, settings)
    resuming = unfinished_from(args) if args.resume else None
    # A joined table is the host's to check against the pack: only hosting checks it here.
    opener = partial(open_door, args, settings) if seat is None else partial(joining_door, args)
    app = DomicileApp(
        opener() if args.pack is not None else opener,
        defaults=settings,
        open_at_once=not args.menu,
        resuming=resuming,
        seat=seat,
        offline=args.offline,
        lan=not args.offline,
        tutorial=(args.chapter or 1) if args.tutorial else False,
        after_first_frame=gc.enable,
        seance_passes_after=SEANCE_PASSES_AFTER,
    )
    app.run()
    if app.door_failure is not None:
        raise app.door_failure
    return 0
