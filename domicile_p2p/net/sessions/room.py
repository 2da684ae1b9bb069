"""One table on a host: its code, its seats, and (once it starts) its game.

A room is in the lobby until it starts; then the host writes the genesis
event naming every seat's key and the game begins.  From then on the seats
are fixed by the transcript (the keys are bound at genesis) and a player who
comes back takes back the seat its key holds.

Seats the host plays with bots (``bot_seats``) are *reserved for bots but
open*: in the lobby a person who joins takes a bot-held seat (investigator
seats first; the Ghost's only when the person asks for the Ghost) and the
bot steps aside.  When the game starts is the room's :class:`~wire.Starts`
rule: as soon as every seat is held (``full``); when the host's owner says
so (``owner``); or once the lobby wait is over (``wait``).  A table whose
every seat is held by a person starts at once whatever the rule.

A table lasts longer than one game: once a game is over, the host may open
the lobby of the table's *next* game (:meth:`Room.next_game`, a rematch) with
the same code and everyone still connected in their seats.  In that lobby a
person's seat is *not ready* until its player says so (a bot always is), the
owner may move everyone round one seat (:meth:`Room.rotate`: the next seat's
player becomes the Ghost), and the game begins by the same rule as the first
one, once every seat is also ready.  Each game is a transcript of its own,
with its own genesis and game id; ``games`` counts them.

The game itself (the transcript's ``GameTable``: signatures, counters, the
chain, the rules) sits behind :class:`Game`; this module only decides who
sits where, and when the game may begin.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from domicile_p2p.net.join.codes import JoinCode
from domicile_p2p.net.sessions.guards.heads import HeadClaim
from domicile_p2p.net.wire import ErrorCode, Lobby, Role, SeatStatus, Starts, TableState
from domicile_p2p.rules import GHOST, Difficulty
from domicile_p2p.text import inert
from domicile_p2p.transcript.ledger import Step
from domicile_p2p.transcript.names import name_problem

EventObject = Mapping[str, Any]


class Refusal(Exception):
    """The host refuses a request for a reason the player should see; ``code`` is the wire code."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code


def seat_name_allowed(name: str) -> None:
    """:class:`Refusal` (``bad-message``) for a name that breaks the one rule for a seat's
    name (``transcript.names``): the genesis would refuse it, so no seat may hold it."""
    problem = name_problem(name)
    if problem is not None:
        raise Refusal(ErrorCode.BAD_MESSAGE, f"the name {inert(name)!r} {problem}")


class Game(Protocol):
    """A running game as the host's session sees it (see ``game.py``)."""

    @property
    def game_id(self) -> str: ...

    @property
    def events(self) -> Sequence[EventObject]: ...

    @property
    def lines(self) -> Sequence[bytes]:
        """Each event's canonical JSON (what the log holds), in the order of ``events``."""
        ...

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

    @property
    def investigation(self) -> tuple[int, int] | None:
        """The (day, stage) of the investigation under way at a table with a sand-glass."""
        ...

    @property
    def round(self) -> tuple[int, int] | None:
        """The (day, stage) of the game under way (a séance moves it on; ``None``: not in play)."""
        ...

    @property
    def timer(self) -> int | None:
        """Seconds of the sand-glass, as the genesis records it (``None``: none)."""
        ...

    def time_up(self) -> EventObject | None:
        """Call time on the investigation; the time-up event (``None``: none under way)."""
        ...

    def check_head(self, seat: int, claim: HeadClaim) -> str | None:
        """Why ``seat``'s signed chain head must not be relayed; ``None`` when it may."""
        ...

    def restore(
        self, start: int, values: Sequence[Mapping[str, Any]]
    ) -> tuple[Sequence[EventObject], str | None]:
        """Events the host's log lost, handed back: those taken, and why not the rest."""
        ...


@dataclass(frozen=True, slots=True)
class SeatHolder:
    seat: int
    key: str
    name: str
    bot: bool


