"""Stage One (the Plot): dreams, markers in category order, the séance, the calendar."""

from __future__ import annotations

import pytest
from rules_support import (
    DREAMS,
    give_one,
    manual_game,
    play_round,
    refused,
    right_card,
    solve_plot,
    true_seance,
    wrong_card,
)

from domicile_p2p.rules import (
    MIN_DREAM_CARDS,
    AlreadyServed,
    BadGive,
    BadVerdict,
    Category,
    FalseVerdict,
    Give,
    Investigator,
    Lock,
    MarkerLocked,
    MarkerNotLocked,
    MarkerNotPlaced,
    NotActive,
    NotInHand,
    NotOnTableau,
    NotServedYet,
    Outcome,
    Phase,
    Place,
    Seance,
    Stage,
    Unlock,
    Verdict,
    WrongCategory,
    apply,
)

# --------------------------------------------------------------------------- Haunted Dreams


def test_the_ghost_serves_each_active_investigator_once_in_any_order() -> None:
    replay = manual_game(3)
    for seat in (3, 1):
        replay = give_one(replay, seat)
        assert replay.secret.phase is Phase.DREAMS
        assert replay.secret.investigator(seat).served
    assert not replay.secret.investigator(2).served
    replay = give_one(replay, 2)
    assert replay.secret.phase is Phase.INVESTIGATION
    assert [inv.dreams for inv in replay.secret.investigators] == [
        ("dream-02",),
        ("dream-03",),
        ("dream-01",),
    ]


def test_a_give_of_several_cards_then_the_hand_is_drawn_back_to_seven() -> None:
    replay = manual_game(2)
    given = ("dream-02", "dream-05", "dream-07")
    replay = replay.apply(Give(1, given))
    assert replay.secret.investigator(1).dreams == given
    # The rest of the hand keeps its order; the new cards come from the top of the deck.
    assert replay.secrets.hand == (
        "dream-01",
        "dream-03",
        "dream-04",
        "dream-06",
        "dream-08",
        "dream-09",
        "dream-10",
    )
    assert replay.secrets.deck == DREAMS[10:]
    assert (replay.public.hand_size, replay.public.deck_size) == (7, len(DREAMS) - 10)


def test_a_whole_hand_can_be_given() -> None:
    replay = manual_game(1)
    hand = replay.secrets.hand
    replay = replay.apply(Give(1, hand))
    assert replay.secret.investigator(1).dreams == hand
    assert replay.secrets.hand == DREAMS[7:14]


def test_an_investigator_is_served_only_once_a_round() -> None:
    replay = give_one(manual_game(2), 1)
    action = Give(1, replay.secrets.hand[:1])
    for state in (replay.secret, replay.public):
        refused(state, action, AlreadyServed, "Jordan has already received dreams today")


def test_a_give_has_at_least_one_card_while_the_hand_holds_any() -> None:
    replay = manual_game(2)
    for state in (replay.secret, replay.public):
        refused(state, Give(1, ()), BadGive, "at least one dream card")


def test_a_card_is_given_only_once() -> None:
    replay = manual_game(2)
    for state in (replay.secret, replay.public):
        refused(state, Give(1, ("dream-01", "dream-01")), BadGive, "only once")


def test_a_give_cannot_exceed_the_hand() -> None:
    # Only the public replay can get this far: with secrets, the eighth card is
    # already refused as not in the Ghost's hand.
    replay = manual_game(1)
    eight = DREAMS[:8]
    refused(replay.public, Give(1, eight), BadGive, "the Ghost holds only 7 dream cards")
    refused(replay.secret, Give(1, eight), NotInHand, "dream-08 is not in the Ghost's hand")


def test_only_dream_cards_of_this_game_are_given() -> None:
    replay = manual_game(2)
    for state in (replay.secret, replay.public):
        refused(state, Give(1, ("dream-99",)), NotInHand, "dream-99 is not a dream card")
        refused(state, Give(1, ("char-01",)), NotInHand, "char-01 is not a dream card")


def test_a_card_on_the_table_is_not_in_the_hand() -> None:
    replay = give_one(manual_game(2), 1)
    for state in (replay.secret, replay.public):
        refused(state, Give(2, ("dream-01",)), NotInHand, "dream-01 is already face up")


