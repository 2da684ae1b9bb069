"""``python -m domicile_tui [options]`` is ``domicile play [options]``.

It works without the package being installed (no entry point needed), which
is handy while developing: ``PYTHONPATH=.:clients python -m domicile_tui``.
"""

from __future__ import annotations

import argparse
import sys

from domicile_p2p.client_api import CommandError, inert
from domicile_tui.cli import register


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="domicile")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["play", *argv])
    try:
        return int(args.handler(args))
    except CommandError as error:
        print(f"domicile play: {inert(str(error))}", file=sys.stderr)
        return error.exit_code


raise SystemExit(main(sys.argv[1:]))
