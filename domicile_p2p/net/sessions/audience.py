"""Who is at each table: the connection holding each seat, and the spectators.

:class:`Audience` is an index, sans I/O, that ``HostSession`` keeps beside its
connections: per table, seat -> the connection holding it, and the connections
watching it (with the name each gave).  Everything an event touches is indexed
by its table, so the work per event is O(seats of that table), not O(every
connection or table of the host).  It decides nothing: the host asks it who
gets a table's events (:meth:`Audience.everyone`: the seats in seat order,
then the spectators) and tells it who sat, left, moved or watches.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from domicile_p2p.net.sessions.effects import ConnectionId


class Audience:
    """The seats and spectators of every table of one host (see the module docstring)."""

    def __init__(self, nameplates: Iterable[int]) -> None:
        self._seats: dict[int, dict[int, ConnectionId]] = {
            nameplate: {} for nameplate in nameplates
        }
        """nameplate -> seat -> the connection holding it."""
        self._watching: dict[int, dict[ConnectionId, str]] = {
            nameplate: {} for nameplate in self._seats
        }
        """nameplate -> the connections watching it -> the name each gave."""

    # ------------------------------------------------------------- seats

    def seats(self, nameplate: int) -> set[int]:
        """The seats of ``nameplate`` a connection holds now."""
        return set(self._seats.get(nameplate, ()))

    def holder(self, nameplate: int, seat: int) -> ConnectionId | None:
        return self._seats[nameplate].get(seat)

    def holders(self, nameplate: int) -> list[tuple[int, ConnectionId]]:
        """``(seat, connection)`` of ``nameplate``, in seat order."""
        return sorted(self._seats[nameplate].items())

    def sit(self, nameplate: int, seat: int, connection: ConnectionId) -> ConnectionId | None:
        """``connection`` holds ``seat`` now; the connection that held it before, if any."""
        previous = self._seats[nameplate].get(seat)
        self._seats[nameplate][seat] = connection
        return previous

    def leave(self, nameplate: int, seat: int, connection: ConnectionId) -> bool:
        """``connection`` is gone from ``seat``; ``False`` (nothing changes) when the seat
        is another connection's now (this one was superseded)."""
        seats = self._seats[nameplate]
        if seats.get(seat) != connection:
            return False
        del seats[seat]
        return True

    def unseat(self, nameplate: int, seat: int) -> ConnectionId | None:
        """Free ``seat`` whoever holds it; the connection that held it, if any."""
        return self._seats[nameplate].pop(seat, None)

    def move(self, nameplate: int, moved: Mapping[int, int]) -> None:
        """Every connection at ``nameplate`` moves from its seat ``s`` to ``moved[s]``."""
        self._seats[nameplate] = {
            moved[seat]: held for seat, held in self._seats[nameplate].items()
        }

    # ------------------------------------------------------------- spectators

    def spectators(self, nameplate: int) -> list[ConnectionId]:
        """The connections watching ``nameplate``, in the order they came."""
        return list(self._watching.get(nameplate, ()))

    def watchers(self, nameplate: int) -> list[str]:
        """The names the spectators of ``nameplate`` gave, sorted (what the lobby says)."""
        return sorted(self._watching.get(nameplate, {}).values())

    def watch(self, nameplate: int, connection: ConnectionId, name: str) -> int:
        """``connection`` watches ``nameplate`` now; how many watch it."""
        watching = self._watching[nameplate]
        watching[connection] = name
        return len(watching)

    def stop_watching(self, nameplate: int, connection: ConnectionId) -> None:
        self._watching[nameplate].pop(connection, None)

    # ------------------------------------------------------------- everyone

    def seated(self, nameplate: int) -> list[ConnectionId]:
        """The connections holding a seat at ``nameplate``, in seat order."""
        return [held for _, held in self.holders(nameplate)]

    def everyone(self, nameplate: int) -> list[ConnectionId]:
        """Who gets the table's events: its seats in seat order, then its spectators."""
        return self.seated(nameplate) + self.spectators(nameplate)
