"""``domicile simulate``: bots play many games; how often does the table win?

    domicile simulate --games 500 --investigators 4 --difficulty normal
    domicile simulate --games 500 --investigators 4 --all-difficulties
    domicile simulate ... --json      # one JSON object on stdout
    domicile simulate ... --readers motifs   # bots that read motifs, for comparison

The same arguments always give the same numbers (every game is dealt from
keys derived from ``--seed``; see ``domicile_p2p.sim``).  A progress bar is
drawn on stderr for long runs, and only when stderr is a terminal.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Final

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from domicile_p2p.bots import DEFAULT_READERS, Readers
from domicile_p2p.cli import CommandError
from domicile_p2p.packs import Pack, PackError, load_pack
from domicile_p2p.rules import DIFFICULTY_RULES, MAX_INVESTIGATORS, Difficulty
from domicile_p2p.sim import Progress as ProgressCallback
from domicile_p2p.sim import SimulationReport, simulate

DEFAULT_GAMES: Final = 500
DEFAULT_INVESTIGATORS: Final = 4
DEFAULT_SEED: Final = 0
LONG_RUN_GAMES: Final = 100
"""Runs of at least this many games in total get a progress bar (on a terminal)."""

_DIFFICULTIES: Final = ", ".join(d.value for d in Difficulty)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="let bots play many games and report the win rate",
        description=(
            "Bots play every seat of many games (the Ghost's included) and the "
            "results are summed up: win rate, rounds used, how often Stage Two "
            "was reached and where lost games were usually lost.  The same "
            "arguments always give the same numbers."
        ),
    )
    # Numbers are parsed here, not by argparse, so a bad value is one clear line.
    parser.add_argument(
        "--games",
        default=str(DEFAULT_GAMES),
        metavar="N",
        help=f"games per difficulty (default: {DEFAULT_GAMES})",
    )
    parser.add_argument(
        "--investigators",
        default=str(DEFAULT_INVESTIGATORS),
        metavar="K",
        help=f"investigators, 1 to {MAX_INVESTIGATORS} (default: {DEFAULT_INVESTIGATORS})",
    )
    which = parser.add_mutually_exclusive_group()
    which.add_argument(
        "--difficulty",
        default=Difficulty.NORMAL.value,
        metavar="D",
        help=f"one of {_DIFFICULTIES} (default: normal)",
    )
    which.add_argument(
        "--all-difficulties",
        action="store_true",
        help="simulate every difficulty and print them side by side",
    )
    parser.add_argument(
        "--seed",
        default=str(DEFAULT_SEED),
        metavar="S",
        help=f"every game is dealt from this seed (default: {DEFAULT_SEED})",
    )
    parser.add_argument("--pack", metavar="DIR", help="card pack directory (default: built-in)")
    parser.add_argument(
        "--readers",
        default=DEFAULT_READERS.value,
        metavar="R",
        help=(
            "what the bots read a dream by: text (its words against the cards' names and "
            "descriptions, as a person does) or motifs (the pack's hidden tags, for "
            f"comparison) (default: {DEFAULT_READERS.value})"
        ),
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    games = _integer("--games", args.games, minimum=1)
    investigators = _integer("--investigators", args.investigators, 1, MAX_INVESTIGATORS)
    seed = _integer("--seed", args.seed, minimum=0)
    readers = _readers(args.readers)
    if args.all_difficulties:
        difficulties: Sequence[Difficulty] = tuple(Difficulty)
    else:
        difficulties = (_difficulty(args.difficulty),)
    try:
        pack = load_pack(args.pack)
        for difficulty in difficulties:
            pack.check_table(
                investigators, DIFFICULTY_RULES[difficulty].tableau_size(investigators)
            )
    except PackError as exc:
        raise CommandError(f"cannot use the card pack: {exc}") from exc

    with _progress(games * len(difficulties)) as advance:
        reports = [
            simulate(games, investigators, difficulty, seed, pack, advance, readers)
            for difficulty in difficulties
        ]

    if args.json:
        print(json.dumps(_json(reports, pack, all_difficulties=args.all_difficulties)))
    else:
        _print_table(reports, pack)
    return 0


def _integer(option: str, text: str, minimum: int, maximum: int | None = None) -> int:
    try:
        value = int(text)
    except ValueError:
        raise CommandError(f"{option} must be a whole number, not {text!r}") from None
    if value < minimum or (maximum is not None and value > maximum):
        bounds = f"from {minimum} to {maximum}" if maximum is not None else f"at least {minimum}"
        raise CommandError(f"{option} must be {bounds}, not {value}")
    return value


def _difficulty(text: str) -> Difficulty:
    try:
        return Difficulty(text)
    except ValueError:
        raise CommandError(f"--difficulty must be one of {_DIFFICULTIES}, not {text!r}") from None


def _readers(text: str) -> Readers:
    try:
        return Readers(text)
    except ValueError:
        choices = ", ".join(r.value for r in Readers)
        raise CommandError(f"--readers must be one of {choices}, not {text!r}") from None


@contextmanager
def _progress(total: int) -> Iterator[ProgressCallback | None]:
    """A callback that advances a progress bar on stderr, or ``None`` when none is wanted."""
    if total < LONG_RUN_GAMES or not sys.stderr.isatty():
        yield None
        return
    bar = Progress(
        TextColumn("simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(file=sys.stderr),
        transient=True,
    )
    task = bar.add_task("games", total=total)
    with bar:
        yield lambda _done, _total: bar.advance(task)


def _json(
    reports: Sequence[SimulationReport], pack: Pack, *, all_difficulties: bool
) -> dict[str, object]:
    if not all_difficulties:
        return {**reports[0].as_json(), "pack": pack.content_hash}
    first = reports[0]
    return {
        "games": first.games,
        "investigators": first.investigators,
        "seed": first.seed,
        "readers": first.readers.value,
        "pack": pack.content_hash,
        "results": [report.as_json() for report in reports],
    }


class _Output(Console):
    """Standard output whose reader may go (``| head``): the command ends as every command
    does then (``cli.reader_gone``), not by Rich's own exit 1."""

    def on_broken_pipe(self) -> None:
        raise BrokenPipeError


