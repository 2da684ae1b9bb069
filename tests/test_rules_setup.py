"""Setup: the table, the difficulty levels, and every setup value the engine refuses."""

from __future__ import annotations

from dataclasses import replace

import pytest
from rules_support import (
    DREAMS,
    NAMES,
    POOL,
    columns_for,
    dreams,
    reversed_reshuffle,
    secret_for,
    table,
    tableau_for,
)

from domicile_p2p.rules import (
    CATEGORY_ORDER,
    DIFFICULTY_RULES,
    GHOST,
    HAND_SIZE,
    LAST_DAY,
    MAX_INVESTIGATORS,
    MIN_DREAM_CARDS,
    Category,
    Column,
    Difficulty,
    Give,
    Investigator,
    Phase,
    Refresh,
    RuleError,
    SetupError,
    Stage,
    Tableau,
    TableConfig,
    apply,
    new_game,
    public,
)


@pytest.mark.parametrize(
    ("difficulty", "extra", "per_round", "per_game"),
    [
        (Difficulty.EASY, 3, 1, None),
        (Difficulty.NORMAL, 4, 1, 3),
        (Difficulty.DIFFICULT, 5, 1, 1),
        (Difficulty.VERY_DIFFICULT, 6, 0, 0),
    ],
)
def test_difficulty_table_is_the_one_in_rules_md(
    difficulty: Difficulty, extra: int, per_round: int, per_game: int | None
) -> None:
    rules = DIFFICULTY_RULES[difficulty]
    assert rules.extra_tableau_cards == extra
    assert rules.refreshes_per_round == per_round
    assert rules.refreshes_per_game == per_game
    for investigators in range(1, MAX_INVESTIGATORS + 1):
        assert rules.tableau_size(investigators) == investigators + extra


def test_the_game_constants() -> None:
    assert (HAND_SIZE, LAST_DAY, MAX_INVESTIGATORS, GHOST) == (7, 7, 6, 0)
    assert CATEGORY_ORDER == (Category.CHARACTER, Category.LOCATION, Category.ITEM)
    assert Difficulty.VERY_DIFFICULT.label == "Very difficult"
    assert Category.ITEM.label == "Item"


@pytest.mark.parametrize("difficulty", list(Difficulty))
@pytest.mark.parametrize("investigators", range(1, MAX_INVESTIGATORS + 1))
def test_one_to_six_investigators_at_every_level(
    investigators: int, difficulty: Difficulty
) -> None:
    config = table(investigators, difficulty)
    tableau = tableau_for(config)
    state = new_game(config, tableau, secret_for(config, tableau))
    size = investigators + DIFFICULTY_RULES[difficulty].extra_tableau_cards
    assert all(len(tableau.cards(category)) == size for category in CATEGORY_ORDER)
    assert state.active_seats == tuple(range(1, investigators + 1))
    assert state.investigators == (Investigator(),) * investigators


def test_day_one_of_seven() -> None:
    config = table(3)
    tableau = tableau_for(config)
    deck = tuple(reversed(DREAMS))
    state = new_game(config, tableau, secret_for(config, tableau, culprit=2, deck=deck))
    assert (state.day, state.stage, state.phase, state.outcome) == (
        1,
        Stage.PLOT,
        Phase.DREAMS,
        None,
    )
    assert state.tableau == tableau
    assert state.secrets is not None
    # The Ghost draws its hand from the top of the shuffled deck.
    assert state.secrets.hand == deck[:7]
    assert state.secrets.deck == deck[7:]
    assert state.secrets.discard == ()
    assert state.secrets.columns == columns_for(tableau, 3)
    assert state.secrets.culprit == 2
    assert (state.hand_size, state.deck_size, state.discard_size) == (7, len(DREAMS) - 7, 0)
    assert (state.refreshes_used, state.refreshes_this_round, state.reshuffles) == (0, 0, 0)
    assert state.group_dreams == () and state.last_seance == ()


