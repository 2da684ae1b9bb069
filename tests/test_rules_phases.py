"""The phase table (``MOVES``, ``TRANSITIONS``) and ``legal_actions``."""

from __future__ import annotations

import ast
from collections import deque
from functools import cache
from itertools import pairwise
from pathlib import Path

import pytest
from rules_support import Replay, give_one, manual_game, scripted_games

from domicile_p2p.rules import (
    MOVES,
    TRANSITIONS,
    Chat,
    CulpritSeance,
    Give,
    GroupGive,
    Lock,
    Outcome,
    Phase,
    Place,
    Refresh,
    Seance,
    Stage,
    TimeUp,
    Trigger,
    Unlock,
    apply,
    engine,
    legal_actions,
    phases,
    refresh_refusal,
)
from domicile_p2p.rules.draft import Draft

Position = tuple[Stage, Phase]
ALL_ACTION_TYPES = {
    Give,
    GroupGive,
    Refresh,
    Place,
    Lock,
    Unlock,
    Chat,
    Seance,
    CulpritSeance,
    TimeUp,
}


@cache
def _games() -> list[list[Replay]]:
    return scripted_games()


def _position(replay: Replay) -> Position:
    return (replay.secret.stage, replay.secret.phase)


def _one_state_per_position() -> dict[Position, list[Replay]]:
    found: dict[Position, list[Replay]] = {}
    for game in _games():
        for replay in game:
            found.setdefault(_position(replay), []).append(replay)
    return found


# --------------------------------------------------------------------------- the table as data


def test_every_position_is_reachable_from_the_first_morning() -> None:
    start: Position = (Stage.PLOT, Phase.DREAMS)
    reached = {start}
    queue = deque([start])
    while queue:
        stage, phase = queue.popleft()
        for (from_stage, from_phase, _), target in TRANSITIONS.items():
            if (from_stage, from_phase) == (stage, phase) and target not in reached:
                reached.add(target)
                queue.append(target)
    assert reached == set(MOVES) == {(stage, phase) for stage in Stage for phase in Phase}


def test_every_trigger_is_used_and_has_a_predicate() -> None:
    assert {trigger for (_, _, trigger) in TRANSITIONS} == set(Trigger)
    assert set(phases.HOLDS) == set(Trigger)
    assert set(phases.ON_ENTRY) <= set(Trigger)


def test_the_handlers_only_move_cards_and_markers() -> None:
    """Nothing in ``engine.py`` sets the position, the day or the outcome: ``phases.py`` does."""
    tree = ast.parse(Path(engine.__file__).read_text(encoding="utf-8"))
    assigned = {
        target.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign | ast.AugAssign)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        for target in (target.elts if isinstance(target, ast.Tuple) else [target])
        if isinstance(target, ast.Attribute)
    }
    assert assigned, "the handlers change the draft by attribute"
    assert not assigned & {"stage", "phase", "day", "outcome"}


def test_settle_stops_at_a_position_where_no_trigger_holds() -> None:
    replay = give_one(manual_game(2), 1)
    draft = Draft(replay.secret, Place(1, "char-01"))
    phases.settle(draft)
    assert (draft.stage, draft.phase) == (Stage.PLOT, Phase.DREAMS)


def test_settle_refuses_a_table_whose_triggers_cycle(monkeypatch: pytest.MonkeyPatch) -> None:
    def always(draft: Draft) -> bool:
        return True

    dreams, investigation = (Stage.PLOT, Phase.DREAMS), (Stage.PLOT, Phase.INVESTIGATION)
    monkeypatch.setitem(phases._EXITS, dreams, ((always, None, investigation),))
    monkeypatch.setitem(phases._EXITS, investigation, ((always, None, dreams),))
    with pytest.raises(AssertionError, match="the phase triggers cycle"):
        phases.settle(Draft(manual_game(2).secret, Place(1, "char-01")))


def test_only_the_end_has_no_way_out() -> None:
    sources = {(stage, phase) for (stage, phase, _) in TRANSITIONS}
    for position, moves in MOVES.items():
        ended = position[1] is Phase.ENDED
        assert (position not in sources) == ended
        if ended:
            assert moves == {Chat}


def test_chat_is_always_possible_and_every_action_has_a_place() -> None:
    assert all(Chat in moves for moves in MOVES.values())
    assert set().union(*MOVES.values()) == ALL_ACTION_TYPES


def _trigger(before: Replay, after: Replay) -> Trigger:
    """The trigger that took ``before`` to ``after``: the one entry of the table that
    joins the two positions, or, at the end of Stage Two, the one the outcome names."""
    candidates = [
        trigger
        for (stage, phase, trigger), target in TRANSITIONS.items()
        if (stage, phase) == _position(before)
        and target == _position(after)
        and trigger is not Trigger.TIME_UP  # these games play without a sand-glass
    ]
    if len(candidates) > 1:
        assert set(candidates) == {Trigger.CULPRIT_NAMED, Trigger.CALENDAR_OUT}
        won = after.secret.outcome is Outcome.WON
        return Trigger.CULPRIT_NAMED if won else Trigger.CALENDAR_OUT
    (trigger,) = candidates
    return trigger