def _print_table(reports: Sequence[SimulationReport], pack: Pack) -> None:
    first = reports[0]
    table = Table(
        title=(
            f"{first.games} games per difficulty, {first.investigators} investigator"
            f"{'s' if first.investigators != 1 else ''}, seed {first.seed}, pack {pack.id}, "
            f"{first.readers.value} readers"
        ),
    )
    table.add_column("Difficulty", no_wrap=True)
    table.add_column("Wins", justify="right", no_wrap=True)
    table.add_column("Win rate", justify="right")
    table.add_column("Mean rounds", justify="right")
    table.add_column("Stage Two", justify="right")
    table.add_column("Usual failure")
    table.add_column("Of losses", justify="right")
    table.add_column("Misnamed gives", justify="right")
    table.add_column("Split Stage Two", justify="right")
    for report in reports:
        table.add_row(
            report.difficulty.value,
            f"{report.wins}/{report.games}",
            f"{report.win_rate:.1%}",
            f"{report.mean_rounds:.2f}",
            f"{report.stage_two_rate:.1%}",
            report.usual_failure or "none",
            "" if report.usual_failure is None else f"{report.usual_failure_share:.0%}",
            f"{report.wrong_named_gives}/{report.ghost_gives}",
            f"{report.group_gives_split}/{report.group_gives_splittable}/{report.group_gives}",
        )
    console = _Output(file=sys.stdout)
    if not console.is_terminal:
        # Piped into a file or a README: no terminal width to fit, so do not wrap.
        console = _Output(file=sys.stdout, width=120)
    console.print(table)
