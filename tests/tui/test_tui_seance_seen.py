"""At a networked table the next sand-glass starts when the player closes the séance
(issue 23 §8): the client says ``seen``, the host (whose only person is this player: the
Ghost and the other investigators are its bots) turns the glass and says ``all-seen``,
and the player's bar starts then, not 15 s after the séance.

A real host on 127.0.0.1 (port 0) whose clock stands still (``SteppedClock``: its 15 s
cap and its glass never run out under the test) and an app whose clock stands still
too: the bar can only start because the host said so.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tui_support import (
    LOOPBACK,
    PACK,
    hosted_table,
    join_by_the_form,
    settings,
    view_of,
    wait_until,
)

from domicile_p2p.net.adapters.clock import SteppedClock
from domicile_p2p.net.adapters.host import RunningHost
from domicile_p2p.rules import Phase
from domicile_tui.app import DomicileApp
from domicile_tui.connect import TableDoor
from domicile_tui.pacing import BotPace
from domicile_tui.screens.investigator import InvestigatorScreen
from domicile_tui.screens.seance import SeanceScreen
from domicile_tui.widgets.sandglass import SandGlassBar

WIDE = (120, 36)
TIMER = 60


class FrozenClock:
    """The app's clock, standing still until the test moves it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def investigating(app: DomicileApp) -> bool:
    return app.view is not None and app.view.state.phase is Phase.INVESTIGATION


@pytest.mark.slow
async def test_at_a_networked_table_the_glass_starts_when_the_player_closes_the_seance(
    tmp_path: Path,
) -> None:
    logged: list[tuple[str, dict[str, Any]]] = []
    host = RunningHost(
        hosted_table(tmp_path / "host", timer=TIMER),
        lambda event, fields: logged.append((event, dict(fields))),
    )
    host.clock = SteppedClock()  # the host's deadlines fall due only when the test says
    await host.start()
    try:
        clock = FrozenClock()
        door = TableDoor(PACK, pace=BotPace(0), data_dir=tmp_path / "me", interface=LOOPBACK)
        app = DomicileApp(door, defaults=settings(), open_at_once=False, seance_step=0, clock=clock)
        async with app.run_test(size=WIDE) as pilot:
            await join_by_the_form(pilot, app, host)
            await wait_until(pilot, lambda: investigating(app), "day 1's investigation")
            assert app.glass is not None and app.glass.began == clock.now  # no séance before
            await pilot.press("enter")
            await wait_until(pilot, lambda: view_of(app).state.investigator(1).marker is not None)
            await pilot.press("l")
            await wait_until(pilot, lambda: isinstance(app.screen, SeanceScreen), "the séance")

            def day_2_given() -> bool:
                return view_of(app).state.day == 2 and investigating(app)

            # The bots' Ghost gives day 2's dreams at once, while the séance is still read.
            await wait_until(pilot, day_2_given, "day 2 given behind the séance")
            assert isinstance(app.screen, SeanceScreen), "still reading the séance"
            assert app.glass is not None and app.glass.began > clock.now, "the bar waits"
            assert not [event for event, _ in logged if event == "all-seen"]
            await pilot.press("enter")  # the player closes the séance: the client says seen

            def glass_started() -> bool:
                return app.glass is not None and app.glass.began == clock.now

            await wait_until(pilot, glass_started, "the glass started by the host's all-seen")
            told = [(f["day"], f["stage"]) for event, f in logged if event == "all-seen"]
            assert told == [(2, 1)], "the host turned day 2's glass as the séance closed"
            await wait_until(pilot, lambda: isinstance(app.screen, InvestigatorScreen), "table")
            clock.now += 45
            bar = app.screen.query_one(SandGlassBar)
            bar.refresh()
            await wait_until(pilot, lambda: "0:15 left" in str(bar.render()), "0:15 left")
            await app.session.close()  # type: ignore[union-attr]
    finally:
        await host.close()
