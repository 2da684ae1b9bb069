"""``view(state, seat)``: exactly what one seat may see (RULES.md, "Visibility").

This is the only place where hidden information is cut away.  Investigators
get the public state; the Ghost also gets its columns, the culprit and its
hand, but never the deck order (it is shuffled face down).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Final

from domicile_p2p.rules.errors import UnknownSeat
from domicile_p2p.rules.model import GHOST, Column, GameState


@dataclass(frozen=True, slots=True)
class GhostKnowledge:
    """What the Ghost sees behind its screen."""

    columns: tuple[Column, ...]
    culprit: int
    hand: tuple[str, ...]

    def column(self, seat: int) -> Column:
        return self.columns[seat - 1]


@dataclass(frozen=True, slots=True)
class View:
    """One seat's view: the public state, plus the Ghost's knowledge for the Ghost."""

    seat: int
    state: GameState
    ghost: GhostKnowledge | None = None


# ``public`` runs once per applied action wherever bots play, so it copies the state
# with one C-level read of every field and one constructor call, which costs half of
# what ``dataclasses.replace``'s loop over the fields does.
_FIELD_NAMES: Final = tuple(field.name for field in fields(GameState))
_SECRETS_POSITION: Final = _FIELD_NAMES.index("secrets")
_field_values: Final = attrgetter(*_FIELD_NAMES)
assert all(field.init for field in fields(GameState))  # so the values fit ``__init__``'s order


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
