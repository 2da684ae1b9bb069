"""``domicile selfplay``: bots play one whole game through the real protocol.

    domicile selfplay --investigators 3 --difficulty normal --seed 7 --transcript game.jsonl
    domicile verify game.jsonl

Every action is signed by its seat's key, ordered and signed by the table,
and checked by a separate replica, exactly as on the network; the
transcript is then written and verified again from the file.  With
``--seed`` the game id, every seed and entropy, every bot and every identity
key derive from the seed, so the transcript is the same, byte for byte, on
every run.  Without it, the table is hosted with your identity key (from
the data dir) and the rest is fresh randomness.
"""

from __future__ import annotations

import argparse
import secrets
from pathlib import Path

from domicile_p2p.bots import make_policy
from domicile_p2p.cli import CommandError
from domicile_p2p.fairness.seeds import SelfplaySeeds
from domicile_p2p.identity import Identity, IdentityError
from domicile_p2p.net.adapters.key_files import load_or_create_identity
from domicile_p2p.packs import Pack, PackError, load_pack
from domicile_p2p.rules import DIFFICULTY_RULES, MAX_INVESTIGATORS, Difficulty, Stage
from domicile_p2p.transcript.files import write_transcript
from domicile_p2p.transcript.packref import card_lists
from domicile_p2p.transcript.selfplay import (
    Seating,
    SelfplayError,
    SelfplayResult,
    default_names,
    play_game,
)
from domicile_p2p.transcript.verify import verify

_DIFFICULTIES = ", ".join(d.value for d in Difficulty)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "selfplay",
        help="let bots play one game through the full protocol and save its transcript",
        description=(
            "Bots play every seat of one game; every action is signed, ordered "
            "by the table into the hash chain and checked by a replica, as on "
            "the network.  The transcript is written to FILE (check it with "
            "`domicile verify FILE`)."
        ),
    )
    parser.add_argument(
        "--investigators", required=True, metavar="K", help=f"1 to {MAX_INVESTIGATORS}"
    )
    parser.add_argument("--difficulty", required=True, metavar="D", help=f"one of {_DIFFICULTIES}")
    parser.add_argument(
        "--seed",
        metavar="S",
        help="an integer: derive everything from it (the same transcript on every run)",
    )
    parser.add_argument("--pack", metavar="DIR", help="card pack directory (default: built-in)")
    parser.add_argument(
        "--transcript", required=True, metavar="FILE", help="where to write the transcript"
    )
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        help="where your identity key lives; it hosts the table unless --seed is given "
        "(then every key derives from the seed)",
    )
    parser.set_defaults(handler=run)


def _integer(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise CommandError(f"{what} must be an integer, not {text!r}") from None


def _options(args: argparse.Namespace) -> tuple[int, Difficulty]:
    investigators = _integer(args.investigators, "--investigators")
    if not 1 <= investigators <= MAX_INVESTIGATORS:
        raise CommandError(f"--investigators must be 1 to {MAX_INVESTIGATORS}, not {investigators}")
    try:
        difficulty = Difficulty(args.difficulty)
    except ValueError:
        raise CommandError(
            f"--difficulty must be one of {_DIFFICULTIES}, not {args.difficulty!r}"
        ) from None
    return investigators, difficulty


def _pack(directory: str | None, investigators: int, difficulty: Difficulty) -> Pack:
    try:
        pack = load_pack(directory)
        pack.check_table(investigators, DIFFICULTY_RULES[difficulty].tableau_size(investigators))
    except PackError as exc:
        raise CommandError(f"cannot use the card pack: {exc}") from None
    return pack


def _seating(args: argparse.Namespace, seeds: SelfplaySeeds, investigators: int) -> Seating:
    if args.seed is not None:
        return Seating.from_seeds(seeds, investigators)
    try:
        host = load_or_create_identity(Path(args.data_dir) if args.data_dir else None)
    except IdentityError as exc:
        raise CommandError(str(exc)) from None
    identities = tuple(Identity.generate() for _ in range(investigators + 1))
    return Seating(host, default_names(investigators), identities)


def run(args: argparse.Namespace) -> int:
    investigators, difficulty = _options(args)
    pack = _pack(args.pack, investigators, difficulty)
    if args.seed is not None:
        seeds = SelfplaySeeds.from_number(_integer(args.seed, "--seed"))
    else:
        seeds = SelfplaySeeds(secrets.token_bytes(32))
    seating = _seating(args, seeds, investigators)
    seats = range(investigators + 1)  # the Ghost (0) and the investigators
    policies = [make_policy(seat, pack, seeds.bot_seed(seat)) for seat in seats]
    try:
        result = play_game(
            seeds=seeds,
            seating=seating,
            difficulty=difficulty,
            cards=card_lists(pack),
            pack_id=pack.id,
            pack_hash=pack.content_hash,
            policies=policies,
        )
    except SelfplayError as exc:
        raise CommandError(f"the game could not be finished: {exc}", exit_code=1) from None
    path = Path(args.transcript)
    try:
        write_transcript(path, result.events)
    except OSError as exc:
        raise CommandError(f"cannot write {path}: {exc.strerror or exc}") from None
    report = verify(path)
    print(_summary(result, investigators, difficulty))
    print(f"{len(result.events)} events written to {path}")
    if not report.valid:  # our own bug: the replica accepted what verify refuses
        raise CommandError(f"the written transcript does not verify: {report.summary}", 1)
    print(f"verified: {len(report.checks)} checks passed (domicile verify {path})")
    return 0


def _summary(result: SelfplayResult, investigators: int, difficulty: Difficulty) -> str:
    final = result.final
    stage = "Stage Two" if final.stage is Stage.CULPRIT else "Stage One"
    table = f"{investigators} investigator{'s' if investigators != 1 else ''}, {difficulty.value}"
    outcome = final.outcome.value if final.outcome is not None else "unfinished"
    return f"The investigators {outcome} on day {final.day} of 7, in {stage} ({table})."
