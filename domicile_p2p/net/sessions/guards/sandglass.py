"""The sand-glass: a table's investigation may last ``timer`` seconds, then the host calls time.

A table set up with a timer (``--timer SECONDS``, recorded in its genesis)
gives each investigation phase that long, counted from the moment the host
saw the phase begin (the event that served the last investigator, or the
Stage Two group give).  When it runs out the table publishes a signed
``time-up`` statement (``GameTable.time_up``): every placed marker is locked
where it stands and an investigator without one made no guess that day.
Whether the host called time early or late cannot be proven; the transcript
only shows that it did (protocol/SPEC.md, §13).

An investigation's glass waits for the séance before it to be seen: the Ghost may
give the next dreams at once, but every person is still reading that séance, and a
glass that ran while it was on their screen would run out of sight.  When a séance is
told (the table's round moves on) the host notes the seated people connected then (a
bot's seat, one joined with ``bot``, never counts; nor does a spectator); each one's
client says ``seen`` once it has shown the séance (closed, or passed by itself), and a
person who disconnects is no longer waited for.  The round's glass turns once nobody
is left to wait for (the table is told ``all-seen``), or :data:`SEANCE_SEEN_WITHIN`
seconds after the séance, whichever comes first, and never before the give that begins
the investigation.  A client that never sends ``seen`` is waited for that long (its
séance closes by itself by then).

Sans I/O, like :mod:`~domicile_p2p.net.sessions.guards.setup`: the host session
tells :class:`SandGlass` which investigation each table is in
(:meth:`SandGlass.observe`), who has seen the séance (:meth:`SandGlass.seen`) or left
(:meth:`SandGlass.left`), and asks which have run out (:meth:`SandGlass.expired`) and
which tables everyone has seen the séance at (:meth:`SandGlass.all_seen`); the
statement itself is the table's.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Final

from domicile_p2p.rules import Investigation

SEANCE_SEEN_WITHIN: Final = 15.0
"""Seconds within which every person has seen a séance (their client closes it by itself
by then): the next investigation's glass is turned no later after it, even if someone
has not said ``seen``."""


@dataclass(frozen=True, slots=True)
class _Running:
    investigation: Investigation
    given: float
    """When the host saw the investigation begin (the give)."""
    seconds: int


@dataclass(slots=True)
class _Told:
    """The last séance a table told, and who has still to see it."""

    round: Investigation
    """The round it moved the game on to."""
    at: float
    waiting: set[int] = field(default_factory=set)
    seen_at: float | None = None
    """When the last person waited for saw it (or left); ``None``: not yet."""

    def turns(self) -> float:
        """The earliest moment this round's glass may turn."""
        return self.at + SEANCE_SEEN_WITHIN if self.seen_at is None else self.seen_at


class SandGlass:
    """When each timed table's investigation runs out, and which ones have."""

    def __init__(self) -> None:
        self._running: dict[int, _Running] = {}
        self._rounds: dict[int, Investigation] = {}
        self._told: dict[int, _Told] = {}
        """Each table's last séance (its round moved on)."""
        self._all_seen: list[tuple[int, Investigation]] = []
        """Tables whose people have all seen the last séance, not yet asked for."""

    def observe(
        self,
        nameplate: int,
        investigation: Investigation | None,
        seconds: int | None,
        now: float,
        round: Investigation | None = None,
        people: Collection[int] = (),
    ) -> None:
        """Table ``nameplate`` is in ``investigation`` (``None``: none under way) at ``now``, on
        ``round`` (the day and stage of its game; a new one means a séance was just told,
        to the seated ``people`` connected now, who are waited for).  The glass of a new
        investigation runs ``seconds`` from ``now``, or from when that séance has been seen
        (:meth:`seen`; :data:`SEANCE_SEEN_WITHIN` after it at most) if that is later."""
        if round is not None:
            last = self._rounds.get(nameplate)
            if last is not None and last != round:
                self._told[nameplate] = _Told(round, now, set(people))
                if not people:
                    self._everyone_saw(nameplate, now)
            self._rounds[nameplate] = round
        if investigation is None or seconds is None:
            self._running.pop(nameplate, None)
            return
        current = self._running.get(nameplate)
        if current is None or current.investigation != investigation:
            self._running[nameplate] = _Running(investigation, now, seconds)

    def seen(self, nameplate: int, seat: int, round: Investigation, now: float) -> None:
        """The person at ``seat`` has seen the séance that moved the game on to ``round``
        (an earlier round's, or one nobody waits for any more, changes nothing)."""
        told = self._told.get(nameplate)
        if told is None or told.round != round:
            return
        self.left(nameplate, seat, now)

    def left(self, nameplate: int, seat: int, now: float) -> None:
        """The person at ``seat`` is no longer waited for (seen, or disconnected)."""
        told = self._told.get(nameplate)
        if told is None or seat not in told.waiting:
            return
        told.waiting.discard(seat)
        if not told.waiting and now < told.turns():
            self._everyone_saw(nameplate, now)

    def _everyone_saw(self, nameplate: int, now: float) -> None:
        told = self._told[nameplate]
        told.waiting.clear()
        told.seen_at = now
        self._all_seen.append((nameplate, told.round))

    def all_seen(self) -> list[tuple[int, Investigation]]:
        """The tables (and rounds) whose people have all seen the séance since last asked."""
        news, self._all_seen = self._all_seen, []
        return news

    def _deadline(self, nameplate: int, running: _Running) -> float:
        told = self._told.get(nameplate)
        turned = running.given if told is None else max(running.given, told.turns())
        return turned + running.seconds

    def deadline(self) -> float | None:
        """The earliest moment an investigation runs out, if any is under way."""
        return min((self._deadline(n, r) for n, r in self._running.items()), default=None)

    def expired(self, now: float) -> list[int]:
        """The tables whose investigation has run out, in order."""
        return sorted(n for n, r in self._running.items() if now >= self._deadline(n, r))

    def forget(self, nameplate: int) -> None:
        """Time was called on ``nameplate``'s investigation (its séance follows)."""
        self._running.pop(nameplate, None)
