"""The games' deadlines, sans I/O: a setup step not taken, a sand-glass run out.

Theory of operation
-------------------
Two clocks run in a game under way, each in ``guards/``: the setup's
(:class:`~domicile_p2p.net.sessions.guards.setup.SetupWatch`: a seat that
never takes its setup step) and the investigation's
(:class:`~domicile_p2p.net.sessions.guards.sandglass.SandGlass`).
:class:`GameDeadlines` keeps both for every table of one host.

Where a table's game stands changes only with its events, so ``HostSession``
tells it which tables published (:meth:`GameDeadlines.published`) and, on
each input, it looks at those alone (:meth:`GameDeadlines.look`).  The host
then asks which setups stalled (:meth:`GameDeadlines.stalled`) and which
sand-glasses ran out (:meth:`GameDeadlines.out_of_time`), and the
statement each calls for (:meth:`GameDeadlines.abort`,
:meth:`GameDeadlines.call_time`), which it publishes like any event.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

from domicile_p2p.net.sessions.effects import Log
from domicile_p2p.net.sessions.guards.sandglass import SandGlass
from domicile_p2p.net.sessions.guards.setup import SetupWatch
from domicile_p2p.net.sessions.room import EventObject, Room


@dataclass(frozen=True, slots=True)
class Statement:
    """The event a deadline called for, where it goes in its game, and its log record."""

    start: int
    event: EventObject
    log: Log
    lobby_changed: bool
    """Whether the table's lobby (and advert) change with it (an abort ends the game)."""


class GameDeadlines:
    """The setup and sand-glass clocks of every table of one host (see the module docstring)."""

    def __init__(
        self,
        rooms: Mapping[int, Room],
        setup_timeout: float,
        people: Callable[[int], Collection[int]] = lambda nameplate: (),
    ) -> None:
        self._rooms = rooms
        self._people = people
        """The seats of a table held by a connected person (no bot): who sees its séances."""
        self._setup = SetupWatch(setup_timeout)
        self._sand_glass = SandGlass()
        self._published: set[int] = {
            nameplate for nameplate, room in rooms.items() if room.game is not None
        }
        """Tables with new events since the last look (a resumed game too)."""

    def published(self, nameplate: int) -> None:
        """``nameplate``'s game has new events (or a new game): look at it next time."""
        self._published.add(nameplate)

    def deadline(self) -> float | None:
        clocks = [self._setup.deadline(), self._sand_glass.deadline()]
        return min((clock for clock in clocks if clock is not None), default=None)

    def look(self, now: float) -> None:
        """Note where each table that published stands now."""
        published, self._published = self._published, set()
        for nameplate in sorted(published):
            game = self._rooms[nameplate].game
            step = None if game is None or game.ended else game.step
            self._setup.observe(nameplate, step, now)
            investigation = None if game is None else game.investigation
            timer = None if game is None else game.timer
            round = None if game is None or game.ended else game.round
            people = () if round is None else self._people(nameplate)
            self._sand_glass.observe(nameplate, investigation, timer, now, round, people)

    def seen(self, nameplate: int, seat: int, round: tuple[int, int], now: float) -> None:
        """The person at ``seat`` has seen the séance that began ``round``."""
        self._sand_glass.seen(nameplate, seat, round, now)

    def left(self, nameplate: int, seat: int, now: float) -> None:
        """The person at ``seat`` disconnected: the séance's glass no longer waits for them."""
        self._sand_glass.left(nameplate, seat, now)

    def all_seen(self) -> list[tuple[int, tuple[int, int]]]:
        """The tables (and rounds) where every person has now seen the last séance."""
        return self._sand_glass.all_seen()

    def stalled(self, now: float) -> list[Room]:
        """The tables whose setup step is past its deadline."""
        return [self._rooms[nameplate] for nameplate in self._setup.expired(now)]

    def out_of_time(self, now: float) -> list[Room]:
        """The tables whose investigation's sand-glass ran out."""
        return [self._rooms[nameplate] for nameplate in self._sand_glass.expired(now)]

    def abort(self, room: Room) -> Statement | None:
        """The abort naming the seats ``room``'s setup waits for (``None``: nobody)."""
        self._setup.forget(room.nameplate)
        assert room.game is not None
        return _statement(room, room.game.abort_stalled, "setup-aborted", ("seats", "reason"), True)

    def call_time(self, room: Room) -> Statement | None:
        """The time-up of ``room``'s investigation (``None``: none under way)."""
        self._sand_glass.forget(room.nameplate)
        assert room.game is not None
        return _statement(room, room.game.time_up, "time-up", ("locked", "no_guess"), False)

    def forget(self, nameplate: int) -> None:
        """``nameplate`` is out of order: its clocks stop."""
        self._setup.forget(nameplate)
        self._sand_glass.forget(nameplate)
        self._published.discard(nameplate)


def _statement(
    room: Room,
    make: Callable[[], EventObject | None],
    log: str,
    fields: tuple[str, ...],
    lobby_changed: bool,
) -> Statement | None:
    """The statement ``make`` writes, logged with ``fields`` of its body."""
    game = room.game
    assert game is not None
    start = len(game.events)
    event = make()
    if event is None:
        return None
    body = event["body"]
    logged = {name: _plain(body[name]) for name in fields}
    return Statement(start, event, Log(log, {"table": room.nameplate, **logged}), lobby_changed)


def _plain(value: Any) -> Any:
    """A body field as a log record holds it: sequences as lists."""
    return list(value) if isinstance(value, tuple | list) else value
