"""How the recap and the replay viewer look, at 120x36 and at 80x24.

Fixed games, as in ``test_tui_snapshots.py``: the recap is the end of that
file's game (press R at its end screen); the viewer shows a saved game of the
protocol's plain players with the built-in pack.  Update the baselines with
``--snapshot-update`` and look at them before committing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from replay_support import builtin_game, replay_app
from test_tui_snapshots import at_the_end
from textual.pilot import Pilot
from tui_support import settle, stage_two_app, wait_until

from domicile_tui.app import DomicileApp
from domicile_tui.screens.recap import RecapScreen
from domicile_tui.screens.replay import ReplayScreen

Scene = tuple[Callable[[], DomicileApp], Callable[[Pilot[Any]], Awaitable[None]]]


async def reading_the_recap(pilot: Pilot[Any]) -> None:
    await at_the_end(pilot)
    await pilot.press("r")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, RecapScreen))
    await settle(pilot)


async def replaying_day_two(pilot: Pilot[Any]) -> None:
    """Day 2 of the saved game, a few events in: dreams given, markers on the tableau."""
    app = pilot.app
    await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen))
    screen = app.screen
    assert isinstance(screen, ReplayScreen)
    await wait_until(pilot, lambda: screen.replay is not None)
    await pilot.press("pagedown", "pagedown", "right", "right", "right", "right", "right")
    await settle(pilot)


SCENES: dict[str, Scene] = {
    "recap": (lambda: stage_two_app(plain_ghost=True), reading_the_recap),
    "replay": (lambda: replay_app(builtin_game(), None), replaying_day_two),
}
SIZES = {"120x36": (120, 36), "80x24": (80, 24)}


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("scene", SCENES)
def test_the_recap_and_the_viewer_look_as_they_should(
    snap_compare: Any, scene: str, size: str
) -> None:
    make, run_before = SCENES[scene]
    assert snap_compare(make(), terminal_size=SIZES[size], run_before=run_before)
