"""The setup's deadline: a seat that never takes its setup step aborts the game, named.

The setup moves only when every seat has taken its step (committed,
revealed its entropy, published the slot commitments), and a game that is
over waits for the Ghost's seed.  An investigator who dislikes the public
tableau it could compute, a Ghost that would rather not show its
answers, or a player whose laptop died could otherwise hold the whole
table hostage.  So each of these steps has a deadline, counted from the
moment the table entered that step (progress by the other seats does not
extend it): when it passes, the host writes an ``abort`` event naming the
seats it waited for (``GameTable.abort_stalled``).  An abort reveals nothing
secret: it carries only a reason and seat numbers.

Sans I/O: :class:`SetupWatch` only keeps time.  The host session tells it
where each table stands (:meth:`SetupWatch.observe`) and asks which tables
are overdue (:meth:`SetupWatch.expired`); the abort itself is the table's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from domicile_p2p.transcript.ledger import DEADLINE_STEPS, Step

DEFAULT_SETUP_TIMEOUT: Final = 120.0
"""Seconds a setup step (or the Ghost's reveal after the game) may take.  Every client
takes these steps by itself within milliseconds; the margin is for a player whose laptop
restarts."""


@dataclass(frozen=True, slots=True)
class _Waiting:
    step: Step
    since: float


class SetupWatch:
    """When each table entered its current setup step, and which ones are overdue."""

    def __init__(self, timeout: float = DEFAULT_SETUP_TIMEOUT) -> None:
        if timeout <= 0:
            raise ValueError("the setup timeout must be positive")
        self.timeout = timeout
        self._waiting: dict[int, _Waiting] = {}
        self._earliest = math.inf
        """At most the earliest ``since`` waiting: :meth:`expired` scans only once it may be due."""

    def observe(self, nameplate: int, step: Step | None, now: float) -> None:
        """Table ``nameplate`` is at ``step`` (``None``: no game yet) at time ``now``."""
        if step not in DEADLINE_STEPS:
            self._waiting.pop(nameplate, None)
            return
        current = self._waiting.get(nameplate)
        if current is None or current.step is not step:
            self._waiting[nameplate] = _Waiting(step, now)
            self._earliest = min(self._earliest, now)

    def deadline(self) -> float | None:
        """The earliest moment a table becomes overdue, if any table is in its setup."""
        return min((w.since + self.timeout for w in self._waiting.values()), default=None)

    def expired(self, now: float) -> list[int]:
        """The tables whose setup step has lasted ``timeout`` seconds or more, in order."""
        if now - self._earliest < self.timeout:
            return []  # called on every input: the common case costs no scan
        self._earliest = min((w.since for w in self._waiting.values()), default=math.inf)
        return sorted(
            nameplate for nameplate, w in self._waiting.items() if now - w.since >= self.timeout
        )

    def forget(self, nameplate: int) -> None:
        self._waiting.pop(nameplate, None)
