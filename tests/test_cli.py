"""The ``domicile`` command's own behaviour: discovery of subcommands, help, errors."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from domicile_p2p import __version__
from domicile_p2p.cli import _leaves, build_parser, main


def test_without_a_command_prints_help_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "COMMAND" in capsys.readouterr().out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert __version__ in capsys.readouterr().out


def test_version_loads_no_command() -> None:
    # `domicile --version` needs no command: listing them imported every command's stack.
    probe = (
        "import sys\n"
        "from domicile_tui.launcher import main\n"
        "sys.argv = ['domicile', '--version']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "loaded = [m for m in sys.modules if m.startswith('domicile_p2p.cli.')"
        " or m.startswith(('domicile_p2p.net', 'domicile_p2p.bots', 'textual'))]\n"
        "print('LOADED', loaded, file=sys.stderr)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=False
    )
    assert __version__ in result.stdout
    assert "LOADED []" in result.stderr, result.stderr


def test_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["no-such-command"])
    assert exit_info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_every_command_module_registers_a_handler() -> None:
    parser = build_parser()
    subparsers = next(a for a in parser._actions if a.dest == "command")
    assert subparsers.choices, "no subcommand was discovered"
    for name, subparser in subparsers.choices.items():
        assert subparser.get_default("handler") is not None, name


def test_python_dash_m_is_the_same_command() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "domicile_p2p", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0
    assert __version__ in result.stdout


def test_one_command_loads_only_its_own_stack() -> None:
    # `domicile verify` must not pay for the network stack or the terminal client.
    probe = (
        "import sys\n"
        "from domicile_p2p.cli import main\n"
        "try:\n"
        "    main(['verify', '--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = ('domicile_p2p.net', 'textual', 'domicile_tui')\n"
        "loaded = [m for m in heavy if m in sys.modules]\n"
        "print('LOADED', loaded, file=sys.stderr)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=False
    )
    assert "LOADED []" in result.stderr, result.stderr


def _loaded_after(launch: str, heavy: tuple[str, ...]) -> str:
    """Run ``launch`` in a fresh interpreter; which of ``heavy`` it imported."""
    probe = (
        "import sys\n"
        "try:\n"
        f"    {launch}\n"
        "except SystemExit:\n"
        "    pass\n"
        f"print('LOADED', [m for m in {heavy!r} if m in sys.modules], file=sys.stderr)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=False
    )
    return result.stderr


def test_the_installed_command_runs_play_without_reading_entry_points() -> None:
    # The `domicile` script is the client's launcher: it hands `play` to the game's main
    # itself, so a start does not pay ~25 ms for importlib.metadata.
    stderr = _loaded_after(
        "import sys; sys.argv = ['domicile', 'play', '--help']\n"
        "    from domicile_tui.launcher import main; main()",
        ("importlib.metadata", "domicile_tui.cli"),
    )
    assert "LOADED ['domicile_tui.cli']" in stderr, stderr


def test_the_installed_command_loads_the_client_only_for_play() -> None:
    stderr = _loaded_after(
        "import sys; sys.argv = ['domicile', 'verify', '--help']\n"
        "    from domicile_tui.launcher import main; main()",
        ("importlib.metadata", "textual", "domicile_tui.cli", "domicile_p2p.net"),
    )
    assert "LOADED []" in stderr, stderr


def test_the_launcher_and_the_entry_point_offer_the_same_commands(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from domicile_tui.launcher import main as launcher_main

    with pytest.raises(SystemExit):
        main(["no-such-command"])
    through_entry_points = capsys.readouterr().err
    old_argv = sys.argv
    sys.argv = ["domicile", "no-such-command"]
    try:
        with pytest.raises(SystemExit):
            launcher_main()
    finally:
        sys.argv = old_argv
    assert capsys.readouterr().err == through_entry_points
    assert "'play'" in through_entry_points


def test_a_misspelt_option_gets_its_commands_usage_and_a_suggestion(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # `domicile play --timr 30` printed the top-level usage and no suggestion (issue 23 §10).
    with pytest.raises(SystemExit) as exit_info:
        main(["play", "--timr", "30"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: domicile play "), err
    assert "COMMAND ..." not in err
    assert err.rstrip().endswith(
        "domicile play: error: unrecognized arguments: --timr 30 (did you mean --timer?)"
    ), err


@pytest.mark.parametrize(
    ("words", "meant"),
    [
        (["--vresion"], "--version"),
        (["--hlep"], "--help"),
        # Only the words before the command are the top level's: a command's own
        # --helper is no misspelt --help.
        (["--vresion", "greet", "--helper"], "--version"),
    ],
)
def test_a_misspelt_top_level_option_gets_a_suggestion(
    words: list[str], meant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    def greet(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
        subparsers.add_parser("greet").add_argument("--helper", action="store_true")

    with pytest.raises(SystemExit) as exit_info:
        main(words, commands={"greet": lambda: greet})
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: domicile [-h] [--version] COMMAND ..."), err
    assert "Traceback" not in err
    assert err.rstrip().endswith(
        f"domicile: error: unrecognized arguments: {words[0]} (did you mean {meant}?)"
    ), err


def _misspelt(option: str) -> str:
    """``option`` with two of its letters swapped: ``--timer`` -> ``--tiemr``."""
    i = next(i for i in range(len(option) // 2, len(option) - 1) if option[i] != option[i + 1])
    return option[:i] + option[i + 1] + option[i] + option[i + 2 :]


def test_every_command_names_the_option_a_misspelt_one_meant(
    capsys: pytest.CaptureFixture[str],
) -> None:
    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command")
    checked = 0
    for name, subparser in commands.choices.items():
        for leaf in _leaves(subparser):
            words = leaf.prog.split()[1:]  # "domicile pack check" -> ["pack", "check"]
            options = [o for o in leaf._option_string_actions if o.startswith("--")]
            own = [o for o in options if o not in ("--help", "--log", "--verbose")]
            option = next(o for o in (*own, "--verbose") if len(o) >= 6)
            typo = _misspelt(option)
            assert typo not in options and not any(o.startswith(typo) for o in options)
            with pytest.raises(SystemExit) as exit_info:
                main([*words, typo])
            assert exit_info.value.code == 2, leaf.prog
            err = capsys.readouterr().err
            assert err.startswith(f"usage: {leaf.prog} "), (name, err)
            assert f"(did you mean {option}?)" in err, (name, err)
            checked += 1
    assert checked >= len(commands.choices)
