"""The client at tables across the network: hosted here, joined by code over TLS on
127.0.0.1, found on the LAN by mDNS bound to 127.0.0.1 — never any other interface."""

from __future__ import annotations

import asyncio
import re
import secrets
from pathlib import Path
from typing import Any

import pytest
from test_tui_end_to_end import play_a_whole_game
from textual.widgets import Input, OptionList, Static
from tui_support import (
    LOOPBACK,
    PACK,
    Recorder,
    composed,
    hosted_table,
    join_by_the_form,
    record_notifications,
    rendered,
    settings,
    view_of,
    wait_until,
)

from domicile_p2p.net.adapters.host import RunningHost, start_host
from domicile_p2p.net.address import Address
from domicile_p2p.net.join.codes import parse_code
from domicile_p2p.net.sessions.guards.heads import head_phrase
from domicile_p2p.rules import Phase
from domicile_p2p.transcript.verify import verify
from domicile_tui.app import DomicileApp
from domicile_tui.connect import DISCOVERY_WINDOW, TableDoor
from domicile_tui.news import ActionRefused, LobbyChanged, ViewChanged
from domicile_tui.pacing import BotPace
from domicile_tui.pages import SetupPage
from domicile_tui.screens.confirm import ConfirmScreen
from domicile_tui.screens.end import EndScreen
from domicile_tui.screens.export import ExportScreen
from domicile_tui.screens.ghost import GhostScreen
from domicile_tui.screens.investigator import InvestigatorScreen
from domicile_tui.screens.join import JoinError, JoinScreen, ticket_for
from domicile_tui.screens.lobby import LobbyScreen
from domicile_tui.screens.seance import SeanceScreen
from domicile_tui.screens.start import StartScreen
from domicile_tui.session import Role
from domicile_tui.status import SeatKind
from domicile_tui.ticket import JoinTicket
from domicile_tui.widgets.status_bar import StatusBar

WIDE = (120, 36)
CODE = re.compile(r"^[1-9]-[a-z]+-[a-z]+$")


def door(data_dir: Path, *, advertise: bool = False) -> TableDoor:
    return TableDoor(
        PACK,
        pace=BotPace(0),
        data_dir=data_dir,
        interface=LOOPBACK,
        port=0,
        advertise=advertise,
    )


