"""Every screen and flow of the client, driven by Pilot as a player would."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Static
from tui_support import (
    begin,
    clairvoyant_app,
    close_seance,
    make_app,
    record_notifications,
    rendered,
    secrets_of,
    settle,
    turns,
    view_of,
    wait_until,
)

from domicile_p2p.rules import Phase, Stage
from domicile_tui.news import SessionClosed, StatusChanged
from domicile_tui.screens.card import CardScreen
from domicile_tui.screens.confirm import ConfirmScreen
from domicile_tui.screens.culprit import CulpritScreen
from domicile_tui.screens.end import EndScreen
from domicile_tui.screens.ghost import GhostScreen
from domicile_tui.screens.help import HelpScreen
from domicile_tui.screens.investigator import InvestigatorScreen
from domicile_tui.screens.lobby import LobbyScreen
from domicile_tui.screens.seance import SeanceScreen
from domicile_tui.screens.setup import HostSetupScreen
from domicile_tui.screens.start import StartScreen
from domicile_tui.session import Role
from domicile_tui.status import Severity, Status
from domicile_tui.widgets.card import CardTile
from domicile_tui.widgets.dream import DreamTile
from domicile_tui.widgets.status_bar import StatusBar

WIDE = (120, 36)


# --------------------------------------------------------------------------- hosting


@pytest.mark.slow
async def test_hosting_an_offline_table_from_the_front_door() -> None:
    app = make_app(open_at_once=False)
    async with app.run_test(size=WIDE) as pilot:
        assert isinstance(app.screen, StartScreen)
        await pilot.press("o")
        await wait_until(pilot, lambda: isinstance(app.screen, HostSetupScreen))
        name = app.screen.query_one("#player-name", Input)
        name.value = ""
        await pilot.click("#player-name")
        await pilot.press(*"Mina")
        await pilot.click("#role-ghost")
        investigators = app.screen.query_one("#investigators")
        investigators.focus()
        await pilot.press("enter", "up", "enter")  # 3 -> 2 investigators
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
        lobby = app.lobby
        assert lobby is not None and lobby.offline and not lobby.started
        assert lobby.your_seat == 0 and lobby.seat(0).name == "Mina"
        assert len(lobby.seats) == 3
        seats = rendered(app.screen.query_one("#lobby-seats", Static))
        assert "Mina" in seats and "✓ host" in seats and "Orla Vance" in seats
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, GhostScreen), what="the game")


async def test_settings_that_cannot_make_a_table_are_explained() -> None:
    app = make_app(open_at_once=False)
    async with app.run_test(size=WIDE) as pilot:
        shown = record_notifications(app)
        await pilot.press("o")
        await wait_until(pilot, lambda: isinstance(app.screen, HostSetupScreen))
        app.screen.query_one("#player-name", Input).value = "   "
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert shown == ["Cannot open the table: the player name cannot be empty"]
        assert isinstance(app.screen, HostSetupScreen)
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, StartScreen))


async def test_play_opens_the_lobby_at_once_and_enter_begins() -> None:
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        await wait_until(
            pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.is_mounted
        )
        assert "offline table" in rendered(app.screen.query_one("#lobby-join", Static))
        await begin(pilot)
        assert isinstance(app.screen, InvestigatorScreen)


# --------------------------------------------------------------------------- the investigator


@pytest.mark.slow
async def test_placing_moving_and_locking_the_marker_with_the_keyboard() -> None:
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        await begin(pilot)
        focused = app.screen.focused
        assert isinstance(focused, CardTile) and focused.card.category == "character"
        await pilot.press("enter")
        await wait_until(pilot, lambda: view_of(app).state.investigator(1).marker is not None)
        assert view_of(app).state.investigator(1).marker == focused.card.id
        assert focused.has_class("-mine")
        await pilot.press("down")
        moved = app.screen.focused
        assert isinstance(moved, CardTile) and moved is not focused
        await pilot.press("enter")
        await wait_until(pilot, lambda: view_of(app).state.investigator(1).marker == moved.card.id)
        assert "Lock it (L)" in rendered(app.screen.query_one("#prompt", Static))
        await pilot.press("l")
        # The bots had already locked: the séance follows at once.
        await wait_until(pilot, lambda: isinstance(app.screen, SeanceScreen), what="the séance")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, InvestigatorScreen))
        assert view_of(app).state.day == 2


@pytest.mark.slow
async def test_arrow_keys_move_to_the_card_that_is_really_there() -> None:
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        await begin(pilot)
        tableau = view_of(app).state.tableau
        app.screen.query_one(f"#card-{tableau.character[0]}").focus()
        await pilot.press("right")
        assert app.screen.focused.id == f"card-{tableau.location[0]}"  # type: ignore[union-attr]
        await pilot.press("down", "down")
        assert app.screen.focused.id == f"card-{tableau.location[2]}"  # type: ignore[union-attr]
        await pilot.press("right", "up")
        assert app.screen.focused.id == f"card-{tableau.item[1]}"  # type: ignore[union-attr]
        await pilot.press("left", "left")
        assert app.screen.focused.id == f"card-{tableau.character[1]}"  # type: ignore[union-attr]


@pytest.mark.slow
async def test_a_click_places_the_marker_and_a_wrong_card_is_explained() -> None:
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        shown = record_notifications(app)
        await begin(pilot)
        tableau = view_of(app).state.tableau
        await pilot.click(f"#card-{tableau.item[3]}")
        await wait_until(pilot, lambda: bool(shown), what="a notification")
        assert shown == ["Not allowed: Ada must find a Character before an Item"]
        assert view_of(app).state.investigator(1).marker is None
        await pilot.click(f"#card-{tableau.character[2]}")
        await wait_until(
            pilot, lambda: view_of(app).state.investigator(1).marker == tableau.character[2]
        )


async def test_dreams_are_face_up_and_open_to_read_in_full() -> None:
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        await begin(pilot)
        state = view_of(app).state
        shown = [tile.dream.id for tile in app.screen.query(DreamTile)]
        expected = [card for seat in (1, 2, 3) for card in state.investigator(seat).dreams]
        assert shown == expected and shown
        await pilot.press("d")
        first = app.screen.focused
        assert isinstance(first, DreamTile) and first.dream.id == state.investigator(1).dreams[0]
        detail = rendered(app.screen.query_one("#card-detail", Static))
        assert first.dream.text in detail
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, CardScreen))
        assert first.dream.text in rendered(app.screen.query_one(".card-text", Static))
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, InvestigatorScreen))


async def test_the_side_panel_says_who_seeks_what_and_who_is_still_deciding() -> None:
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        await begin(pilot)
        text = rendered(app.screen.query_one("#investigators", Static))
        assert "A Ada (you)  C▸ L· I·" in text
        assert "is deciding" in text
        assert "B Idris Hale (bot)" in text and "◆ locked on" in text


async def test_chat_goes_to_the_table_from_the_chat_line() -> None:
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        await begin(pilot)
        await pilot.press("t")
        assert isinstance(app.screen.focused, Input)
        await pilot.press(*"the well", "enter")
        # The bots talk at the table too (a line when they lock): look for Ada's own.
        await wait_until(
            pilot, lambda: any(line.seat == 1 for line in app.chat), what="the chat line"
        )
        assert [line.text for line in app.chat if line.seat == 1] == ["the well"]
        log = rendered(app.screen.query_one("#chat-log", Static))
        assert "A Ada  the well" in log
        await pilot.press("escape")
        assert isinstance(app.screen.focused, CardTile)


# --------------------------------------------------------------------------- the Ghost


@pytest.mark.slow
async def test_the_ghost_picks_dreams_gives_them_and_refreshes() -> None:
    app = make_app(Role.GHOST)
    async with app.run_test(size=WIDE) as pilot:
        shown = record_notifications(app)
        await begin(pilot)
        screen = app.screen
        assert isinstance(screen, GhostScreen)
        hand = view_of(app).ghost.hand  # type: ignore[union-attr]
        await pilot.press("1", "3", "3", "2")
        assert screen.chosen == {hand[0], hand[1]}
        assert "awaits your dreams" in rendered(screen.query_one("#column-row-1"))
        await pilot.press("b")
        assert screen.recipient == 2
        await pilot.press("g")
        await wait_until(pilot, lambda: view_of(app).state.investigator(2).served)
        assert view_of(app).state.investigator(2).dreams == (hand[0], hand[1])
        assert len(view_of(app).ghost.hand) == 7  # type: ignore[union-attr]
        assert screen.chosen == frozenset()
        assert screen.recipient == 1  # the next investigator still waiting

        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_until(pilot, lambda: view_of(app).state.refreshes_used == 1)
        assert set(view_of(app).ghost.hand).isdisjoint(hand)  # type: ignore[union-attr]
        await pilot.press("r")
        assert shown[-1] == "You may not refresh your hand now."

        await pilot.press("g")
        assert shown[-1] == "Pick one or more dreams first (1-7 or Space)."


@pytest.mark.slow
async def test_the_ghost_serves_everyone_and_watches_the_seance() -> None:
    app = make_app(Role.GHOST)
    async with app.run_test(size=WIDE) as pilot:
        await begin(pilot)
        for _ in range(3):
            await pilot.press("1", "g")
            await settle(pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, SeanceScreen), what="the séance")
        lines = rendered(app.screen.query_one("#seance-lines", Static))
        assert "Orla Vance" in lines and "Day 2 begins" in lines
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, GhostScreen))
        assert view_of(app).state.day == 2


# --------------------------------------------------------------------------- the séance


async def test_the_seance_is_told_beat_by_beat_and_any_key_skips_it() -> None:
    app = make_app(seance_step=30.0)
    async with app.run_test(size=WIDE) as pilot:
        await begin(pilot)
        await pilot.press("enter")
        await wait_until(pilot, lambda: view_of(app).state.investigator(1).marker is not None)
        await pilot.press("l")
        await wait_until(pilot, lambda: isinstance(app.screen, SeanceScreen), what="the séance")
        seance = app.screen
        lines = rendered(seance.query_one("#seance-lines", Static))
        assert lines == "The candles gutter… the spirits gather…"
        assert rendered(seance.query_one("#seance-hint", Static)) == "Enter to skip"
        await pilot.press("space")
        lines = rendered(seance.query_one("#seance-lines", Static))
        assert "A Ada" in lines and "Day 2 begins." in lines
        assert rendered(seance.query_one("#seance-hint", Static)) == "Enter to continue"
        await pilot.press("space")
        await wait_until(pilot, lambda: isinstance(app.screen, InvestigatorScreen))


# --------------------------------------------------------------------------- Stage Two and the end


async def play_stage_one_knowing_the_answers(pilot, app) -> None:  # type: ignore[no-untyped-def]
    """Click the right card and lock, each day, until Stage Two (or the end)."""
    async for _ in turns(pilot):
        if await close_seance(pilot):
            continue
        state = view_of(app).state
        if state.stage is Stage.CULPRIT or state.phase is Phase.ENDED:
            return
        me = state.investigator(1)
        if me.served and not me.done and not me.locked and me.seeking is not None:
            target = secrets_of(app).column(1).card(me.seeking)
            if me.marker != target:
                await pilot.click(f"#card-{target}")
            else:
                await pilot.press("l")
        await pilot.pause(0.01)
    raise AssertionError("Stage One did not end")


@pytest.mark.slow
async def test_stage_two_the_group_agrees_on_the_culprit_and_wins() -> None:
    app = clairvoyant_app()
    async with app.run_test(size=WIDE) as pilot:
        await begin(pilot)
        await play_stage_one_knowing_the_answers(pilot, app)
        await wait_until(pilot, lambda: isinstance(app.screen, CulpritScreen), what="Stage Two")
        await wait_until(pilot, lambda: len(view_of(app).state.group_dreams) == 3)
        await settle(pilot)
        screen = app.screen
        assert len(screen.query("#group-dreams DreamTile")) == 3
        suspects = [t.card.id for t in screen.query(CardTile) if t.has_class("-suspect")]
        assert suspects == [group[0] for group in view_of(app).state.grouped_tableau]
        truth = secrets_of(app)
        culprit = truth.column(truth.culprit).character
        innocent = next(s for s in suspects if s != culprit)
        await pilot.click(f"#case-{innocent}")
        await wait_until(pilot, lambda: view_of(app).state.investigator(3).marker == innocent)
        assert "all agree · lock to hold the séance" in rendered(screen.query_one("#vote", Static))
        await pilot.click(f"#case-{culprit}")
        await wait_until(pilot, lambda: view_of(app).state.investigator(2).marker == culprit)
        await pilot.press("l")
        await wait_until(pilot, lambda: isinstance(app.screen, SeanceScreen), what="the séance")
        assert "the culprit!" in rendered(app.screen.query_one("#seance-lines", Static))
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, EndScreen), what="the end")
        await wait_until(pilot, lambda: app.verification is not None, what="the verification")
        await settle(pilot)
        banner = rendered(app.screen.query_one("#end-banner", Static))
        assert "T H E   G H O S T   I S   F R E E" in banner
        summary = rendered(app.screen.query_one("#end-summary", Static))
        assert "✓ Every check passed: this game was fair." in summary
        report = app.screen.query_one("#report")
        texts = [rendered(s) for s in report.query(Static)]
        assert "✓" in texts[0] and "Format" in texts[1]
        truth_text = rendered(app.screen.query_one("#truth", Static))
        assert "☠ the culprit's column" in truth_text


# --------------------------------------------------------------------------- around the table


@pytest.mark.slow
async def test_help_lists_the_keys_of_every_screen() -> None:
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        await begin(pilot)
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        sections = [rendered(s) for s in app.screen.query(".help-section")]
        assert sections[0].startswith("The investigator's table (Stage One)")
        titles = {section.splitlines()[0] for section in sections}
        assert {"The Ghost's screen", "The séance", "Stage Two: naming the culprit"} <= titles
        assert any("L" in line and "lock your marker" in line for line in sections[0].splitlines())
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, InvestigatorScreen))


async def test_the_command_palette_offers_the_screens_main_actions() -> None:
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        await begin(pilot)
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert titles[:4] == [
            "Help",
            "Lock or unlock my marker",
            "Talk to the table",
            "Read my dreams",
        ]
        assert "Leave the table" in titles and "Quit" in titles


async def test_connection_trouble_shows_in_the_status_bar_not_as_a_crash() -> None:
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        await begin(pilot)
        app.receive(StatusChanged(Status("Reconnecting to the host…", Severity.WARNING, False)))
        await pilot.pause()
        assert "○ Reconnecting to the host…" in rendered(app.screen.query_one(StatusBar))
        app.receive(SessionClosed("the host closed the table"))
        await wait_until(pilot, lambda: isinstance(app.screen, StartScreen))


@pytest.mark.slow
async def test_leaving_in_the_middle_of_a_game_asks_first() -> None:
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        await begin(pilot)
        app.leave_table()
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, InvestigatorScreen))
        app.leave_table()
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(app.screen, StartScreen), what="the door")
        assert app.session is None


async def test_no_color_keeps_every_mark_readable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app()
    assert app.no_color
    async with app.run_test(size=WIDE) as pilot:
        await begin(pilot)
        text = rendered(app.screen.query_one("#investigators", Static))
        assert "A Ada" in text and "B Idris Hale" in text and "◆" in text


def test_every_key_a_screen_binds_is_in_its_help() -> None:
    from textual.binding import Binding

    from domicile_tui.app import every_screen

    for screen in every_screen():
        helped = {key for entry in screen.HELP_KEYS for key in entry.keys}  # type: ignore[attr-defined]
        for binding in Binding.make_bindings(screen.BINDINGS):
            assert binding.key in helped, f"{screen.__name__} binds {binding.key} without help"


@pytest.mark.slow
async def test_the_ghost_can_look_at_the_whole_tableau_and_back() -> None:
    app = make_app(Role.GHOST)
    async with app.run_test(size=WIDE) as pilot:
        shown = record_notifications(app)
        await begin(pilot)
        await pilot.press("v")
        await pilot.pause()
        focused = app.screen.focused
        assert isinstance(focused, CardTile)
        await pilot.press("enter")
        assert shown == [f"On the tableau: {focused.card.name}: {focused.card.description}"]
        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen.focused, DreamTile)
        assert view_of(app).state.investigator(1).marker is None
