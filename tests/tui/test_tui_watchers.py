"""Who watches: the players see how many look on and who (the lobby's line, the header)."""

from __future__ import annotations

from dataclasses import replace

from screen_text import screen_lines
from tui_support import begin, make_app, settle, wait_until

from domicile_tui.screens.investigator import InvestigatorScreen
from domicile_tui.screens.lobby import LobbyScreen


async def test_the_lobby_and_the_tables_header_say_who_watches() -> None:
    app = make_app(plain_bots=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        assert app.lobby is not None
        app.lobby = replace(app.lobby, watchers=("Mo", "Zed"))  # as a host's lobby says
        await settle(pilot)
        shown = "\n".join(screen_lines(app))
        assert "watching  Mo, Zed  (2, without a seat)" in shown, shown
        await begin(pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, InvestigatorScreen))
        assert app.lobby is not None
        app.lobby = replace(app.lobby, watchers=("Mo",))
        await settle(pilot)
        assert "◎ 1 watching" in screen_lines(app)[0], screen_lines(app)[0]