def test_a_card_in_the_deck_is_not_in_the_hand_but_only_the_ghost_knows() -> None:
    replay = manual_game(2)
    refused(replay.secret, Give(1, ("dream-30",)), NotInHand, "not in the Ghost's hand")
    # The public replay cannot tell; the reveal at the end catches such a give.
    assert apply(replay.public, Give(1, ("dream-30",))).investigator(1).dreams == ("dream-30",)


def test_when_deck_and_discard_are_both_empty_the_hand_stays_short() -> None:
    # Protocol 2 played packs this small; protocol 3 needs 16 dreams (the next test).
    replay = manual_game(2, dream_cards=DREAMS[:9], protocol=2)
    replay = replay.apply(Give(1, DREAMS[:3]))
    # Two cards were left in the deck: the hand is drawn up to six and stays there.
    assert replay.secrets.hand == DREAMS[3:9]
    assert (replay.public.hand_size, replay.public.deck_size, replay.public.discard_size) == (
        6,
        0,
        0,
    )
    assert replay.public.reshuffles == 0


def test_stage_one_gives_can_still_leave_the_hand_short_under_protocol_3() -> None:
    # The pack's minimum keeps Stage Two's hand full, not Stage One's: a Ghost whose own
    # gives put all but two of the sixteen cards face up draws the two that are left.
    replay = manual_game(2, dream_cards=DREAMS[:MIN_DREAM_CARDS])
    replay = replay.apply(Give(1, DREAMS[:7])).apply(Give(2, DREAMS[7:14]))
    assert replay.secrets.hand == DREAMS[14:16]
    assert (replay.public.hand_size, replay.public.deck_size, replay.public.discard_size) == (
        2,
        0,
        0,
    )


def test_an_empty_hand_gives_nothing() -> None:
    replay = manual_game(2, dream_cards=DREAMS[:7], protocol=2)
    replay = replay.apply(Give(1, DREAMS[:7]))
    assert replay.secrets.hand == () and replay.public.hand_size == 0
    replay = replay.apply(Give(2, ()))
    assert replay.secret.investigator(2) == Investigator(served=True)
    assert replay.secret.phase is Phase.INVESTIGATION
    # When a correct séance returns cards to the discard pile, the end of the
    # round draws the hand back up from them (after a reshuffle).
    replay = replay.run(
        [
            Place(1, right_card(replay.secret, 1)),
            Lock(1),
            Place(2, wrong_card(replay.secret, 2)),
            Lock(2),
        ]
    )
    replay = replay.apply(true_seance(replay.secret))
    assert replay.public.discard_size == 0 and replay.public.hand_size == 7
    assert replay.public.reshuffles == 1
    assert sorted(replay.secrets.hand) == list(DREAMS[:7])
    for state in (replay.secret, replay.public):
        refused(state, Give(2, ()), BadGive, "a give has at least one dream card")


# --------------------------------------------------------------------------- Investigation


def test_a_marker_waits_for_this_rounds_dreams() -> None:
    replay = manual_game(2)
    card = right_card(replay.secret, 1)
    for state in (replay.secret, replay.public):
        refused(state, Place(1, card), NotServedYet, "Jordan has no dreams yet today")


def test_a_served_investigator_may_decide_while_others_wait_for_dreams() -> None:
    replay = give_one(manual_game(2), 1)
    replay = replay.run([Place(1, "char-03"), Lock(1)])
    assert replay.secret.phase is Phase.DREAMS
    assert replay.secret.investigator(1) == Investigator(
        dreams=("dream-01",), marker="char-03", locked=True, served=True
    )
    replay = give_one(replay, 2)
    assert replay.secret.phase is Phase.INVESTIGATION
    replay = replay.run([Place(2, "char-03"), Lock(2)])
    assert replay.secret.phase is Phase.SEANCE


def test_markers_move_freely_until_locked() -> None:
    replay = give_one(manual_game(1), 1)
    replay = replay.run([Place(1, "char-02"), Place(1, "char-04")])
    assert replay.secret.investigator(1).marker == "char-04"
    replay = replay.apply(Place(1, "char-04"))  # putting it where it is changes nothing
    assert replay.secret.investigator(1).marker == "char-04"
    assert not replay.secret.investigator(1).locked
    replay = replay.apply(Lock(1))
    assert replay.secret.phase is Phase.SEANCE


