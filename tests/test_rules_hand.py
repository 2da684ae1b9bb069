"""The Ghost's hand: refreshes per difficulty, drawing up, reshuffling the discard pile."""

from __future__ import annotations

import pytest
from rules_support import (
    DREAMS,
    Replay,
    dreams,
    give_one,
    group_give,
    manual_game,
    play_round,
    play_round_from_served,
    refused,
    reversed_reshuffle,
    solve_plot,
)

from domicile_p2p.rules import (
    MIN_DREAM_CARDS,
    Difficulty,
    Give,
    NothingToDraw,
    Phase,
    Refresh,
    RefreshLimit,
    legal_actions,
)


def _can_refresh(replay: Replay) -> bool:
    return Refresh() in legal_actions(replay.secret)


def test_a_refresh_draws_seven_then_discards_the_old_hand() -> None:
    replay = manual_game(2, Difficulty.EASY)
    replay = replay.apply(Refresh())
    assert replay.secrets.discard == DREAMS[:7]
    assert replay.secrets.hand == DREAMS[7:14]
    assert replay.secrets.deck == DREAMS[14:]
    assert (replay.public.hand_size, replay.public.deck_size, replay.public.discard_size) == (
        7,
        len(DREAMS) - 14,
        7,
    )
    assert (replay.public.refreshes_this_round, replay.public.refreshes_used) == (1, 1)


def test_a_refresh_may_come_between_two_gives() -> None:
    replay = give_one(manual_game(2, Difficulty.EASY), 1)
    replay = replay.apply(Refresh())
    # Jordan's dream stays on the table; the hand, drawn back up to seven
    # after the give, is discarded.
    assert replay.secret.investigator(1).dreams == ("dream-01",)
    assert replay.secrets.discard == DREAMS[1:8]
    replay = give_one(replay, 2)
    assert replay.secret.phase is Phase.INVESTIGATION


def test_easy_allows_one_refresh_a_round_and_any_number_a_game() -> None:
    replay = manual_game(1, Difficulty.EASY)
    for day in range(1, 8):
        assert _can_refresh(replay)
        replay = replay.apply(Refresh())
        assert not _can_refresh(replay)
        for state in (replay.secret, replay.public):
            refused(state, Refresh(), RefreshLimit, "Easy allows at most 1 refresh per round")
        if day < 7:
            replay = play_round(replay, correct=())
    assert replay.public.refreshes_used == 7


def test_normal_allows_one_refresh_a_round_and_three_a_game() -> None:
    replay = manual_game(1, Difficulty.NORMAL)
    for _ in range(3):
        replay = replay.apply(Refresh())
        refused(replay.secret, Refresh(), RefreshLimit, "Normal allows at most 1 refresh per round")
        replay = play_round(replay, correct=())
    assert not _can_refresh(replay)
    for state in (replay.secret, replay.public):
        refused(state, Refresh(), RefreshLimit, "Normal allows at most 3 refreshes per game")


def test_difficult_allows_one_refresh_a_game() -> None:
    replay = manual_game(1, Difficulty.DIFFICULT).apply(Refresh())
    refused(replay.secret, Refresh(), RefreshLimit, "Difficult allows at most 1 refresh per round")
    replay = play_round(replay, correct=())
    assert not _can_refresh(replay)
    for state in (replay.secret, replay.public):
        refused(state, Refresh(), RefreshLimit, "Difficult allows at most 1", "per game")


def test_very_difficult_allows_no_refresh() -> None:
    replay = manual_game(1, Difficulty.VERY_DIFFICULT)
    assert not _can_refresh(replay)
    for state in (replay.secret, replay.public):
        refused(state, Refresh(), RefreshLimit, "Very difficult allows no refreshes")


def test_stage_two_refreshes_follow_the_same_limits() -> None:
    replay = solve_plot(manual_game(2, Difficulty.NORMAL))
    replay = replay.apply(Refresh())
    refused(replay.secret, Refresh(), RefreshLimit, "at most 1 refresh per round")
    replay = group_give(replay)
    assert replay.secret.phase is Phase.INVESTIGATION
    assert replay.public.refreshes_used == 1


def test_protocol_2_refreshes_into_a_short_hand_at_a_nearly_empty_deck() -> None:
    """Protocol 2's rule, which its transcripts still replay by (protocol 3 refuses this)."""
    calls: list[tuple[int, tuple[str, ...]]] = []

    def recording(number: int, cards: tuple[str, ...]) -> tuple[str, ...]:
        calls.append((number, cards))
        return reversed_reshuffle(number, cards)

    pack = dreams(10)
    deck = tuple(reversed(pack))  # dream-10 on top
    replay = manual_game(1, Difficulty.EASY, pack, deck=deck, reshuffle=recording, protocol=2)
    assert replay.secrets.hand == deck[:7] and replay.secrets.deck == deck[7:]
    replay = replay.apply(Refresh())
    # The new hand is drawn first: the deck's three cards, and the discard pile is
    # still empty, so the hand stays short; only then do the old seven go to the pile.
    assert calls == []
    assert replay.secrets.hand == ("dream-03", "dream-02", "dream-01")
    assert replay.secrets.deck == ()
    assert replay.secrets.discard == deck[:7]
    assert (replay.public.hand_size, replay.public.deck_size, replay.public.discard_size) == (
        3,
        0,
        7,
    )
    assert replay.public.reshuffles == 0


