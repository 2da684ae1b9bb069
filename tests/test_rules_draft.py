"""The engine's draft: one action's changes on a mutable copy, frozen into one new state.

Every field of ``GameState`` must come through an action unchanged unless the action
changes it: a field the draft forgot would be reset to its default on every action.
"""

from __future__ import annotations

from dataclasses import fields, replace

import pytest
from rules_support import give_one, manual_game

from domicile_p2p.rules import GameState, Investigator, Lock, Place, Unlock, apply
from domicile_p2p.rules.draft import STATE_FIELDS, Draft


def test_the_draft_has_a_slot_for_every_field_of_the_state() -> None:
    assert tuple(field.name for field in fields(GameState)) == STATE_FIELDS
    assert set(STATE_FIELDS) <= set(Draft.__slots__)


def _marked(state: GameState, name: str) -> tuple[GameState, object]:
    """``state`` with field ``name`` set to a value no action makes and no default has."""
    if name == "investigators":
        marker: object = tuple(
            replace(investigator, dreams=(*investigator.dreams, f"marker-{seat}"))
            for seat, investigator in enumerate(state.investigators, start=1)
        )
    elif name == "secrets":
        assert state.secrets is not None
        marker = replace(state.secrets, culprit=state.secrets.culprit + 100)
    else:
        marker = object()  # any field added later: the draft must carry it as it is
    return replace(state, **{name: marker}), marker


@pytest.mark.parametrize("name", STATE_FIELDS)
def test_freezing_an_untouched_draft_keeps_every_field(name: str) -> None:
    state = give_one(manual_game(2), 1).secret
    marked, marker = _marked(state, name)
    frozen = Draft(marked, Lock(1)).freeze()
    assert getattr(frozen, name) == marker
    for other in STATE_FIELDS:
        assert getattr(frozen, other) == getattr(marked, other)


def test_an_action_changes_only_what_it_moves() -> None:
    state = give_one(manual_game(2), 1).secret
    placed = apply(state, Place(1, "char-01"))
    changed = {name for name in STATE_FIELDS if getattr(placed, name) is not getattr(state, name)}
    assert changed == {"investigators"}  # the rest is the very same object
    assert placed.investigators[1] is state.investigators[1]
    assert apply(apply(placed, Lock(1)), Unlock(1)) == placed


def test_a_draft_builds_one_investigator_list_of_its_own() -> None:
    state = manual_game(2).secret
    draft = Draft(state, Lock(1))
    draft.change_investigator(1, Investigator(found=("char-01",)))
    assert state.investigator(1) == Investigator()  # the state before is untouched
    assert draft.freeze().investigator(1).found == ("char-01",)
