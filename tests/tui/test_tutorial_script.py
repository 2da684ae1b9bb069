"""The tutorial's script: each step's hint shows in the situation it is written for.

These situations are built from real views of a game at the tutorial's own
seeds (``ChapterTable`` and ``LocalGame``), so a hint is checked against
the game a player meets, not against a hand-made state.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from local_game import LocalGame, play_out_stage_one
from tui_support import PACK

from domicile_p2p.bots import make_policy
from domicile_p2p.fairness.seeds import SelfplaySeeds
from domicile_p2p.identity import Identity
from domicile_p2p.rules import GHOST, Category, Difficulty, Give, Lock, Phase, Place, Stage, View
from domicile_tui.tutorial import (
    CHAPTERS,
    DIFFICULTY,
    INVESTIGATORS,
    Chapter,
    Focus,
    Situation,
    Where,
    chapter_over_words,
)

INVESTIGATOR, GHOST_CHAPTER, STAGE_TWO = CHAPTERS


def game_at(seed: int, player_seat: int) -> LocalGame:
    """A game dealt as the tutorial deals it, every seat but the player's a bot."""
    seeds = SelfplaySeeds.from_number(seed)
    seats = (GHOST, *range(1, INVESTIGATORS + 1))
    game = LocalGame(
        pack=PACK,
        difficulty=DIFFICULTY,
        names=tuple(f"Seat {seat}" for seat in seats),
        player_seat=player_seat,
        player=Identity.from_private_bytes(seeds.identity(player_seat)),
        bot_seats=tuple(seat for seat in seats if seat != player_seat),
        policy_factory=make_policy,
        seeds=seeds,
    )
    game.set_up()
    return game


def bots_play(game: LocalGame, until: object) -> None:
    """Let the bots play until ``until(game)`` holds (they never need the player for it)."""
    for _ in range(200):
        if until(game):  # type: ignore[operator]
            return
        wanted = game.bot_actions()
        if not wanted:
            if game.seance_due():
                game.announce_seance()
                continue
            raise AssertionError("the bots wait for the player")
        game.play(*wanted[0])
    raise AssertionError("the bots did not get there")


def served(game: LocalGame, seat: int = 1) -> bool:
    state = game.replica.state
    return state is not None and state.investigator(seat).served


def table(view: View, focus: Focus = Focus.CARD, where: Where = Where.TABLE) -> Situation:
    return Situation(where, view, focus)


def step_name(chapter: Chapter, situation: Situation) -> str:
    return chapter.step(situation).name


# --------------------------------------------------------------------------- chapter one


def test_the_investigators_round_is_told_step_by_step() -> None:
    chapter = INVESTIGATOR
    assert step_name(chapter, Situation(Where.LOBBY)) == "welcome"
    assert step_name(chapter, Situation(Where.TABLE)) == "setting up"
    game = game_at(chapter.seed, 1)
    assert step_name(chapter, table(game.view(1))) == "wait for dreams"

    bots_play(game, served)
    view = game.view(1)
    assert step_name(chapter, table(view)) == "place the marker"
    assert step_name(chapter, table(view, Focus.DREAM)) == "read a dream"
    assert step_name(chapter, table(view, Focus.CHAT)) == "in the chat"
    assert "Enter places your marker" in chapter.step(table(view)).text

    card = view.state.tableau.cards(Category.CHARACTER)[0]
    game.play(1, Place(1, card))
    assert step_name(chapter, table(game.view(1))) == "lock the marker"
    assert not chapter.over(table(game.view(1)))

    game.play(1, Lock(1))
    bots_play(game, lambda g: g.replica.state.phase is not Phase.INVESTIGATION)
    # Until the séance is told the table shows the day it was held on.
    assert step_name(chapter, table(game.view(1))) in ("wait for the others", "round over")
    bots_play(game, lambda g: g.replica.state.day == 2)
    after = table(game.view(1))
    assert chapter.over(after)
    found = bool(game.view(1).state.investigator(1).found)
    words = chapter_over_words(chapter, after)
    assert ("Right" in words) is found and ("Wrong" in words) is not found


