"""One table on a host: its code, its seats, and (once every seat is taken) its game.

A room is in the lobby until every seat has a player, then the host writes
the genesis event naming every seat's key and the game begins; from then on
the seats are fixed by the transcript and a player who comes back takes
back the seat its key holds.  The game itself (the transcript's ``Table``:
signatures, counters, the chain, the rules) sits behind :class:`Game`; this
module only decides who sits where.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from domicile_p2p.net.codes import JoinCode
from domicile_p2p.net.guard_heads import HeadClaim
from domicile_p2p.net.wire import ErrorCode, Lobby, Role, SeatStatus, TableState
from domicile_p2p.rules import GHOST, Difficulty
from domicile_p2p.transcript.ledger import Step

EventObject = Mapping[str, Any]


class Refusal(Exception):
    """The host refuses a request for a reason the player should see; ``code`` is the wire code."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code


class Game(Protocol):
    """A running game as the host's session sees it (see ``game.py``)."""

    @property
    def game_id(self) -> str: ...

    @property
    def events(self) -> Sequence[EventObject]: ...

    @property
    def ended(self) -> bool: ...

    def submit(self, seat: int, action: Mapping[str, Any]) -> Sequence[EventObject]:
        """Validate and order one signed action of ``seat``; the new events, or :class:`Refusal`."""
        ...

    @property
    def step(self) -> Step:
        """Where the protocol stands (the setup's steps have a deadline)."""
        ...

    def abort_stalled(self) -> EventObject | None:
        """Abort, naming the seats the protocol waits for; the abort event (``None``: nobody)."""
        ...

    def check_head(self, seat: int, claim: HeadClaim) -> str | None:
        """Why ``seat``'s signed chain head must not be relayed; ``None`` when it may."""
        ...


@dataclass(frozen=True, slots=True)
class SeatHolder:
    seat: int
    key: str
    name: str
    bot: bool


GameFactory = Callable[[Sequence[SeatHolder]], Game]
"""Starts a game for a full table (writing its genesis event)."""


@dataclass(frozen=True, slots=True)
class RoomConfig:
    nameplate: int
    code: JoinCode
    name: str
    investigators: int
    difficulty: Difficulty

    @property
    def seats(self) -> range:
        return range(GHOST, self.investigators + 1)


class Room:
    def __init__(
        self,
        config: RoomConfig,
        start_game: GameFactory,
        *,
        game: Game | None = None,
        holders: Sequence[SeatHolder] = (),
    ) -> None:
        self.config = config
        self._start_game = start_game
        self.game = game
        self.holders: dict[int, SeatHolder] = {holder.seat: holder for holder in holders}

    @property
    def nameplate(self) -> int:
        return self.config.nameplate

    @property
    def state(self) -> TableState:
        if self.game is None:
            return TableState.LOBBY
        return TableState.ENDED if self.game.ended else TableState.PLAYING

    @property
    def seats_free(self) -> int:
        return len(self.config.seats) - len(self.holders)

    def seat_of(self, key: str) -> int | None:
        for holder in self.holders.values():
            if holder.key == key:
                return holder.seat
        return None

    def take_seat(
        self, key: str, name: str, role: Role, wish: int | None = None, *, bot: bool = False
    ) -> int:
        """Seat a new player (in the lobby only); the seat, or :class:`Refusal`."""
        if self.game is not None:
            raise Refusal(ErrorCode.TABLE_FULL, "the game at this table has already begun")
        free = [seat for seat in self.config.seats if seat not in self.holders]
        if wish is not None:
            if wish not in self.config.seats:
                raise Refusal(ErrorCode.ROLE_TAKEN, f"there is no seat {wish} at this table")
            candidates = [wish] if wish in free else []
        elif role is Role.GHOST:
            candidates = [GHOST] if GHOST in free else []
        elif role is Role.INVESTIGATOR:
            candidates = [seat for seat in free if seat != GHOST]
        else:
            # "any": an investigator seat first, so a table still finds a Ghost.
            candidates = [seat for seat in free if seat != GHOST] + [
                seat for seat in free if seat == GHOST
            ]
        if not free:
            raise Refusal(ErrorCode.TABLE_FULL, "every seat at this table is taken")
        if not candidates:
            wanted = f"seat {wish}" if wish is not None else f"the {role.value} role"
            raise Refusal(ErrorCode.ROLE_TAKEN, f"{wanted} is taken at this table")
        seat = candidates[0]
        self.holders[seat] = SeatHolder(seat, key, name, bot)
        return seat

    def release(self, seat: int) -> bool:
        """Free a seat in the lobby (its player left before the game began)."""
        if self.game is not None or seat not in self.holders:
            return False
        del self.holders[seat]
        return True

    @property
    def full(self) -> bool:
        return self.seats_free == 0

    def start(self) -> Sequence[EventObject]:
        """Begin the game of a full table; the opening events."""
        if self.game is not None or not self.full:
            raise RuntimeError("a game starts once, at a full table")
        ordered = [self.holders[seat] for seat in self.config.seats]
        self.game = self._start_game(ordered)
        return list(self.game.events)

    def lobby(self, connected: set[int]) -> Lobby:
        return Lobby(
            table=self.nameplate,
            name=self.config.name,
            state=self.state,
            difficulty=self.config.difficulty.value,
            seats=[
                SeatStatus(
                    seat=seat,
                    name=holder.name if holder else None,
                    key=holder.key if holder else None,
                    bot=holder.bot if holder else False,
                    connected=seat in connected,
                )
                for seat in self.config.seats
                for holder in [self.holders.get(seat)]
            ],
        )
