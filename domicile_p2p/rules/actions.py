"""The moves of the game, as frozen values.  ``by`` is the acting seat."""

from __future__ import annotations

from dataclasses import dataclass

from domicile_p2p.rules.model import GHOST, TABLE_HOST, Verdict


@dataclass(frozen=True, slots=True)
class Give:
    """Stage One: the Ghost gives one or more dream cards to one investigator."""

    to: int
    cards: tuple[str, ...]
    by: int = GHOST


@dataclass(frozen=True, slots=True)
class GroupGive:
    """Stage Two: the Ghost gives exactly three dream cards to the whole group."""

    cards: tuple[str, ...]
    by: int = GHOST


@dataclass(frozen=True, slots=True)
class Refresh:
    """The Ghost discards its whole hand and draws seven new dream cards."""

    by: int = GHOST


@dataclass(frozen=True, slots=True)
class Place:
    """An investigator puts (or moves) their marker on a card."""

    by: int
    card: str


@dataclass(frozen=True, slots=True)
class Lock:
    """An investigator has decided."""

    by: int


@dataclass(frozen=True, slots=True)
class Unlock:
    """An investigator reconsiders before the séance."""

    by: int


@dataclass(frozen=True, slots=True)
class Chat:
    """Table talk.  Investigators only: the Ghost never speaks."""

    by: int
    text: str


@dataclass(frozen=True, slots=True)
class Seance:
    """Stage One: the Ghost's verdict on every active investigator's marker."""

    verdicts: tuple[Verdict, ...]
    by: int = GHOST


@dataclass(frozen=True, slots=True)
class CulpritSeance:
    """Stage Two: the Ghost's verdict on the group's unanimous accusation."""

    correct: bool
    by: int = GHOST


@dataclass(frozen=True, slots=True)
class TimeUp:
    """The host: the investigation's sand-glass ran out.

    Every placed, unlocked marker is locked where it stands (``locked``); an
    active investigator with no marker made no guess today (``no_guess``).  Both
    lists are in seat order and must be exactly what the state implies.
    """

    locked: tuple[int, ...]
    no_guess: tuple[int, ...]
    by: int = TABLE_HOST


Action = Give | GroupGive | Refresh | Place | Lock | Unlock | Chat | Seance | CulpritSeance | TimeUp
GHOST_ACTIONS = (Give, GroupGive, Refresh, Seance, CulpritSeance)
