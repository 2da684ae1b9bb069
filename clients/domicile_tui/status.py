"""What the first screens show of a table before any news comes: who holds each seat, and
the status line (the connection, a warning, an error).

A module of its own, below ``news`` (whose lobby and status news carry these): the lobby
and the status bar are drawn before a table has said anything, and ``news`` is loaded
with a table's first news.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class SeatKind(StrEnum):
    YOU = "you"
    HUMAN = "human"
    BOT = "bot"
    OPEN = "open"


class Severity(StrEnum):
    INFO = "information"
    WARNING = "warning"
    ERROR = "error"


@dataclass(frozen=True, slots=True)
class Status:
    """The connection to the table, as the status bar shows it."""

    text: str
    severity: Severity = Severity.INFO
    connected: bool = True