def test_the_public_game_is_the_secret_game_without_its_secrets() -> None:
    config = table(4, Difficulty.DIFFICULT)
    tableau = tableau_for(config)
    secret_state = new_game(config, tableau, secret_for(config, tableau))
    public_state = new_game(config, tableau)
    assert public_state.secrets is None
    assert public(secret_state) == public_state
    assert public(public_state) is public_state


def test_a_dream_pack_smaller_than_a_hand_is_dealt_whole() -> None:
    config = table(2, dream_cards=dreams(5), protocol=2)  # protocol 3 needs 16
    tableau = tableau_for(config)
    state = new_game(config, tableau, secret_for(config, tableau))
    assert state.secrets is not None
    assert state.secrets.hand == dreams(5) and state.secrets.deck == ()
    assert (state.hand_size, state.deck_size) == (5, 0)


@pytest.mark.parametrize("protocol", [1, 4])
def test_the_engine_plays_the_rules_of_protocols_2_and_3_only(protocol: int) -> None:
    config = table(2, protocol=protocol)
    with pytest.raises(SetupError, match=f"protocol versions \\[2, 3\\], not {protocol}"):
        new_game(config, tableau_for(config))


def test_protocol_3_needs_sixteen_dream_cards() -> None:
    config = table(1, Difficulty.EASY, dreams(MIN_DREAM_CARDS - 1))
    with pytest.raises(SetupError, match=r"at least 16 dream cards .*, not 15"):
        new_game(config, tableau_for(config))
    new_game(
        table(1, Difficulty.EASY, dreams(MIN_DREAM_CARDS - 1), protocol=2), tableau_for(config)
    )
    state = new_game(table(1, Difficulty.EASY, dreams(MIN_DREAM_CARDS)), tableau_for(config))
    assert (state.hand_size, state.deck_size) == (7, 9)


def test_seat_names() -> None:
    config = table(2)
    assert config.name(GHOST) == "The Ghost"
    assert [config.name(seat) for seat in config.seats] == list(NAMES[:2])


# --------------------------------------------------------------------------- SetupError


@pytest.mark.parametrize("investigators", [0, MAX_INVESTIGATORS + 1])
def test_a_table_has_one_to_six_investigators(investigators: int) -> None:
    config = TableConfig(Difficulty.EASY, tuple(f"P{n}" for n in range(investigators)), DREAMS)
    size = investigators + 3
    tableau = Tableau(*(POOL[category][:size] for category in CATEGORY_ORDER))
    with pytest.raises(SetupError, match=f"1 to 6 investigators, not {investigators}"):
        new_game(config, tableau)


def test_dream_ids_must_be_distinct() -> None:
    config = table(2, dream_cards=(*dreams(10), "dream-03"))
    with pytest.raises(SetupError, match="dream cards have a repeated id"):
        new_game(config, tableau_for(config))


@pytest.mark.parametrize("category", CATEGORY_ORDER)
def test_the_tableau_has_the_size_of_the_difficulty(category: Category) -> None:
    config = table(3, Difficulty.NORMAL)
    right = tableau_for(config)
    short = replace(right, **{category.value: right.cards(category)[:-1]})
    with pytest.raises(SetupError) as caught:
        new_game(config, short)
    assert str(caught.value) == (
        f"Normal with 3 investigators deals 7 {category.label} cards, not 6"
    )


def test_the_tableau_has_no_repeated_card() -> None:
    config = table(1, Difficulty.EASY)
    tableau = Tableau(
        ("char-01", "char-02", "char-03", "char-04"),
        ("loc-01", "loc-02", "loc-03", "char-01"),
        ("item-01", "item-02", "item-03", "item-04"),
    )
    with pytest.raises(SetupError, match="Clue Tableau has a repeated card"):
        new_game(config, tableau)


def test_one_column_per_investigator() -> None:
    config = table(3)
    tableau = tableau_for(config)
    secret = secret_for(config, tableau)
    with pytest.raises(SetupError, match="one column per investigator"):
        new_game(config, tableau, replace(secret, columns=secret.columns[:2]))


