"""The sand-glass: the host calls time, placed markers lock where they stand, no marker is
no guess (judged wrong), and Stage Two without one agreed Character accuses no one."""

from __future__ import annotations

from dataclasses import replace

from rules_support import (
    Replay,
    culprit_character,
    give_one,
    group_give,
    manual_game,
    refused,
    right_card,
    secret_for,
    solve_plot,
    start,
    table,
    tableau_for,
    true_seance,
)

from domicile_p2p.rules import (
    BadTimeUp,
    BadVerdict,
    CulpritSeance,
    Difficulty,
    GameOver,
    Lock,
    NoSandGlass,
    Phase,
    Place,
    Seance,
    Stage,
    TimeUp,
    Unlock,
    Verdict,
    WrongPhase,
    time_up,
)


def _timed_game(investigators: int = 3) -> Replay:
    config = replace(table(investigators, Difficulty.EASY), timer=60)
    tableau = tableau_for(config)
    return start(config, tableau, secret_for(config, tableau))


def _investigating(replay: Replay) -> Replay:
    for seat in replay.secret.active_seats:
        replay = give_one(replay, seat)
    assert replay.secret.phase is Phase.INVESTIGATION
    return replay


def test_time_up_locks_placed_markers_and_records_no_guess() -> None:
    replay = _investigating(_timed_game())
    card = right_card(replay.secret, 1)
    replay = replay.run([Place(1, card), Place(2, right_card(replay.secret, 2)), Lock(2)])
    # Seat 1 placed, seat 2 placed and locked, seat 3 nothing.
    assert time_up(replay.public) == TimeUp(locked=(1,), no_guess=(3,))
    replay = replay.apply(TimeUp((1,), (3,)))
    state = replay.public
    assert state.phase is Phase.SEANCE and state.no_guess == (3,)
    assert state.investigator(1).locked and state.investigator(1).marker == card
    assert state.investigator(3).marker is None
    # No guess is a wrong guess: the séance may not call it correct, publicly checked.
    cheat = Seance((Verdict(1, True), Verdict(2, True), Verdict(3, True)))
    for known in (replay.secret, replay.public):
        refused(known, cheat, BadVerdict, "made no guess today", "must call it wrong")
    replay = replay.apply(true_seance(replay.secret))
    assert replay.secret.last_seance[2] == Verdict(3, False)
    assert replay.public.no_guess == () and replay.public.day == 2
    assert replay.public.investigator(3).found == () and replay.public.investigator(3).dreams


def test_time_up_must_name_exactly_what_the_state_implies() -> None:
    replay = _investigating(_timed_game(2))
    replay = replay.apply(Place(1, right_card(replay.secret, 1)))
    for wrong in (TimeUp((), (2,)), TimeUp((1, 2), ()), TimeUp((1,), ()), TimeUp((1,), (1, 2))):
        refused(replay.public, wrong, BadTimeUp, "seats [1]", "seats [2]")


def test_time_up_only_during_the_investigation_of_a_timed_table() -> None:
    untimed = _investigating(manual_game(2, Difficulty.EASY))
    refused(untimed.public, TimeUp((), (1, 2)), NoSandGlass, "without a sand-glass")
    timed = _timed_game(2)
    refused(timed.public, TimeUp((), (1, 2)), WrongPhase, "no one may call time now")
    seance = _investigating(timed).apply(TimeUp((), (1, 2)))
    refused(seance.public, TimeUp((), ()), WrongPhase, "the séance is under way")


def test_time_up_after_the_game_is_refused() -> None:
    replay = _investigating(_timed_game(1)).apply(TimeUp((), (1,)))
    for _ in range(6):
        replay = replay.apply(true_seance(replay.secret))
        replay = _investigating(replay).apply(TimeUp((), (1,)))
    replay = replay.apply(true_seance(replay.secret))
    assert replay.public.phase is Phase.ENDED
    refused(replay.public, TimeUp((), ()), GameOver)


def _stage_two(investigators: int = 2) -> Replay:
    replay = group_give(solve_plot(_timed_game(investigators)))
    assert (replay.secret.stage, replay.secret.phase) == (Stage.CULPRIT, Phase.INVESTIGATION)
    return replay


def test_stage_two_time_up_without_one_character_accuses_no_one() -> None:
    replay = _stage_two()
    culprit = culprit_character(replay.secret)
    other = next(c for c in (i.found[0] for i in replay.secret.investigators) if c != culprit)
    replay = replay.run([Place(1, culprit), Place(2, other)]).apply(TimeUp((1, 2), ()))
    assert replay.public.accusation is None
    for known in (replay.secret, replay.public):
        refused(known, CulpritSeance(True), BadVerdict, "before the group agreed")
    replay = replay.apply(CulpritSeance(False))
    assert (replay.public.stage, replay.public.phase) == (Stage.CULPRIT, Phase.DREAMS)


def test_stage_two_time_up_on_one_character_is_an_accusation() -> None:
    replay = _stage_two()
    culprit = culprit_character(replay.secret)
    replay = replay.run([Place(1, culprit), Lock(1), Place(2, culprit)])
    replay = replay.apply(TimeUp((2,), ()))
    assert replay.public.accusation == culprit
    assert replay.apply(CulpritSeance(True)).public.outcome == "won"


def test_stage_two_a_seat_without_a_marker_means_no_accusation() -> None:
    replay = _stage_two()
    culprit = culprit_character(replay.secret)
    replay = replay.apply(Place(1, culprit)).apply(TimeUp((1,), (2,)))
    refused(replay.public, CulpritSeance(True), BadVerdict, "before the group agreed")


def test_stage_two_investigation_ends_when_every_marker_locks_on_one_character() -> None:
    replay = _stage_two()
    culprit = culprit_character(replay.secret)
    replay = replay.run([Place(1, culprit), Lock(1), Place(2, culprit), Lock(2)])
    assert replay.public.phase is Phase.SEANCE
    # Too late to reconsider: the unanimous lock ended the investigation.
    refused(replay.public, Unlock(1), WrongPhase, "no one may unlock a marker now")