@dataclass(frozen=True, slots=True)
class Seating:
    """Where a new player sat down, and the bot it took the seat from (if any)."""

    seat: int
    displaced: SeatHolder | None = None


GameFactory = Callable[[Sequence[SeatHolder]], Game]
"""Starts a game for a full table (writing its genesis event)."""


@dataclass(frozen=True, slots=True)
class RoomConfig:
    nameplate: int
    code: JoinCode
    name: str
    investigators: int
    difficulty: Difficulty
    timer: int | None = None
    """Seconds of each investigation's sand-glass (``None``: no time limit)."""

    @property
    def seats(self) -> range:
        return range(GHOST, self.investigators + 1)

    def rotated(self, seat: int) -> int:
        """Where ``seat``'s player sits once everyone moves round one seat: the next seat's
        player becomes the Ghost, the Ghost's takes the last seat."""
        return (seat - 1) % len(self.seats)


class Room:
    def __init__(
        self,
        config: RoomConfig,
        start_game: GameFactory,
        *,
        game: Game | None = None,
        holders: Sequence[SeatHolder] = (),
        bot_seats: frozenset[int] = frozenset(),
        starts: Starts = Starts.FULL,
        lobby_wait: float = 0.0,
        games: int = 1,
    ) -> None:
        if not bot_seats <= set(config.seats):
            raise ValueError(f"bot seats {sorted(bot_seats)} are not seats of this table")
        self.config = config
        self._start_game = start_game
        self.game = game
        self.holders: dict[int, SeatHolder] = {holder.seat: holder for holder in holders}
        self.bot_seats: set[int] = set(bot_seats)
        """Seats reserved for the host's bots (a person may take them in the lobby)."""
        self.starts = starts
        self.lobby_wait = lobby_wait
        """Seconds a ``wait`` room holds its lobby open before it starts (once full)."""
        self.lobby_deadline: float | None = None
        self.ready_deadline: float | None = None
        """When the not-ready people of a next game's lobby lose their seats (the host's
        session keeps this clock)."""
        self.start_requested = False
        self.games = games
        """Which of the table's games this is (or the lobby is for): 1 for the first."""
        self.browser_keys: frozenset[str] = frozenset()
        """The keys of the seats the host serves to browsers (their clients run on the host):
        a seat held with one of them is marked ``browser`` in the lobby."""
        self.ready: set[int] = set()
        """Seats whose person said ready in the lobby of a next game (bots always are)."""
        self.out_of_order: str | None = None
        """Why the host set this table aside (its own failure, never a guest's input):
        nothing starts or joins here until the host restarts."""

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

    @property
    def bot_held(self) -> list[int]:
        """Seats a person may still take from a bot (in the lobby): reserved, no person in it."""
        if self.game is not None:
            return []
        return [seat for seat in self.config.seats if self._takeable(seat)]

    def seat_of(self, key: str) -> int | None:
        for holder in self.holders.values():
            if holder.key == key:
                return holder.seat
        return None

    def take_seat(
        self, key: str, name: str, role: Role, wish: int | None = None, *, bot: bool = False
    ) -> Seating:
        """Seat a new player (in the lobby only); where, or :class:`Refusal`."""
        seat_name_allowed(name)
        if self.game is not None:
            raise Refusal(
                ErrorCode.GAME_STARTED, "the game has started at this table: its seats are fixed"
            )
        if wish is not None and wish not in self.config.seats:
            raise Refusal(ErrorCode.ROLE_TAKEN, f"there is no seat {wish} at this table")
        if bot:
            seat = self._seat_for_bot(role, wish)
            self.holders[seat] = SeatHolder(seat, key, name, True)
            return Seating(seat)
        seat = self._seat_for_person(role, wish)
        displaced = self.holders.get(seat)
        self.holders[seat] = SeatHolder(seat, key, name, False)
        return Seating(seat, displaced)

    def _free(self, seat: int) -> bool:
        return seat not in self.holders and seat not in self.bot_seats

    def _takeable(self, seat: int) -> bool:
        """A bot's seat a person may have: reserved for a bot, and no person holds it."""
        holder = self.holders.get(seat)
        return seat in self.bot_seats and (holder is None or holder.bot)

    def _seat_for_person(self, role: Role, wish: int | None) -> int:
        seats = list(self.config.seats)
        investigators = [seat for seat in seats if seat != GHOST]
        if wish is not None:
            candidates = [wish] if self._free(wish) or self._takeable(wish) else []
        elif role is Role.GHOST:
            candidates = [GHOST] if self._free(GHOST) or self._takeable(GHOST) else []
        else:
            # An open investigator seat first; then (for "any") an open Ghost's seat, so a
            # table still finds its Ghost; then an investigator seat a bot holds.  A bot's
            # Ghost seat goes only to a person who asks for the Ghost.
            candidates = [seat for seat in investigators if self._free(seat)]
            if role is Role.ANY and self._free(GHOST):
                candidates.append(GHOST)
            candidates += [seat for seat in investigators if self._takeable(seat)]
        if not candidates:
            if not any(self._free(seat) or self._takeable(seat) for seat in seats):
                raise Refusal(ErrorCode.TABLE_FULL, "every seat at this table is taken")
            if wish is not None:
                raise Refusal(ErrorCode.ROLE_TAKEN, f"seat {wish} is taken at this table")
            if role is Role.GHOST:
                raise Refusal(ErrorCode.ROLE_TAKEN, "the Ghost's seat is taken at this table")
            ghost_bot = " (a bot plays the Ghost: ask for the Ghost to take its seat)"
            raise Refusal(
                ErrorCode.ROLE_TAKEN,
                "every investigator seat is taken at this table"
                + (ghost_bot if self._takeable(GHOST) else ""),
            )
        return candidates[0]

    def _seat_for_bot(self, role: Role, wish: int | None) -> int:
        """A bot sits in a free seat: the one it asks for, or one not kept for the host's bots."""
        if wish is not None:
            holder = self.holders.get(wish)
            if holder is None:
                return wish
            if wish in self.bot_seats and not holder.bot:
                raise Refusal(ErrorCode.TAKEN_OVER, f"a person has taken seat {wish} from its bot")
            raise Refusal(ErrorCode.ROLE_TAKEN, f"seat {wish} is taken at this table")
        free = [seat for seat in self.config.seats if self._free(seat)]
        if role is Role.GHOST:
            candidates = [GHOST] if GHOST in free else []
        elif role is Role.INVESTIGATOR:
            candidates = [seat for seat in free if seat != GHOST]
        else:
            candidates = [seat for seat in free if seat != GHOST] + [
                seat for seat in free if seat == GHOST
            ]
        if not candidates:
            if not free:
                raise Refusal(ErrorCode.TABLE_FULL, "every seat at this table is taken")
            raise Refusal(ErrorCode.ROLE_TAKEN, f"the {role.value} role is taken at this table")
        return candidates[0]

    def release(self, seat: int) -> bool:
        """Free a seat in the lobby (its player left before the game began)."""
        if self.game is not None or seat not in self.holders:
            return False
        del self.holders[seat]
        self.ready.discard(seat)
        return True

    # ------------------------------------------------------------- the next game

    def is_ready(self, seat: int) -> bool:
        """Whether ``seat``'s player is ready for the game this lobby is for."""
        holder = self.holders.get(seat)
        if holder is None:
            return False
        return holder.bot or self.games == 1 or seat in self.ready

    @property
    def all_ready(self) -> bool:
        return all(self.is_ready(seat) for seat in self.holders)

    def not_ready(self) -> list[int]:
        """The seats whose person is not ready for the game this lobby is for, in order."""
        return [seat for seat in sorted(self.holders) if not self.is_ready(seat)]

    def set_ready(self, seat: int, ready: bool) -> None:
        """``seat``'s player says it is (or no longer is) ready, in the lobby only."""
        if self.game is not None:
            raise Refusal(ErrorCode.UNEXPECTED, "ready is for the lobby of a table's next game")
        if seat not in self.holders:
            raise Refusal(ErrorCode.NOT_SEATED, f"seat {seat} is not held at this table")
        if ready:
            self.ready.add(seat)
        else:
            self.ready.discard(seat)

    def next_game(self, connected: set[int]) -> list[int]:
        """Open the lobby of the table's next game, once its game is over.

        The players of ``connected`` seats keep them (not ready yet); the seats of
        those who are gone are freed.  Returns the freed seats.
        """
        if self.game is None or not self.game.ended:
            raise Refusal(
                ErrorCode.UNEXPECTED, "the next game opens once this table's game is over"
            )
        freed = sorted(seat for seat in self.holders if seat not in connected)
        for seat in freed:
            del self.holders[seat]
        self.game = None
        self.games += 1
        self.ready.clear()
        self.start_requested = False
        self.lobby_deadline = self.ready_deadline = None
        return freed

    def rotate(self, bot_name: Callable[[int], str] | None = None) -> dict[int, int]:
        """Move everyone round one seat, in the lobby: the next seat's player becomes the
        Ghost, the Ghost's takes the last seat.  Nobody is ready after it (each player sees
        their new role first).  A bot takes ``bot_name`` of its new seat (a bot named for the
        Ghost's chair is not the Ghost once it sits elsewhere); a person keeps their name.
        Returns where each seat's holder went (old -> new seat)."""
        if self.game is not None:
            raise Refusal(ErrorCode.GAME_STARTED, "seats move round only in the lobby")
        moved = {seat: self.config.rotated(seat) for seat in self.config.seats}
        self.holders = {
            moved[old]: SeatHolder(
                moved[old],
                holder.key,
                bot_name(moved[old]) if holder.bot and bot_name is not None else holder.name,
                holder.bot,
            )
            for old, holder in self.holders.items()
        }
        self.bot_seats = {moved[seat] for seat in self.bot_seats}
        self.ready.clear()
        return {old: moved[old] for old in sorted(moved)}

    @property
    def full(self) -> bool:
        return self.seats_free == 0

    def open_lobby(self, now: float) -> None:
        """The lobby is open from ``now`` (the ``wait`` rule counts from here)."""
        if self.lobby_deadline is None:
            self.lobby_deadline = now + self.lobby_wait

    def request_start(self) -> None:
        """The owner says start: the game begins as soon as every seat is held."""
        if self.game is not None:
            raise Refusal(ErrorCode.GAME_STARTED, "the game has already started at this table")
        self.start_requested = True

    def may_start(self, now: float) -> bool:
        """Whether the game should begin now (see the module docstring)."""
        if self.game is not None or self.out_of_order or not self.full or not self.all_ready:
            return False
        if self.start_requested or not any(h.bot for h in self.holders.values()):
            return True
        match self.starts:
            case Starts.FULL:
                return True
            case Starts.OWNER:
                return False
            case Starts.WAIT:
                return self.lobby_deadline is not None and now >= self.lobby_deadline

    def start(self) -> Sequence[EventObject]:
        """Begin the game of a full table; the opening events."""
        if self.game is not None or not self.full:
            raise RuntimeError("a game starts once, at a full table")
        ordered = [self.holders[seat] for seat in self.config.seats]
        self.game = self._start_game(ordered)
        return list(self.game.events)

    def lobby(self, connected: set[int], ready_timeout: float | None = None) -> Lobby:
        """The lobby message; ``ready_timeout`` is said in the lobby of a next game."""
        in_rematch_lobby = self.game is None and self.games > 1
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
                    ready=self.is_ready(seat) if holder else self.games == 1,
                    browser=holder is not None and holder.key in self.browser_keys,
                )
                for seat in self.config.seats
                for holder in [self.holders.get(seat)]
            ],
            starts=self.starts,
            game=self.games,
            ready_timeout=ready_timeout if in_rematch_lobby else None,
        )
