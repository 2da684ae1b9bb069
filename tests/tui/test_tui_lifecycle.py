"""The evening around the games: joining says what it waits for and fails in one plain
sentence, and quitting says what follows before it happens.

Every table here is on 127.0.0.1 (mDNS bound to it too); no traffic leaves the machine.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from test_tui_end_to_end import play_a_whole_game
from test_tui_network import (
    LOOPBACK,
    WIDE,
    door,
    hosted_elsewhere,
    only_tables_named,
    run_unique_name,
)
from textual.widgets import Input, OptionList, Static
from tui_support import (
    PACK,
    Recorder,
    begin,
    composed,
    make_app,
    record_notifications,
    rendered,
    settings,
    view_of,
    wait_until,
)

from domicile_p2p.net.adapters.host import RunningHost
from domicile_p2p.net.address import Address
from domicile_p2p.net.join.codes import parse_code
from domicile_tui.app import DomicileApp
from domicile_tui.connect import TableDoor, unfinished_table
from domicile_tui.news import LobbyChanged, LobbyInfo, StatusChanged, ViewChanged
from domicile_tui.pacing import BotPace
from domicile_tui.screens import join as join_screen
from domicile_tui.screens.confirm import ConfirmScreen
from domicile_tui.screens.ghost import GhostScreen
from domicile_tui.screens.investigator import InvestigatorScreen
from domicile_tui.screens.join import JoinScreen
from domicile_tui.screens.lobby import LobbyScreen
from domicile_tui.screens.start import StartScreen
from domicile_tui.session import Role
from domicile_tui.status import SeatKind
from domicile_tui.ticket import JoinTicket
from domicile_tui.widgets.columns import ColumnRow
from domicile_tui.widgets.status_bar import StatusBar


def front_door(data_dir: Path) -> DomicileApp:
    return DomicileApp(door(data_dir), defaults=settings(), open_at_once=False, seance_step=0)


async def test_a_dead_address_says_so_at_once_and_once(tmp_path: Path, refused_port: int) -> None:
    port = refused_port
    app = front_door(tmp_path)
    async with app.run_test(size=WIDE) as pilot:
        shown = record_notifications(app)
        code = parse_code("4-raven-lantern")
        app.join(JoinTicket(code, Address(LOOPBACK, port)), "Ada", None)
        await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby-to-be")
        # The status bar takes its line a moment after the screen appears (bound on mount).
        await wait_until(
            pilot,
            lambda: (
                f"Connecting to {LOOPBACK}:{port}…" in rendered(app.screen.query_one(StatusBar))
            ),
            "the status line",
        )
        hint = rendered(app.screen.query_one("#lobby-hint", Static))
        assert hint == "Waiting for the host to answer…"
        await wait_until(pilot, lambda: bool(shown), "the failure")
        await wait_until(pilot, lambda: isinstance(app.screen, StartScreen), "the front door")
        await pilot.pause(0.3)
        assert shown == [f"No table: nobody answers at {LOOPBACK}:{port} — is the host running?"]
        assert "Errno" not in shown[0] and "Left the table" not in shown[0]


@pytest.mark.slow
async def test_a_wrong_code_gives_one_message(tmp_path: Path) -> None:
    host = await hosted_elsewhere(tmp_path / "host")
    try:
        real = parse_code(host.tables()[0].code)
        wrong = f"{real.nameplate}-{'acorn' if real.first != 'acorn' else 'amber'}-{real.second}"
        app = front_door(tmp_path / "me")
        async with app.run_test(size=WIDE) as pilot:
            shown = record_notifications(app)
            app.join(JoinTicket(parse_code(wrong), Address(LOOPBACK, host.port)), "Ada", None)
            await wait_until(pilot, lambda: bool(shown), "the refusal")
            await wait_until(pilot, lambda: isinstance(app.screen, StartScreen), "the door")
            await pilot.pause(0.3)
            assert shown == ["No table: the host refused the code: check it and try again"]
    finally:
        await host.close()


@pytest.mark.slow
async def test_joining_by_code_waits_for_the_table_to_appear(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What is tested is that the join waits for a table that starts after it asked, not
    # how long: on a loaded machine the host's start and its first mDNS answer can take
    # longer than a player's 10 s.
    monkeypatch.setattr(join_screen, "LOOK_FOR_TABLE", 120.0)
    name = run_unique_name()
    only_tables_named(monkeypatch, name)
    host: RunningHost | None = None
    app = front_door(tmp_path / "me")
    try:
        async with app.run_test(size=WIDE) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, StartScreen), "the door")
            await pilot.press("j")
            await wait_until(pilot, lambda: composed(app, JoinScreen, "#code"), "the join form")
            # The host starts only after the player asked: joining waits for it to be heard.
            code = "7-raven-lantern"
            app.screen.query_one("#code", Input).value = code
            await pilot.press("ctrl+s")
            progress = app.screen.query_one("#join-progress", Static)
            await wait_until(pilot, lambda: "Looking for table 7" in rendered(progress), "looking")
            assert rendered(progress) == "Looking for table 7 on the LAN…"
            host = await hosted_elsewhere(tmp_path / "host", advertise=True, code=code, name=name)
            await wait_until(
                pilot, lambda: isinstance(app.screen, InvestigatorScreen), what="seated"
            )
            await app.session.close()  # type: ignore[union-attr]
    finally:
        if host is not None:
            await host.close()


@pytest.mark.slow
async def test_joining_by_code_gives_up_with_one_plain_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(join_screen, "LOOK_FOR_TABLE", 1.5)

    async def nobody_answers(_door: TableDoor, window: float = 0.0) -> list[object]:
        # Each look hears nothing: other tables on 127.0.0.1 (another test's, a player's
        # running meanwhile) must not answer for table 9.
        await asyncio.sleep(window)
        return []

    monkeypatch.setattr(TableDoor, "discover", nobody_answers)
    app = front_door(tmp_path)
    async with app.run_test(size=WIDE) as pilot:
        shown = record_notifications(app)
        await wait_until(pilot, lambda: isinstance(app.screen, StartScreen), "the door")
        await pilot.press("j")
        await wait_until(pilot, lambda: composed(app, JoinScreen, "#code"), "the join form")
        app.screen.query_one("#code", Input).value = "9-amber-acorn"
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: bool(shown), "the message")
        await pilot.pause(0.3)
        assert shown == [
            "Cannot join: no table 9 answered on the LAN within 1.5 s: check the number, "
            "or join by address"
        ]
        assert rendered(app.screen.query_one("#join-progress", Static)) == ""


async def quit_asks(pilot: Any, app: DomicileApp, words: str) -> None:
    """Ctrl+Q asks first (and saying no keeps the table); the question contains ``words``."""
    await pilot.press("ctrl+q")
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
    question = app.screen
    assert isinstance(question, ConfirmScreen) and words in question.question
    await pilot.press("n")
    await wait_until(pilot, lambda: not isinstance(app.screen, ConfirmScreen), "no")
    assert app.session is not None and app.is_running
    await pilot.press("ctrl+q")
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question again")
    await pilot.press("y")


@pytest.mark.slow
async def test_the_hosts_quit_asks_and_says_everyone_waits(tmp_path: Path) -> None:
    app = DomicileApp(
        door(tmp_path), defaults=settings(), open_at_once=True, offline=False, seance_step=0
    )
    async with app.run_test(size=WIDE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await wait_until(pilot, lambda: bool(app.lobby and app.lobby.can_start), "startable")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, InvestigatorScreen), "the game")
        port = app.session.host.port  # type: ignore[union-attr]
        await quit_asks(pilot, app, "Everyone's game pauses until you run domicile play again")
        await wait_until(pilot, lambda: not app.is_running, "the app to end")
    with pytest.raises(OSError):
        _, writer = await asyncio.open_connection(LOOPBACK, port)
        writer.close()


@pytest.mark.slow
async def test_a_guests_quit_says_the_seat_waits(tmp_path: Path) -> None:
    host = await hosted_elsewhere(tmp_path / "host")
    try:
        app = front_door(tmp_path / "me")
        async with app.run_test(size=WIDE) as pilot:
            ticket = JoinTicket(parse_code(host.tables()[0].code), Address(LOOPBACK, host.port))
            app.join(ticket, "Ada", None)
            await wait_until(pilot, lambda: isinstance(app.screen, InvestigatorScreen), "seated")
            await quit_asks(pilot, app, "Your seat waits for you")
            await wait_until(pilot, lambda: not app.is_running, "the app to end")
    finally:
        await host.close()


def with_a_person_away(lobby: LobbyInfo, seat: int) -> LobbyInfo:
    """``lobby`` as the host tells it once the person in ``seat`` has left mid-game."""
    seats = tuple(
        replace(info, kind=SeatKind.HUMAN, name="Bea", connected=False)
        if info.seat == seat
        else info
        for info in lobby.seats
    )
    return replace(lobby, seats=seats)


@pytest.mark.slow
async def test_a_departed_player_is_away_not_deciding_for_the_investigators() -> None:
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        await begin(pilot)
        assert isinstance(app.screen, InvestigatorScreen) and app.lobby is not None
        listing = app.screen.query_one("#investigators", Static)
        assert "is away" not in rendered(listing)
        app.lobby = with_a_person_away(app.lobby, 2)
        await pilot.pause()
        entries = rendered(listing).split("\n")
        bea = entries.index(next(line for line in entries if "Bea" in line or "Idris" in line))
        assert "is away (their seat waits for them)" in entries[bea + 1]
        assert sum("is away" in line for line in entries) == 1


async def test_a_departed_player_is_away_on_the_ghosts_columns() -> None:
    app = make_app(Role.GHOST)
    async with app.run_test(size=WIDE) as pilot:
        await begin(pilot)
        assert isinstance(app.screen, GhostScreen) and app.lobby is not None
        row = app.screen.query_one("#column-row-2", ColumnRow)
        assert "away" not in rendered(row)
        app.lobby = with_a_person_away(app.lobby, 2)
        await pilot.pause()
        assert row.away and "away" in rendered(row) and "deciding" not in rendered(row)
        assert not app.screen.query_one("#column-row-1", ColumnRow).away


def laptop(data_dir: Path, port: int | None) -> TableDoor:
    """The door of a laptop that hosts on 127.0.0.1 (``port`` ``None``: the usual choice)."""
    return TableDoor(PACK, pace=BotPace(0), data_dir=data_dir, interface=LOOPBACK, port=port)


@pytest.mark.slow
async def test_a_laptop_table_resumes_from_the_front_door_and_finishes(tmp_path: Path) -> None:
    first = DomicileApp(laptop(tmp_path, 0), defaults=settings(), open_at_once=True, seance_step=0)
    async with first.run_test(size=WIDE) as pilot:
        await wait_until(pilot, lambda: bool(first.lobby and first.lobby.can_start), "the lobby")
        port = first.session.host.port  # type: ignore[union-attr]
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(first.screen, InvestigatorScreen), "the game")
        await pilot.press("enter", "l")
        await wait_until(pilot, lambda: view_of(first).state.day == 2, "day 2")
        before = first.lobby
        assert before is not None
        await pilot.press("ctrl+q", "y")
        await wait_until(pilot, lambda: not first.is_running, "the app to end")

    second = DomicileApp(laptop(tmp_path, None), defaults=settings(), seance_step=0)
    async with second.run_test(size=WIDE) as pilot:
        menu = second.screen.query_one("#menu", OptionList)
        await wait_until(pilot, lambda: menu.get_option_at_index(0).id == "resume", "Resume")
        line = str(menu.get_option_at_index(0).prompt)
        assert line.startswith("Resume Hollowmere") and "day 2" in line and before.code in line
        menu.focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: second.view is not None, "the game resumed")
        after = second.lobby
        assert after is not None and after.code == before.code
        assert after.fingerprint_phrase == before.fingerprint_phrase
        assert second.session.host.port == port  # type: ignore[union-attr]
        await wait_until(pilot, lambda: view_of(second).state.day == 2, "caught up to day 2")
        await play_a_whole_game(pilot, second)
        await wait_until(pilot, lambda: second.verification is not None, "the verification")
        assert second.verification is not None and second.verification.ok
        await second.session.close()  # type: ignore[union-attr]


@pytest.mark.slow
async def test_a_guest_waits_for_the_host_and_finds_it_again_on_another_port(
    tmp_path: Path,
) -> None:
    """The host quits mid-game and resumes on another port (its old one taken): the guest
    says the host is away, counting, finds the table again by mDNS and sits back down."""
    host_door = TableDoor(
        PACK, pace=BotPace(0), data_dir=tmp_path / "host", interface=LOOPBACK, port=0
    )
    host = Recorder(host_door.host(settings()))
    guest: Recorder[Any] | None = None
    squatter: asyncio.Server | None = None
    try:
        await host.table.open()
        await host.until(lambda: bool(host.of(LobbyChanged)), "the host's lobby")
        port = host.table.host.port
        code = host.table.host.tables()[0].code
        ticket = JoinTicket(parse_code(code), Address(LOOPBACK, port))
        guest = Recorder(laptop(tmp_path / "guest", 0).join(ticket, "Bea", None))
        await guest.table.open()

        def guest_seated() -> bool:
            return any(e.status.text.startswith("At the table") for e in guest.of(StatusChanged))

        await guest.until(guest_seated, "the guest seated")
        await host.table.start_game()
        await guest.until(lambda: bool(guest.of(ViewChanged)), "the game")
        seen = len(guest.events)
        await host.table.close()  # the host's laptop goes away mid-game

        def away() -> list[str]:
            return [
                e.status.text
                for e in guest.events[seen:]
                if isinstance(e, StatusChanged) and "away" in e.status.text
            ]

        await guest.until(lambda: len(away()) >= 2, "the guest counting")
        assert away()[0] == "The host is away — waiting for it to come back (0 s)"
        assert away()[1] == "The host is away — waiting for it to come back (1 s)"
        # Someone else took the old port: the table comes back on another one.
        squatter = await asyncio.start_server(lambda r, w: w.close(), LOOPBACK, port)
        unfinished = unfinished_table(tmp_path / "host")
        assert unfinished is not None and str(unfinished.stored.config.code) == code
        resumed_door = TableDoor(
            PACK, pace=BotPace(0), data_dir=tmp_path / "host", interface=LOOPBACK, port=None
        )
        host = Recorder(resumed_door.resume(unfinished, "Ada"))
        await host.table.open()
        await host.until(lambda: host.table.host is not None, "the host back")
        assert host.table.host.port != port and host.table.host.tables()[0].code == code
        back = len(guest.events)
        await guest.until(
            lambda: any(
                isinstance(e, StatusChanged) and e.status.text.startswith("At the table at")
                for e in guest.events[back:]
            ),
            "the guest back",
        )
        new_port = host.table.host.port
        status = [e for e in guest.events[back:] if isinstance(e, StatusChanged)][-1]
        assert f"{LOOPBACK}:{new_port}" in status.status.text and code in status.status.text
    finally:
        if squatter is not None:
            squatter.close()
        if guest is not None:
            await guest.stop()
        await host.stop()


@pytest.mark.slow
async def test_domicile_play_offers_the_unfinished_table_instead_of_putting_it_aside(
    tmp_path: Path,
) -> None:
    first = DomicileApp(laptop(tmp_path, 0), defaults=settings(), open_at_once=True)
    async with first.run_test(size=WIDE) as pilot:
        await wait_until(pilot, lambda: bool(first.lobby and first.lobby.can_start), "the lobby")
        code = first.lobby.code  # type: ignore[union-attr]
        await pilot.press("enter")
        await wait_until(pilot, lambda: first.view is not None, "the game")
        await pilot.press("ctrl+q", "y")
    second = DomicileApp(laptop(tmp_path, 0), defaults=settings(), open_at_once=True)
    async with second.run_test(size=WIDE) as pilot:
        shown = record_notifications(second)
        await wait_until(
            pilot,
            lambda: isinstance(second.screen, StartScreen) and bool(second.screen.query("#menu")),
            "the front door",
        )
        menu = second.screen.query_one("#menu", OptionList)
        await wait_until(pilot, lambda: menu.get_option_at_index(0).id == "resume", "Resume")
        assert code is not None and code in str(menu.get_option_at_index(0).prompt)
        assert second.session is None  # nothing hosted, nothing put aside
        await wait_until(pilot, lambda: bool(shown), "the note")
        assert "Hollowmere is unfinished: resume it (first line)" in shown[0]


async def test_a_lobby_left_before_the_start_is_not_offered_to_resume(tmp_path: Path) -> None:
    first = DomicileApp(laptop(tmp_path, 0), defaults=settings(), open_at_once=True)
    async with first.run_test(size=WIDE) as pilot:
        await wait_until(pilot, lambda: bool(first.lobby and first.lobby.can_start), "the lobby")
        await pilot.press("ctrl+q", "y")  # nobody has played at it: nothing to come back to
    assert unfinished_table(tmp_path) is None


def test_play_resume_without_an_unfinished_table_says_so(tmp_path: Path) -> None:
    from domicile_p2p.cli import CommandError, build_parser
    from domicile_tui.cli import unfinished_from

    args = build_parser().parse_args(["play", "--resume", "--data-dir", str(tmp_path)])
    with pytest.raises(CommandError, match="no unfinished table to resume in"):
        unfinished_from(args)


async def test_no_action_is_enabled_once_the_last_screen_is_gone(tmp_path: Path) -> None:
    """At shutdown a footer's queued recompose can ask for the bindings' state after the
    last screen is popped; Textual's own ``screen.copy_text`` binding then raised
    ScreenStackError out of the app (seen under load at the end of a rematch test)."""
    app = DomicileApp(laptop(tmp_path, 0), defaults=settings(), open_at_once=False)
    assert not app.screen_stack  # not running: no screen, as after the last one is popped
    assert app._check_action_state("screen.copy_text", app) is False
