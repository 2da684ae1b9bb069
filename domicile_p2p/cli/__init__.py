"""The ``domicile`` command.

Each subcommand is a module of this package with a ``register(subparsers)``
function that adds its parser and sets ``handler`` (a function taking the
parsed arguments and returning an exit code).  Front ends that live outside
this package (the Textual client's ``play``) add theirs through the
``domicile_p2p.commands`` entry-point group, so this package never imports
them; a front end that wraps this command (the installed ``domicile``
script is the client's launcher) may hand its commands to :func:`main`
directly instead, which spares every start the entry-point lookup.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.machinery
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import NoReturn

from domicile_p2p import __version__
from domicile_p2p.text import inert

ENTRY_POINT_GROUP = "domicile_p2p.commands"

Register = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]"], None]


EXIT_OK = 0
EXIT_INVALID = 1
EXIT_USAGE = 2
EXIT_REFUSED = 3
EXIT_IDENTITY = 4
EXIT_UNREACHABLE = 5
EXIT_INTERRUPTED = 130
EXIT_PIPE_CLOSED = 141

EXIT_CODES: Mapping[int, str] = {
    EXIT_OK: "done (what was checked verifies; the game ended and verifies)",
    EXIT_INVALID: "does not check out: a transcript or log fails to verify, an event "
    "breaks\n       the rules, a pack has warnings, the host failed",
    EXIT_USAGE: "bad options or input, said in one line (a join the host refuses in play)",
    EXIT_REFUSED: "refused by the host: wrong code, table full... (bot, watch)",
    EXIT_IDENTITY: "the host's identity changed (bot, watch)",
    EXIT_UNREACHABLE: "the host could not be reached (bot, watch)",
    EXIT_INTERRUPTED: "interrupted (Ctrl-C)",
    EXIT_PIPE_CLOSED: "the reader of the output stopped reading (as `head -1` does)",
}
"""Every exit code of every command, with what it means: ``--help`` and README show it."""


def reader_gone() -> int:
    """The output's reader closed it (``| head``): end quietly, as a shell tool does (128 +
    SIGPIPE), with standard output pointed at nothing so that the interpreter's last flush
    at exit has nowhere to fail."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return EXIT_PIPE_CLOSED


def exit_codes_help() -> str:
    """The exit-code table as ``--help`` prints it."""
    rows = "\n".join(f"  {code:>3}  {meaning}" for code, meaning in EXIT_CODES.items())
    return f"exit codes (every command):\n{rows}"


