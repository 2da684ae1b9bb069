"""The moves of the game, as frozen values.  ``by`` is the acting seat."""

from __future__ import annotations

from typing import Any

from domicile_p2p.rules.model import GHOST, TABLE_HOST, Verdict
from domicile_p2p.rules.records import Record
from domicile_p2p.rules.records import set_field as _set


class Give(Record):
    """Stage One: the Ghost gives one or more dream cards to one investigator."""

    to: int
    cards: tuple[str, ...]
    by: int

    __slots__ = ("by", "cards", "to")
    __match_args__ = ("to", "cards", "by")
    __record_fields__ = ("to", "cards", "by")

    def __init__(self, to: int, cards: tuple[str, ...], by: int = GHOST) -> None:
        _set(self, "to", to)
        _set(self, "cards", cards)
        _set(self, "by", by)

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__qualname__}(to={self.to!r}, cards={self.cards!r}, by={self.by!r})"
        )

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return (self.to, self.cards, self.by) == (other.to, other.cards, other.by)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.to, self.cards, self.by))


class GroupGive(Record):
    """Stage Two: the Ghost gives exactly three dream cards to the whole group."""

    cards: tuple[str, ...]
    by: int

    __slots__ = ("by", "cards")
    __match_args__ = ("cards", "by")
    __record_fields__ = ("cards", "by")

    def __init__(self, cards: tuple[str, ...], by: int = GHOST) -> None:
        _set(self, "cards", cards)
        _set(self, "by", by)

    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}(cards={self.cards!r}, by={self.by!r})"

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return (self.cards, self.by) == (other.cards, other.by)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.cards, self.by))


class Refresh(Record):
    """The Ghost discards its whole hand and draws seven new dream cards."""

    by: int

    __slots__ = ("by",)
    __match_args__ = ("by",)
    __record_fields__ = ("by",)

    def __init__(self, by: int = GHOST) -> None:
        _set(self, "by", by)

    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}(by={self.by!r})"

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return (self.by,) == (other.by,)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.by,))


class Place(Record):
    """An investigator puts (or moves) their marker on a card."""

    by: int
    card: str

    __slots__ = ("by", "card")
    __match_args__ = ("by", "card")
    __record_fields__ = ("by", "card")

    def __init__(self, by: int, card: str) -> None:
        _set(self, "by", by)
        _set(self, "card", card)

    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}(by={self.by!r}, card={self.card!r})"

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return (self.by, self.card) == (other.by, other.card)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.by, self.card))


class Lock(Record):
    """An investigator has decided."""

    by: int

    __slots__ = ("by",)
    __match_args__ = ("by",)
    __record_fields__ = ("by",)

    def __init__(self, by: int) -> None:
        _set(self, "by", by)

    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}(by={self.by!r})"

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return (self.by,) == (other.by,)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.by,))


class Unlock(Record):
    """An investigator reconsiders before the séance."""

    by: int

    __slots__ = ("by",)
    __match_args__ = ("by",)
    __record_fields__ = ("by",)

    def __init__(self, by: int) -> None:
        _set(self, "by", by)

    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}(by={self.by!r})"

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return (self.by,) == (other.by,)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.by,))


class Chat(Record):
    """Table talk.  Investigators only: the Ghost never speaks."""

    by: int
    text: str

    __slots__ = ("by", "text")
    __match_args__ = ("by", "text")
    __record_fields__ = ("by", "text")

    def __init__(self, by: int, text: str) -> None:
        _set(self, "by", by)
        _set(self, "text", text)

    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}(by={self.by!r}, text={self.text!r})"

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return (self.by, self.text) == (other.by, other.text)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.by, self.text))


class Seance(Record):
    """Stage One: the Ghost's verdict on every active investigator's marker."""

    verdicts: tuple[Verdict, ...]
    by: int

    __slots__ = ("by", "verdicts")
    __match_args__ = ("verdicts", "by")
    __record_fields__ = ("verdicts", "by")

    def __init__(self, verdicts: tuple[Verdict, ...], by: int = GHOST) -> None:
        _set(self, "verdicts", verdicts)
        _set(self, "by", by)

    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}(verdicts={self.verdicts!r}, by={self.by!r})"

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return (self.verdicts, self.by) == (other.verdicts, other.by)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.verdicts, self.by))


class CulpritSeance(Record):
    """Stage Two: the Ghost's verdict on the group's unanimous accusation."""

    correct: bool
    by: int

    __slots__ = ("by", "correct")
    __match_args__ = ("correct", "by")
    __record_fields__ = ("correct", "by")

    def __init__(self, correct: bool, by: int = GHOST) -> None:
        _set(self, "correct", correct)
        _set(self, "by", by)

    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}(correct={self.correct!r}, by={self.by!r})"

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return (self.correct, self.by) == (other.correct, other.by)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.correct, self.by))


class TimeUp(Record):
    """The host: the investigation's sand-glass ran out.

    Every placed, unlocked marker is locked where it stands (``locked``); an
    active investigator with no marker made no guess today (``no_guess``).  Both
    lists are in seat order and must be exactly what the state implies.
    """

    locked: tuple[int, ...]
    no_guess: tuple[int, ...]
    by: int

    __slots__ = ("by", "locked", "no_guess")
    __match_args__ = ("locked", "no_guess", "by")
    __record_fields__ = ("locked", "no_guess", "by")

    def __init__(
        self, locked: tuple[int, ...], no_guess: tuple[int, ...], by: int = TABLE_HOST
    ) -> None:
        _set(self, "locked", locked)
        _set(self, "no_guess", no_guess)
        _set(self, "by", by)

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__qualname__}("
            f"locked={self.locked!r}, "
            f"no_guess={self.no_guess!r}, "
            f"by={self.by!r})"
        )

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return (self.locked, self.no_guess, self.by) == (other.locked, other.no_guess, other.by)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.locked, self.no_guess, self.by))


Action = Give | GroupGive | Refresh | Place | Lock | Unlock | Chat | Seance | CulpritSeance | TimeUp
GHOST_ACTIONS = (Give, GroupGive, Refresh, Seance, CulpritSeance)
