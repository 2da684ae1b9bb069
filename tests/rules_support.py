"""Builders for rules-engine tests: a synthetic card pack, games dealt by hand or from keys,
a replay that keeps the secret and the public state side by side, and invariant checks.

Everything goes through the public API of ``domicile_p2p.rules`` and
``domicile_p2p.fairness``; the real card pack is not needed (ids are ids).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

import pytest

from domicile_p2p.fairness.deal import deal_secrets, deal_tableau
from domicile_p2p.rules import (
    CATEGORY_ORDER,
    GROUP_GIVE_SIZE,
    PROTOCOL_VERSION,
    Action,
    Category,
    Column,
    CulpritSeance,
    Difficulty,
    GameState,
    Give,
    GroupGive,
    Lock,
    Phase,
    Place,
    Reshuffle,
    RuleError,
    Seance,
    Secrets,
    SecretSetup,
    Stage,
    Tableau,
    TableConfig,
    Unlock,
    Verdict,
    apply,
    new_game,
    public,
)

# --------------------------------------------------------------------------- a synthetic pack

POOL: dict[Category, tuple[str, ...]] = {
    Category.CHARACTER: tuple(f"char-{n:02d}" for n in range(1, 19)),
    Category.LOCATION: tuple(f"loc-{n:02d}" for n in range(1, 19)),
    Category.ITEM: tuple(f"item-{n:02d}" for n in range(1, 19)),
}
"""Eighteen investigator card ids per category, as in the smallest legal pack."""

DREAMS: tuple[str, ...] = tuple(f"dream-{n:02d}" for n in range(1, 85))
"""Eighty-four dream card ids, as in the smallest legal pack."""

NAMES: tuple[str, ...] = ("Jordan", "Avery", "Morgan", "Riley", "Sasha", "Quinn")


def dreams(count: int) -> tuple[str, ...]:
    """A dream pack of ``count`` cards (small packs make the deck run out quickly)."""
    return tuple(f"dream-{n:02d}" for n in range(1, count + 1))


def table(
    investigators: int = 3,
    difficulty: Difficulty = Difficulty.NORMAL,
    dream_cards: Sequence[str] = DREAMS,
    protocol: int = PROTOCOL_VERSION,
) -> TableConfig:
    return TableConfig(difficulty, NAMES[:investigators], tuple(dream_cards), protocol=protocol)


# --------------------------------------------------------------------------- hand-picked setups


def tableau_for(config: TableConfig) -> Tableau:
    """The first N cards of each category of :data:`POOL` (N from the difficulty table)."""
    size = config.rules.tableau_size(config.investigators)
    return Tableau(*(POOL[category][:size] for category in CATEGORY_ORDER))


def columns_for(tableau: Tableau, investigators: int) -> tuple[Column, ...]:
    """Seat ``s`` must find the ``s``-th card of each category: easy to reason about."""
    return tuple(
        Column(tableau.character[index], tableau.location[index], tableau.item[index])
        for index in range(investigators)
    )


def sorted_reshuffle(number: int, cards: tuple[str, ...]) -> tuple[str, ...]:
    """A reshuffle that keeps the (sorted) discard pile in order: predictable in tests."""
    return cards


def reversed_reshuffle(number: int, cards: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(reversed(cards))


def secret_for(
    config: TableConfig,
    tableau: Tableau,
    *,
    culprit: int = 1,
    deck: Sequence[str] | None = None,
    reshuffle: Reshuffle = sorted_reshuffle,
) -> SecretSetup:
    order = tuple(config.dream_cards if deck is None else deck)
    return SecretSetup(columns_for(tableau, config.investigators), culprit, order, reshuffle)


@dataclass(frozen=True)
class Replay:
    """The Ghost's full state and the public replay of the same events, kept in step.

    Every :meth:`apply` checks that the public replay accepted the action too and
    agrees with the full state on every public field, including the counts of the
    Ghost's hand, deck and discard pile.
    """

    secret: GameState
    public: GameState

    def apply(self, action: Action) -> Replay:
        step = Replay(apply(self.secret, action), apply(self.public, action))
        assert_public_agrees(step.secret, step.public)
        return step

    def run(self, actions: Sequence[Action]) -> Replay:
        replay = self
        for action in actions:
            replay = replay.apply(action)
        return replay

    @property
    def secrets(self) -> Secrets:
        assert self.secret.secrets is not None
        return self.secret.secrets


def start(config: TableConfig, tableau: Tableau, secret: SecretSetup) -> Replay:
    return Replay(new_game(config, tableau, secret), new_game(config, tableau))


def manual_game(
    investigators: int = 3,
    difficulty: Difficulty = Difficulty.NORMAL,
    dream_cards: Sequence[str] = DREAMS,
    *,
    culprit: int = 1,
    deck: Sequence[str] | None = None,
    reshuffle: Reshuffle = sorted_reshuffle,
    protocol: int = PROTOCOL_VERSION,
) -> Replay:
    """A game with a hand-picked tableau and columns, the dream deck in pack order (protocol 2
    for the rules of version 2: small packs, a group give of what the hand holds)."""
    config = table(investigators, difficulty, dream_cards, protocol)
    tableau = tableau_for(config)
    secret = secret_for(config, tableau, culprit=culprit, deck=deck, reshuffle=reshuffle)
    return start(config, tableau, secret)


def dealt_game(
    joint_seed: bytes,
    ghost_key: bytes,
    investigators: int = 3,
    difficulty: Difficulty = Difficulty.NORMAL,
    dream_cards: Sequence[str] = DREAMS,
    protocol: int = PROTOCOL_VERSION,
) -> Replay:
    """A game dealt by the fairness layer from two 32-byte keys."""
    config = table(investigators, difficulty, dream_cards, protocol)
    tableau = deal_tableau(joint_seed, POOL, config.rules.tableau_size(investigators))
    return start(config, tableau, deal_secrets(ghost_key, config, tableau))


# --------------------------------------------------------------------------- playing


def right_card(state: GameState, seat: int) -> str:
    """The card ``seat`` is looking for (needs the Ghost's secrets)."""
    assert state.secrets is not None
    seeking = state.investigator(seat).seeking
    assert seeking is not None
    return state.secrets.column(seat).card(seeking)


def wrong_card(state: GameState, seat: int) -> str:
    """A tableau card of the category ``seat`` seeks that is not theirs."""
    seeking = state.investigator(seat).seeking
    assert seeking is not None
    right = right_card(state, seat)
    return next(card for card in state.tableau.cards(seeking) if card != right)


def give_one(replay: Replay, seat: int) -> Replay:
    """The Ghost gives the first card of its hand (or nothing, if the hand is empty)."""
    return replay.apply(Give(seat, replay.secrets.hand[:1]))


def true_seance(state: GameState) -> Seance:
    verdicts = tuple(
        Verdict(seat, state.investigator(seat).marker == right_card(state, seat))
        for seat in state.active_seats
    )
    return Seance(verdicts)


def play_round(replay: Replay, correct: Collection[int] | None = None) -> Replay:
    """One Stage One round: one dream each, markers on the right card for the seats in
    ``correct`` (every active seat when ``None``) and a wrong one for the others, the séance."""
    assert replay.secret.stage is Stage.PLOT and replay.secret.phase is Phase.DREAMS
    for seat in replay.secret.active_seats:
        replay = give_one(replay, seat)
    return play_round_from_served(replay, correct)


def play_round_from_served(replay: Replay, correct: Collection[int] | None = None) -> Replay:
    """The rest of :func:`play_round` once every active seat has been served."""
    active = replay.secret.active_seats
    for seat in active:
        lucky = correct is None or seat in correct
        card = right_card(replay.secret, seat) if lucky else wrong_card(replay.secret, seat)
        replay = replay.apply(Place(seat, card)).apply(Lock(seat))
    assert replay.secret.phase is Phase.SEANCE
    return replay.apply(true_seance(replay.secret))


def solve_plot(replay: Replay) -> Replay:
    """Three rounds in which every investigator is right: Stage Two starts on day 4."""
    for _ in CATEGORY_ORDER:
        replay = play_round(replay)
    assert replay.secret.stage is Stage.CULPRIT
    return replay


def culprit_character(state: GameState) -> str:
    assert state.secrets is not None
    return state.secrets.column(state.secrets.culprit).character


def group_give(replay: Replay) -> Replay:
    hand = replay.secrets.hand
    return replay.apply(GroupGive(hand[: min(GROUP_GIVE_SIZE, len(hand))]))


def accuse(replay: Replay, character: str) -> Replay:
    """Stage Two: the three dreams, then every marker locked on ``character``."""
    replay = group_give(replay)
    for seat in replay.secret.config.seats:
        replay = replay.apply(Place(seat, character)).apply(Lock(seat))
    assert replay.secret.phase is Phase.SEANCE
    return replay


def culprit_seance(replay: Replay) -> Replay:
    accused = replay.secret.investigator(1).marker
    return replay.apply(CulpritSeance(accused == culprit_character(replay.secret)))


# --------------------------------------------------------------------------- checks


def refused(state: GameState, action: Action, error: type[RuleError], *words: str) -> RuleError:
    """Assert that ``action`` is refused with ``error`` and that the message says ``words``."""
    with pytest.raises(error) as caught:
        apply(state, action)
    assert type(caught.value) is error, f"expected {error.__name__}, got {caught.value!r}"
    message = str(caught.value)
    for word in words:
        assert word in message, f"{word!r} is not in the message {message!r}"
    return caught.value


def assert_public_agrees(secret: GameState, replayed: GameState) -> None:
    """The public replay equals the full state minus its secrets, counts included."""
    assert replayed.secrets is None
    assert public(secret) == replayed
    hidden = secret.secrets
    assert hidden is not None
    assert replayed.hand_size == len(hidden.hand)
    assert replayed.deck_size == len(hidden.deck)
    assert replayed.discard_size == len(hidden.discard)


def dream_places(state: GameState) -> Counter[str]:
    """How many places hold each dream card (deck, hand, discard, investigators, group)."""
    hidden = state.secrets
    assert hidden is not None
    places: Counter[str] = Counter()
    places.update(hidden.deck)
    places.update(hidden.hand)
    places.update(hidden.discard)
    for investigator in state.investigators:
        places.update(investigator.dreams)
    places.update(state.group_dreams)
    return places


def assert_dreams_conserved(state: GameState) -> None:
    places = dream_places(state)
    assert set(places) == set(state.config.dream_cards)
    assert all(count == 1 for count in places.values()), places


def assert_investigator_cards_conserved(state: GameState, dealt: Tableau) -> None:
    """Stage One: every dealt card is on the tableau or in exactly one hand."""
    found = [card for investigator in state.investigators for card in investigator.found]
    if state.stage is Stage.PLOT:
        assert sorted(state.tableau.all_cards + tuple(found)) == sorted(dealt.all_cards)
    else:
        # Stage Two discards what was left of the tableau; the hands stay.
        assert state.tableau.all_cards == ()
        assert set(found) <= set(dealt.all_cards)
        assert len(found) == len(set(found)) == 3 * state.config.investigators


# --------------------------------------------------------------------------- scripted games

Move = Callable[[GameState], Action]
"""An action chosen by looking at the full state (the Ghost's hand, the columns)."""


def _plot_round(correct: Collection[int] | None) -> list[Move]:
    """Two investigators; the first places (and hesitates) before the second is served."""

    def give(seat: int) -> Move:
        return lambda state: Give(seat, _hand(state)[:1])

    def place(seat: int) -> Move:
        lucky = correct is None or seat in correct
        pick = right_card if lucky else wrong_card
        return lambda state: Place(seat, pick(state, seat))

    return [
        give(1),
        place(1),
        lambda _: Lock(1),  # decided early, while the Ghost still sends dreams
        lambda _: Unlock(1),
        give(2),
        place(2),
        lambda _: Lock(1),
        lambda _: Lock(2),
        true_seance,
    ]


def _culprit_round(first: str, second: str) -> list[Move]:
    """The two markers start on ``first`` and ``second``; the second then follows the first."""
    return [
        lambda state: GroupGive(_hand(state)[:GROUP_GIVE_SIZE]),
        lambda _: Place(1, first),
        lambda _: Place(2, second),
        lambda _: Lock(1),
        lambda _: Lock(2),
        lambda _: Unlock(2),
        lambda _: Place(2, first),
        lambda _: Lock(2),
        lambda state: CulpritSeance(state.investigator(1).marker == culprit_character(state)),
    ]


def _hand(state: GameState) -> tuple[str, ...]:
    assert state.secrets is not None
    return state.secrets.hand


def play_script(replay: Replay, moves: Sequence[Move]) -> list[Replay]:
    steps = [replay]
    for move in moves:
        steps.append(steps[-1].apply(move(steps[-1].secret)))
    return steps


def scripted_games() -> list[list[Replay]]:
    """Every step of three games that between them take every transition of the phase
    table: a win after a wrong accusation, a loss in Stage One, a loss in Stage Two.
    Seat 2's column is the culprit (char-02)."""
    start = manual_game(2, Difficulty.EASY, culprit=2)
    solved = [*_plot_round(None), *_plot_round(()), *_plot_round(None), *_plot_round(None)]
    return [
        play_script(
            start,
            solved + _culprit_round("char-01", "char-02") + _culprit_round("char-02", "char-01"),
        ),
        play_script(start, _plot_round(()) * 7),
        play_script(start, _plot_round(None) * 3 + _culprit_round("char-01", "char-02") * 4),
    ]