def only_tables_named(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """The doors hear only the tables called ``name`` on the LAN: mDNS on 127.0.0.1 is
    shared with every other test and run on this machine, whose tables (a table 7 too)
    must not answer for this test's."""
    heard_on_the_lan = TableDoor.discover

    async def only_named(door: TableDoor, window: float = DISCOVERY_WINDOW) -> list[Any]:
        return [
            table for table in await heard_on_the_lan(door, window) if table.advert.name == name
        ]

    monkeypatch.setattr(TableDoor, "discover", only_named)


def run_unique_name() -> str:
    """A table name that no other test or run on this machine is using."""
    return f"Friday {secrets.token_hex(4)}"


async def hosted_elsewhere(
    data_dir: Path, *, advertise: bool = False, code: str | None = None, name: str = "Friday"
) -> RunningHost:
    """A host on 127.0.0.1 playing the Ghost and investigators 2 and 3 with bots."""
    codes = (parse_code(code),) if code is not None else ()
    return await start_host(hosted_table(data_dir, name=name, advertise=advertise, codes=codes))


@pytest.mark.slow
async def test_hosting_for_the_lan_seats_the_player_and_the_bots(tmp_path: Path) -> None:
    app = DomicileApp(
        door(tmp_path), defaults=settings(), open_at_once=True, offline=False, seance_step=0
    )
    async with app.run_test(size=WIDE) as pilot:
        # The lobby waits for its owner: every other seat is a bot's, open to friends.
        await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")

        def bots_seated() -> bool:
            return app.lobby is not None and all(
                s.kind is not SeatKind.OPEN for s in app.lobby.seats
            )

        await wait_until(pilot, bots_seated, "the bots in the lobby")
        await pilot.pause()
        lobby = app.lobby
        assert lobby is not None and lobby.can_start and lobby.takeover
        assert [(s.kind, s.name) for s in lobby.seats] == [
            (SeatKind.BOT, "The Ghost"),
            (SeatKind.YOU, "Ada"),
            (SeatKind.BOT, "Idris Hale"),
            (SeatKind.BOT, "Mina Sorel"),
        ]
        seats = rendered(app.screen.query_one("#lobby-seats", Static))
        assert seats.count("open to take over") == 3
        join = rendered(app.screen.query_one("#lobby-join", Static))
        assert "Friends can take a bot's seat with the code until you start" in join
        assert lobby.code in join and lobby.fingerprint_phrase in join  # type: ignore[operator]
        hint = rendered(app.screen.query_one("#lobby-hint", Static))
        assert "Press Enter to start the game" in hint
        commands = [command.title for command in app.screen.palette_commands()]  # type: ignore[attr-defined]
        assert "Start the game" in commands
        assert any("start the game" in keys.text for keys in LobbyScreen.HELP_KEYS)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, InvestigatorScreen), "the game")
        lobby = app.lobby
        assert lobby is not None and not lobby.offline and lobby.is_host
        assert lobby.code is not None and CODE.match(lobby.code)
        assert lobby.fingerprint_phrase is not None
        assert len(lobby.fingerprint_phrase.split()) == 6
        at_the_table = f"At the table hosted on this laptop · code {lobby.code}"
        await wait_until(
            pilot, lambda: at_the_table in rendered(app.screen.query_one(StatusBar)), at_the_table
        )
        await pilot.press("enter")
        await wait_until(pilot, lambda: view_of(app).state.investigator(1).marker is not None, "")
        await pilot.press("l")
        await wait_until(pilot, lambda: isinstance(app.screen, SeanceScreen), "the séance")
        await pilot.press("enter")
        await wait_until(pilot, lambda: view_of(app).state.day == 2, "day 2")
        port = app.session.host.port  # type: ignore[union-attr]
        await pilot.press("ctrl+q")  # quitting (once the host said yes) closes the table
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        await pilot.press("y")
        await wait_until(pilot, lambda: not app.is_running, "the app to end")
    with pytest.raises(OSError):
        _, writer = await asyncio.open_connection(LOOPBACK, port)
        writer.close()


def test_the_lobby_of_a_table_hosted_here_says_it_listens_on_all_networks(
    tmp_path: Path,
) -> None:
    from domicile_tui.networked import NetworkTable
    from domicile_tui.screens.lobby import joining_lines

    def lobby_of(interface: str | None) -> str:
        table = NetworkTable(
            PACK, tmp_path, name="Mina", role=Role.GHOST, hosting=settings(), interface=interface
        )
        return joining_lines(table._placeholder_lobby()).plain

    assert "Listening on all networks, the LAN too (--interface IP for one)" in lobby_of(None)
    assert "Listening on 192.168.1.20 only" in lobby_of("192.168.1.20")


async def test_a_hosted_table_with_an_open_seat_waits_in_the_lobby(tmp_path: Path) -> None:
    hosting = settings(Role.GHOST)
    hosting = type(hosting)(
        table_name="Friday",
        player_name="Mina",
        role=Role.GHOST,
        investigators=2,
        open_seats=frozenset({2}),
    )
    app = DomicileApp(
        door(tmp_path / "host"), defaults=hosting, open_at_once=True, offline=False, seance_step=0
    )
    async with app.run_test(size=WIDE) as pilot:
        shown = record_notifications(app)
        await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await wait_until(pilot, lambda: app.lobby is not None and bool(app.lobby.seats), "seats")
        await pilot.pause()
        lobby = app.lobby
        assert lobby is not None
        hint = rendered(app.screen.query_one("#lobby-hint", Static))
        assert "Bots take the 1 open seat when you start" in hint
        join = rendered(app.screen.query_one("#lobby-join", Static))
        assert lobby.code in join and "Host phrase" in join  # type: ignore[operator]
        assert f"Listening on {LOOPBACK} only" in join  # the interface it was told to use

        # Friends join across the network with the code read out loud: the first takes the
        # open seat, the second the bot's seat; then every seat is a person's and it begins.
        host = app.session.host  # type: ignore[union-attr]
        ticket = JoinTicket(parse_code(lobby.code), Address(LOOPBACK, host.port))  # type: ignore[arg-type]
        guest = door(tmp_path / "guest").join(ticket, "Idris", None)
        await guest.open()
        await wait_until(
            pilot,
            lambda: app.lobby is not None and app.lobby.seat(2).kind is SeatKind.HUMAN,
            "the guest in the open seat",
        )
        assert isinstance(app.screen, LobbyScreen), "a bot still holds seat 1"
        second = door(tmp_path / "second").join(ticket, "Orla", Role.INVESTIGATOR)
        await second.open()
        await wait_until(pilot, lambda: isinstance(app.screen, GhostScreen), "the game")
        assert view_of(app).state.config.name(2) == "Idris"
        assert view_of(app).state.config.name(1) == "Orla"
        assert not shown
        await guest.close()
        await second.close()
        await app.session.close()  # type: ignore[union-attr]