@pytest.mark.parametrize("category", CATEGORY_ORDER)
def test_two_columns_never_share_a_card(category: Category) -> None:
    config = table(2)
    tableau = tableau_for(config)
    first, second = columns_for(tableau, 2)
    clash = replace(second, **{category.value: first.card(category)})
    secret = replace(secret_for(config, tableau), columns=(first, clash))
    with pytest.raises(SetupError, match=f"two columns share a {category.label} card"):
        new_game(config, tableau, secret)


@pytest.mark.parametrize("category", CATEGORY_ORDER)
def test_a_column_card_is_on_the_tableau(category: Category) -> None:
    config = table(2)
    tableau = tableau_for(config)
    first, second = columns_for(tableau, 2)
    off_table = replace(second, **{category.value: POOL[category][-1]})
    secret = replace(secret_for(config, tableau), columns=(first, off_table))
    with pytest.raises(SetupError, match=f"a column's {category.label} card is not on the"):
        new_game(config, tableau, secret)


@pytest.mark.parametrize("culprit", [0, 4, -1])
def test_the_culprit_is_an_investigators_column(culprit: int) -> None:
    config = table(3)
    tableau = tableau_for(config)
    with pytest.raises(SetupError, match=f"culprit column {culprit} is not an investigator"):
        new_game(config, tableau, secret_for(config, tableau, culprit=culprit))


@pytest.mark.parametrize(
    "deck",
    [DREAMS[:-1], (*DREAMS[:-1], "dream-01"), (*DREAMS, "dream-99")],
    ids=["missing", "repeated", "extra"],
)
def test_the_deck_is_a_permutation_of_the_dream_cards(deck: tuple[str, ...]) -> None:
    config = table(2)
    tableau = tableau_for(config)
    with pytest.raises(SetupError, match="dream deck is not a permutation"):
        new_game(config, tableau, secret_for(config, tableau, deck=deck))


def test_a_reshuffle_must_return_the_discard_pile() -> None:
    def cheating(number: int, cards: tuple[str, ...]) -> tuple[str, ...]:
        return (*cards[:-1], cards[0])

    config = table(1, Difficulty.EASY, dreams(8), protocol=2)
    tableau = tableau_for(config)
    state = apply(
        new_game(config, tableau, secret_for(config, tableau, reshuffle=cheating)), Refresh()
    )
    # The refresh drew the deck's one card and discarded seven; the next give must
    # reshuffle the discard pile.
    give = Give(1, ("dream-08",))
    with pytest.raises(SetupError, match="reshuffle did not return a permutation"):
        apply(state, give)
    honest = new_game(config, tableau, secret_for(config, tableau, reshuffle=reversed_reshuffle))
    assert apply(apply(honest, Refresh()), give).reshuffles == 1


def test_columns_are_values() -> None:
    column = Column("char-01", "loc-02", "item-03")
    assert [column.card(category) for category in CATEGORY_ORDER] == [
        "char-01",
        "loc-02",
        "item-03",
    ]


def test_every_way_to_break_a_rule_has_its_own_error() -> None:
    # Each of these has a test that checks its type and its message; a new
    # error added to the engine shows up here and needs one too.
    assert {error.__name__ for error in RuleError.__subclasses__()} == {
        "SetupError",
        "GameOver",
        "WrongPhase",
        "UnknownSeat",
        "GhostOnly",
        "InvestigatorOnly",
        "GhostMayNotSpeak",
        "BadChat",
        "NotActive",
        "AlreadyServed",
        "NotServedYet",
        "BadGive",
        "NotInHand",
        "RefreshLimit",
        "NothingToDraw",
        "NoSandGlass",
        "BadTimeUp",
        "NotOnTableau",
        "WrongCategory",
        "MarkerLocked",
        "MarkerNotPlaced",
        "MarkerNotLocked",
        "BadVerdict",
        "FalseVerdict",
    }
