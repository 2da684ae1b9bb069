"""``domicile replay FILE``: step through a saved game in the terminal.

Registered like ``play`` (the ``domicile_p2p.commands`` entry point, and the
client's launcher).  The file is checked before the screen opens, so a file
that cannot be a transcript is a one-line error; the viewer then verifies it
as ``domicile verify`` does and shows every event.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from domicile_p2p.client_api import CommandError


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="step through a saved game, event by event, as the table saw it",
        description=(
            "Open a transcript (a game kept by a host or an offline table, exported, or "
            "spectated), verify it as `domicile verify` does, and step through it: "
            "→/← one event, PgDn/PgUp one day, Home/End, R the recap."
        ),
    )
    parser.add_argument("file", type=Path, metavar="FILE", help="the transcript (JSON Lines)")
    which = parser.add_mutually_exclusive_group()
    which.add_argument(
        "--pack", metavar="DIR", help="the card pack the game was played with (default: built-in)"
    )
    which.add_argument(
        "--no-pack", action="store_true", help="skip the card pack check (cards show by id)"
    )
    parser.set_defaults(handler=replay)


def replay(args: argparse.Namespace) -> int:
    from domicile_tui.app import DomicileApp
    from domicile_tui.cli import default_player_name
    from domicile_tui.pages import ReplayPage
    from domicile_tui.replay_file import ReplayError, check_openable
    from domicile_tui.session import TableSettings

    try:
        check_openable(args.file)
    except ReplayError as error:
        raise CommandError(str(error)) from None
    page = ReplayPage(args.file, pack_dir=args.pack, no_pack=args.no_pack)
    name = default_player_name()
    app = DomicileApp(None, defaults=TableSettings(f"{name}'s table", name), page=page)
    app.run()
    return 0
