"""The tutorial, played with the keys a new player presses, and left at every step.

The tutorial's tables are real offline games at fixed seeds; here the bots act
at once and the séance is told without pauses, so nothing waits on a clock.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static
from tui_support import (
    DATA_DIR,
    PACK,
    press_at_the_table,
    rendered,
    settings,
    settle,
    turns,
    view_of,
    wait_until,
)

from domicile_p2p.rules import Phase, Stage
from domicile_p2p.transcript.selfplay import PlainPolicy
from domicile_tui.app import HOLD_AFTER_CLOSE, DomicileApp
from domicile_tui.connect import TableDoor
from domicile_tui.pacing import BotPace
from domicile_tui.screens.card import CardScreen
from domicile_tui.screens.chapter import ChapterScreen
from domicile_tui.screens.confirm import ConfirmScreen
from domicile_tui.screens.culprit import CulpritScreen
from domicile_tui.screens.end import EndScreen
from domicile_tui.screens.ghost import GhostScreen
from domicile_tui.screens.investigator import InvestigatorScreen
from domicile_tui.screens.lobby import LobbyScreen
from domicile_tui.screens.seance import SeanceScreen
from domicile_tui.screens.start import StartScreen
from domicile_tui.widgets.card import CardTile
from domicile_tui.widgets.hint import HintBar

WIDE = (120, 36)


def tutorial_app(*, plain_bots: bool = False, at_once: bool = True) -> DomicileApp:
    """``domicile play --tutorial`` (or the front door, with ``at_once`` off), offline."""
    door = TableDoor(
        PACK,
        pace=BotPace(0),
        lan=False,
        data_dir=DATA_DIR,
        **({"policy_factory": lambda s, _p, b: PlainPolicy(s, b)} if plain_bots else {}),
    )
    return DomicileApp(
        door,
        defaults=settings(),
        open_at_once=at_once,
        offline=True,
        seance_step=0.0,
        tutorial=at_once,
    )


def hint(app: DomicileApp) -> str:
    """The step the hint on the screen shows now."""
    bars = app.screen.query(HintBar)
    if not bars:
        return ""
    step = bars.first(HintBar).step
    return step.name if step is not None else ""


async def hint_is(pilot: Pilot[Any], name: str) -> None:
    app = pilot.app
    assert isinstance(app, DomicileApp)
    await wait_until(pilot, lambda: hint(app) == name, f"the hint {name!r} (now {hint(app)!r})")


# --------------------------------------------------------------------------- the steps
# Each step is what a player does to get from the step before to this one.


async def lobby(pilot: Pilot[Any]) -> None:
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, LobbyScreen), "the lobby")
    await hint_is(pilot, "welcome")


async def begin_the_game(pilot: Pilot[Any]) -> None:
    await pilot.press("enter")
    await hint_is(pilot, "place the marker")
    assert isinstance(pilot.app.screen, InvestigatorScreen)


async def read_a_dream(pilot: Pilot[Any]) -> None:
    await pilot.press("d")
    await hint_is(pilot, "read a dream")
    await pilot.press("i")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, CardScreen), "the dream read")


async def place_the_marker(pilot: Pilot[Any]) -> None:
    await pilot.press("escape")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, InvestigatorScreen), "the table")
    await pilot.press("c", "enter")
    await hint_is(pilot, "lock the marker")


async def lock_it(pilot: Pilot[Any]) -> None:
    await pilot.press("l")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, SeanceScreen), "the séance")


async def close_the_seance(pilot: Pilot[Any]) -> None:
    await pilot.press("enter")
    await wait_until(
        pilot, lambda: isinstance(pilot.app.screen, ChapterScreen), "chapter one's end"
    )


async def sit_in_the_ghosts_chair(pilot: Pilot[Any]) -> None:
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, GhostScreen), "the Ghost's screen")
    await hint_is(pilot, "pick dreams")


async def pick_a_dream(pilot: Pilot[Any]) -> None:
    await pilot.press("1")
    await hint_is(pilot, "give")


async def give_it(pilot: Pilot[Any]) -> None:
    await pilot.press("g")
    await wait_until(
        pilot, lambda: isinstance(pilot.app.screen, ChapterScreen), "chapter two's end"
    )


async def go_to_stage_two(pilot: Pilot[Any]) -> None:
    app = pilot.app
    assert isinstance(app, DomicileApp)
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(app.screen, CulpritScreen), "Stage Two")
    await wait_until(
        pilot,
        lambda: app.shown is not None and app.shown.state.phase is Phase.INVESTIGATION,
        "the group's dreams",
    )
    await hint_is(pilot, "accuse")


async def accuse(pilot: Pilot[Any]) -> None:
    await pilot.press("enter")
    await hint_is(pilot, "lock the accusation")


async def agree_until_the_end(pilot: Pilot[Any]) -> None:
    """Stage Two played as a player would: lock; follow the other investigator's
    accusation when they hold to another; close each séance; until the game ends."""
    app = pilot.app
    assert isinstance(app, DomicileApp)
    async for _ in turns(pilot):
        if isinstance(app.screen, EndScreen):
            break
        if isinstance(app.screen, SeanceScreen):
            await pilot.press("enter")
        elif isinstance(app.screen, CulpritScreen) and app.shown is not None:
            await pilot.press(*stage_two_keys(app))
        await pilot.pause(0.01)
    await wait_until(pilot, lambda: isinstance(app.screen, EndScreen), "the end")
    await wait_until(pilot, lambda: hint(app) in ("won", "lost"), "the end's hint")


def stage_two_keys(app: DomicileApp) -> tuple[str, ...]:
    """The keys a player presses next in Stage Two to agree with the other investigator."""
    assert app.shown is not None
    state = app.shown.state
    me, other = state.investigator(1), state.investigator(2)
    if state.phase is not Phase.INVESTIGATION:
        return ()
    if other.locked and other.marker not in (None, me.marker):
        suspects = [group[0] for group in state.grouped_tableau]
        focused = app.screen.focused
        on = focused.card.id if isinstance(focused, CardTile) else None
        if on not in suspects:
            return ("c",)  # back to the suspects
        if on == other.marker:
            return ("enter",)
        return ("down",) if suspects.index(on) < suspects.index(other.marker) else ("up",)
    if me.marker is None:
        return ("enter",)
    return () if me.locked else ("l",)


TUTORIAL: tuple[tuple[str, Callable[[Pilot[Any]], Awaitable[None]], str | None], ...] = (
    # (the step, what gets the player there, the key to think of leaving by there)
    ("lobby", lobby, "escape"),
    ("dreams received", begin_the_game, "escape"),
    ("reading a dream", read_a_dream, "ctrl+q"),
    ("marker placed", place_the_marker, None),
    ("séance", lock_it, "ctrl+q"),
    ("chapter one done", close_the_seance, "escape"),  # "Esc: leave the tutorial" on it
    ("the Ghost's hand", sit_in_the_ghosts_chair, "escape"),
    ("dream picked", pick_a_dream, None),
    ("chapter two done", give_it, None),
    ("Stage Two", go_to_stage_two, "ctrl+q"),
    ("suspect accused", accuse, None),
    ("the end", agree_until_the_end, None),
)


async def play_to(pilot: Pilot[Any], last: str, *, hesitating: bool = False) -> None:
    """Play the tutorial up to step ``last``; ``hesitating``, think of leaving on the way."""
    for name, step, key in TUTORIAL:
        await step(pilot)
        if hesitating and key is not None:
            await ask_to_leave_and_stay(pilot, key)
        if name == last:
            return
    raise AssertionError(f"no step {last!r}")


async def ask_to_leave_and_stay(pilot: Pilot[Any], key: str) -> None:
    """Press ``key`` to leave, see the question, answer No: the player is where they were."""
    app = pilot.app
    before = type(app.screen)
    await press_at_the_table(pilot, key)
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), f"the question ({key})")
    assert isinstance(app.screen, ConfirmScreen)
    assert "Leave the tutorial" in app.screen.question
    await pilot.press("n")
    await wait_until(pilot, lambda: type(app.screen) is before, "the screen the player was at")
    await pilot.pause(HOLD_AFTER_CLOSE + 0.1)  # the dialog's own keys are the table's again
    assert isinstance(app, DomicileApp) and app.tutorial is not None


# --------------------------------------------------------------------------- whole


@pytest.mark.slow
async def test_the_whole_tutorial_with_the_keys_a_player_presses() -> None:
    """Every step in turn, as a new player plays them; at several the player thinks of
    leaving (Esc at the table, Ctrl+Q over a card or the séance) and stays."""
    app = tutorial_app()
    async with app.run_test(size=WIDE) as pilot:
        await play_to(pilot, "the end", hesitating=True)
        state = view_of(app).state
        assert state.phase is Phase.ENDED and state.stage is Stage.CULPRIT
        assert app.tutorial is not None and app.tutorial.chapter.number == 3
        # A whole game like any other: verified, and kept in the data dir.
        await wait_until(pilot, lambda: app.verification is not None, "the verification")
        assert app.verification is not None and app.verification.ok
        await wait_until(pilot, lambda: app.kept is not None, "the transcript kept")
        assert app.kept is not None and app.kept.is_file()
        await pilot.press("escape")  # the game is over: nothing to ask
        await wait_until(pilot, lambda: isinstance(app.screen, StartScreen), "the front door")
        assert app.tutorial is None and app.session is None


async def test_learn_to_play_on_the_front_door_opens_the_tutorial() -> None:
    app = tutorial_app(at_once=False)
    async with app.run_test(size=WIDE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, StartScreen), "the front door")
        await pilot.press("l")
        await lobby(pilot)
        assert app.tutorial is not None and app.tutorial.chapter.number == 1


@pytest.mark.slow
async def test_the_hint_follows_the_focus_not_a_clock() -> None:
    app = tutorial_app()
    async with app.run_test(size=WIDE) as pilot:
        await play_to(pilot, "dreams received")
        await pilot.press("d")
        await hint_is(pilot, "read a dream")
        await pilot.press("c")
        await hint_is(pilot, "place the marker")
        await pilot.press("t")
        await hint_is(pilot, "in the chat")
        await pilot.press("escape")  # in the chat line Esc goes back to the cards
        await hint_is(pilot, "place the marker")
        assert not isinstance(app.screen, ConfirmScreen)


@pytest.mark.slow
async def test_the_help_says_what_the_game_is_and_how_to_leave_the_tutorial() -> None:
    from domicile_tui.screens.help import HelpScreen

    app = tutorial_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await play_to(pilot, "dreams received")
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        intro = rendered(app.screen.query_one(".help-intro", Static))
        assert "dream cards" in intro and "domicile play --tutorial" in intro
        sections = [rendered(s) for s in app.screen.query(".help-section")]
        assert sections[0].startswith("The investigator's table (Stage One)")
        assert sections[1].startswith("The tutorial")
        assert "leave the tutorial, after asking" in sections[1]


def test_domicile_play_tutorial_opens_it_and_refuses_resume() -> None:
    import argparse

    from domicile_p2p.cli import CommandError
    from domicile_tui.cli import play, register

    parser = argparse.ArgumentParser(prog="domicile")
    register(parser.add_subparsers(dest="command"))
    assert parser.parse_args(["play", "--tutorial"]).tutorial
    assert not parser.parse_args(["play"]).tutorial
    with pytest.raises(CommandError, match="--tutorial plays a game of its own: drop --resume"):
        play(parser.parse_args(["play", "--tutorial", "--resume", "--name", "Ada"]))


# --------------------------------------------------------------------------- leaving

LEAVING: dict[str, tuple[str, str]] = {
    "the lobby, Esc": ("lobby", "escape"),
    "a dream read, Ctrl+Q": ("reading a dream", "ctrl+q"),
    "the séance, Ctrl+Q": ("séance", "ctrl+q"),
    "a chapter's end, Esc": ("chapter one done", "escape"),
    "the Ghost's hand, Ctrl+Q": ("the Ghost's hand", "ctrl+q"),
}


@pytest.mark.slow
@pytest.mark.parametrize("where", LEAVING)
async def test_leaving_the_tutorial_goes_back_to_the_front_door(where: str) -> None:
    """Yes to the question, at a table screen or over a dialog: the front door, the app
    still running, no table left behind."""
    step, key = LEAVING[where]
    app = tutorial_app()
    async with app.run_test(size=WIDE) as pilot:
        await play_to(pilot, step)
        await settle(pilot)
        await pilot.press(key)
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(app.screen, StartScreen), "the front door")
        assert app.tutorial is None and app.session is None
        assert app.is_running, "leaving the tutorial does not quit the app"


# --------------------------------------------------------------------------- the look

SIZES = {"120x36": (120, 36), "80x24": (80, 24)}


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
def test_a_tutorial_step_looks_as_it_should(snap_compare: Any, size: str) -> None:
    """The hint under the investigator's table, with the protocol's plain bots (they never
    change, so the snapshot moves only when the client's look does)."""

    async def at_rest(pilot: Pilot[Any]) -> None:
        """The player has dreams and the other investigator has locked: nothing moves until
        the player does."""
        app = pilot.app
        assert isinstance(app, DomicileApp)
        await play_to(pilot, "dreams received")
        await wait_until(pilot, lambda: view_of(app).state.investigator(2).locked, "B locked")
        await settle(pilot)

    assert snap_compare(
        tutorial_app(plain_bots=True), terminal_size=SIZES[size], run_before=at_rest
    )
