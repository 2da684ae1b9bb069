"""The front door's pages: where a player stands before sitting down at a table.

Screens never show one another.  A front-door screen asks the app to go to a
page (``DomicileApp.go``); the app keeps the page as its own news, and its
``route`` builds the screen that shows it, as it does for the game's screens.
So the start, set-up and join screens need not know each other, and the
client has no import cycle between them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the network stack loads after the first frame, with the door to tables
    from domicile_p2p.client_api import DiscoveredTable


@dataclass(frozen=True, slots=True)
class StartPage:
    """The front door itself: tables on the LAN, host, join, offline."""


@dataclass(frozen=True, slots=True)
class SetupPage:
    """The form of a new table, hosted here for the LAN or played ``offline``."""

    offline: bool


@dataclass(frozen=True, slots=True)
class JoinPage:
    """The form to join a table: one ``found`` on the LAN, or by code (``by_address``: with
    where it is); ``lan`` is what the front door had found, to find a code's table.
    ``watch``: the form to watch a table, without a seat."""

    found: DiscoveredTable | None = None
    by_address: bool = False
    lan: tuple[DiscoveredTable, ...] = ()
    watch: bool = False
    typed: tuple[tuple[str, str], ...] = ()
    """What was typed in the form, field by field (its id, its text): the form comes back
    with it after a join that failed, so the player corrects it rather than types it again."""


@dataclass(frozen=True, slots=True)
class ReplayPage:
    """A saved game, stepped through event by event (``domicile replay FILE``): checked
    against the card pack of ``pack_dir`` (the built-in one by default), or none
    (``no_pack``), as ``domicile verify`` does."""

    path: Path
    pack_dir: str | None = None
    no_pack: bool = False


FrontPage = StartPage | SetupPage | JoinPage | ReplayPage
