"""Enter in a form does what its main button does: the join form joins, the set-up form
opens the table (a player who typed the code presses Enter, not Ctrl+S)."""

from __future__ import annotations

import pytest
from tui_support import make_app, record_notifications, wait_until

from domicile_tui.networked import NetworkTable
from domicile_tui.pages import JoinPage, SetupPage
from domicile_tui.screens.start import StartScreen

WIDE = (120, 36)


async def test_enter_in_the_join_form_joins() -> None:
    app = make_app(open_at_once=False)
    async with app.run_test(size=WIDE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, StartScreen), what="the door")
        shown = record_notifications(app)
        app.go(JoinPage())
        await wait_until(pilot, lambda: bool(app.screen.query("#code")), what="the form")
        await pilot.press(*"not a code", "enter")
        await wait_until(pilot, lambda: bool(shown), what="the answer")
        assert shown[0].startswith("Cannot join: 'not a code' is not a table code")


@pytest.mark.slow
async def test_enter_in_the_set_up_form_opens_the_table() -> None:
    app = make_app(open_at_once=False)
    async with app.run_test(size=WIDE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, StartScreen), what="the door")
        app.go(SetupPage(offline=True))
        await wait_until(pilot, lambda: bool(app.screen.query("#player-name")), what="the form")
        await pilot.press("end", *" Lovelace", "enter")
        await wait_until(pilot, lambda: isinstance(app.session, NetworkTable), what="the table")
        assert isinstance(app.session, NetworkTable) and app.session.offline is not None
        assert app.session.hosting is not None
        assert app.session.hosting.player_name == "Ada Lovelace"
