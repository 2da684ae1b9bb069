"""Structured log lines: one JSON object per line, for headless hosts and bots.

Every line has ``time`` (UTC, ISO 8601) and ``event``, then the event's own
fields.  Lines are flushed one by one, so ``kill -9`` loses none that were
written, and a supervisor (systemd's journal, ``jq``) reads them as they come.

Fields carry text from peers (a refused frame's field names, a join's name), so
both writers are the boundary where that text is made inert
(:mod:`domicile_p2p.text`): the JSON lines escape every control, bidi control and
invisible character (``\\u202e``), and the lines for a person show them as escapes.
"""

from __future__ import annotations

import datetime
import json
import threading
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from domicile_p2p.text import inert, json_inert

LogSink = Callable[[str, Mapping[str, Any]], None]


def json_lines(stream: TextIO) -> LogSink:
    lock = threading.Lock()

    def log(event: str, fields: Mapping[str, Any]) -> None:
        record = {
            "time": datetime.datetime.now(datetime.UTC).isoformat(timespec="milliseconds"),
            "event": event,
            **fields,
        }
        line = json_inert(
            json.dumps(record, ensure_ascii=False, default=str, separators=(",", ":"))
        )
        with lock:
            stream.write(line + "\n")
            stream.flush()

    return log


def human_lines(stream: TextIO, *, quiet: frozenset[str] = frozenset()) -> LogSink:
    """The same records as short sentences, for a person watching a terminal."""

    def log(event: str, fields: Mapping[str, Any]) -> None:
        if event in quiet:
            return
        details = " ".join(f"{key}={value}" for key, value in fields.items() if value is not None)
        stream.write(inert(f"{event}: {details}" if details else event) + "\n")
        stream.flush()

    return log
