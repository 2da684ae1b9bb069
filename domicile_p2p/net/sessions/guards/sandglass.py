"""The sand-glass: a table's investigation may last ``timer`` seconds, then the host calls time.

A table set up with a timer (``--timer SECONDS``, recorded in its genesis)
gives each investigation phase that long, counted from the moment the host
saw the phase begin (the event that served the last investigator, or the
Stage Two group give).  When it runs out the table publishes a signed
``time-up`` statement (``Table.time_up``): every placed marker is locked
where it stands and an investigator without one made no guess that day.
Whether the host called time early or late cannot be proven; the transcript
only shows that it did (protocol/SPEC.md, §13).

Sans I/O, like :mod:`~domicile_p2p.net.sessions.guards.setup`: the host session
tells :class:`SandGlass` which investigation each table is in
(:meth:`SandGlass.observe`) and asks which have run out
(:meth:`SandGlass.expired`); the statement itself is the table's.
"""

from __future__ import annotations

from dataclasses import dataclass

from domicile_p2p.rules import Investigation


@dataclass(frozen=True, slots=True)
class _Running:
    investigation: Investigation
    deadline: float


class SandGlass:
    """When each timed table's investigation runs out, and which ones have."""

    def __init__(self) -> None:
        self._running: dict[int, _Running] = {}

    def observe(
        self, table: int, investigation: Investigation | None, seconds: int | None, now: float
    ) -> None:
        """Table ``table`` is in ``investigation`` (``None``: none under way) at ``now``."""
        if investigation is None or seconds is None:
            self._running.pop(table, None)
            return
        current = self._running.get(table)
        if current is None or current.investigation != investigation:
            self._running[table] = _Running(investigation, now + seconds)

    def deadline(self) -> float | None:
        """The earliest moment an investigation runs out, if any is under way."""
        return min((running.deadline for running in self._running.values()), default=None)

    def expired(self, now: float) -> list[int]:
        """The tables whose investigation has run out, in order."""
        return sorted(table for table, r in self._running.items() if now >= r.deadline)

    def forget(self, table: int) -> None:
        self._running.pop(table, None)
