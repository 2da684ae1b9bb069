"""The app's first moments: the first screen before the door to tables is open, and after."""

from __future__ import annotations

import gc
import subprocess
import sys
import threading

from textual.widgets import Static
from tui_support import door, rendered, settings, wait_until

from domicile_p2p.cli import CommandError
from domicile_tui.app import DomicileApp
from domicile_tui.connect import TableDoor
from domicile_tui.screens.lobby import LobbyScreen

WIDE = (120, 40)


async def test_the_lobby_shows_its_table_while_the_door_opens_then_fills_in() -> None:
    release = threading.Event()

    def slow_door() -> TableDoor:
        release.wait(10)
        return door()

    app = DomicileApp(slow_door, defaults=settings(), open_at_once=True, offline=True, lan=False)
    async with app.run_test(size=WIDE) as pilot:
        await wait_until(
            pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.is_mounted
        )
        await pilot.pause()
        title = app.screen.query_one("#lobby-title", Static)
        hint = app.screen.query_one("#lobby-hint", Static)
        assert rendered(title) == "☾ Hollowmere · lobby"
        assert rendered(hint) == "Opening the table…"
        assert app.status.text == "Opening the table…" and app.door is None
        start = app.screen.active_bindings["enter"]
        assert start.binding.description == "Start" and not start.enabled, "dimmed: nothing yet"
        release.set()
        await wait_until(pilot, lambda: app.lobby is not None, what="the table's lobby")
        await pilot.pause()
        assert app.screen.active_bindings["enter"].enabled, "the table is open: Enter starts"
        assert rendered(title) == "☾ Hollowmere · lobby"
        assert rendered(hint).startswith("Press Enter to light the candles and begin.\n")
        assert "L: learn to play" in rendered(hint), "the first screen says how to learn"
        assert "Ada" in rendered(app.screen.query_one("#lobby-seats", Static))


async def test_a_door_that_cannot_open_ends_the_app_and_says_why() -> None:
    def broken_door() -> TableDoor:
        raise CommandError("the card pack cannot serve this table: too few cards")

    app = DomicileApp(broken_door, defaults=settings(), open_at_once=True, offline=True)
    async with app.run_test(size=WIDE) as pilot:
        await wait_until(pilot, lambda: app.door_failure is not None, what="the failure")
    assert app.return_code == 2
    assert str(app.door_failure) == "the card pack cannot serve this table: too few cards"


async def test_the_front_door_offers_the_lan_before_the_door_is_open() -> None:
    release = threading.Event()

    def slow_door() -> TableDoor:
        release.wait(10)
        return door()

    app = DomicileApp(slow_door, defaults=settings(), open_at_once=False, lan=True)
    async with app.run_test(size=WIDE) as pilot:
        await wait_until(pilot, lambda: bool(app.screen.query("#lan-tables")), what="the LAN list")
        assert app.door is None
        release.set()
        await wait_until(pilot, lambda: app.door is not None, what="the door")


async def test_the_app_says_once_when_its_first_screen_is_painted() -> None:
    # `domicile play` pauses the garbage collector until then (domicile_tui.cli.play).
    painted: list[bool] = []
    gc.disable()
    try:
        app = DomicileApp(
            door(),
            defaults=settings(),
            open_at_once=True,
            offline=True,
            after_first_frame=lambda: (painted.append(app.screen.is_mounted), gc.enable()),
        )
        async with app.run_test(size=WIDE) as pilot:
            await wait_until(pilot, gc.isenabled, what="the collector resumed")
            await wait_until(pilot, lambda: app.lobby is not None, what="the table's lobby")
            await pilot.pause()
            assert painted == [True]
            assert isinstance(app.screen, LobbyScreen)
    finally:
        gc.enable()


def test_the_first_screens_load_neither_the_game_nor_the_news_of_a_table() -> None:
    # What `domicile play` imports before its first frame: the table's limits and
    # `Difficulty` (rules.model), not the moves, the engine or the events of a session.
    probe = (
        "import sys\n"
        "import domicile_tui.cli, domicile_tui.app\n"
        "import domicile_tui.screens.lobby, domicile_tui.screens.start\n"
        "later = ('domicile_p2p.rules.actions', 'domicile_p2p.rules.engine',"
        " 'domicile_p2p.rules.visibility', 'domicile_p2p.transcript', 'msgspec',"
        " 'domicile_tui.news')\n"
        "print(sorted(m for m in later if m in sys.modules))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "[]"