def test_a_locked_marker_stays_until_unlocked() -> None:
    replay = manual_game(2)
    replay = give_one(give_one(replay, 1), 2)
    replay = replay.run([Place(1, "char-02"), Lock(1)])
    for state in (replay.secret, replay.public):
        refused(state, Place(1, "char-03"), MarkerLocked, "Jordan's marker is locked")
        refused(state, Lock(1), MarkerLocked, "Jordan's marker is already locked")
    replay = replay.run([Unlock(1), Place(1, "char-03"), Lock(1)])
    assert replay.secret.investigator(1).marker == "char-03"
    assert replay.secret.phase is Phase.INVESTIGATION  # Avery has not decided


def test_a_marker_is_placed_before_it_is_locked() -> None:
    replay = give_one(manual_game(2), 1)
    for state in (replay.secret, replay.public):
        refused(state, Lock(1), MarkerNotPlaced, "Jordan must place the marker before locking")


def test_only_a_locked_marker_is_unlocked() -> None:
    replay = give_one(manual_game(2), 1).apply(Place(1, "char-01"))
    for state in (replay.secret, replay.public):
        refused(state, Unlock(1), MarkerNotLocked, "Jordan's marker is not locked")


def test_markers_follow_character_then_location_then_item() -> None:
    replay = give_one(manual_game(2), 1)
    for state in (replay.secret, replay.public):
        refused(
            state,
            Place(1, "loc-01"),
            WrongCategory,
            "Jordan must find a Character before a Location",
        )
        refused(
            state, Place(1, "item-01"), WrongCategory, "Jordan must find a Character before an Item"
        )
    replay = play_round(manual_game(2), correct={1})
    replay = give_one(give_one(replay, 1), 2)
    assert replay.secret.investigator(1).seeking is Category.LOCATION
    for state in (replay.secret, replay.public):
        refused(
            state,
            Place(1, "char-03"),
            WrongCategory,
            "Jordan has already found a Character; now Jordan seeks a Location",
        )
        refused(
            state, Place(1, "item-01"), WrongCategory, "Jordan must find a Location before an Item"
        )
        refused(
            state,
            Place(2, "loc-02"),
            WrongCategory,
            "Avery must find a Character before a Location",
        )
    replay = replay.run([Place(1, "loc-01"), Lock(1), Place(2, "char-05"), Lock(2)])
    replay = replay.apply(true_seance(replay.secret))
    replay = give_one(give_one(replay, 1), 2)
    assert replay.secret.investigator(1).seeking is Category.ITEM
    refused(
        replay.secret,
        Place(1, "loc-03"),
        WrongCategory,
        "Jordan has already found a Location; now Jordan seeks an Item",
    )
    assert replay.apply(Place(1, "item-04")).secret.investigator(1).marker == "item-04"


def test_a_marker_goes_on_a_card_of_the_clue_tableau() -> None:
    replay = give_one(manual_game(2), 1)
    # char-18 is in the pack but was not dealt; a dream card is no investigator card.
    for card in ("char-18", "dream-01", "nonsense"):
        for state in (replay.secret, replay.public):
            refused(state, Place(1, card), NotOnTableau, f"{card} is not on the Clue Tableau")


def test_a_found_card_has_left_the_tableau() -> None:
    replay = play_round(manual_game(2), correct={1})
    replay = give_one(replay, 2)
    for state in (replay.secret, replay.public):
        refused(state, Place(2, "char-01"), NotOnTableau, "char-01 is not on the Clue Tableau")


def test_several_markers_may_share_a_card() -> None:
    replay = manual_game(3)
    replay = give_one(give_one(give_one(replay, 1), 2), 3)
    # char-01 is Jordan's; Avery and Morgan follow Jordan onto it.
    replay = replay.run([Place(seat, "char-01") for seat in (1, 2, 3)])
    replay = replay.run([Lock(seat) for seat in (1, 2, 3)])
    assert replay.secret.phase is Phase.SEANCE
    seance = true_seance(replay.secret)
    assert seance.verdicts == (Verdict(1, True), Verdict(2, False), Verdict(3, False))
    replay = replay.apply(seance)
    assert [inv.found for inv in replay.secret.investigators] == [("char-01",), (), ()]
    assert "char-01" not in replay.secret.tableau.character


