"""The sand-glass: a table's investigation may last ``timer`` seconds, then the host calls time.

A table set up with a timer (``--timer SECONDS``, recorded in its genesis)
gives each investigation phase that long, counted from the moment the host
saw the phase begin (the event that served the last investigator, or the
Stage Two group give).  When it runs out the table publishes a signed
``time-up`` statement (``GameTable.time_up``): every placed marker is locked
where it stands and an investigator without one made no guess that day.
Whether the host called time early or late cannot be proven; the transcript
only shows that it did (protocol/SPEC.md, §13).

An investigation's glass is turned no sooner than :data:`SEANCE_SEEN_WITHIN`
seconds after the séance before it was published: the Ghost may give the next
dreams at once, but every person is still reading that séance, and a glass that
ran while it was on their screen would run out of sight.  Nothing on the wire says
when a client closed a séance; every client closes one by itself within that time
(the terminal client tells it faster when it must), so the host waits that long.

Sans I/O, like :mod:`~domicile_p2p.net.sessions.guards.setup`: the host session
tells :class:`SandGlass` which investigation each table is in
(:meth:`SandGlass.observe`) and asks which have run out
(:meth:`SandGlass.expired`); the statement itself is the table's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from domicile_p2p.rules import Investigation

SEANCE_SEEN_WITHIN: Final = 15.0
"""Seconds within which every person has seen a séance (their client closes it by itself
by then): the next investigation's glass is turned no sooner after it."""


@dataclass(frozen=True, slots=True)
class _Running:
    investigation: Investigation
    deadline: float


class SandGlass:
    """When each timed table's investigation runs out, and which ones have."""

    def __init__(self) -> None:
        self._running: dict[int, _Running] = {}
        self._rounds: dict[int, Investigation] = {}
        self._told: dict[int, float] = {}
        """When each table's last séance was published (its round moved on)."""

    def observe(
        self,
        nameplate: int,
        investigation: Investigation | None,
        seconds: int | None,
        now: float,
        round: Investigation | None = None,
    ) -> None:
        """Table ``nameplate`` is in ``investigation`` (``None``: none under way) at ``now``, on
        ``round`` (the day and stage of its game; a new one means a séance was just told).
        The glass of a new investigation runs ``seconds`` from ``now``, or from
        :data:`SEANCE_SEEN_WITHIN` after that séance if that is later."""
        if round is not None:
            last = self._rounds.get(nameplate)
            if last is not None and last != round:
                self._told[nameplate] = now
            self._rounds[nameplate] = round
        if investigation is None or seconds is None:
            self._running.pop(nameplate, None)
            return
        current = self._running.get(nameplate)
        if current is None or current.investigation != investigation:
            told = self._told.get(nameplate)
            turned = now if told is None else max(now, told + SEANCE_SEEN_WITHIN)
            self._running[nameplate] = _Running(investigation, turned + seconds)

    def deadline(self) -> float | None:
        """The earliest moment an investigation runs out, if any is under way."""
        return min((running.deadline for running in self._running.values()), default=None)

    def expired(self, now: float) -> list[int]:
        """The tables whose investigation has run out, in order."""
        return sorted(nameplate for nameplate, r in self._running.items() if now >= r.deadline)

    def forget(self, nameplate: int) -> None:
        """Time was called on ``nameplate``'s investigation (its séance follows)."""
        self._running.pop(nameplate, None)
