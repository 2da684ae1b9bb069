"""Stage Two (the Culprit): three dreams to the group, a unanimous accusation, win or loss."""

from __future__ import annotations

from rules_support import (
    Replay,
    accuse,
    culprit_character,
    culprit_seance,
    dreams,
    group_give,
    manual_game,
    play_round,
    refused,
    solve_plot,
)

from domicile_p2p.rules import (
    MIN_DREAM_CARDS,
    BadGive,
    Chat,
    CulpritSeance,
    Difficulty,
    FalseVerdict,
    GameOver,
    Give,
    GroupGive,
    Lock,
    MarkerLocked,
    NotOnTableau,
    Outcome,
    Phase,
    Place,
    Stage,
    Unlock,
    Verdict,
    WrongPhase,
    apply,
)


def _stage_two(investigators: int = 3, culprit: int = 2) -> Replay:
    return solve_plot(manual_game(investigators, culprit=culprit))


def test_the_group_receives_exactly_three_dreams() -> None:
    replay = _stage_two()
    hand = replay.secrets.hand
    for state in (replay.secret, replay.public):
        refused(state, GroupGive(hand[:2]), BadGive, "exactly 3 dream cards, not 2")
        refused(state, GroupGive(hand[:4]), BadGive, "exactly 3 dream cards, not 4")
        refused(state, Give(1, hand[:1]), WrongPhase, "the group its three dreams")
        refused(state, GroupGive((hand[0], hand[0], hand[1])), BadGive, "only once")
    deck_top = replay.secrets.deck[:3]
    replay = replay.apply(GroupGive(hand[:3]))
    assert replay.secret.group_dreams == hand[:3]
    assert replay.secrets.hand == (*hand[3:], *deck_top)
    assert replay.secret.phase is Phase.INVESTIGATION
    assert all(inv.dreams == () for inv in replay.secret.investigators)


def test_markers_go_on_the_characters_of_the_grouped_tableau() -> None:
    replay = _stage_two()
    for state in (replay.secret, replay.public):
        refused(state, Place(1, "char-02"), WrongPhase, "the group its three dreams")
    replay = group_give(replay)
    for state in (replay.secret, replay.public):
        # A Location of the grouped tableau, and a Character that was discarded with the tableau.
        for card in ("loc-02", "char-05"):
            refused(
                state, Place(1, card), NotOnTableau, "in Stage Two Jordan must accuse a Character"
            )
    replay = replay.apply(Place(1, "char-03"))
    assert replay.secret.investigator(1).marker == "char-03"


def test_the_seance_waits_until_every_marker_is_locked_on_one_character() -> None:
    replay = group_give(_stage_two())
    replay = replay.run([Place(1, "char-01"), Place(2, "char-02"), Place(3, "char-02")])
    replay = replay.run([Lock(1), Lock(2), Lock(3)])
    # Locked on different cards: no séance yet.
    assert replay.secret.phase is Phase.INVESTIGATION
    for state in (replay.secret, replay.public):
        refused(state, Place(1, "char-02"), MarkerLocked, "Jordan's marker is locked")
        refused(state, CulpritSeance(True), WrongPhase, "choosing the culprit")
    replay = replay.run([Unlock(1), Place(1, "char-02")])
    assert replay.secret.phase is Phase.INVESTIGATION
    replay = replay.apply(Lock(1))
    assert replay.secret.phase is Phase.SEANCE


def test_all_on_one_card_but_one_unlocked_is_not_yet_a_decision() -> None:
    replay = group_give(_stage_two())
    replay = replay.run([Place(seat, "char-02") for seat in (1, 2, 3)])
    replay = replay.run([Lock(1), Lock(2)])
    assert replay.secret.phase is Phase.INVESTIGATION


def test_naming_the_culprit_wins_for_everyone() -> None:
    replay = accuse(_stage_two(culprit=2), "char-02")
    refused(
        replay.secret,
        CulpritSeance(False),
        FalseVerdict,
        "the Ghost called the accusation wrong, but it is correct",
    )
    replay = replay.apply(CulpritSeance(True))
    state = replay.secret
    assert (state.stage, state.phase, state.outcome, state.day) == (
        Stage.CULPRIT,
        Phase.ENDED,
        Outcome.WON,
        4,
    )
    assert state.last_seance == (Verdict(1, True), Verdict(2, True), Verdict(3, True))
    for current in (replay.secret, replay.public):
        refused(current, GroupGive(()), GameOver, "the game is over (won); only chat is possible")
        refused(current, Place(1, "char-02"), GameOver, "the game is over (won)")
        assert apply(current, Chat(1, "we did it")) == current


def test_a_wrong_accusation_keeps_the_dreams_and_ends_the_round() -> None:
    replay = accuse(_stage_two(culprit=2), "char-03")
    refused(
        replay.secret,
        CulpritSeance(True),
        FalseVerdict,
        "the Ghost called the accusation correct, but it is wrong",
    )
    kept = replay.secret.group_dreams
    replay = replay.apply(CulpritSeance(False))
    state = replay.secret
    assert (state.stage, state.phase, state.day, state.outcome) == (
        Stage.CULPRIT,
        Phase.DREAMS,
        5,
        None,
    )
    assert state.group_dreams == kept
    assert state.last_seance == (Verdict(1, False), Verdict(2, False), Verdict(3, False))
    assert all(inv.marker is None and not inv.locked for inv in state.investigators)
    replay = group_give(replay)
    assert len(replay.secret.group_dreams) == 6 and replay.secret.group_dreams[:3] == kept