# --------------------------------------------------------------------------- Séance


def test_a_correct_guess_takes_the_card_and_discards_the_dreams() -> None:
    replay = manual_game(2)
    replay = replay.run([Give(1, DREAMS[:2]), Give(2, ("dream-03",))])
    replay = replay.run([Place(1, "char-01"), Lock(1), Place(2, "char-05"), Lock(2)])
    replay = replay.apply(Seance((Verdict(2, False), Verdict(1, True))))
    jordan, avery = replay.secret.investigators
    assert jordan == Investigator(found=("char-01",))
    assert replay.secret.tableau.character == (
        "char-02",
        "char-03",
        "char-04",
        "char-05",
        "char-06",
    )
    assert replay.secrets.discard == DREAMS[:2] and replay.public.discard_size == 2
    # A wrong guess keeps the dreams, and they accumulate.
    assert avery == Investigator(dreams=("dream-03",))
    replay = replay.run([Give(1, ("dream-04",)), Give(2, ("dream-05", "dream-06"))])
    assert replay.secret.investigator(2).dreams == ("dream-03", "dream-05", "dream-06")


def test_the_last_seance_is_recorded_in_seat_order() -> None:
    replay = manual_game(2)
    replay = give_one(give_one(replay, 1), 2)
    replay = replay.run([Place(1, "char-01"), Lock(1), Place(2, "char-05"), Lock(2)])
    replay = replay.apply(Seance((Verdict(2, False), Verdict(1, True))))
    assert replay.public.last_seance == (Verdict(1, True), Verdict(2, False))


def test_the_round_ends_with_markers_back_and_the_next_day() -> None:
    replay = play_round(manual_game(3), correct={2})
    state = replay.secret
    assert (state.day, state.phase, state.stage) == (2, Phase.DREAMS, Stage.PLOT)
    assert all(
        inv.marker is None and not inv.locked and not inv.served for inv in state.investigators
    )
    assert state.refreshes_this_round == 0


@pytest.mark.parametrize(
    ("verdicts", "words"),
    [
        ((Verdict(1, False),), "(seats [1, 2], not [1])"),
        ((Verdict(1, False), Verdict(2, False), Verdict(2, False)), "not [1, 2, 2]"),
        ((Verdict(1, False), Verdict(2, False), Verdict(3, False)), "not [1, 2, 3]"),
        ((), "not []"),
    ],
    ids=["missing", "twice", "unknown", "empty"],
)
def test_a_seance_judges_every_active_investigator_exactly_once(
    verdicts: tuple[Verdict, ...], words: str
) -> None:
    replay = manual_game(2)
    replay = give_one(give_one(replay, 1), 2)
    replay = replay.run([Place(1, "char-04"), Lock(1), Place(2, "char-04"), Lock(2)])
    for state in (replay.secret, replay.public):
        refused(
            state,
            Seance(verdicts),
            BadVerdict,
            "the séance must judge every active investigator exactly once",
            words,
        )


def test_the_ghost_cannot_lie_about_a_verdict() -> None:
    replay = manual_game(2)
    replay = give_one(give_one(replay, 1), 2)
    replay = replay.run([Place(1, "char-01"), Lock(1), Place(2, "char-01"), Lock(2)])
    refused(
        replay.secret,
        Seance((Verdict(1, False), Verdict(2, False))),
        FalseVerdict,
        "the Ghost called Jordan's Character wrong, but it is correct",
    )
    refused(
        replay.secret,
        Seance((Verdict(1, True), Verdict(2, True))),
        FalseVerdict,
        "the Ghost called Avery's Character correct, but it is wrong",
    )
    # The public replay cannot know; the reveal at the end catches the lie.
    lie = apply(replay.public, Seance((Verdict(1, False), Verdict(2, False))))
    assert lie.investigator(1).found == ()


