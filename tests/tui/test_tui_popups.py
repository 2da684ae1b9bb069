"""Keys that close a dialog stay its own; the end of the game keeps its transcript."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, Static
from tui_support import (
    DATA_DIR,
    begin,
    make_app,
    press_twice,
    rendered,
    secrets_of,
    settle,
    stage_two_app,
    turns,
    view_of,
    wait_until,
)

from domicile_p2p.rules import Lock, Phase, Place, Stage
from domicile_tui.networked import KEPT_GAMES
from domicile_tui.screens.confirm import ConfirmScreen
from domicile_tui.screens.culprit import CulpritScreen
from domicile_tui.screens.end import EndScreen
from domicile_tui.screens.export import ExportScreen
from domicile_tui.screens.ghost import GhostScreen
from domicile_tui.screens.investigator import InvestigatorScreen
from domicile_tui.screens.seance import SeanceScreen
from domicile_tui.screens.start import StartScreen
from domicile_tui.session import Role

WIDE = (120, 36)


@pytest.mark.slow
async def test_a_second_enter_after_the_seance_does_not_place_a_marker() -> None:
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        await begin(pilot)
        await pilot.press("enter", "l")
        await wait_until(pilot, lambda: isinstance(app.screen, SeanceScreen), what="the séance")
        await wait_until(
            pilot,
            lambda: view_of(app).state.day == 2 and view_of(app).state.investigator(1).served,
            what="the next day's dreams",
        )
        # Close (told at once), and again:
        await press_twice(pilot, "enter", "\r", InvestigatorScreen)
        await settle(pilot)
        assert view_of(app).state.investigator(1).marker is None
        await pilot.pause(0.6)  # once the dialog is long gone, Enter is the table's again
        await pilot.press("enter")
        await wait_until(pilot, lambda: view_of(app).state.investigator(1).marker is not None)


@pytest.mark.slow
async def test_a_second_enter_after_the_seance_does_not_pick_the_ghosts_dream() -> None:
    app = make_app(Role.GHOST)
    async with app.run_test(size=WIDE) as pilot:
        await begin(pilot)
        for _ in range(3):
            await pilot.press("1", "g")
            await settle(pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, SeanceScreen), what="the séance")
        await press_twice(pilot, "enter", "\r", GhostScreen)
        await settle(pilot)
        assert app.screen.chosen == frozenset()  # type: ignore[attr-defined]


async def reach_the_end(pilot) -> None:  # type: ignore[no-untyped-def]
    app = pilot.app
    await begin(pilot)
    async for _ in turns(pilot):
        if isinstance(app.screen, SeanceScreen):
            await pilot.pause(0.6)
            await pilot.press("enter")
            continue
        state = view_of(app).state
        if state.phase is Phase.ENDED:
            break
        me = state.investigator(1)
        truth = secrets_of(app)
        if state.stage is Stage.CULPRIT and isinstance(app.screen, CulpritScreen):
            target = truth.column(truth.culprit).character
            if state.phase is Phase.INVESTIGATION and not me.locked:
                app.act(Place(1, target) if me.marker != target else Lock(1))
        elif me.served and not me.done and not me.locked and me.seeking is not None:
            target = truth.column(1).card(me.seeking)
            app.act(Place(1, target) if me.marker != target else Lock(1))
        await pilot.pause(0.02)
    await wait_until(pilot, lambda: isinstance(app.screen, (SeanceScreen, EndScreen)))
    if isinstance(app.screen, SeanceScreen):
        await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(app.screen, EndScreen), what="the end")
    await wait_until(pilot, lambda: app.kept is not None, what="the kept transcript")


@pytest.mark.slow
async def test_the_end_keeps_the_transcript_and_asks_before_leaving_it_unexported(
    tmp_path: Path,
) -> None:
    app = stage_two_app()
    async with app.run_test(size=WIDE) as pilot:
        await reach_the_end(pilot)
        kept = app.kept
        assert kept is not None and kept.parent == DATA_DIR / KEPT_GAMES and kept.is_file()
        await settle(pilot)
        said = rendered(app.screen.query_one("#end-head", Static)).replace("\n", " ")
        assert f"kept in the data dir, {kept.relative_to(DATA_DIR)}" in said

        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        question = app.screen.question  # type: ignore[attr-defined]
        assert f"The transcript is kept in the data dir, {kept.relative_to(DATA_DIR)}" in question
        assert "lost" not in question
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, EndScreen))
        await pilot.pause(0.6)

        await pilot.press("e")
        await wait_until(pilot, lambda: isinstance(app.screen, ExportScreen))
        app.screen.query_one(Input).value = str(tmp_path / "game.json")
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.exported is not None, what="the export")
        await pilot.pause(0.6)
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, StartScreen), what="the door")
        assert (tmp_path / "game.json").read_bytes() == kept.read_bytes()