def test_the_public_replay_takes_the_ghosts_word_until_the_reveal() -> None:
    replay = accuse(_stage_two(culprit=2), "char-03")
    lie = apply(replay.public, CulpritSeance(True))
    assert lie.outcome is Outcome.WON


def test_the_culprit_unnamed_by_the_seventh_day_loses() -> None:
    replay = _stage_two(culprit=1)
    innocent = "char-03"
    assert culprit_character(replay.secret) == "char-01"
    for day in (4, 5, 6, 7):
        assert replay.secret.day == day
        replay = culprit_seance(accuse(replay, innocent))
    state = replay.secret
    assert (state.stage, state.phase, state.outcome, state.day) == (
        Stage.CULPRIT,
        Phase.ENDED,
        Outcome.LOST,
        7,
    )
    assert len(state.group_dreams) == 12
    refused(state, Lock(1), GameOver, "the game is over (lost)")


def test_the_culprit_named_on_the_seventh_day_still_wins() -> None:
    replay = _stage_two(culprit=1)
    for _ in (4, 5, 6):
        replay = culprit_seance(accuse(replay, "char-03"))
    replay = culprit_seance(accuse(replay, "char-01"))
    state = replay.secret
    assert (state.phase, state.outcome, state.day) == (Phase.ENDED, Outcome.WON, 7)
    # Named, not a round's end: the markers stay where the group put them.
    assert all(inv.marker == "char-01" and inv.locked for inv in state.investigators)


def test_a_lone_investigator_accuses_their_own_character() -> None:
    replay = accuse(solve_plot(manual_game(1)), "char-01")
    assert culprit_seance(replay).secret.outcome is Outcome.WON


def test_protocol_2_gives_the_group_what_is_left_when_the_hand_runs_short() -> None:
    # Five dream cards for two investigators (protocol 2 allowed it): the end of Stage One
    # draws the hand back up from the discard pile, each wrong accusation keeps its dreams.
    replay = manual_game(2, dream_cards=dreams(5), culprit=2, protocol=2)
    for _ in range(3):
        replay = play_round(replay)
    assert replay.secret.stage is Stage.CULPRIT
    assert (replay.public.hand_size, replay.public.deck_size, replay.public.discard_size) == (
        5,
        0,
        0,
    )
    replay = culprit_seance(accuse(replay, "char-01"))  # three given, nothing left to draw
    assert replay.public.hand_size == 2
    hand = replay.secrets.hand
    for state in (replay.secret, replay.public):
        refused(state, GroupGive((*hand, "dream-01")), BadGive, "exactly 2 dream cards, not 3")
    replay = culprit_seance(accuse(replay, "char-01"))  # the last two: nothing is left
    assert (replay.public.hand_size, replay.public.deck_size, replay.public.discard_size) == (
        0,
        0,
        0,
    )
    refused(replay.public, GroupGive(("dream-01",)), BadGive, "exactly 0 dream cards, not 1")
    replay = replay.apply(GroupGive(()))
    assert replay.secret.phase is Phase.INVESTIGATION
    assert sorted(replay.secret.group_dreams) == list(dreams(5))
    replay = culprit_seance(
        replay.run([Place(1, "char-02"), Lock(1), Place(2, "char-02"), Lock(2)])
    )
    assert replay.secret.outcome is Outcome.WON


def test_at_the_smallest_pack_the_ghost_holds_seven_at_every_group_give() -> None:
    # Sixteen dreams: Stage Two from day 4, three wrong accusations keep nine dreams face
    # up, and the Ghost still holds seven on day 7: a group give of three is always there.
    replay = solve_plot(manual_game(2, Difficulty.EASY, dreams(MIN_DREAM_CARDS), culprit=2))
    innocent = replay.secret.investigator(1).found[0]
    for day in range(4, 8):
        assert (replay.secret.stage, replay.secret.phase, replay.secret.day) == (
            Stage.CULPRIT,
            Phase.DREAMS,
            day,
        )
        assert replay.public.hand_size == 7
        assert len(replay.secret.group_dreams) == 3 * (day - 4)
        hand = replay.secrets.hand
        for state in (replay.secret, replay.public):
            refused(state, GroupGive(hand[:1]), BadGive, "exactly 3 dream cards, not 1")
        replay = culprit_seance(accuse(replay, innocent))
    assert replay.secret.outcome is Outcome.LOST


def test_protocol_2_let_a_one_card_group_give_through_at_a_ten_card_pack() -> None:
    # Issue 22's hole, kept for protocol 2's transcripts: on day 7 the hand holds 1 card.
    replay = solve_plot(manual_game(2, Difficulty.EASY, dreams(10), culprit=2, protocol=2))
    innocent = replay.secret.investigator(1).found[0]
    for _ in range(3):
        replay = culprit_seance(accuse(replay, innocent))
    assert replay.public.hand_size == 1
    replay = replay.apply(GroupGive(replay.secrets.hand))
    assert replay.secret.phase is Phase.INVESTIGATION
