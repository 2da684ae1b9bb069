"""Which card pack a command checks a game against: the one code path of ``verify`` and
``watch``.

By default the built-in pack (from its record, ``PackIdentity.builtin``); ``--pack DIR``
the pack in ``DIR`` (the loader is imported for it only); ``--no-pack`` none, and the
report says the card pack was not checked.  A game played with another pack than the
one chosen fails the card pack check (3), which names both.
"""

from __future__ import annotations

import argparse

from domicile_p2p.transcript.packref import PackIdentity


class PackUnloadable(Exception):
    """The card pack of ``--pack DIR`` cannot be loaded (the message says why)."""


def add_pack_options(parser: argparse.ArgumentParser) -> None:
    """``--pack DIR`` and ``--no-pack``, one or the other."""
    which = parser.add_mutually_exclusive_group()
    which.add_argument(
        "--pack", metavar="DIR", help="the card pack the game was played with (default: built-in)"
    )
    which.add_argument(
        "--no-pack",
        action="store_true",
        help="skip the card pack check (the transcript lists every card id the other checks need)",
    )


def pack_to_check(directory: str | None, *, announce_warnings: bool = True) -> PackIdentity:
    """The pack to check a game against: the built-in one, or the one in ``directory``.

    ``announce_warnings``: say on stderr how many warnings the pack linter has for the
    pack of ``directory``."""
    if directory is None:
        return PackIdentity.builtin()
    from domicile_p2p.packs import PackError, load_pack

    try:
        return PackIdentity.of(load_pack(directory, announce_warnings=announce_warnings))
    except PackError as exc:
        raise PackUnloadable(f"cannot load the card pack: {exc}") from None


def chosen_pack(args: argparse.Namespace) -> PackIdentity | None:
    """The pack ``--pack`` / ``--no-pack`` choose (``None``: no pack check)."""
    return None if args.no_pack else pack_to_check(args.pack)
