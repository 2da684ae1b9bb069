"""The lobbies' clocks, sans I/O: which lobbies time alone can start or clear.

Two clocks run in a host's lobbies, and :class:`LobbyClocks` keeps both,
indexed so each input looks only at the lobbies that have one:

- the *wait* clock of a table whose rule is ``wait``: its game starts when
  the lobby's wait is over (the ``Room`` says when: ``may_start``);
- the *ready* clock of the lobby of a table's next game (a rematch): the
  seats of the people not ready are freed ``ready_timeout`` seconds after
  it opened (:meth:`LobbyClocks.ready_clock`).

Every lobby's clock opens at the host's first input, not when the host is
built (:meth:`LobbyClocks.open`).  ``HostSession`` asks which clocks ran out
and does the starting and the unseating itself.
"""

from __future__ import annotations

from collections.abc import Iterable

from domicile_p2p.net.sessions.room import Room
from domicile_p2p.net.wire import Starts


class LobbyClocks:
    """The wait and ready clocks of a host's lobbies (see the module docstring)."""

    def __init__(self, rooms: Iterable[Room], ready_timeout: float) -> None:
        self._rooms = list(rooms)
        self.ready_timeout = ready_timeout
        self._waiting: dict[int, Room] = {
            room.nameplate: room
            for room in self._rooms
            if room.game is None and room.starts is Starts.WAIT
        }
        """Lobbies that start on a clock (``wait``): the only tables time alone can start."""
        self._ready: dict[int, Room] = {}
        """Lobbies of a next game whose not-ready people have a deadline (``ready_timeout``)."""
        self._open = False

    def open(self, now: float) -> None:
        """The host's first input: every lobby's clock starts now (later calls do nothing)."""
        if self._open:
            return
        self._open = True
        for room in self._rooms:
            if room.game is None:
                room.open_lobby(now)

    def waiting(self) -> list[Room]:
        """The lobbies on a wait clock, to ask whether they may start now."""
        return list(self._waiting.values())

    def wait(self, room: Room) -> None:
        """``room``'s lobby starts on its wait clock (a next game of a ``wait`` table)."""
        self._waiting[room.nameplate] = room

    def stop(self, nameplate: int) -> None:
        """``nameplate``'s game began, or the table is out of order: its wait clock stops."""
        self._waiting.pop(nameplate, None)

    def ready_clock(self, room: Room, now: float) -> None:
        """The lobby of ``room``'s next game frees its not-ready seats ``ready_timeout``
        seconds from ``now``."""
        room.ready_deadline = now + self.ready_timeout
        self._ready[room.nameplate] = room

    def ready_over(self, now: float) -> list[Room]:
        """The lobbies whose ready clock ran out at ``now`` (each clock runs out once);
        the clocks of lobbies whose game began since are dropped."""
        over = []
        for room in list(self._ready.values()):
            deadline = room.ready_deadline
            if room.game is not None or deadline is None:
                self._ready.pop(room.nameplate, None)
            elif now >= deadline:
                self._ready.pop(room.nameplate, None)
                over.append(room)
        return over

    def deadlines(self) -> list[float]:
        """When a clock runs out next, each lobby's."""
        waits = [room.lobby_deadline for room in self._waiting.values()]
        readies = [room.ready_deadline for room in self._ready.values()]
        return [deadline for deadline in waits + readies if deadline is not None]
