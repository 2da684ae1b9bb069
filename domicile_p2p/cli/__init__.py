"""The ``domicile`` command.

Each subcommand is a module of this package with a ``register(subparsers)``
function that adds its parser and sets ``handler`` (a function taking the
parsed arguments and returning an exit code).  Front ends that live outside
this package (the Textual client's ``play``) add theirs through the
``domicile_p2p.commands`` entry-point group, so this package never imports
them.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Callable, Sequence
from importlib.metadata import entry_points

from domicile_p2p import __version__

ENTRY_POINT_GROUP = "domicile_p2p.commands"

Register = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]"], None]


class CommandError(Exception):
    """A user-facing failure: printed as one line, exit code 2 unless given."""

    def __init__(self, message: str, exit_code: int = 2) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def _registrars() -> list[Register]:
    found: list[Register] = []
    for module_info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if module_info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        register = getattr(module, "register", None)
        if callable(register):
            found.append(register)
    for entry_point in entry_points(group=ENTRY_POINT_GROUP):
        found.append(entry_point.load())
    return found


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="domicile",
        description="Tortured Domicile: a provably fair LAN party deduction game.",
    )
    parser.add_argument("--version", action="version", version=f"domicile-p2p {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for register in _registrars():
        register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    try:
        return int(handler(args))
    except CommandError as exc:
        print(f"domicile {args.command}: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print(f"domicile {args.command}: interrupted", file=sys.stderr)
        return 130
