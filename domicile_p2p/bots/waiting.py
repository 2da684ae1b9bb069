"""Stage Two: how long the bots wait for the people before they commit.

A bot proposes its group at once (it places its marker and says why), but
it locks only once the people at the table have had their say: when every
person has locked, or half the sand-glass has run, or, at a table without a
sand-glass, a minute has passed since the group give.  Then it follows the
majority of the people's locked markers
(:class:`~domicile_p2p.bots.investigator.InvestigatorBot`).  A table of bots
only never waits.

Pure: the runner reads its own clock and says how long it has waited.
"""

from __future__ import annotations

from typing import Final

from domicile_p2p.rules import GameState, Phase, Stage

WAIT_WITHOUT_SAND_GLASS: Final = 60.0
"""Seconds the bots wait for the people at a table without a sand-glass."""

SAND_GLASS_SHARE: Final = 0.5
"""The share of the sand-glass the bots wait for the people."""


def waiting_for_people(state: GameState, people: frozenset[int]) -> bool:
    """Whether this is a Stage Two investigation in which a person has not locked yet."""
    if state.stage is not Stage.CULPRIT or state.phase is not Phase.INVESTIGATION:
        return False
    return any(not state.investigator(seat).locked for seat in people)


def patience(state: GameState) -> float:
    """How long the bots wait for the people, in seconds from the group give."""
    timer = state.config.timer
    if timer is None:
        return WAIT_WITHOUT_SAND_GLASS
    return SAND_GLASS_SHARE * timer


def wait_left(state: GameState, people: frozenset[int], waited: float) -> float | None:
    """Seconds the bots still wait, having waited ``waited``; ``None``: they need not."""
    if not waiting_for_people(state, people):
        return None
    left = patience(state) - waited
    return left if left > 0 else None
