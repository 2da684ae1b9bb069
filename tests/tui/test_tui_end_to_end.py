"""A whole evening at an offline table, played through the app's keys by a player who
thinks like the investigator bot: every day's marker chosen with the arrow keys,
locked with L, every séance watched, Stage Two if the table gets there, then the
end screen's proof, the transcript exported and another game dealt."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static
from tui_support import (
    begin,
    close_seance,
    investigator_bot,
    make_app,
    record_notifications,
    rendered,
    turns,
    view_of,
    wait_until,
)

from domicile_p2p.rules import Chat, Lock, Phase, Place, Stage, Unlock
from domicile_p2p.transcript.verify import verify
from domicile_tui.app import DomicileApp
from domicile_tui.networked import NetworkTable
from domicile_tui.screens.end import EndScreen
from domicile_tui.screens.export import ExportScreen
from domicile_tui.screens.lobby import LobbyScreen
from domicile_tui.widgets.card import CardTile


async def walk_to(pilot: Pilot[Any], app: DomicileApp, card: str) -> None:
    """Move the cursor to ``card`` with the keys a player would use (C, then up or down)."""
    await pilot.press("c")
    tiles = [t for t in app.screen.query(CardTile) if t.can_focus]
    focused = app.screen.focused
    assert isinstance(focused, CardTile)
    column = [t for t in tiles if t.card.category == focused.card.category]
    if app.view is not None and app.view.state.stage is Stage.CULPRIT:
        column = [t for t in tiles if t.has_class("-suspect")]
    here = column.index(focused)
    there = next(i for i, t in enumerate(column) if t.card.id == card)
    await pilot.press(*(["down"] * (there - here) if there > here else ["up"] * (here - there)))
    focused = app.screen.focused
    assert isinstance(focused, CardTile) and focused.card.id == card


async def play_a_whole_game(pilot: Pilot[Any], app: DomicileApp) -> int:
    """Play seat 1 as the investigator bot would, through the keyboard; the number of moves."""
    mind = investigator_bot()
    moves = 0
    async for _ in turns(pilot):
        if await close_seance(pilot):
            continue
        view = view_of(app)
        if view.state.phase is Phase.ENDED:
            return moves
        action = mind.act(view)
        if action is None:
            await pilot.pause(0.01)
            continue
        if isinstance(action, Chat):
            continue  # the bot's line of table talk: a person may keep it to themselves
        if isinstance(action, Place):
            await walk_to(pilot, app, action.card)
            await pilot.press("enter")
        elif isinstance(action, Lock | Unlock):
            await pilot.press("l")
        elif isinstance(action, Chat):  # the bot's line of table talk, typed and said
            said = len(app.chat)
            await pilot.press("t", *action.text, "enter", "escape")
            await wait_until(pilot, lambda n=said: len(app.chat) > n, what=f"{action} said")
            continue
        moves += 1
        await wait_until(pilot, lambda v=view: app.view is not v, what=f"an answer to {action}")
    raise AssertionError("the game did not end")


@pytest.mark.slow
async def test_an_investigator_plays_a_whole_game_through_the_keyboard(tmp_path: Path) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        shown = record_notifications(app)
        await begin(pilot)
        moves = await play_a_whole_game(pilot, app)
        assert moves >= 2
        assert not [n for n in shown if n.startswith("Not allowed")], shown

        await wait_until(pilot, lambda: isinstance(app.screen, EndScreen), what="the end")
        await wait_until(pilot, lambda: app.verification is not None, what="the proof")
        assert app.verification is not None and app.verification.ok
        final = view_of(app).state
        banner = rendered(app.screen.query_one("#end-banner", Static))
        assert ("F R E E" in banner) == (final.outcome is not None and final.outcome.value == "won")
        truth = rendered(app.screen.query_one("#truth", Static))
        for seat in final.config.seats:
            assert final.config.name(seat) in truth
        assert "It was " in rendered(app.screen.query_one("#end-summary", Static))

        await pilot.press("e")
        await wait_until(pilot, lambda: isinstance(app.screen, ExportScreen))
        target = tmp_path / "evening.jsonl"
        app.screen.query_one("#export-path", Input).value = str(target)
        await pilot.press("enter")
        await wait_until(pilot, lambda: any("Transcript written" in s for s in shown))
        report = verify(target)
        assert report.valid and report.outcome == final.outcome.value  # type: ignore[union-attr]
        assert report.events > moves

        first_game = game_id(app)
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
        assert app.view is None and app.verification is None
        await begin(pilot)
        fresh = view_of(app).state
        assert fresh.day == 1 and fresh.stage is Stage.PLOT
        assert game_id(app) != first_game


def game_id(app: DomicileApp) -> str:
    session = app.session
    assert isinstance(session, NetworkTable) and session.host is not None
    [table] = session.host.tables()
    assert table.game_id is not None
    return table.game_id