def test_protocol_2_refreshes_through_a_reshuffle_into_a_short_hand() -> None:
    pack = dreams(8)
    replay = manual_game(1, Difficulty.EASY, pack, reshuffle=reversed_reshuffle, protocol=2)
    replay = play_round(replay)  # gives dream-01, draws dream-08; found: dream-01 discarded
    assert (replay.secrets.deck, replay.secrets.discard) == ((), ("dream-01",))
    replay = replay.apply(Refresh())
    # The deck is empty: the discard pile (dream-01 alone, not yet the old hand) is
    # reshuffled and drawn; then the old seven go to the emptied pile.
    assert replay.secrets.hand == ("dream-01",)
    assert replay.secrets.discard == pack[1:]
    assert replay.public.reshuffles == 1


def test_protocol_2_refuses_a_refresh_with_nothing_to_draw_and_it_costs_nothing() -> None:
    replay = manual_game(1, Difficulty.DIFFICULT, dreams(7), protocol=2)
    assert (replay.public.deck_size, replay.public.discard_size) == (0, 0)
    for state in (replay.secret, replay.public):
        refused(state, Refresh(), NothingToDraw, "deck and the discard pile are both empty")
    assert not _can_refresh(replay)
    # Refused, it changed nothing: Difficult's one refresh of the game is still unused.
    assert (replay.public.refreshes_used, replay.public.refreshes_this_round) == (0, 0)


def test_the_discard_pile_is_reshuffled_when_the_deck_runs_out() -> None:
    calls: list[tuple[int, tuple[str, ...]]] = []

    def recording(number: int, cards: tuple[str, ...]) -> tuple[str, ...]:
        calls.append((number, cards))
        return reversed_reshuffle(number, cards)

    pack = dreams(8)
    replay = manual_game(1, Difficulty.EASY, pack, reshuffle=recording, protocol=2)
    replay = replay.apply(Refresh())  # protocol 2: hand dream-08; discard: 1..7
    replay = replay.apply(Give(1, ("dream-08",)))
    # The deck ran out: the discard pile, sorted by id, was reshuffled (number 0).
    assert calls == [(0, pack[:7])]
    assert replay.secrets.hand == tuple(reversed(pack[:7]))
    assert replay.public.reshuffles == 1


def _wrong_day(replay: Replay, cards: int) -> Replay:
    """A Stage One day of one investigator: ``cards`` dreams given, a wrong guess (they stay
    face up with the investigator)."""
    replay = replay.apply(Give(1, replay.secrets.hand[:cards]))
    return play_round_from_served(replay, correct=())


def test_a_refresh_that_cannot_draw_a_whole_new_hand_is_refused_and_costs_nothing() -> None:
    # Issue 22's hole: a deck of 2 and an empty discard pile.  Protocol 2 refreshed into a
    # hand of 2 with 7 on the discard pile; protocol 3 refuses, and Easy's refresh of the
    # round is still there.
    replay = _wrong_day(manual_game(1, Difficulty.EASY, dreams(MIN_DREAM_CARDS)), 7)
    assert (replay.public.hand_size, replay.public.deck_size, replay.public.discard_size) == (
        7,
        2,
        0,
    )
    for state in (replay.secret, replay.public):
        refused(state, Refresh(), NothingToDraw, "hold 2 dream cards, fewer than a new hand of 7")
    assert not _can_refresh(replay)
    assert (replay.public.refreshes_used, replay.public.refreshes_this_round) == (0, 0)
    # The same position under protocol 2: the short hand protocol 3 removed.
    old = _wrong_day(manual_game(1, Difficulty.EASY, dreams(MIN_DREAM_CARDS), protocol=2), 7)
    old = old.apply(Refresh())
    assert (old.public.hand_size, old.public.deck_size, old.public.discard_size) == (2, 0, 7)


def test_a_refresh_with_exactly_a_hand_to_draw_draws_it() -> None:
    replay = _wrong_day(manual_game(1, Difficulty.EASY, dreams(MIN_DREAM_CARDS)), 2)
    assert (replay.public.deck_size, replay.public.discard_size) == (7, 0)
    deck = replay.secrets.deck
    replay = replay.apply(Refresh())
    assert replay.secrets.hand == deck
    assert (replay.public.hand_size, replay.public.deck_size, replay.public.discard_size) == (
        7,
        0,
        7,
    )


def test_a_refresh_draws_a_whole_hand_through_a_reshuffle_of_the_earlier_discards() -> None:
    pack = dreams(MIN_DREAM_CARDS)
    replay = manual_game(1, Difficulty.EASY, pack, reshuffle=reversed_reshuffle)
    old_hand = replay.secrets.hand
    replay = replay.apply(Give(1, old_hand))  # all seven; dream-08..14 drawn, 2 left
    replay = play_round_from_served(replay)  # found: the seven go to the discard pile
    assert (replay.public.deck_size, replay.public.discard_size) == (2, 7)
    held = replay.secrets.hand
    replay = replay.apply(Refresh())
    # The deck's two, then the earlier discards reshuffled (not yet the hand thrown away).
    assert replay.secrets.hand == (*pack[14:], *reversed(old_hand))[:7]
    assert set(replay.secrets.hand).isdisjoint(held)
    assert replay.secrets.discard == held
    assert replay.public.reshuffles == 1


@pytest.mark.parametrize("difficulty", list(Difficulty))
def test_refresh_counts_reset_each_round_but_not_each_game(difficulty: Difficulty) -> None:
    replay = manual_game(1, difficulty)
    used = 0
    for _ in range(4):
        if _can_refresh(replay):
            replay = replay.apply(Refresh())
            used += 1
        replay = play_round(replay, correct=())
        assert replay.public.refreshes_this_round == 0
    assert replay.public.refreshes_used == used
    assert (
        used
        == {
            Difficulty.EASY: 4,
            Difficulty.NORMAL: 3,
            Difficulty.DIFFICULT: 1,
            Difficulty.VERY_DIFFICULT: 0,
        }[difficulty]
    )