def test_an_investigator_with_three_cards_is_no_longer_active() -> None:
    replay = manual_game(3)
    for _ in range(3):
        replay = play_round(replay, correct={1})
    jordan = replay.secret.investigator(1)
    assert jordan.found == ("char-01", "loc-01", "item-01") and jordan.done
    assert jordan.seeking is None
    assert replay.secret.active_seats == (2, 3)
    hand = replay.secrets.hand
    for state in (replay.secret, replay.public):
        refused(
            state,
            Give(1, hand[:1]),
            NotActive,
            "Jordan has found all three cards and needs no more dreams",
        )
        refused(state, Place(1, "char-05"), NotActive, "Jordan has found all three cards and waits")
        refused(state, Lock(1), NotActive, "Jordan has found all three cards and waits")
        refused(state, Unlock(1), MarkerNotLocked, "Jordan's marker is not locked")
    # The round goes on without Jordan: two gives end the dreams.
    replay = give_one(give_one(replay, 3), 2)
    assert replay.secret.phase is Phase.INVESTIGATION
    replay = replay.run([Place(2, "char-02"), Lock(2), Place(3, "char-04"), Lock(3)])
    for state in (replay.secret, replay.public):
        refused(
            state,
            Seance((Verdict(1, True), Verdict(2, True), Verdict(3, False))),
            BadVerdict,
            "(seats [2, 3], not [1, 2, 3])",
        )
    replay = replay.apply(true_seance(replay.secret))
    assert replay.secret.last_seance == (Verdict(2, True), Verdict(3, False))


# --------------------------------------------------------------------------- the calendar


def test_seven_days_without_solving_the_plot_lose_the_game() -> None:
    replay = manual_game(2)
    for day in range(1, 8):
        assert replay.secret.day == day
        replay = play_round(replay, correct=())
    assert (replay.secret.day, replay.secret.phase, replay.secret.outcome) == (
        7,
        Phase.ENDED,
        Outcome.LOST,
    )
    assert replay.secret.stage is Stage.PLOT


def test_solving_the_plot_on_the_seventh_day_is_too_late() -> None:
    replay = manual_game(2)
    for _ in range(4):
        replay = play_round(replay, correct=())
    for _ in range(3):
        replay = play_round(replay)
    assert all(inv.done for inv in replay.secret.investigators)
    assert replay.secret.outcome is Outcome.LOST and replay.secret.stage is Stage.PLOT


def test_the_plot_solved_starts_stage_two_with_a_grouped_tableau() -> None:
    replay = manual_game(3)
    replay = play_round(replay, correct={1, 2})
    replay = play_round(replay)
    replay = play_round(replay)
    assert replay.secret.active_seats == (3,) and replay.secret.stage is Stage.PLOT
    replay = play_round(replay)
    state = replay.secret
    assert (state.stage, state.phase, state.day) == (Stage.CULPRIT, Phase.DREAMS, 5)
    assert state.tableau.all_cards == ()
    assert state.grouped_tableau == (
        ("char-01", "loc-01", "item-01"),
        ("char-02", "loc-02", "item-02"),
        ("char-03", "loc-03", "item-03"),
    )
    assert state.active_seats == (1, 2, 3)
    assert all(inv.dreams == () for inv in state.investigators)
    assert replay.secrets.discard != ()


def test_the_fastest_plot_takes_three_days() -> None:
    replay = solve_plot(manual_game(6, dream_cards=DREAMS))
    assert replay.secret.day == 4
    assert [inv.found[0] for inv in replay.secret.investigators] == [
        f"char-{n:02d}" for n in range(1, 7)
    ]


def test_the_public_replay_refuses_one_card_found_by_two_investigators() -> None:
    # Columns never share a card, so two "correct" verdicts on one card prove a lie
    # even without the Ghost's secrets.
    replay = manual_game(2)
    replay = give_one(give_one(replay, 1), 2)
    card = right_card(replay.secret, 1)
    replay = replay.run([Place(1, card), Lock(1), Place(2, card), Lock(2)])
    refused(
        replay.public,
        Seance((Verdict(1, True), Verdict(2, True))),
        BadVerdict,
        f"{card} cannot be found twice",
    )
