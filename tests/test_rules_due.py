"""``rules.due``: what is due now agrees with the phase table, in every state of played games."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rules_support import Replay, manual_game, play_round
from test_rules_properties import MAX_STEPS, games, progressing, with_insight

from domicile_p2p.rules import (
    AWAITS,
    GHOST,
    MOVES,
    TRANSITIONS,
    Action,
    Awaiting,
    CulpritSeance,
    Difficulty,
    GameState,
    Give,
    GroupGive,
    Lock,
    Phase,
    Refresh,
    RefreshLimit,
    Seance,
    Stage,
    TimeUp,
    Trigger,
    due,
    legal_actions,
    refresh_refusal,
)

_GHOST_MOVES = (Give, GroupGive, Seance, CulpritSeance)


def test_each_position_awaits_the_triggers_that_leave_it_but_the_clock() -> None:
    for (stage, phase), (_, triggers) in AWAITS.items():
        leaving = {t for (s, p, t) in TRANSITIONS if (s, p) == (stage, phase)}
        assert triggers == leaving - {Trigger.TIME_UP}, (stage, phase)
    assert set(AWAITS) == set(MOVES)


def _check_state(state: GameState) -> None:
    """What ``due`` says of one state, against ``MOVES`` and the legal actions."""
    d = due(state)
    position = (state.stage, state.phase)
    assert d.moves == MOVES[position]
    assert (d.day, d.stage, d.phase) == (state.day, state.stage, state.phase)
    legal = legal_actions(state)
    assert all(type(action) in d.moves for action in legal)
    ghost_owes = d.awaiting in (Awaiting.GIVES, Awaiting.GROUP_GIVE, Awaiting.SEANCE)
    assert (d.to_move == (GHOST,)) == ghost_owes and (GHOST in d.to_move) == ghost_owes
    if state.secrets is not None:  # the Ghost's moves are listed only with its secrets
        assert any(isinstance(a, _GHOST_MOVES) for a in legal) == ghost_owes
        gives = sorted({a.to for a in legal if isinstance(a, Give)})
        assert list(d.to_serve) == gives
    elif d.awaiting is Awaiting.GIVES:
        unserved = [s for s in state.active_seats if not state.investigator(s).served]
        assert list(d.to_serve) == unserved
    if d.awaiting is Awaiting.LOCKS:
        assert d.undecided and d.to_move == d.undecided
    if d.awaiting is Awaiting.ACCUSATION:
        assert set(d.to_move) == set(d.undecided or state.config.seats)
    if position in ((Stage.PLOT, Phase.DREAMS), (Stage.PLOT, Phase.INVESTIGATION)):
        unlocked = [s for s in state.active_seats if not state.investigator(s).locked]
        assert list(d.undecided) == unlocked
    assert d.investigation == (
        (state.day, int(state.stage)) if state.phase is Phase.INVESTIGATION else None
    )
    assert d.key == (state.day, int(state.stage))
    assert d.timed == (state.config.timer is not None and state.phase is Phase.INVESTIGATION)
    assert d.seance == (state.phase is Phase.SEANCE)
    assert d.over == (state.phase is Phase.ENDED)
    if Refresh in d.moves:
        assert (Refresh() in legal) <= (d.refreshes_now > 0)
        assert isinstance(refresh_refusal(state), RefreshLimit) == (d.refreshes_now == 0)


def _moved(before: GameState, action: Action, after: GameState) -> None:
    """The position changed exactly when what ``due`` said it awaited arrived."""
    d = due(before)
    changed = (before.stage, before.phase) != (after.stage, after.phase)
    if isinstance(action, TimeUp):
        assert changed
        return
    match d.awaiting:
        case Awaiting.GIVES:
            expected = isinstance(action, Give) and d.to_serve == (action.to,)
        case Awaiting.GROUP_GIVE:
            expected = isinstance(action, GroupGive)
        case Awaiting.LOCKS:
            expected = isinstance(action, Lock) and d.undecided == (action.by,)
        case Awaiting.ACCUSATION:
            expected = after.phase is Phase.SEANCE
            assert not expected or (isinstance(action, Lock) and not due(after).undecided)
        case Awaiting.SEANCE:
            expected = isinstance(action, Seance | CulpritSeance)
        case Awaiting.NOTHING:
            expected = False
    assert changed == expected, (d.awaiting, action)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(game=games(), data=st.data())
def test_due_agrees_with_the_phase_table_in_played_games(game: Replay, data: st.DataObject) -> None:
    replay = game
    _check_state(replay.secret)
    for _ in range(MAX_STEPS):
        state = replay.secret
        if state.phase is Phase.ENDED:
            break
        legal = legal_actions(state)
        choices = progressing(state, legal)
        if data.draw(st.booleans(), label="insight"):
            choices = with_insight(state, choices)
        action = data.draw(st.sampled_from(choices), label="action")
        replay = replay.apply(action)
        _moved(state, action, replay.secret)
        _check_state(replay.secret)
        _check_state(replay.public)  # the public state says the same (the Ghost's moves aside)


def test_due_names_the_seats_still_to_serve_and_the_undecided() -> None:
    replay = manual_game(3, Difficulty.NORMAL)
    first = due(replay.secret)
    assert first.awaiting is Awaiting.GIVES and first.to_serve == (1, 2, 3)
    assert first.undecided == (1, 2, 3) and first.refreshes_left == 3 and first.refreshes_now == 1
    replay = replay.apply(Give(2, replay.secrets.hand[:1]))
    assert due(replay.secret).to_serve == (1, 3)
    replay = play_round(manual_game(1, Difficulty.NORMAL))
    assert due(replay.secret).key == (2, int(Stage.PLOT))
