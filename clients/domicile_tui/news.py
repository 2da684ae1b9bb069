"""What a table tells the app (see ``session``): its lobby, the game's views, chat, the
connection's status, refusals, the verification, and the end, as frozen values.

A module apart from ``session`` so that the first frame does not wait for them:
``domicile play`` shows its first screen before any table has said anything, and these
fourteen dataclasses were ~half of the client's own import time before it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from domicile_tui.status import SeatKind

if TYPE_CHECKING:
    from domicile_p2p.client_api import Starts  # the network stack, only where tables are
    from domicile_p2p.rules import Action, Difficulty, View
    from domicile_tui.recap import Recap
    from domicile_tui.status import Status
    from domicile_tui.timeline import Reveal


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    name: str
    kind: SeatKind
    ready: bool = False
    connected: bool = True
    browser: bool = False
    """Played in a browser through a client its host runs (``--browser-seats``): its
    player trusts the host with the seat."""


@dataclass(frozen=True, slots=True)
class LobbyInfo:
    """The table before (and between) games: who sits where and how to join."""

    table_name: str
    difficulty: Difficulty
    seats: tuple[SeatInfo, ...]
    your_seat: int
    is_host: bool
    offline: bool
    code: str | None = None
    address: str | None = None
    fingerprint_phrase: str | None = None
    listening: str | None = None
    """Where a table hosted on this laptop accepts players, in words (``None``: not hosted here)."""
    pack_name: str = ""
    started: bool = False
    can_start: bool = False
    """This player starts the game (Enter): the owner of a table hosted here, in its lobby."""
    takeover: bool = False
    """People who join with the code may take a bot's seat (only until the game starts:
    the seats' keys are bound when it does)."""
    starts: Starts | None = None
    """When a networked game begins: every seat held, the owner's start, or a lobby wait
    (``None``: not said, as at an offline table, which its player starts)."""
    watching: bool = False
    """This player watches the table without a seat: the investigators' public view, no
    controls; ``your_seat`` is the investigator whose view is shown."""
    game: int = 1
    """Which of the table's games this lobby is for: past the first, a rematch at the same
    table, in which every person says ready (R) before it begins."""
    can_rotate: bool = False
    """This player may move everyone round one seat (O): the owner, in a rematch's lobby."""
    watchers: tuple[str, ...] = ()
    """The names of the people watching the table without a seat (as at a real table, the
    players see who looks on)."""
    ready_timeout: float | None = None
    """In a rematch's lobby: seconds after which a person's seat that is not ready is freed
    (``None``: not said)."""
    browser_seats: tuple[str, ...] = ()
    """The URLs of the seats a table hosted here serves to browsers (``--browser-seats``),
    each a secret: shown to its owner only."""

    @property
    def rematch(self) -> bool:
        """The lobby of the table's next game (the same table, code and seats), as one of
        its players sees it (a spectator says no ready)."""
        return self.game > 1 and not self.offline and not self.watching

    @property
    def you_ready(self) -> bool:
        return any(info.seat == self.your_seat and info.ready for info in self.seats)

    @property
    def investigators(self) -> int:
        return len(self.seats) - 1

    @property
    def away(self) -> frozenset[int]:
        """The seats of people who left (their seat waits for them): shown as "away"."""
        return frozenset(
            info.seat for info in self.seats if info.kind is SeatKind.HUMAN and not info.connected
        )

    def seat(self, seat: int) -> SeatInfo:
        for info in self.seats:
            if info.seat == seat:
                return info
        raise KeyError(f"there is no seat {seat} at this table")


@dataclass(frozen=True, slots=True)
class ChatLine:
    seat: int
    name: str
    text: str


@dataclass(frozen=True, slots=True)
class Check:
    """One check of the end-of-game verification: passed, failed, or (``None``) not run."""

    name: str
    ok: bool | None
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Verification:
    """The verification this client computed over the whole transcript.

    ``reveal`` is what the Ghost's revealed seed re-derives (``None`` when
    the seed never came or did not open the commitments).
    """

    checks: tuple[Check, ...]
    valid: bool
    reveal: Reveal | None = None
    summary: str = ""
    head: str | None = None
    """The final chain head (hex): every player's client should show the same one."""
    recap: Recap | None = None
    """The game day by day, told from the verified transcript (``recap.py``)."""

    @property
    def ok(self) -> bool:
        """Every check that ran passed, and the transcript is complete."""
        return self.valid and bool(self.checks) and all(c.ok is not False for c in self.checks)


# --------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class LobbyChanged:
    lobby: LobbyInfo


@dataclass(frozen=True, slots=True)
class ViewChanged:
    """A new view of the game; ``action`` led to it (``None`` for the first view)."""

    view: View
    action: Action | None = None


@dataclass(frozen=True, slots=True)
class GlassTurned:
    """Everyone at the table has seen the séance that began round ``day``, ``stage``: the
    host turns that round's sand-glass now (or at its give, if that comes later), not
    ``SEANCE_SEEN_WITHIN`` after the séance (the host's ``all-seen``, WIRE.md §6c)."""

    day: int
    stage: int


@dataclass(frozen=True, slots=True)
class ChatPosted:
    line: ChatLine


@dataclass(frozen=True, slots=True)
class StatusChanged:
    status: Status


@dataclass(frozen=True, slots=True)
class ActionRefused:
    """The table refused one of this player's actions; ``message`` says which rule."""

    message: str


@dataclass(frozen=True, slots=True)
class GameVerified:
    verification: Verification


@dataclass(frozen=True, slots=True)
class TranscriptKept:
    """The table keeps the finished game's transcript by itself, at ``path``."""

    path: Path


@dataclass(frozen=True, slots=True)
class SessionClosed:
    """The table is gone for good (left, or the host closed it); ``reason`` says why.

    ``failed``: it closed because something went wrong (the host could not be reached, it
    refused the code), so ``reason`` is an error the player reads once, and nothing more.
    """

    reason: str
    failed: bool = False
    watchable: bool = False
    """The table refused a seat because its seats are fixed (its game has begun) or taken:
    watching it is offered instead."""


SessionEvent = (
    LobbyChanged
    | ViewChanged
    | GlassTurned
    | ChatPosted
    | StatusChanged
    | ActionRefused
    | GameVerified
    | TranscriptKept
    | SessionClosed
)
