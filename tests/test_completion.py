"""``domicile completion SHELL``: scripts from the commands' own parsers, for bash, zsh and fish."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from domicile_p2p.cli import main
from domicile_p2p.cli.completion import SHELLS, completion_script


def _bash_completes(script: str, *words: str) -> list[str]:
    """What bash offers for ``words`` (the last one being typed), through ``script``."""
    line = " ".join(words)
    program = (
        f"{script}\n"
        f"COMP_WORDS=({line}); COMP_CWORD={len(words) - 1}\n"
        f'_shtab_domicile domicile "{words[-1]}" "{words[-2]}"\n'
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    result = subprocess.run(
        ["bash", "--norc", "--noprofile"], input=program, capture_output=True, text=True, check=True
    )
    return result.stdout.split()


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash here")
def test_bash_completes_commands_and_their_options() -> None:
    script = completion_script("bash")
    assert _bash_completes(script, "domicile", "pl") == ["play"]
    assert "completion" in _bash_completes(script, "domicile", "co")
    assert _bash_completes(script, "domicile", "play", "--po") == ["--port"]
    assert _bash_completes(script, "domicile", "completion", "f") == ["fish"]


@pytest.mark.parametrize("shell", SHELLS)
def test_every_shell_gets_every_command_and_its_options(shell: str) -> None:
    script = completion_script(shell)
    for command in ("play", "host", "verify", "replay", "completion", "watch"):
        assert command in script
    for option in ("port", "data-dir", "transcript"):
        assert (f"-l {option}" if shell == "fish" else f"--{option}") in script


@pytest.mark.parametrize("shell", [s for s in SHELLS if shutil.which(s)])
def test_the_script_parses_in_its_shell(shell: str) -> None:
    subprocess.run([shell, "-n"], input=completion_script(shell), text=True, check=True)


def test_the_command_prints_the_script(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["completion", "zsh"]) == 0
    assert capsys.readouterr().out == completion_script("zsh")


def test_an_unknown_shell_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["completion", "powershell"])
    assert exit_info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_other_commands_do_not_import_shtab() -> None:
    program = (
        "import sys\n"
        "from domicile_p2p.cli import main\n"
        "try:\n"
        "    main(['verify', '--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('shtab' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)
    assert result.stdout.splitlines()[-1] == "False"