def test_play_takes_every_transition() -> None:
    taken: set[tuple[Stage, Phase, Trigger]] = set()
    for game in _games():
        for before, after in pairwise(game):
            if _position(before) != _position(after):
                taken.add((*_position(before), _trigger(before, after)))
            elif after.secret.day != before.secret.day:
                raise AssertionError("a new day always starts a new phase")
    # Time runs out only at a table with a sand-glass: test_rules_sandglass.py takes those.
    assert taken == {entry for entry in TRANSITIONS if entry[2] is not Trigger.TIME_UP}


def test_scripted_games_end_as_planned() -> None:
    outcomes = [(game[-1].secret.stage, game[-1].secret.outcome) for game in _games()]
    assert [(stage, str(outcome)) for stage, outcome in outcomes] == [
        (Stage.CULPRIT, "won"),
        (Stage.PLOT, "lost"),
        (Stage.CULPRIT, "lost"),
    ]


# --------------------------------------------------------------------------- legal_actions


def _every_state() -> list[Replay]:
    return [replay for game in _games() for replay in game]


def test_legal_actions_are_allowed_by_the_phase_table() -> None:
    for replay in _every_state():
        allowed = MOVES[_position(replay)]
        assert {type(action) for action in legal_actions(replay.secret)} <= allowed


def test_every_legal_action_applies_cleanly() -> None:
    for replay in _every_state():
        for action in legal_actions(replay.secret):
            replay.apply(action)  # on the full state and on the public replay alike


def test_every_position_offers_what_its_phase_table_says() -> None:
    offered: dict[Position, set[type]] = {}
    for replay in _every_state():
        offered.setdefault(_position(replay), set()).update(
            type(action) for action in legal_actions(replay.secret)
        )
    for position, moves in MOVES.items():
        # Chat is never listed, nor the host's time-up (the host's clock says when); a
        # refresh only while the difficulty allows one.
        assert offered.get(position, set()) == moves - {Chat, TimeUp}, position


def test_legal_actions_of_a_public_state_are_the_investigators_only() -> None:
    replay = give_one(manual_game(2), 2)
    assert legal_actions(replay.public) == [
        *(Place(2, f"char-{n:02d}") for n in range(1, 7)),
    ]
    replay = replay.run([Place(2, "char-03"), Lock(2)])
    assert legal_actions(replay.public) == [Unlock(2)]
    secret_moves = legal_actions(replay.secret)
    assert Refresh() in secret_moves and Unlock(2) in secret_moves
    assert {type(action) for action in secret_moves} == {Refresh, Give, Unlock}
    # Gives: every non-empty subset of the hand, to the one investigator still waiting.
    assert sum(isinstance(action, Give) and action.to == 1 for action in secret_moves) == 127


def test_nothing_is_legal_after_the_end() -> None:
    for game in _games():
        assert legal_actions(game[-1].secret) == []
        assert legal_actions(game[-1].public) == []


def test_the_seance_offered_is_the_true_one() -> None:
    for replay in _every_state():
        for action in legal_actions(replay.secret):
            if isinstance(action, Seance | CulpritSeance):
                assert [action] == legal_actions(replay.secret)
                apply(replay.secret, action)  # a FalseVerdict would raise


def test_an_empty_hand_offers_the_empty_give() -> None:
    replay = manual_game(2, dream_cards=tuple(f"dream-{n:02d}" for n in range(1, 8)), protocol=2)
    replay = replay.apply(Give(1, replay.secrets.hand))
    gives = [action for action in legal_actions(replay.secret) if isinstance(action, Give)]
    assert gives == [Give(2, ())]


def test_refresh_refusal_is_the_error_apply_raises() -> None:
    asked = 0
    for replay in _every_state():
        state = replay.secret
        if Refresh not in MOVES[_position(replay)]:
            continue
        asked += 1
        refusal = refresh_refusal(state)
        if refusal is None:
            apply(state, Refresh())
            continue
        with pytest.raises(type(refusal)) as raised:
            apply(state, Refresh())
        assert str(raised.value) == str(refusal)
    assert asked


def test_the_triggers_read_stage_two_as_stage_two() -> None:
    """In Stage Two everyone holds three cards: that makes no one served or locked."""
    for game in _games():
        for replay in game:
            state = replay.secret
            if state.stage is not Stage.CULPRIT or state.phase is Phase.ENDED:
                continue
            draft = Draft(state, Lock(1))
            assert phases.HOLDS[Trigger.ALL_SERVED](draft) == all(
                inv.served for inv in state.investigators
            )
            assert phases.HOLDS[Trigger.ALL_LOCKED](draft) == all(
                inv.locked for inv in state.investigators
            )
