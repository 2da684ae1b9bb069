"""``--log FILE`` and ``--verbose``, the same two options on every command.

A command's log records (Python ``logging``: the network's reconnects, a
host's troubles, the client's own) and, for ``bot`` and ``watch``, the
events of the table they joined are written as JSON lines, one object per
line with ``time``, ``event`` and its fields (the format of
``domicile host --headless``), to ``--log FILE`` (``-``: stderr).  Info and
above by default; ``--verbose`` adds the debug records, and without
``--log`` writes them to ``DATA_DIR/logs/COMMAND.log`` (``domicile paths``
shows the dir).  Without either option nothing is set up, so a command's
start pays nothing for them.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    import logging
    from collections.abc import Mapping

LOGS_DIR = "logs"
"""Under the data dir: where ``--verbose`` without ``--log FILE`` writes ``COMMAND.log``."""
STDERR = "-"


class LogUnwritable(Exception):
    """The log file asked for cannot be opened (the command says so in one line).

    Its own type, not ``cli.CommandError``: the ``cli`` package imports this module
    lazily, so this module imports nothing of ``cli``."""


def log_path(args: argparse.Namespace) -> Path | None:
    """Where this run's records go: ``--log``, else the data dir's when ``--verbose``, else
    nowhere (``None``; stderr is ``Path("-")``)."""
    if getattr(args, "log", None):
        return Path(args.log)
    if not getattr(args, "verbose", False):
        return None
    from domicile_p2p.net.adapters.key_files import default_data_dir

    data_dir = getattr(args, "data_dir", None)
    base = Path(data_dir) if data_dir else default_data_dir()
    return base / LOGS_DIR / f"{args.command.replace(' ', '-')}.log"


def start_logging(args: argparse.Namespace) -> None:
    """Open the log the options ask for and send the root logger's records to it; a log
    that cannot be opened is one line (exit code 2)."""
    path = log_path(args)
    if path is None:
        return
    import logging

    stream: TextIO
    if str(path) == STDERR:
        stream = sys.stderr
    else:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            stream = path.open("a", encoding="utf-8")
        except OSError as error:
            raise LogUnwritable(f"cannot write the log {path}: {error.strerror or error}") from None
    handler = logging.StreamHandler(stream)
    handler.setFormatter(_json_records())
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.DEBUG if args.verbose else logging.INFO)
    args.log_stream = stream


def event_sink(args: argparse.Namespace) -> Any:
    """The sink (``net.adapters.logs.LogSink``) for a table's events: JSON lines to this
    run's log, or nowhere without one."""
    stream = getattr(args, "log_stream", None)
    if stream is None:
        return _nowhere
    from domicile_p2p.net.adapters.logs import json_lines

    return json_lines(stream)


def _nowhere(event: str, fields: Mapping[str, Any]) -> None:
    return None


def _json_records() -> logging.Formatter:
    """A ``logging`` formatter: each record as a JSON line (``event`` "log"), made inert."""
    import datetime
    import json
    import logging
    import traceback

    from domicile_p2p.text import json_inert

    class JsonRecords(logging.Formatter):
        def format(self, record: logging.LogRecord) -> str:
            when = datetime.datetime.fromtimestamp(record.created, datetime.UTC)
            fields = {
                "time": when.isoformat(timespec="milliseconds"),
                "event": "log",
                "level": record.levelname.lower(),
                "logger": record.name,
                "message": record.getMessage(),
            }
            if record.exc_info:
                trace = traceback.format_exception(*record.exc_info)
                fields["exception"] = "".join(trace).strip()
            return json_inert(json.dumps(fields, ensure_ascii=False, default=str))

    return JsonRecords()
