"""The fan-out, sans I/O: what a table's seats and spectators get, and in which order.

Theory of operation
-------------------
:class:`FanOut` turns what happened at a table into the effects that tell
everyone there, in the one order the adapter keeps:

- a table's new events (:meth:`FanOut.events`): on disk first (``Persist``,
  fsync-ed before any later send), then every event frame to everyone at
  the table (``audience.py``: its seats in seat order, then its spectators);
  a game that ended is archived (``GameFinished``), and its lobby and advert
  change;
- the lobby (:meth:`FanOut.lobby`), to everyone at the table;
- a catch-up (:meth:`FanOut.catch_up`): the events one connection lacks;
- a message of one seat for the others (:meth:`FanOut.others`: a relayed head).

It decides nothing: ``HostSession`` says when.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from domicile_p2p.net.sessions.audience import Audience
from domicile_p2p.net.sessions.effects import (
    ConnectionId,
    GameFinished,
    HostEffect,
    Persist,
    Send,
    TableChanged,
)
from domicile_p2p.net.sessions.room import EventObject, Room
from domicile_p2p.net.wire import HostMessage, Lobby, event_frames


class FanOut:
    """The effects that tell everyone at a table (see the module docstring)."""

    def __init__(self, audience: Audience, ready_timeout: float) -> None:
        self._audience = audience
        self.ready_timeout = ready_timeout

    def everyone(self, room: Room) -> list[ConnectionId]:
        """Everyone who gets the table's events: its seats in seat order, then its spectators."""
        return self._audience.everyone(room.nameplate)

    def events(
        self, room: Room, start: int, events: Sequence[EventObject], *, lobby_changed: bool
    ) -> list[HostEffect]:
        """New events of a table: on disk first, then to everyone at it.

        A game that ended (or a change the caller names) also changes the
        lobby and the table's advert.
        """
        game = room.game
        assert game is not None
        frames = list(event_frames(start, events))
        lines = game.lines[start : start + len(events)]
        effects: list[HostEffect] = [Persist(room.nameplate, tuple(lines))]
        effects += [Send(c, frame) for c in self.everyone(room) for frame in frames]
        if game.ended:
            effects.append(GameFinished(room.nameplate, game.game_id))
        if lobby_changed or game.ended:
            effects += self.lobby(room)
            effects.append(TableChanged(room.nameplate))
        return effects

    def lobby_of(self, room: Room) -> Lobby:
        """``room``'s lobby as it stands, with the seats a connection holds now."""
        lobby = room.lobby(self._audience.seats(room.nameplate), self.ready_timeout)
        watchers = self._audience.watchers(room.nameplate)
        return msgspec.structs.replace(lobby, watchers=watchers) if watchers else lobby

    def lobby(self, room: Room) -> list[HostEffect]:
        """``room``'s lobby, to everyone at it."""
        lobby = self.lobby_of(room)
        return [Send(connection, lobby) for connection in self.everyone(room)]

    def catch_up(self, connection: ConnectionId, room: Room, since: int) -> list[HostEffect]:
        """The events of ``room``'s game from ``since`` on (as many as there are)."""
        events = room.game.events if room.game is not None else ()
        start = min(since, len(events))
        return [Send(connection, frame) for frame in event_frames(start, events[start:])]

    def others(self, room: Room, sender: ConnectionId, message: HostMessage) -> list[HostEffect]:
        """``message`` to everyone at ``room`` but ``sender``."""
        return [Send(c, message) for c in self.everyone(room) if c != sender]
