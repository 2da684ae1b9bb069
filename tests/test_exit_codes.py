"""One exit-code table for every command: the codes the commands use, in `--help` and README."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import domicile_p2p.cli as cli
from domicile_p2p.cli import EXIT_CODES, _leaves, build_parser, exit_codes_help

ROOT = Path(__file__).resolve().parents[1]
COMMAND_MODULES = [
    *sorted((ROOT / "domicile_p2p" / "cli").glob("*.py")),
    ROOT / "clients" / "domicile_tui" / "cli.py",
    ROOT / "clients" / "domicile_tui" / "replay_cli.py",
    ROOT / "clients" / "domicile_tui" / "launcher.py",
]
NAMED = {
    name: getattr(cli, name)
    for name in dir(cli)
    if name.startswith("EXIT_") and name != "EXIT_CODES"
}


def _int(node: ast.expr | None) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.Name) and node.id in NAMED:
        return int(NAMED[node.id])
    return None


def codes_used_by_the_commands() -> set[int]:
    """Every exit code a command module returns or raises, as written in its source: an int
    (or an ``EXIT_`` name) returned by a handler, and each ``CommandError``'s code."""
    used = {cli.EXIT_USAGE}  # argparse's own usage errors, and CommandError's default
    for path in COMMAND_MODULES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Return) and (code := _int(node.value)) is not None:
                used.add(code)
            elif isinstance(node, ast.IfExp) and (code := _int(node.orelse)) is not None:
                used.add(code)  # `return 0 if ... else EXIT_INVALID`
            elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "CommandError":
                given = node.args[1:2] or [k.value for k in node.keywords if k.arg == "exit_code"]
                used.update(code for code in map(_int, given) if code is not None)
    return used


def test_the_table_holds_exactly_the_codes_the_commands_use() -> None:
    assert codes_used_by_the_commands() == set(EXIT_CODES)


def test_every_commands_help_ends_with_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    parser = build_parser()
    subparsers = next(a for a in parser._actions if a.dest == "command")
    assert exit_codes_help() in parser.format_help()
    for name, subparser in subparsers.choices.items():
        for helped in {subparser, *_leaves(subparser)}:
            assert helped.format_help().rstrip().endswith(exit_codes_help()), helped.prog
            assert helped.format_help().count("exit codes (every command)") == 1, name


def test_the_readme_shows_the_same_table() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    rows = dict(re.findall(r"^\| (\d+) \| (.+?) \|$", section, flags=re.MULTILINE))
    assert {int(code): meaning for code, meaning in rows.items()} == {
        code: " ".join(meaning.split()) for code, meaning in EXIT_CODES.items()
    }


@pytest.mark.parametrize(
    "command",
    [["paths"], ["completion", "bash"], ["pack", "check"], ["simulate", "--games", "2"]],
    ids=" ".join,
)
def test_a_reader_that_stops_reading_ends_the_command_quietly(command: list[str]) -> None:
    """``domicile paths | head -1``: the reader is gone before the command writes, as it is
    when ``head`` has its line.  The command ends with 141 (a shell's 128 + SIGPIPE) and
    says nothing: no traceback, no "Exception ignored" at the interpreter's exit."""
    reading, writing = os.pipe()
    os.close(reading)
    try:
        ran = subprocess.run(
            [sys.executable, "-c", LAUNCH, *command],
            stdout=writing,
            stderr=subprocess.PIPE,
            timeout=120,
            check=False,
        )
    finally:
        os.close(writing)
    assert (ran.returncode, ran.stderr) == (cli.EXIT_PIPE_CLOSED, b"")


LAUNCH = (
    "import sys; from domicile_tui.launcher import run; sys.argv[0] = 'domicile'; sys.exit(run())"
)
"""The installed ``domicile`` (its console script calls this ``run``)."""
