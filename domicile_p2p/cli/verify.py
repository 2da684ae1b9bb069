"""``domicile verify FILE``: check a saved game, offline, from its transcript alone.

    domicile verify game.jsonl            # one line per check, then the verdict
    domicile verify game.jsonl --json     # one JSON object
    domicile verify game.jsonl --pack DIR # a game played with another card pack
    domicile verify game.jsonl --no-pack  # every check but the pack's (the report says so)
    domicile verify game.jsonl --jobs 1   # check the signatures on this thread only

Exit status: 0 when the transcript is valid, 1 when a check fails (the
first failure names the event, who is at fault and why; a game played with
another card pack than the one at hand fails the card pack check), 2 when
the file cannot be read, is not a transcript, is of another protocol
version than this program's (protocol 1, before the refresh rule changed,
included), or the card pack given cannot be loaded.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from domicile_p2p.canonical import CanonicalError, decode
from domicile_p2p.cli import CommandError
from domicile_p2p.cli._packs import PackUnloadable, add_pack_options, pack_to_check
from domicile_p2p.text import inert, json_inert
from domicile_p2p.transcript.batch import MAX_JOBS
from domicile_p2p.transcript.errors import Check, NotATranscript
from domicile_p2p.transcript.files import check_version, read_bytes, split_lines
from domicile_p2p.transcript.packref import PackIdentity
from domicile_p2p.transcript.verify import VerifyReport, verify

PASSED = "✓"
FAILED = "✗"
SKIPPED = "·"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "verify",
        help="check that a saved game was played fairly",
        description=(
            "Check a game's transcript: every signature, the hash chain, the "
            "setup, the Ghost's commitments and seed, every séance verdict, "
            "every dream card given, Stage Two and the outcome.  Exit status "
            "0: valid; 1: a check failed; 2: the file cannot be checked."
        ),
    )
    parser.add_argument("file", metavar="FILE", help="the transcript (JSON Lines)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_pack_options(parser)
    parser.add_argument(
        "--jobs",
        type=_jobs,
        metavar="N",
        help="threads that check signatures (default: one per CPU, at most "
        f"{MAX_JOBS}); the report is the same for any N",
    )
    parser.set_defaults(handler=run)


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of threads") from None
    if value < 1:
        raise argparse.ArgumentTypeError("at least 1 thread")
    return value


class CannotVerify(Exception):
    """The file cannot be checked at all: it cannot be read, it is of another protocol
    version, or the card pack to check it against cannot be loaded."""


def verify_file(
    path: Path,
    *,
    pack_dir: str | None = None,
    no_pack: bool = False,
    jobs: int | None = None,
    announce_warnings: bool = True,
) -> tuple[bytes, VerifyReport]:
    """The file's bytes and its report, as ``domicile verify`` makes it (``domicile replay``
    shows the same), or :class:`CannotVerify` saying why there is none.

    ``announce_warnings``: say on stderr how many warnings the pack linter has for the
    pack of ``pack_dir`` (a full-screen viewer says nothing on stderr)."""
    try:
        data = read_bytes(path)
        check_version(data)
        pack = None if no_pack else _pack_for(data, pack_dir, announce_warnings)
    except (NotATranscript, PackUnloadable) as exc:
        raise CannotVerify(str(exc)) from None
    return data, verify(data, pack=pack, jobs=jobs)


def run(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        _, report = verify_file(path, pack_dir=args.pack, no_pack=args.no_pack, jobs=args.jobs)
    except CannotVerify as exc:
        if args.json:
            _print_json(_refusal(str(exc)))
        raise CommandError(str(exc)) from None
    if not report.recognized:
        if args.json:
            _print_json(report.to_json())
        raise CommandError(f"{path}: {report.summary}")
    if args.json:
        _print_json(report.to_json())
    else:
        print(render(report, path))
    return 0 if report.valid else 1


def _pack_for(data: bytes, directory: str | None, announce: bool) -> PackIdentity | None:
    """The pack to check against (``--pack DIR`` or the built-in one), or ``None`` when the
    genesis does not even name one."""
    named = _named_pack(data)
    if named is None:
        return None  # the genesis is malformed: verify says so
    # A pack other than the one the genesis names is not refused here: the card pack
    # check (3) fails, naming both, and the exit status is 1.
    return pack_to_check(directory, announce_warnings=announce)


def _named_pack(data: bytes) -> tuple[str, str] | None:
    lines = split_lines(data)
    if not lines:
        return None
    try:
        genesis = decode(lines[0])
    except CanonicalError:
        return None
    if not isinstance(genesis, dict) or genesis.get("kind") != "genesis":
        raise NotATranscript("not a domicile-p2p transcript (its first line is not a genesis)")
    body = genesis.get("body")
    pack = body.get("pack") if isinstance(body, dict) else None
    if not isinstance(pack, dict):
        return None
    pack_id, pack_hash = pack.get("id"), pack.get("hash")
    if not isinstance(pack_id, str) or not isinstance(pack_hash, str):
        return None
    return inert(pack_id), pack_hash


def _refusal(reason: str) -> dict[str, Any]:
    return {
        "valid": False,
        "recognized": False,
        "checks": [],
        "not_checked": [],
        "error": {"seq": None, "reason": reason, "check": None, "party": None},
    }


def _print_json(value: dict[str, Any]) -> None:
    """The report as JSON made inert: a detail quotes a pack's card name and the refusal
    a file name, whose bidi, invisible and C1 characters are written as ``\\uXXXX``."""
    print(json_inert(json.dumps(value, ensure_ascii=False, indent=2)))


def render(report: VerifyReport, path: Path) -> str:
    """The human report: a header, one line per check, then the verdict."""
    events = f"{report.events} event{'s' if report.events != 1 else ''}"
    lines = [f"{path}: game {report.game or '?'}, {events}"]
    width = max(len(name) for name in _all_names(report))
    rows: dict[str, str] = {}
    for check in report.checks:
        mark = PASSED if check.ok else FAILED
        rows[check.name] = f"  {mark} {check.name.ljust(width)}  {inert(check.detail)}"
    for skipped in report.not_checked:
        rows[skipped.name] = f"  {SKIPPED} {skipped.name.ljust(width)}  {inert(skipped.detail)}"
    lines += [rows[name] for name in _all_names(report)]
    lines.append(inert(report.summary))
    return "\n".join(lines)


def _all_names(report: VerifyReport) -> list[str]:
    present = {c.name for c in report.checks} | {c.name for c in report.not_checked}
    return [check.value for check in Check if check.value in present]
