"""Séances are told in order, one at a time, and nothing shows their outcome before they do."""

from __future__ import annotations

import pytest
from textual.widgets import Static
from tui_support import (
    begin,
    make_app,
    rendered,
    secrets_of,
    settle,
    stage_two_app,
    view_of,
    wait_until,
)

from domicile_p2p.rules import Lock, Phase, Place
from domicile_tui.screens.culprit import CulpritScreen
from domicile_tui.screens.end import EndScreen
from domicile_tui.screens.investigator import InvestigatorScreen
from domicile_tui.screens.seance import SeanceScreen

WIDE = (120, 36)
SLOW = 30.0
"""Seconds per beat: a séance that never finishes by itself during a test."""


def title_of(screen: object) -> str:
    assert isinstance(screen, SeanceScreen)
    return rendered(screen.query_one("#seance-title", Static))


@pytest.mark.slow
async def test_seances_are_told_oldest_first_and_the_table_follows_each() -> None:
    app = make_app(seance_step=SLOW)
    async with app.run_test(size=WIDE) as pilot:
        await begin(pilot)
        await pilot.press("enter", "l")
        await wait_until(pilot, lambda: isinstance(app.screen, SeanceScreen), what="day 1's")
        # Day 2 is played while day 1's séance is still being told.
        await wait_until(pilot, lambda: view_of(app).state.day == 2, what="day 2")
        await wait_until(pilot, lambda: view_of(app).state.investigator(1).served)
        card = view_of(app).state.tableau.cards(view_of(app).state.investigator(1).seeking)[0]  # type: ignore[arg-type]
        app.act(Place(1, card))
        await wait_until(pilot, lambda: view_of(app).state.investigator(1).marker == card)
        app.act(Lock(1))
        await wait_until(pilot, lambda: view_of(app).state.day == 3, what="day 2's séance")
        await settle(pilot)

        assert title_of(app.screen) == "The séance of day 1"
        assert len([s for s in app.screen_stack if isinstance(s, SeanceScreen)]) == 1
        behind = app.screen_stack[-2]
        assert isinstance(behind, InvestigatorScreen)
        assert behind.view is not None and behind.view.state.day == 1
        assert behind.view.state.phase is Phase.SEANCE

        await pilot.press("enter", "enter")  # skip to the outcome, close
        await wait_until(pilot, lambda: title_of(app.screen) == "The séance of day 2")
        behind = app.screen_stack[-2]
        assert behind.view is not None and behind.view.state.day == 2  # type: ignore[attr-defined]

        await pilot.press("enter", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, InvestigatorScreen))
        assert app.screen.view == app.view  # type: ignore[attr-defined]
        assert "Day 3 of 7" in rendered(app.screen.query_one("#header-calendar", Static))


@pytest.mark.slow
async def test_the_culprits_seance_keeps_its_secret_until_it_is_told() -> None:
    app = stage_two_app(seance_step=SLOW)
    async with app.run_test(size=WIDE) as pilot:
        await begin(pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, CulpritScreen), what="Stage Two")
        await wait_until(pilot, lambda: len(view_of(app).state.group_dreams) == 3)
        truth = secrets_of(app)
        culprit = truth.column(truth.culprit).character
        day = view_of(app).state.day
        app.act(Place(1, culprit))
        await wait_until(pilot, lambda: view_of(app).state.investigator(2).marker == culprit)
        app.act(Lock(1))
        await wait_until(pilot, lambda: view_of(app).state.phase is Phase.ENDED, what="the end")
        await wait_until(pilot, lambda: isinstance(app.screen, SeanceScreen), what="the séance")
        await settle(pilot)

        assert title_of(app.screen) == f"The séance of day {day}"
        lines = rendered(app.screen.query_one("#seance-lines", Static))
        assert "culprit" not in lines
        behind = app.screen_stack[-2]
        assert isinstance(behind, CulpritScreen)
        assert "culprit is named" not in rendered(behind.query_one("#prompt", Static)).lower()

        await pilot.press("enter")  # the outcome
        assert "The culprit is named" in rendered(app.screen.query_one("#seance-lines", Static))
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, EndScreen), what="the end screen")
