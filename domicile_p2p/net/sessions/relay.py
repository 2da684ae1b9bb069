"""What the seats hand the host, sans I/O: chain heads to relay, lost events to restore.

Theory of operation
-------------------
:class:`Relay` checks what a seat hands the host for the others or for the
host's own log, and says what to do with it; ``HostSession`` sends and
publishes.

- A ``Head`` is a seat's signed chain head (``guards/heads.py``): checked
  against the game (:meth:`Relay.head`), then relayed as a ``PeerHead`` to
  everyone else at the table, who compare it with their own (a host that
  shows two players two histories is caught there).
- A host whose log lost events (rolled back between runs: restored from an
  older copy, a disk that lied about a sync) learns it from the first peer
  that comes back holding more (its ``have``): :meth:`Relay.behind` logs
  ``log-behind`` once per table and game, and the peer hands the lost events
  back (``Restore``, WIRE.md 8).  Each was signed by this host (and its
  author), so the game checks each as a replica would and takes it as its
  next event (:meth:`Relay.restore`); a peer's word alone adds nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from domicile_p2p.net.sessions.effects import ConnectionId, HostEffect, Log
from domicile_p2p.net.sessions.guards.heads import HeadClaim
from domicile_p2p.net.sessions.room import EventObject, Game
from domicile_p2p.net.wire import Head, PeerHead, Restore

BEHIND_NOTE: Final = (
    "this table's log is behind what a returning player holds: it was "
    "rolled back (events.jsonl restored from an older copy?); the "
    "players hand the missing events back, and each is checked"
)


@dataclass(frozen=True, slots=True)
class Restored:
    """What a ``Restore`` gave back: the events taken (from ``start``), and why the rest
    were refused (``problem``, ``None`` when every one was taken)."""

    start: int
    taken: Sequence[EventObject]
    problem: str | None
    log: list[HostEffect]


class Relay:
    """The heads a host relays and the lost events it takes back (see the module docstring)."""

    def __init__(self) -> None:
        self._told_behind: set[tuple[int, str]] = set()
        """(table, game id) whose log a returning peer showed to be behind (logged once)."""

    def head(self, game: Game, seat: int, message: Head) -> PeerHead | str:
        """``seat``'s head as the others get it, or why it is refused."""
        claim = HeadClaim(
            seat, message.seq, bytes.fromhex(message.head), bytes.fromhex(message.sig)
        )
        problem = game.check_head(seat, claim)
        if problem is not None:
            return problem
        return PeerHead(seat, message.seq, message.head, message.sig)

    def behind(
        self,
        nameplate: int,
        game: Game | None,
        connection: ConnectionId,
        have: int,
        seat: int | None,
    ) -> list[HostEffect]:
        """A returning peer holds ``have`` events of ``nameplate``'s game: said once per table
        and game when that is more than the host's log holds, for the operator."""
        if game is None or have <= len(game.events):
            return []
        told = (nameplate, game.game_id)
        if told in self._told_behind:
            return []
        self._told_behind.add(told)
        return [
            Log(
                "log-behind",
                {
                    "table": nameplate,
                    "game_id": game.game_id,
                    "seat": seat,
                    "connection": connection,
                    "host_events": len(game.events),
                    "player_events": have,
                    "note": BEHIND_NOTE,
                },
            )
        ]

    def restore(self, nameplate: int, game: Game, seat: int | None, message: Restore) -> Restored:
        """The events of ``message`` that check out, taken into ``game`` in order."""
        start = len(game.events)
        taken, problem = game.restore(message.start, message.events)
        log: list[HostEffect] = []
        if taken:
            log.append(
                Log(
                    "log-restored",
                    {"table": nameplate, "seat": seat, "start": start, "events": len(taken)},
                )
            )
        return Restored(start, taken, problem, log)
