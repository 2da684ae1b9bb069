"""The end-of-game recap and the timeline it is read from (pure: no terminal).

The games are the protocol's own vectors (``protocol/vectors/games``): an
honest game won in Stage Two, the same seed at a table with a sand-glass
that runs out twice, and files that break a rule part of the way through.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from domicile_p2p.rules import Outcome, Stage
from domicile_p2p.transcript import Event
from domicile_p2p.transcript.files import read_transcript
from domicile_p2p.transcript.schema import GiveBody, GroupGiveBody, Kind
from domicile_p2p.transcript.verify import verify
from domicile_tui.recap import recap_of, recap_of_events
from domicile_tui.timeline import fold
from domicile_tui.verification import verification_of

GAMES = Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "games"


def game(name: str) -> list[Event]:
    return read_transcript(GAMES / f"{name}.jsonl")


def test_every_frame_holds_the_state_the_table_saw() -> None:
    events = game("honest")
    timeline = fold(events)
    assert [frame.event for frame in timeline.frames] == events
    assert timeline.refused is None
    deal = next(i for i, e in enumerate(events) if e.kind is Kind.DEAL)
    assert all(frame.state is None for frame in timeline.frames[:deal])
    assert timeline.frames[deal].state is not None
    for before, after in zip(timeline.frames, timeline.frames[1:], strict=False):
        assert after.before is before.state  # each event starts where the last one ended
    reveal = next(i for i, e in enumerate(events) if e.kind is Kind.REVEAL)
    assert all(frame.truth is None for frame in timeline.frames[:reveal])
    assert timeline.frames[reveal].truth is not None and timeline.truth is not None


def test_each_investigator_day_by_day_beside_the_truth() -> None:
    events = game("honest")
    recap = recap_of_events(events)
    assert recap is not None and recap.truth is not None
    assert recap.outcome is Outcome.WON and recap.day == 6
    assert [story.name for story in recap.stories] == ["Bot 1", "Bot 2"]
    for story in recap.stories:
        column = recap.truth.column(story.seat)
        days = [guess.day for guess in story.days]
        assert days == sorted(set(days)) and days[0] == 1
        for guess in story.days:
            assert guess.seeking is not None and guess.correct is not None
            # A verdict is right exactly when the marker stood on the true card.
            assert guess.correct == (guess.marker == column.card(guess.seeking))
            gives = [
                e.body.cards
                for e in events
                if isinstance(e.body, GiveBody) and e.body.to == story.seat
            ]
            assert guess.dreams in gives
        found = [guess.marker for guess in story.days if guess.correct]
        assert tuple(found) == story.found == (column.character, column.location, column.item)
    # The two bots' days, as the vector's game was played.
    first, second = recap.stories
    assert [g.correct for g in first.days] == [True, True, False, True]
    assert [g.correct for g in second.days] == [True, False, True, False, True]


def test_stage_two_tells_the_three_dreams_and_every_vote() -> None:
    events = game("honest")
    recap = recap_of_events(events)
    assert recap is not None and recap.truth is not None
    (accusation,) = recap.accusations
    group_give = next(e.body for e in events if isinstance(e.body, GroupGiveBody))
    assert accusation.dreams == group_give.cards and len(accusation.dreams) == 3
    assert accusation.day == 6 and accusation.correct is True
    culprit = recap.culprit_character
    assert accusation.votes == ((1, culprit), (2, culprit))


def test_the_end_screen_gets_the_recap_of_the_verified_transcript() -> None:
    events = game("honest")
    verification = verification_of(verify(events))
    assert verification.recap is not None
    assert verification.recap == recap_of_events(events)


def test_the_sand_glass_is_remembered_and_no_guess_is_a_wrong_one() -> None:
    recap = recap_of_events(game("time-up"))
    assert recap is not None
    assert recap.outcome is Outcome.LOST and recap.day == 7
    clocked = {(story.seat, g.day) for story in recap.stories for g in story.days if g.clock}
    assert clocked == {(1, 2), (2, 2)}
    no_guess = recap.story(2).days[1]
    assert no_guess.marker is None and no_guess.correct is False
    (accusation,) = recap.accusations
    assert accusation.votes == ((1, None), (2, None)) and accusation.correct is False


def test_the_recap_so_far_keeps_the_truth_until_the_reveal() -> None:
    events = game("honest")
    timeline = fold(events)
    first_seance = next(i for i, e in enumerate(events) if e.kind is Kind.SEANCE)
    before = recap_of(timeline, upto=first_seance)
    assert before is not None and before.truth is None
    assert all(g.correct is None for story in before.stories for g in story.days)
    assert all(g.dreams for story in before.stories for g in story.days)
    after = recap_of(timeline, upto=first_seance + 1)
    assert after is not None
    assert all(story.days[0].correct is not None for story in after.stories)
    end = recap_of(timeline, upto=len(events) - 1)  # all but the reveal
    assert end is not None and end.truth is None and end.accusations[0].correct is True
    assert recap_of(timeline, upto=3) is None  # nothing dealt yet: nothing to tell


def test_a_file_that_breaks_the_rules_is_told_up_to_the_refused_event() -> None:
    events = game("rules/g2-give-to-an-investigator-who-is-done")
    timeline = fold(events)
    refused = timeline.refused
    assert refused is not None and refused.event.seq == 38
    assert refused.refused is not None and refused.refused.check.value == "public rules"
    index = timeline.frames.index(refused)
    assert refused.state is refused.before  # refused: the table stays as it was
    later = timeline.frames[index + 1 :]
    assert later and all(frame.unchecked for frame in later)
    assert all(frame.state is refused.before for frame in later)
    recap = recap_of(timeline)
    assert recap is not None and recap.truth is None  # the reveal was never replayed
    assert refused.before is not None and recap.day == refused.before.day


def test_a_reveal_that_proves_a_cheat_is_kept_with_the_truth() -> None:
    timeline = fold(game("card-not-in-hand"))
    refused = timeline.refused
    assert refused is not None and refused.event.kind is Kind.REVEAL
    assert refused.refused is not None and refused.refused.seq == 42
    assert refused.state is not None and refused.state.stage is Stage.CULPRIT


@pytest.mark.parametrize("name", ["wrong-tableau", "rules/p3-second-ghost-commit"])
def test_no_deal_no_recap(name: str) -> None:
    assert recap_of_events(game(name)) is None


def test_an_empty_timeline() -> None:
    timeline = fold([])
    assert timeline.frames == () and timeline.truth is None and recap_of(timeline) is None
