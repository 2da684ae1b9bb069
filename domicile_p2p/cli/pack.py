"""``domicile pack check DIR``: run the pack linter over a card pack, for its author.

    domicile pack check mypack          # one line per warning, with file and card id
    domicile pack check mypack --json   # one JSON object
    domicile pack check                 # the built-in pack

Exit status: 0 when the pack loads without a warning, 1 when it loads with
warnings (it still plays), 2 when it cannot be loaded (the error names the
file, the card and the problem).  What each warning means and how to fix it:
``docs/packs.md``.
"""

from __future__ import annotations

import argparse
import functools
import json
from pathlib import Path

from domicile_p2p.cli import CommandError
from domicile_p2p.packs import LintWarning, Pack, PackError, default_pack_dir, load_pack
from domicile_p2p.packs.lint import lint_pack
from domicile_p2p.packs.reading import AssociationsError, load_associations
from domicile_p2p.text import inert, json_inert

DOCS = "docs/packs.md"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "pack",
        help="check a card pack (for pack authors)",
        description="Tools for card pack authors.",
    )
    parser.set_defaults(handler=functools.partial(_print_help, parser))
    commands = parser.add_subparsers(dest="pack_command", metavar="COMMAND")
    check = commands.add_parser(
        "check",
        help="load a card pack and list the pack linter's warnings",
        description=(
            "Load the card pack in DIR and run the pack linter: do the dreams' "
            "words agree with their motifs, can every investigator card be "
            f"dreamt of, is every motif used?  {DOCS} explains each warning.  "
            "Exit status 0: no warning; 1: warnings; 2: the pack cannot be loaded."
        ),
    )
    check.add_argument(
        "directory", metavar="DIR", nargs="?", help="the pack's directory (default: built-in)"
    )
    check.add_argument("--json", action="store_true", help="print one JSON object")
    check.set_defaults(handler=run_check)


def _print_help(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """``domicile pack`` without a command: its help, exit status 2 (as ``domicile`` alone)."""
    parser.print_help()
    return 2


def run_check(args: argparse.Namespace) -> int:
    directory = Path(args.directory) if args.directory is not None else default_pack_dir()
    try:
        pack = load_pack(directory, announce_warnings=False)
        associations = load_associations(directory)
    except PackError as error:
        if args.json:
            print(json.dumps({"pack": str(directory), "error": _error_json(error)}, indent=2))
            return 2
        raise CommandError(f"cannot load the card pack: {error}") from None
    except AssociationsError as error:
        if args.json:
            problem = {"path": str(directory), "card": None, "problem": str(error)}
            print(json.dumps({"pack": str(directory), "error": problem}, indent=2))
            return 2
        raise CommandError(f"cannot read the pack's association table: {error}") from None
    # Every rule, the reading of each dream by the text reader included (a load leaves it out).
    warnings = lint_pack(pack, reading=associations)
    if args.json:
        print(json_inert(json.dumps(_report_json(pack, warnings), indent=2, ensure_ascii=False)))
    else:
        for warning in warnings:
            print(inert(str(warning)))
        print(inert(_verdict(pack, warnings)))
    return 1 if warnings else 0


def _verdict(pack: Pack, warnings: tuple[LintWarning, ...]) -> str:
    count = len(warnings)
    size = (
        f"{len(pack.investigator_cards)} investigator cards, {len(pack.dreams)} dreams, "
        f"{len(pack.motifs)} motifs"
    )
    if not count:
        return f"{pack.source}: pack {pack.id!r} ({size}): no warnings"
    what = "1 warning" if count == 1 else f"{count} warnings"
    return f"{pack.source}: pack {pack.id!r} ({size}): {what}; {DOCS} says how to fix each"


def _warning_json(warning: LintWarning) -> dict[str, str | None]:
    return {
        "file": warning.path.name,
        "card": warning.card,
        "motif": warning.motif,
        "rule": warning.rule,
        "message": warning.message,
    }


def _report_json(pack: Pack, warnings: tuple[LintWarning, ...]) -> dict[str, object]:
    return {
        "pack": str(pack.source),
        "id": pack.id,
        "content_hash": pack.content_hash,
        "warnings": [_warning_json(warning) for warning in warnings],
    }


def _error_json(error: PackError) -> dict[str, str | None]:
    return {"path": str(error.path), "card": error.card, "problem": error.problem}
