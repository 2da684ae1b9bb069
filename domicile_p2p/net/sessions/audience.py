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

    def __init__(self, tables: Iterable[int]) -> None:
        self._seats: dict[int, dict[int, ConnectionId]] = {table: {} for table in tables}
        """table -> seat -> the connection holding it."""
        self._watching: dict[int, dict[ConnectionId, str]] = {table: {} for table in self._seats}
        """table -> the connections watching it -> the name each gave."""

    # ------------------------------------------------------------- seats

    def seats(self, table: int) -> set[int]:
        """The seats of ``table`` a connection holds now."""
        return set(self._seats.get(table, ()))

    def holder(self, table: int, seat: int) -> ConnectionId | None:
        return self._seats[table].get(seat)

    def holders(self, table: int) -> list[tuple[int, ConnectionId]]:
        """``(seat, connection)`` of ``table``, in seat order."""
        return sorted(self._seats[table].items())

    def sit(self, table: int, seat: int, connection: ConnectionId) -> ConnectionId | None:
        """``connection`` holds ``seat`` now; the connection that held it before, if any."""
        previous = self._seats[table].get(seat)
        self._seats[table][seat] = connection
        return previous

    def leave(self, table: int, seat: int, connection: ConnectionId) -> bool:
        """``connection`` is gone from ``seat``; ``False`` (nothing changes) when the seat
        is another connection's now (this one was superseded)."""
        seats = self._seats[table]
        if seats.get(seat) != connection:
            return False
        del seats[seat]
        return True

    def unseat(self, table: int, seat: int) -> ConnectionId | None:
        """Free ``seat`` whoever holds it; the connection that held it, if any."""
        return self._seats[table].pop(seat, None)

    def move(self, table: int, moved: Mapping[int, int]) -> None:
        """Every connection at ``table`` moves from its seat ``s`` to ``moved[s]``."""
        self._seats[table] = {moved[seat]: held for seat, held in self._seats[table].items()}

    # ------------------------------------------------------------- spectators

    def spectators(self, table: int) -> list[ConnectionId]:
        """The connections watching ``table``, in the order they came."""
        return list(self._watching.get(table, ()))

    def watchers(self, table: int) -> list[str]:
        """The names the spectators of ``table`` gave, sorted (what the lobby says)."""
        return sorted(self._watching.get(table, {}).values())

    def watch(self, table: int, connection: ConnectionId, name: str) -> int:
        """``connection`` watches ``table`` now; how many watch it."""
        watching = self._watching[table]
        watching[connection] = name
        return len(watching)

    def stop_watching(self, table: int, connection: ConnectionId) -> None:
        self._watching[table].pop(connection, None)

    # ------------------------------------------------------------- everyone

    def seated(self, table: int) -> list[ConnectionId]:
        """The connections holding a seat at ``table``, in seat order."""
        return [held for _, held in self.holders(table)]

    def everyone(self, table: int) -> list[ConnectionId]:
        """Who gets the table's events: its seats in seat order, then its spectators."""
        return self.seated(table) + self.spectators(table)