@pytest.mark.slow
async def test_a_whole_game_at_a_table_across_the_network(tmp_path: Path) -> None:
    host = await hosted_elsewhere(tmp_path / "host")
    try:
        app = DomicileApp(
            door(tmp_path / "me"), defaults=settings(), open_at_once=False, seance_step=0
        )
        async with app.run_test(size=WIDE) as pilot:
            shown = record_notifications(app)
            await join_by_the_form(pilot, app, host)
            assert app.lobby is not None and app.lobby.your_seat == 1
            assert app.lobby.fingerprint_phrase == host.certificate.phrase

            await play_a_whole_game(pilot, app)
            await wait_until(pilot, lambda: isinstance(app.screen, EndScreen), "the end")
            await wait_until(pilot, lambda: app.verification is not None, "the proof")
            assert app.verification is not None and app.verification.ok
            assert app.verification.reveal is not None
            assert view_of(app).state.phase is Phase.ENDED
            assert not [n for n in shown if n.startswith("Not allowed")]
            # A guest keeps the game too, without pressing E, and is told where.
            await wait_until(
                pilot,
                lambda: (
                    "kept in the data dir, joined/games/"
                    in rendered(app.screen.query_one("#end-head", Static))
                ),
                "where the game is kept",
            )
            kept = list((tmp_path / "me" / "joined" / "games").glob("*.json"))
            assert len(kept) == 1 and verify(kept[0]).valid

            await pilot.press("e")
            await wait_until(pilot, lambda: isinstance(app.screen, ExportScreen), "export")
            target = tmp_path / "friday.jsonl"
            app.screen.query_one("#export-path", Input).value = str(target)
            await pilot.press("enter")
            await wait_until(pilot, lambda: target.exists(), "the transcript")
            report = verify(target)
            assert report.valid and report.replica is not None
            # The last link as words, for the table to compare out loud.
            words = head_phrase(bytes.fromhex(report.replica.head))
            assert len(words.split()) == 6
            end_head = rendered(app.screen.query_one("#end-head", Static))
            assert words in end_head and "everyone should see the same six words" in end_head
            await app.session.close()  # type: ignore[union-attr]
    finally:
        await host.close()


async def test_a_wrong_code_is_refused_and_the_player_is_back_at_the_door(tmp_path: Path) -> None:
    host = await hosted_elsewhere(tmp_path / "host")
    try:
        real = parse_code(host.tables()[0].code)
        wrong = f"{real.nameplate}-{'acorn' if real.first != 'acorn' else 'amber'}-{real.second}"
        app = DomicileApp(
            door(tmp_path / "me"), defaults=settings(), open_at_once=False, seance_step=0
        )
        async with app.run_test(size=WIDE) as pilot:
            shown = record_notifications(app)
            app.join(JoinTicket(parse_code(wrong), Address(LOOPBACK, host.port)), "Ada", None)
            await wait_until(pilot, lambda: bool(shown), "the refusal")
            assert "the host refused the code" in shown[-1]
            await wait_until(pilot, lambda: isinstance(app.screen, StartScreen), "the door")
            assert app.session is None
    finally:
        await host.close()


