"""``view(state, seat)``: exactly what one seat may see (RULES.md, "Visibility").

This is the only place where hidden information is cut away.  Investigators
get the public state; the Ghost also gets its columns, the culprit and its
hand, but never the deck order (it is shuffled face down).
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, Final

from domicile_p2p.rules.errors import UnknownSeat
from domicile_p2p.rules.model import GHOST, Column, GameState
from domicile_p2p.rules.records import Record, field_names
from domicile_p2p.rules.records import set_field as _set


class GhostKnowledge(Record):
    """What the Ghost sees behind its screen."""

    columns: tuple[Column, ...]
    culprit: int
    hand: tuple[str, ...]

    __slots__ = ("columns", "culprit", "hand")
    __match_args__ = ("columns", "culprit", "hand")
    __record_fields__ = ("columns", "culprit", "hand")

    def __init__(self, columns: tuple[Column, ...], culprit: int, hand: tuple[str, ...]) -> None:
        _set(self, "columns", columns)
        _set(self, "culprit", culprit)
        _set(self, "hand", hand)

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__qualname__}("
            f"columns={self.columns!r}, "
            f"culprit={self.culprit!r}, "
            f"hand={self.hand!r})"
        )

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return (self.columns, self.culprit, self.hand) == (
                other.columns,
                other.culprit,
                other.hand,
            )
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.columns, self.culprit, self.hand))

    def column(self, seat: int) -> Column:
        return self.columns[seat - 1]


class View(Record):
    """One seat's view: the public state, plus the Ghost's knowledge for the Ghost."""

    seat: int
    state: GameState
    ghost: GhostKnowledge | None

    __slots__ = ("ghost", "seat", "state")
    __match_args__ = ("seat", "state", "ghost")
    __record_fields__ = ("seat", "state", "ghost")

    def __init__(self, seat: int, state: GameState, ghost: GhostKnowledge | None = None) -> None:
        _set(self, "seat", seat)
        _set(self, "state", state)
        _set(self, "ghost", ghost)

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__qualname__}("
            f"seat={self.seat!r}, "
            f"state={self.state!r}, "
            f"ghost={self.ghost!r})"
        )

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return (self.seat, self.state, self.ghost) == (other.seat, other.state, other.ghost)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.seat, self.state, self.ghost))


# ``public`` runs once per applied action wherever bots play, so it copies the state
# with one C-level read of every field and one constructor call, which costs half of
# what ``dataclasses.replace``'s loop over the fields does.
_FIELD_NAMES: Final = field_names(GameState)
_SECRETS_POSITION: Final = _FIELD_NAMES.index("secrets")
_field_values: Final = attrgetter(*_FIELD_NAMES)
assert GameState.__match_args__ == _FIELD_NAMES  # so the values fit ``__init__``'s order


def public(state: GameState) -> GameState:
    """The state with every secret removed: what every peer can replay and check."""
    if state.secrets is None:
        return state
    values = list(_field_values(state))
    values[_SECRETS_POSITION] = None
    return GameState(*values)


def view(state: GameState, seat: int, public_state: GameState | None = None) -> View:
    """What ``seat`` sees of ``state``.

    ``public_state`` is ``public(state)`` when the caller already holds it: every seat's
    view of one state can then share one copy instead of making its own.
    """
    if seat != GHOST and seat not in state.config.seats:
        raise UnknownSeat(f"there is no seat {seat} at this table")
    if public_state is None:
        public_state = public(state)
    if seat != GHOST or state.secrets is None:
        return View(seat, public_state)
    secrets = state.secrets
    knowledge = GhostKnowledge(secrets.columns, secrets.culprit, secrets.hand)
    return View(seat, public_state, knowledge)