# --------------------------------------------------------------------------- chapter two


def test_the_ghosts_give_is_told_from_picking_to_giving() -> None:
    chapter = GHOST_CHAPTER
    game = game_at(chapter.seed, GHOST)
    view = game.view(GHOST)
    ghost = Situation(Where.GHOST, view, Focus.DREAM)
    assert step_name(chapter, ghost) == "pick dreams"
    assert step_name(chapter, replace(ghost, focus=Focus.COLUMN)) == "look at a column"
    assert step_name(chapter, replace(ghost, picked=2)) == "give"
    assert not chapter.over(ghost)

    assert view.ghost is not None
    game.play(GHOST, Give(1, view.ghost.hand[:1]))
    given = Situation(Where.GHOST, game.view(GHOST), Focus.DREAM)
    assert step_name(chapter, given) == "given"
    assert chapter.over(given)
    assert "Ghost" in chapter_over_words(chapter, given)


# --------------------------------------------------------------------------- chapter three


def test_stage_two_is_reached_for_the_player_and_told() -> None:
    chapter = STAGE_TWO
    game = game_at(chapter.seed, 1)
    play_out_stage_one(game)
    view = game.view(1)
    state = view.state
    assert state.stage is Stage.CULPRIT and state.phase is Phase.DREAMS
    assert all(state.investigator(seat).done for seat in state.config.seats)
    assert game.policies.keys() == {GHOST, 2}, "the bots are back in their seats"
    assert step_name(chapter, table(view, where=Where.STAGE_TWO)) == "group dreams coming"

    bots_play(game, lambda g: g.replica.state.phase is Phase.INVESTIGATION)
    view = game.view(1)
    at_stage_two = table(view, where=Where.STAGE_TWO)
    assert step_name(chapter, at_stage_two) == "accuse"
    assert step_name(chapter, replace(at_stage_two, focus=Focus.DREAM)) == "read the group's dreams"
    suspect = view.state.grouped_tableau[0][0]
    game.play(1, Place(1, suspect))
    assert step_name(chapter, table(game.view(1), where=Where.STAGE_TWO)) == "lock the accusation"
    game.play(1, Lock(1))
    assert step_name(chapter, table(game.view(1), where=Where.STAGE_TWO)) == "agree"


def test_the_end_of_the_game_says_how_to_leave() -> None:
    game = game_at(STAGE_TWO.seed, 1)
    play_out_stage_one(game)
    game.policies[1] = make_policy(1, PACK, 5)  # a bot plays the player's Stage Two
    bots_play(game, lambda g: g.over)
    end = Situation(Where.END, game.view(1))
    step = STAGE_TWO.step(end)
    assert step.name in ("won", "lost")
    assert "Esc goes back to the front door" in step.text
    assert STAGE_TWO.over(end)


# --------------------------------------------------------------------------- any situation


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c.title)
@pytest.mark.parametrize("where", list(Where))
@pytest.mark.parametrize("focus", list(Focus))
def test_every_chapter_has_a_hint_for_whatever_is_on_screen(
    chapter: Chapter, where: Where, focus: Focus
) -> None:
    """A screen of the previous chapter may still be up while the next one opens: every
    situation, the player's seat or the Ghost's, has a hint, never an error."""
    views = [None, game_at(INVESTIGATOR.seed, 1).view(1), game_at(GHOST_CHAPTER.seed, 0).view(0)]
    for view in views:
        step = chapter.step(Situation(where, view, focus))
        assert step.text


def test_the_tutorials_table_is_small_and_easy() -> None:
    assert INVESTIGATORS == 2
    assert DIFFICULTY is Difficulty.EASY
    assert [c.number for c in CHAPTERS] == [1, 2, 3]
    assert [c.opens_in_lobby for c in CHAPTERS] == [True, False, False]
    assert INVESTIGATOR.seed == STAGE_TWO.seed, "chapters one and three are the same house"