async def test_a_refused_code_brings_back_the_form_as_it_was_typed(tmp_path: Path) -> None:
    host = await hosted_elsewhere(tmp_path / "host")
    try:
        real = parse_code(host.tables()[0].code)
        wrong = f"{real.nameplate}-{'acorn' if real.first != 'acorn' else 'amber'}-{real.second}"
        app = DomicileApp(
            door(tmp_path / "me"), defaults=settings(), open_at_once=False, seance_step=0
        )
        async with app.run_test(size=WIDE) as pilot:
            shown = record_notifications(app)
            await pilot.press("a")
            await wait_until(pilot, lambda: composed(app, JoinScreen, "#code"), "the join form")
            typed = {
                "#code": wrong,
                "#address": f"wss://{LOOPBACK}:{host.port}",
                "#player-name": "Bo",
            }
            for field, text in typed.items():
                app.screen.query_one(field, Input).value = text
            await pilot.press("ctrl+s")
            await wait_until(pilot, lambda: bool(shown), "the refusal")
            assert "the host refused the code" in shown[-1]
            await wait_until(pilot, lambda: isinstance(app.screen, JoinScreen), "the form again")
            for field, text in typed.items():
                assert app.screen.query_one(field, Input).value == text
            assert app.session is None
    finally:
        await host.close()


async def test_the_front_door_says_once_that_it_looks_for_tables(tmp_path: Path) -> None:
    app = DomicileApp(door(tmp_path), defaults=settings(), open_at_once=False, seance_step=0)
    async with app.run_test(size=WIDE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, StartScreen))
        tables = app.screen.query_one("#lan-tables", OptionList)
        prompts = [str(tables.get_option_at_index(i).prompt) for i in range(tables.option_count)]
        assert prompts == ["Looking for tables… none yet"]


@pytest.mark.slow
async def test_tables_on_the_lan_are_listed_and_joined_from_the_front_door(
    tmp_path: Path,
) -> None:
    host = await hosted_elsewhere(tmp_path / "host", advertise=True)
    try:
        app = DomicileApp(
            door(tmp_path / "me"), defaults=settings(), open_at_once=False, seance_step=0
        )
        async with app.run_test(size=WIDE) as pilot:
            tables = app.screen.query_one("#lan-tables", OptionList)

            def friday() -> int | None:
                # This test's host, by its port: other tables called Friday may be on
                # 127.0.0.1 meanwhile (other tests', a player's).
                found = getattr(app.screen, "found", ())
                for i in range(tables.option_count):
                    option_id = tables.get_option_at_index(i).id or ""
                    if option_id.startswith("table-"):
                        table = found[int(option_id.removeprefix("table-"))]
                        if table.port == host.port:
                            return i
                return None

            await wait_until(pilot, lambda: friday() is not None, "the table on the LAN")
            entry = str(tables.get_option_at_index(friday() or 0).prompt)
            assert "table " in entry and "1 of 4 seats free · 3 bots to take over" in entry
            tables.focus()
            tables.highlighted = friday()
            await pilot.press("enter")
            await wait_until(pilot, lambda: composed(app, JoinScreen, "#code"), "the join form")
            code = host.tables()[0].code
            app.screen.query_one("#code", Input).value = code
            await pilot.press("ctrl+s")
            await wait_until(pilot, lambda: isinstance(app.screen, InvestigatorScreen), "seated")
            await app.session.close()  # type: ignore[union-attr]
    finally:
        await host.close()


def test_the_join_form_says_what_is_missing() -> None:
    with pytest.raises(JoinError, match="no table 7 answers on the LAN"):
        ticket_for("7-raven-lantern", found=None, address_text="", fingerprint_text="", lan=())
    with pytest.raises(JoinError, match="tables speak wss://"):
        ticket_for(
            "7-raven-lantern",
            found=None,
            address_text="http://10.0.0.1",
            fingerprint_text="",
            lan=(),
        )
    with pytest.raises(JoinError, match="64 hexadecimal digits"):
        ticket_for(
            "7-raven-lantern",
            found=None,
            address_text="10.0.0.1:47470",
            fingerprint_text="abc",
            lan=(),
        )
    ticket = ticket_for(
        "7 Raven Lantern",
        found=None,
        address_text="10.0.0.1",
        fingerprint_text="ab" * 32,
        lan=(),
    )
    assert str(ticket.code) == "7-raven-lantern"
    assert ticket.address == Address("10.0.0.1", 47470)
    assert ticket.fingerprint == bytes.fromhex("ab" * 32)


