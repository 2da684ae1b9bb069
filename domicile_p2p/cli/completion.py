"""``domicile completion SHELL``: the shell's completion script for every command, on stdout.

    domicile completion bash > ~/.local/share/bash-completion/completions/domicile
    domicile completion zsh > ~/.zfunc/_domicile   # a directory on $fpath
    domicile completion fish > ~/.config/fish/completions/domicile.fish

The script is made from the commands' own parsers (shtab), so it offers
every command and option this install has; shtab is imported only here.
"""

from __future__ import annotations

import argparse
import sys

SHELLS = ("bash", "zsh", "fish")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "completion",
        help="print the shell completion script (bash, zsh, fish)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("shell", choices=SHELLS, help="the shell to complete for")
    parser.set_defaults(handler=run)


def completion_script(shell: str) -> str:
    """``domicile``'s completion script (every command, installed ones too) for ``shell``."""
    import shtab

    from domicile_p2p.cli import build_parser

    return str(shtab.complete(build_parser(), shell=shell))


def run(args: argparse.Namespace) -> int:
    sys.stdout.write(completion_script(args.shell))
    return 0
