"""``domicile paths``: where this install keeps its data, its config file, logs and games."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from domicile_p2p.cli._config import config_file
from domicile_p2p.cli._diagnostics import LOGS_DIR
from domicile_p2p.net.adapters.key_files import DATA_DIR_VARIABLE, default_data_dir


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "paths",
        help="show the data dir, config file, logs and games of this install",
        description=(
            f"Where domicile keeps things: the data dir (--data-dir, else ${DATA_DIR_VARIABLE}, "
            "else the platform's), the optional config file, logs and saved games."
        ),
    )
    parser.add_argument("--data-dir", type=Path, metavar="DIR", help="show this data dir's")
    parser.set_defaults(handler=run)


def paths(data_dir: Path | None) -> dict[str, str]:
    """What ``domicile paths`` shows, label -> path (and a word on what is there)."""
    data = data_dir if data_dir is not None else default_data_dir()
    config = config_file()
    return {
        "data dir": str(data),
        "config file": f"{config}{'' if config.is_file() else '  (none yet: optional)'}",
        "logs": f"{data / LOGS_DIR}  (--verbose without --log FILE writes COMMAND.log here)",
        "games (domicile host)": str(data / "games"),
        "games (domicile play's tables)": str(data / "host" / "games"),
    }


def run(args: argparse.Namespace) -> int:
    shown = paths(args.data_dir)
    width = max(map(len, shown))
    for label, path in shown.items():
        sys.stdout.write(f"{label + ':':<{width + 1}}  {path}\n")
    return 0