@pytest.mark.slow
async def test_a_host_that_disappears_shows_in_the_status_bar(tmp_path: Path) -> None:
    host = await hosted_elsewhere(tmp_path / "host")
    app = DomicileApp(door(tmp_path / "me"), defaults=settings(), open_at_once=False, seance_step=0)
    async with app.run_test(size=WIDE) as pilot:
        app.join(
            JoinTicket(parse_code(host.tables()[0].code), Address(LOOPBACK, host.port)), "Ada", None
        )
        await wait_until(pilot, lambda: isinstance(app.screen, InvestigatorScreen), "seated")
        await host.close()
        bar = app.screen.query_one(StatusBar)
        await wait_until(pilot, lambda: "away" in rendered(bar), "the status line")
        assert rendered(bar).startswith("○ The host is away — waiting for it to come back (")
        assert isinstance(app.screen, InvestigatorScreen)  # the table stays on screen
        await app.session.close()  # type: ignore[union-attr]


@pytest.mark.slow
async def test_the_ghost_plays_across_the_network_and_its_seance_is_announced(
    tmp_path: Path,
) -> None:
    app = DomicileApp(
        door(tmp_path),
        defaults=settings(Role.GHOST),
        open_at_once=True,
        offline=False,
        seance_step=0,
    )
    async with app.run_test(size=WIDE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        # Enter starts a lobby the host has described, not the table still opening.
        await wait_until(pilot, lambda: bool(app.lobby and app.lobby.can_start), "startable")
        await pilot.press("enter")  # start at once: the bots that are not seated yet come
        await wait_until(pilot, lambda: isinstance(app.screen, GhostScreen), "the game")
        await wait_until(pilot, lambda: view_of(app).ghost is not None, "the Ghost's view")
        for seat in (1, 2):
            await pilot.press("1", "g")
            await wait_until(pilot, lambda s=seat: view_of(app).state.investigator(s).served, "")
        await pilot.press("1", "g")  # the last give: the bots lock at once, the séance follows
        await wait_until(pilot, lambda: isinstance(app.screen, SeanceScreen), "the séance")
        await pilot.press("enter")
        await wait_until(pilot, lambda: view_of(app).state.day == 2, "the next day")
        assert isinstance(app.screen, GhostScreen)
        await app.session.close()  # type: ignore[union-attr]


async def test_the_set_up_form_keeps_the_seats_asked_for_open(tmp_path: Path) -> None:
    app = DomicileApp(
        TableDoor(PACK, pace=BotPace(0), lan=False, data_dir=tmp_path),
        defaults=settings(),
        open_at_once=False,
    )
    async with app.run_test(size=WIDE) as pilot:
        app.go(SetupPage(offline=False))
        await wait_until(pilot, lambda: bool(app.screen.query("#open-6")), "the form")
        screen = app.screen
        assert screen.query_one("#open-1").disabled  # your own seat
        assert not screen.query_one("#open-4").display  # only 3 investigators
        for seat in (2, 0):
            screen.query_one(f"#open-{seat}").focus()
            await pilot.press("space")
        chosen = screen.settings()  # type: ignore[attr-defined]
        assert chosen.open_seats == {0, 2}
        assert chosen.bot_seats == (3,)


async def test_another_game_before_the_end_is_refused_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    """The next game opens at the same table once this one is over
    (``test_tui_rematch.py``); asked for before, it is refused and nothing changes."""
    table = door(tmp_path).host(settings())
    recorder = Recorder(table)
    until = recorder.until

    def views() -> list[ViewChanged]:
        return recorder.of(ViewChanged)

    await table.open()
    await until(lambda: bool(recorder.of(LobbyChanged)), "the lobby")
    await table.start_game()
    await until(lambda: bool(views()), "the first game")
    assert table.host is not None
    first_game = table.host.tables()[0].game_id
    await table.play_again()
    await until(lambda: bool(recorder.of(ActionRefused)), "the refusal")
    [refused] = recorder.of(ActionRefused)
    assert "once this table's game is over" in refused.message
    assert table.host.tables()[0].game_id == first_game
    await recorder.stop()