class CommandError(Exception):
    """A user-facing failure: printed as one line, exit code 2 unless given."""

    def __init__(self, message: str, exit_code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.exit_code = exit_code


CommandLoaders = Mapping[str, Callable[[], Register]]
"""Command name -> a function that imports the command's module and returns its ``register``."""


def _command_modules(
    wanted: str | None = None, given: CommandLoaders | None = None
) -> dict[str, Callable[[], Register]]:
    """Every command by name, with a loader that imports its module only when called.

    Importing a command pulls in its whole stack (the network, the terminal
    client); a run of one command loads that command alone, which keeps
    ``domicile verify`` quick to start.  When ``wanted`` is a command of
    this package or one ``given`` by the caller, only it is returned:
    reading the installed entry points (``importlib.metadata``, ~25 ms of
    imports) is for the others.
    """
    loaders: dict[str, Callable[[], Register]] = dict(given or {})
    # Listing this package (`pkgutil`, which imports `inspect` to do it) is for `--help`
    # and for a name that is no command of ours or the caller's.
    if wanted is not None and _is_command_module(wanted):
        return {wanted: _module_loader(f"{__name__}.{wanted}")}  # ours before the caller's
    if wanted in loaders:
        return {wanted: loaders[wanted]}
    import pkgutil

    for module_info in pkgutil.iter_modules(__path__):
        if not module_info.name.startswith("_"):
            loaders[module_info.name] = _module_loader(f"{__name__}.{module_info.name}")
    if wanted in loaders:
        return {wanted: loaders[wanted]}
    from importlib.metadata import entry_points  # imported only here: see above

    for entry_point in entry_points(group=ENTRY_POINT_GROUP):
        loaders.setdefault(entry_point.name, entry_point.load)
    return dict(sorted(loaders.items()))


def _is_command_module(name: str) -> bool:
    """``name`` is a command module of this package, as ``pkgutil.iter_modules`` would list
    it: found by the import system's own finder, without importing it."""
    if not name.isidentifier() or name.startswith("_"):
        return False
    spec = importlib.machinery.PathFinder.find_spec(f"{__name__}.{name}", __path__)
    return spec is not None and spec.origin is not None


def _module_loader(name: str) -> Callable[[], Register]:
    def load() -> Register:
        register: Register = importlib.import_module(name).register
        return register

    return load


class _Parser(argparse.ArgumentParser):
    """An argument parser whose commands refuse what they do not know themselves.

    Left to itself argparse hands a command's unknown arguments up to the top
    parser, which prints the top-level usage (``domicile play --timr 30`` showed
    ``usage: domicile [-h] [--version] COMMAND ...``).  Here the command that
    was given them (every subparser is of this class: ``add_subparsers`` makes
    its parsers of the parent's class) prints its own usage and exits 2 as
    argparse does, and any error of a command, or of the top level
    (``domicile --vresion``), names the option a misspelt one most likely meant
    (``did you mean --timer?``).
    """

    is_command = True
    """False for the top-level ``domicile`` parser (set by :func:`_parser`)."""

    _given: Sequence[str] = ()

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        self._given = list(sys.argv[1:] if args is None else args)
        parsed, extras = super().parse_known_args(args, namespace)
        if extras and self.is_command:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras

    def error(self, message: str) -> NoReturn:
        guesses = misspelt_options(self, self._own_words())
        if guesses:
            message += f" (did you mean {' or '.join(guesses)}?)"
        super().error(message)

    def _own_words(self) -> Sequence[str]:
        """The words given to this parser that are its own: for one with commands under it
        (the top level, ``pack``), those before the command: the command's options are
        none of its own (``domicile --vresion greet --helper`` meant ``--version`` alone)."""
        if not any(isinstance(a, argparse._SubParsersAction) for a in self._actions):
            return self._given
        command = requested_command(self._given)
        return self._given if command is None else self._given[: self._given.index(command)]


def misspelt_options(parser: argparse.ArgumentParser, given: Sequence[str]) -> list[str]:
    """For each option in ``given`` that ``parser`` does not know, the one of its
    own options it most likely meant (``--timr`` -> ``--timer``), if one is close."""
    from difflib import get_close_matches  # only for a mistake: not on every start

    options = parser._option_string_actions
    # Compared without their dashes, which every option shares (`--foo` is no `--log`).
    known = {option[2:]: option for option in options if option.startswith("--")}
    guesses: list[str] = []
    for word in given:
        name = word.split("=", 1)[0]
        if not name.startswith("--") or name == "--" or name in options:
            continue
        if any(option.startswith(name) for option in options):
            continue  # an abbreviation argparse accepts
        for guess in get_close_matches(name[2:], list(known), n=1):
            if known[guess] not in guesses:
                guesses.append(known[guess])
    return guesses


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The ``domicile`` parser; with ``only``, just that command's subparser is built."""
    return _parser(_command_modules(only), only)


def _parser(
    commands: dict[str, Callable[[], Register]], only: str | None
) -> argparse.ArgumentParser:
    top = _Parser(
        prog="domicile",
        description="Tortured Domicile: a provably fair LAN party deduction game.",
        epilog=exit_codes_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    top.is_command = False
    parser: argparse.ArgumentParser = top  # the type the commands' `register` take
    parser.add_argument("--version", action="version", version=f"domicile-p2p {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, load in commands.items():
        if only is None or name == only:
            load()(subparsers)
    for subparser in subparsers.choices.values():
        leaves = _leaves(subparser)
        for runs in leaves:
            add_diagnostics_options(runs)  # on the command that runs (`pack check`, not `pack`)
        for helped in {id(p): p for p in (subparser, *leaves)}.values():
            # Every command's --help ends with the one table (a command's own epilog first).
            own = f"{helped.epilog}\n\n" if helped.epilog else ""
            helped.epilog = own + exit_codes_help()
            if helped.formatter_class is argparse.HelpFormatter:
                helped.formatter_class = argparse.RawDescriptionHelpFormatter
    return parser


def add_diagnostics_options(parser: argparse.ArgumentParser) -> None:
    """The one definition of ``--log`` and ``--verbose``, added to every command
    (``_diagnostics`` opens the log, imported only when one is asked for)."""
    group = parser.add_argument_group("diagnostics")
    group.add_argument(
        "--log",
        metavar="FILE",
        help="append this command's log records to FILE as JSON lines (-: stderr)",
    )
    group.add_argument(
        "--verbose",
        action="store_true",
        help="log the debug records too (without --log: to DATA_DIR/logs/COMMAND.log)",
    )


def _leaves(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """``parser`` itself, or the commands under it when it has some (``pack check``)."""
    nested = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not nested:
        return [parser]
    return [leaf for action in nested for sub in action.choices.values() for leaf in _leaves(sub)]


def requested_command(arguments: Sequence[str]) -> str | None:
    """The command ``arguments`` ask for (their first word that is not an option), if any."""
    return next((arg for arg in arguments if not arg.startswith("-")), None)


def main(
    argv: Sequence[str] | None = None,
    *,
    commands: CommandLoaders | None = None,
    started: Callable[[], None] | None = None,
) -> int:
    """Run ``domicile`` with ``argv``; ``commands`` adds a front end's own commands.

    ``started`` is called once the command's modules are imported and its arguments
    parsed, before it runs (the launcher resumes the garbage collector there)."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    first = requested_command(arguments)
    # One lookup serves both questions (is it a command? build its parser): reading the
    # installed entry points twice cost ~10 ms of every `domicile play` start.
    # `--version` before any command prints and exits while parsing, so it needs no
    # command: listing them imported every command's stack (the network, bots, the client).
    if first is None and "--version" in arguments:
        commands = {}
    else:
        commands = _command_modules(first, commands)
    parser = _parser(commands, first if first in commands else None)
    args = parser.parse_args(arguments)
    if started is not None:
        started()
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        if getattr(args, "log", None) or getattr(args, "verbose", False):
            from domicile_p2p.cli._diagnostics import LogUnwritable, start_logging

            try:
                start_logging(args)
            except LogUnwritable as exc:
                raise CommandError(str(exc)) from None
        return int(handler(args))
    except CommandError as exc:
        print(f"domicile {args.command}: {inert(str(exc))}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print(f"domicile {args.command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return reader_gone()
