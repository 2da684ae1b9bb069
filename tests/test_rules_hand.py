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
    refused,
    reversed_reshuffle,
    solve_plot,
)

from domicile_p2p.rules import (
    Difficulty,
    Give,
    Phase,
    Refresh,
    RefreshLimit,
    legal_actions,
)


def _can_refresh(replay: Replay) -> bool:
    return Refresh() in legal_actions(replay.secret)


def test_a_refresh_discards_the_whole_hand_and_draws_seven() -> None:
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


def test_the_discard_pile_is_reshuffled_when_the_deck_runs_out() -> None:
    calls: list[tuple[int, tuple[str, ...]]] = []

    def recording(number: int, cards: tuple[str, ...]) -> tuple[str, ...]:
        calls.append((number, cards))
        return reversed_reshuffle(number, cards)

    pack = dreams(10)
    deck = tuple(reversed(pack))  # dream-10 on top
    replay = manual_game(1, Difficulty.EASY, pack, deck=deck, reshuffle=recording)
    assert replay.secrets.hand == deck[:7] and replay.secrets.deck == deck[7:]
    replay = replay.apply(Refresh())
    # Three cards came from the deck; then the seven discarded ones were
    # reshuffled (sorted by id, then the Ghost's order) and four more drawn.
    assert calls == [(0, tuple(sorted(deck[:7])))]
    assert replay.secrets.hand == (
        *("dream-03", "dream-02", "dream-01"),
        *("dream-10", "dream-09", "dream-08", "dream-07"),
    )
    assert replay.secrets.deck == ("dream-06", "dream-05", "dream-04")
    assert replay.secrets.discard == ()
    assert replay.public.reshuffles == 1
    # The next reshuffle has the next number.
    replay = play_round(replay, correct=())
    replay = replay.apply(Refresh())
    assert [number for number, _ in calls] == [0, 1]
    assert replay.public.reshuffles == 2


def test_a_give_draws_through_a_reshuffle() -> None:
    pack = dreams(8)
    replay = manual_game(2, Difficulty.EASY, pack)
    replay = replay.apply(Refresh())  # discard 1..7, draw 8, reshuffle 1..7, draw 6
    assert replay.secrets.hand == ("dream-08", *pack[:6])
    replay = replay.apply(Give(1, ("dream-08", "dream-01")))
    assert replay.secrets.hand == (*pack[1:6], "dream-07")
    assert replay.public.hand_size == 6  # everything else is face up: the hand stays short
    assert (replay.public.deck_size, replay.public.discard_size) == (0, 0)


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
