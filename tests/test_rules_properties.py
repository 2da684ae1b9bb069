"""Property tests: random legal play from random deals, checked after every step."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from rules_support import (
    POOL,
    Replay,
    assert_dreams_conserved,
    assert_investigator_cards_conserved,
    dealt_game,
    dreams,
    start,
)

from domicile_p2p.fairness.deal import Reshuffler
from domicile_p2p.rules import (
    CATEGORY_ORDER,
    GHOST,
    HAND_SIZE,
    LAST_DAY,
    MIN_DREAM_CARDS,
    RULE_VERSIONS,
    Action,
    Column,
    CulpritSeance,
    Difficulty,
    GameState,
    Give,
    GroupGive,
    Outcome,
    Phase,
    Place,
    Refresh,
    SecretSetup,
    Stage,
    Tableau,
    Unlock,
    View,
    legal_actions,
    public,
    refresh_refusal,
    view,
)

MAX_STEPS = 500  # far more than seven days of six investigators can take

PROPERTY = settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

keys = st.binary(min_size=32, max_size=32)


@st.composite
def games(draw: st.DrawFn) -> Replay:
    """A game dealt by the fairness layer; small dream packs make the deck run dry.

    Protocol 3 at its smallest packs, and protocol 2 (whose transcripts still replay) at
    packs smaller than protocol 3 allows."""
    protocol = draw(st.sampled_from(RULE_VERSIONS), label="protocol")
    sizes = [3, 7, 10, 16, 30, 84] if protocol == 2 else [MIN_DREAM_CARDS, 17, 20, 30, 84]
    return dealt_game(
        draw(keys),
        draw(keys),
        investigators=draw(st.integers(1, 6)),
        difficulty=draw(st.sampled_from(Difficulty)),
        dream_cards=dreams(draw(st.sampled_from(sizes))),
        protocol=protocol,
    )


def progressing(state: GameState, actions: list[Action]) -> list[Action]:
    """The legal actions that move the game forward: no unlocking, one placement per
    investigator per round, and in Stage Two everyone follows the first marker."""
    leader = next((inv.marker for inv in state.investigators if inv.marker is not None), None)
    chosen: list[Action] = []
    for action in actions:
        if isinstance(action, Unlock):
            continue
        if isinstance(action, Place):
            if state.investigator(action.by).marker is not None:
                continue
            if state.stage is Stage.CULPRIT and leader is not None and action.card != leader:
                continue
        chosen.append(action)
    return chosen


def _is_right(state: GameState, place: Place) -> bool:
    hidden = state.secrets
    assert hidden is not None
    if state.stage is Stage.CULPRIT:
        return place.card == hidden.column(hidden.culprit).character
    seeking = state.investigator(place.by).seeking
    return seeking is not None and place.card == hidden.column(place.by).card(seeking)


def with_insight(state: GameState, actions: list[Action]) -> list[Action]:
    """Investigators who read their dreams well: a seat that can place its marker on the
    right card does not place it elsewhere (a seat that must follow a wrong leader still may)."""
    knows = {a.by for a in actions if isinstance(a, Place) and _is_right(state, a)}
    return [
        a
        for a in actions
        if not (isinstance(a, Place) and a.by in knows and not _is_right(state, a))
    ]


def check_step(replay: Replay, dealt: Tableau) -> None:
    """Everything that must hold after every step of every game."""
    state = replay.secret
    hidden = state.secrets
    assert hidden is not None
    if state.config.protocol >= 3:
        # Protocol 3: the Ghost holds seven at every group give, and a refresh is offered
        # only when a whole new hand can be drawn without the old one.
        if (state.stage, state.phase) == (Stage.CULPRIT, Phase.DREAMS):
            assert state.hand_size == HAND_SIZE
        if refresh_refusal(state) is None:
            assert state.deck_size + state.discard_size >= HAND_SIZE
    assert 1 <= state.day <= LAST_DAY
    assert_dreams_conserved(state)
    assert_investigator_cards_conserved(state, dealt)
    for seat in state.config.seats:
        seen = view(state, seat)
        assert seen == View(seat, replay.public, None)
        assert seen.state.secrets is None
        assert seen.state.dreams_in_play.isdisjoint(hidden.hand + hidden.deck + hidden.discard)
    ghost = view(state, GHOST)
    assert ghost.ghost is not None and ghost.ghost.hand == hidden.hand
    assert ghost.state == replay.public


@pytest.mark.slow
@PROPERTY
@given(game=games(), data=st.data())
def test_random_legal_play_ends_within_seven_days_and_keeps_every_invariant(
    game: Replay, data: st.DataObject
) -> None:
    replay = game
    check_step(replay, game.secret.tableau)
    skill = data.draw(st.integers(0, 10), label="skill")  # in tenths: how often insight strikes
    for _ in range(MAX_STEPS):
        if replay.secret.phase is Phase.ENDED:
            break
        legal = legal_actions(replay.secret)
        assert legal, "a game that has not ended always has a legal move"
        choices = progressing(replay.secret, legal)
        assert choices, "the progressing subset is never empty"
        if data.draw(st.integers(0, 9), label="insight") < skill:
            choices = with_insight(replay.secret, choices)
        action = data.draw(st.sampled_from(choices), label="action")
        assert action in legal
        replay = replay.apply(action)  # also checks the public replay agrees on every field
        check_step(replay, game.secret.tableau)
        if isinstance(action, Refresh) and replay.secret.config.protocol >= 3:
            assert replay.secret.hand_size == HAND_SIZE
    final = replay.secret
    event(f"{final.outcome} in stage {final.stage.value} on day {final.day}")
    assert final.phase is Phase.ENDED, "the game did not end"
    assert final.outcome in (Outcome.WON, Outcome.LOST)
    assert final.day <= LAST_DAY
    if final.outcome is Outcome.WON:
        assert final.stage is Stage.CULPRIT
        accused = final.investigator(1).marker
        assert final.secrets is not None
        assert accused == final.secrets.column(final.secrets.culprit).character
    else:
        assert final.day == LAST_DAY


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games(), data=st.data())
def test_every_legal_action_applies_on_the_way(game: Replay, data: st.DataObject) -> None:
    replay = game
    for _ in range(MAX_STEPS):
        if replay.secret.phase is Phase.ENDED:
            break
        legal = legal_actions(replay.secret)
        # Every action but the (many) gives, and a few gives drawn at random.
        gives = [action for action in legal if isinstance(action, Give | GroupGive)]
        others = [action for action in legal if not isinstance(action, Give | GroupGive)]
        sample = others + data.draw(
            st.lists(st.sampled_from(gives), max_size=3) if gives else st.just([])
        )
        for action in sample:
            replay.apply(action)
        choices = progressing(replay.secret, legal)
        if data.draw(st.booleans(), label="insight"):
            choices = with_insight(replay.secret, choices)
        replay = replay.apply(data.draw(st.sampled_from(choices), label="action"))
    assert replay.secret.phase is Phase.ENDED


# --------------------------------------------------------------------------- two secrets


@dataclass(frozen=True)
class Twins:
    """Two full games with the same public history and different secrets."""

    first: Replay
    second: Replay

    def apply(self, action: Action) -> Twins:
        return Twins(self.first.apply(action), self.second.apply(action))


@st.composite
def twins(draw: st.DrawFn) -> Twins:
    first = draw(games())
    config, tableau = first.secret.config, first.secret.tableau
    hidden = first.secrets
    # The second Ghost's columns are the first's, handed to other seats per category.
    seats = config.investigators
    same = st.just(list(range(seats)))
    orders = {
        category: draw(same | st.permutations(range(seats)), label=f"{category} order")
        for category in CATEGORY_ORDER
    }
    columns = tuple(
        Column(
            *(hidden.columns[orders[category][index]].card(category) for category in CATEGORY_ORDER)
        )
        for index in range(seats)
    )
    culprit = draw(st.integers(1, seats), label="culprit")
    # Same hand to start with; the deck agrees down to a point and differs below it.
    split = draw(st.integers(min(7, len(config.dream_cards)), len(config.dream_cards)))
    initial = hidden.hand + hidden.deck
    deck = initial[:split] + tuple(draw(st.permutations(initial[split:])))
    reshuffle = Reshuffler(draw(keys, label="second ghost key"))
    second = start(config, tableau, SecretSetup(columns, culprit, deck, reshuffle))
    return Twins(first, second)


def _same_verdict(twins: Twins, action: Action) -> bool:
    """Would the two Ghosts judge this placement (or accusation) alike?"""
    first, second = twins.first.secret, twins.second.secret
    assert first.secrets is not None and second.secrets is not None
    if not isinstance(action, Place):
        return True
    if first.stage is Stage.CULPRIT:
        culprit_first = first.secrets.column(first.secrets.culprit).character
        culprit_second = second.secrets.column(second.secrets.culprit).character
        return (action.card == culprit_first) == (action.card == culprit_second)
    seeking = first.investigator(action.by).seeking
    assert seeking is not None
    right_first = first.secrets.column(action.by).card(seeking)
    right_second = second.secrets.column(action.by).card(seeking)
    return (action.card == right_first) == (action.card == right_second)


def _shared_moves(twins: Twins) -> list[Action]:
    """Moves legal for both Ghosts that they would judge alike."""
    second_hand = set(twins.second.secrets.hand)
    moves = []
    for action in progressing(twins.first.secret, legal_actions(twins.first.secret)):
        if isinstance(action, Give | GroupGive) and not set(action.cards) <= second_hand:
            continue
        if isinstance(action, CulpritSeance | Place) and not _same_verdict(twins, action):
            continue
        moves.append(action)
    return moves


@pytest.mark.slow
@PROPERTY
@given(pair=twins(), data=st.data())
def test_investigators_see_only_the_public_history(pair: Twins, data: st.DataObject) -> None:
    event("different secrets" if pair.first.secrets != pair.second.secrets else "same secrets")
    for _ in range(MAX_STEPS):
        assert public(pair.first.secret) == public(pair.second.secret)
        for seat in pair.first.secret.config.seats:
            assert view(pair.first.secret, seat) == view(pair.second.secret, seat)
        assert view(pair.first.secret, GHOST).state == view(pair.second.secret, GHOST).state
        if pair.first.secret.phase is Phase.ENDED:
            break
        moves = _shared_moves(pair)
        if data.draw(st.booleans(), label="insight"):
            moves = with_insight(pair.first.secret, moves)
        state = pair.first.secret
        event(f"shared history reached day {state.day}, stage {state.stage.value}")
        if not moves:
            break  # the two Ghosts' hands no longer share a card: the histories part here
        pair = pair.apply(data.draw(st.sampled_from(moves), label="action"))


def test_the_twins_strategy_builds_distinct_secrets() -> None:
    # The property above would be empty if the second Ghost always equalled the first.
    seen_different = []

    @settings(max_examples=20, deadline=None, database=None)
    @given(pair=twins())
    def collect(pair: Twins) -> None:
        seen_different.append(pair.first.secrets != pair.second.secrets)

    collect()
    assert any(seen_different)


def test_the_pool_is_large_enough_for_every_table() -> None:
    largest = 6 + 6  # six investigators at the hardest level
    assert all(len(POOL[category]) >= largest for category in CATEGORY_ORDER)
