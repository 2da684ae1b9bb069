"""The app's one door to a table: what it can ask, and what it hears back.

The app never reaches into a table's machinery.  Whether the table runs in
this process against bots (``offline``) or on another laptop across the LAN,
the app talks to it through :class:`TableSession`:

- it *asks*: start the game, act (a rules action), chat, export the
  transcript, play again, leave;
- it *hears*, in order, through :meth:`TableSession.events`: the lobby as it
  changes, each new view of the game (``view(state, seat)`` from the rules
  engine, with the action that led to it), chat lines, the connection's
  status, actions the table refused (with the rule's own message), and at
  the end the verification report this client computed (``news``).

Everything here and in ``news`` is frozen data; the app keeps the latest of
each and renders it, so no widget ever holds game state of its own.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Final, Protocol

from domicile_p2p.rules import GHOST, MAX_CHAT_LENGTH, MAX_INVESTIGATORS, Difficulty
from domicile_p2p.rules import MAX_NAME_LENGTH as MAX_NAME_LENGTH  # the screens' name limit

if TYPE_CHECKING:
    from domicile_p2p.rules import Action
    from domicile_tui.news import SessionEvent


class SettingsError(ValueError):
    """Table settings the player typed that cannot make a table (the player's to fix)."""


class Role(StrEnum):
    GHOST = "ghost"
    INVESTIGATOR = "investigator"

    @property
    def label(self) -> str:
        return "the Ghost" if self is Role.GHOST else "an Investigator"


def clean_name(text: str, what: str) -> str:
    """``text`` trimmed, or :class:`SettingsError` when it cannot be a name: the host's rule
    for a seat's name (``transcript.names``), so a host never refuses a name typed here."""
    name = " ".join(text.split())
    if not name:
        raise SettingsError(f"the {what} cannot be empty")
    if len(name) > MAX_NAME_LENGTH:
        raise SettingsError(f"the {what} has at most {MAX_NAME_LENGTH} characters")
    # The transcript package loads with a table, not before the first frame.
    from domicile_p2p.client_api import name_problem

    problem = name_problem(name)
    if problem is not None:
        raise SettingsError(f"the {what} {problem}")
    return name


@dataclass(frozen=True, slots=True)
class TableSettings:
    """What the host of a new table chooses.

    ``open_seats`` are the seats kept for people who join over the network;
    every other seat except the host's own is played by a bot.  An offline
    table has no open seats.
    """

    table_name: str
    player_name: str
    role: Role = Role.INVESTIGATOR
    difficulty: Difficulty = Difficulty.NORMAL
    investigators: int = 3
    open_seats: frozenset[int] = frozenset()
    timer: int | None = None
    """Seconds of each investigation's sand-glass (``None``: no time limit; hosted tables)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "table_name", clean_name(self.table_name, "table name"))
        object.__setattr__(self, "player_name", clean_name(self.player_name, "player name"))
        try:
            object.__setattr__(self, "difficulty", Difficulty(self.difficulty))
            object.__setattr__(self, "role", Role(self.role))
        except ValueError as error:
            raise SettingsError(str(error)) from None
        if not 1 <= self.investigators <= MAX_INVESTIGATORS:
            raise SettingsError(
                f"a table has 1 to {MAX_INVESTIGATORS} investigators, not {self.investigators}"
            )
        if self.your_seat in self.open_seats:
            raise SettingsError("the host's own seat cannot be left open")
        seats = {GHOST, *range(1, self.investigators + 1)}
        if not self.open_seats <= seats:
            raise SettingsError(
                f"open seats {sorted(self.open_seats - seats)} are not at the table"
            )

    @property
    def your_seat(self) -> int:
        """The host sits in the Ghost's seat or in the first investigator seat."""
        return GHOST if self.role is Role.GHOST else 1

    @property
    def seats(self) -> tuple[int, ...]:
        return (GHOST, *range(1, self.investigators + 1))

    @property
    def bot_seats(self) -> tuple[int, ...]:
        return tuple(s for s in self.seats if s != self.your_seat and s not in self.open_seats)


class TableSession(Protocol):
    """A table as the app sees it.  Every method returns once the request is sent;
    what comes of it arrives through :meth:`events`."""

    def events(self) -> AsyncIterator[SessionEvent]:
        """Every event, in order, until the session closes."""
        ...

    async def open(self) -> None:
        """Sit down at the table: the first :class:`LobbyChanged` follows."""

    async def start_game(self) -> None:
        """The host begins the game; bots take every seat still open."""

    async def act(self, action: Action) -> None:
        """Play a rules action for this player's seat."""

    async def chat(self, text: str) -> None:
        """Say something to the table (investigators only)."""

    async def export_transcript(self, path: Path) -> Path:
        """Write the game's transcript to ``path``; the path written."""
        ...

    async def play_again(self) -> None:
        """Another game at the same table, same seats: back to the lobby."""

    async def set_ready(self, ready: bool) -> None:
        """In the lobby of the table's next game: this player is (not) ready for it."""

    async def rotate_seats(self) -> None:
        """The owner, in the lobby of the table's next game: everyone moves round one seat."""

    def seance_seen(self) -> bool:
        """This player has seen every séance told so far (closed it, or it passed by
        itself).  Whether the table turns the next sand-glass at once for it: a table on
        this laptop does (its one person has seen it); a networked table tells its host
        (``seen``) and says no: the host turns the glass once every person at the table has
        seen the séance (``SEANCE_SEEN_WITHIN`` after it at most) and the app hears it as a
        ``GlassTurned``."""
        ...

    async def close(self) -> None:
        """Leave the table."""


def check_chat(text: str) -> str:
    """The message to send, or :class:`SettingsError` for one the rules would refuse."""
    message = text.strip()
    if not message:
        raise SettingsError("a chat message cannot be empty")
    if len(message) > MAX_CHAT_LENGTH:
        raise SettingsError(f"a chat message has at most {MAX_CHAT_LENGTH} characters")
    return message


class EventChannel:
    """An ordered, closable stream of session events (a queue with an end)."""

    _END: Final = object()

    def __init__(self) -> None:
        self._queue: asyncio.Queue[object] = asyncio.Queue()
        self._closed = False

    def put(self, event: SessionEvent) -> None:
        if not self._closed:
            self._queue.put_nowait(event)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._queue.put_nowait(self._END)

    async def __aiter__(self) -> AsyncIterator[SessionEvent]:
        while True:
            event = await self._queue.get()
            if event is self._END:
                return
            yield event  # type: ignore[misc]
