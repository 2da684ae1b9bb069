"""Watching a table from the client: the front door's Watch, the join form's, a late joiner
offered to watch, and the investigators' public view with nothing to act on.

The table is hosted on 127.0.0.1 by bots, but for seat 1: a bot of this test plays it
into the game and leaves, so the game waits there (a seat away holds the table) for as
long as the test looks, whatever the machine's load; then it comes back and finishes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from test_tui_network import LOOPBACK, WIDE, door
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, RadioSet
from tui_support import (
    PACK,
    composed,
    press_at_the_table,
    record_notifications,
    rendered,
    settings,
    turns,
    view_of,
    wait_until,
)

from domicile_p2p.net.adapters.bot import BotBrain, run_bot
from domicile_p2p.net.adapters.client import PeerClient, websocket_dialer
from domicile_p2p.net.adapters.host import HostConfig, RunningHost, start_host
from domicile_p2p.net.adapters.key_files import load_or_create_identity
from domicile_p2p.net.adapters.pins import PinStore
from domicile_p2p.net.adapters.seat_secrets import SeatSecrets
from domicile_p2p.net.address import Address
from domicile_p2p.net.join.codes import parse_code
from domicile_p2p.net.sessions.peer import PeerSession
from domicile_tui.app import DomicileApp
from domicile_tui.screens.confirm import ConfirmScreen
from domicile_tui.screens.end import EndScreen
from domicile_tui.screens.investigator import InvestigatorScreen
from domicile_tui.screens.join import JoinScreen
from domicile_tui.screens.lobby import LobbyScreen
from domicile_tui.screens.start import StartScreen
from domicile_tui.ticket import JoinTicket
from domicile_tui.widgets.chat import ChatPanel
from domicile_tui.widgets.header import TableHeader
from domicile_tui.widgets.investigators import InvestigatorList
from domicile_tui.widgets.status_bar import StatusBar
from domicile_tui.widgets.teardown import children_gone


async def bots_table(data_dir: Path) -> RunningHost:
    """The Ghost and investigator 2 are the host's bots; seat 1 is this test's."""
    return await start_host(
        HostConfig(
            data_dir=data_dir,
            name="Friday",
            interface=LOOPBACK,
            port=0,
            investigators=2,
            bot_seats=frozenset({2}),
            ghost_bot=True,
            advertise=False,
            pack=PACK,
        )
    )


def seat_one(data_dir: Path, host: RunningHost) -> tuple[PeerClient, BotBrain]:
    """A bot client for seat 1 (the same ``data_dir`` takes the same seat back)."""
    code = parse_code(host.tables()[0].code)
    address = Address(LOOPBACK, host.port)
    pins = PinStore.in_data_dir(data_dir)
    session = PeerSession(
        load_or_create_identity(data_dir), code.nameplate, code=code, name="Mina", seat=1
    )
    client = PeerClient(
        session,
        websocket_dialer(address, pins),
        SeatSecrets(data_dir),
        pins=pins,
        pin_key=address.pin_key,
    )
    return client, BotBrain(session, seed=1)


async def into_the_game_and_away(data_dir: Path, host: RunningHost) -> None:
    """Seat 1 plays until the game is in play, then leaves: the table waits for it."""
    client, brain = seat_one(data_dir, host)
    playing = asyncio.create_task(run_bot(client, brain))
    try:
        async for _ in turns():
            if client.session.player.playing or playing.done():
                break
            await asyncio.sleep(0.01)
        assert client.session.player.playing, "seat 1 never got into the game"
    finally:
        playing.cancel()
        await asyncio.gather(playing, return_exceptions=True)


def the_game(host: RunningHost) -> Any:
    """The game of the host's one table (``None`` before it begins)."""
    return host.rooms[next(iter(host.rooms))].game


def events_at(host: RunningHost) -> int:
    game = the_game(host)
    return 0 if game is None else len(game.events)


def ticket(host: RunningHost) -> JoinTicket:
    return JoinTicket(parse_code(host.tables()[0].code), Address(LOOPBACK, host.port))


@asynccontextmanager
async def a_table(tmp_path: Path, *, in_play: bool = True) -> AsyncIterator[RunningHost]:
    """The table of :func:`bots_table`; ``in_play``: its game begun and waiting for seat 1."""
    host = await bots_table(tmp_path / "host")
    try:
        if in_play:
            await into_the_game_and_away(tmp_path / "mina", host)
        yield host
    finally:
        await host.close()


@asynccontextmanager
async def at_the_door(tmp_path: Path) -> AsyncIterator[tuple[DomicileApp, Pilot[Any]]]:
    """A client on 127.0.0.1 at its front door."""
    app = DomicileApp(door(tmp_path / "me"), defaults=settings(), open_at_once=False, seance_step=0)
    async with app.run_test(size=WIDE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, StartScreen), "the door")
        yield app, pilot


@pytest.mark.slow
async def test_watch_from_the_join_form_shows_the_public_table_with_nothing_to_act_on(
    tmp_path: Path,
) -> None:
    async with a_table(tmp_path) as host, at_the_door(tmp_path) as (app, pilot):
        shown = record_notifications(app)
        await pilot.press("a")
        await wait_until(pilot, lambda: composed(app, JoinScreen, "#code"), "the join form")
        app.screen.query_one("#code", Input).value = host.tables()[0].code
        app.screen.query_one("#address", Input).value = f"wss://{LOOPBACK}:{host.port}"
        await pilot.press("ctrl+o")
        await wait_until(pilot, lambda: isinstance(app.screen, InvestigatorScreen), "watching")
        lobby = app.lobby
        assert lobby is not None and lobby.watching and lobby.your_seat == 1
        view = view_of(app)
        assert view.seat == 1 and view.ghost is None, "the investigators' public view"
        screen = app.screen
        assert not screen.query_one(ChatPanel).query(Input), "a spectator has no chat line"
        assert "Watching: the table as Mina sees it" in rendered(screen.query_one("#prompt"))
        assert "Mina (watched)" in rendered(screen.query_one(InvestigatorList))
        await wait_until(
            pilot,
            lambda: "Watching the table" in rendered(app.screen.query_one(StatusBar)),
            "the status",
        )
        before = events_at(host)
        await pilot.press("enter", "l", "t")
        await wait_until(pilot, lambda: bool(shown), "a word about the Enter")
        assert "a spectator cannot play" in shown[-1]
        assert isinstance(app.screen, InvestigatorScreen)
        assert events_at(host) == before, "nothing a spectator presses reaches the table"
        # Seat 1 comes back: the spectator follows the game, live, to its end.
        client, brain = seat_one(tmp_path / "mina", host)
        finishing = asyncio.create_task(run_bot(client, brain))
        await wait_until(pilot, lambda: finishing.done(), "the rest of the game")
        outcome = finishing.result()
        # A spectator never blocks: each séance passes by itself, no key pressed.
        await wait_until(pilot, lambda: isinstance(app.screen, EndScreen), what="the end, no key")
        await wait_until(pilot, lambda: app.verification is not None, "the proof")
        assert app.verification is not None and app.verification.ok
        assert app.verification.reveal is not None
        watched = tmp_path / "watched.jsonl"
        app.export_transcript(watched)  # as E on the end screen does
        await wait_until(pilot, lambda: app.exported == watched, "the export")
        archive = tmp_path / "host" / "games" / f"{the_game(host).game_id}.json"
        await wait_until(pilot, archive.exists, "the host's archive")
        assert watched.read_bytes() == archive.read_bytes()
        assert watched.read_bytes().count(b"\n") == len(outcome.events)
        await press_at_the_table(pilot, "escape")  # a spectator leaves without being asked
        await wait_until(pilot, lambda: isinstance(app.screen, StartScreen), "the door")


@pytest.mark.slow
async def test_a_late_joiner_is_offered_to_watch_instead_of_a_refusal(tmp_path: Path) -> None:
    async with a_table(tmp_path) as host, at_the_door(tmp_path) as (app, pilot):
        shown = record_notifications(app)
        app.join(ticket(host), "Ada", None)
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the offer")
        question = app.screen.question  # type: ignore[attr-defined]
        assert "The game has started at this table" in question
        assert question.endswith("Watch the game instead?")
        assert not shown, "no refusal is shown beside the offer"
        await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(app.screen, InvestigatorScreen), "watching")
        assert app.lobby is not None and app.lobby.watching
        assert view_of(app).ghost is None


@pytest.mark.slow
async def test_a_late_joiner_who_declines_is_back_at_the_front_door(tmp_path: Path) -> None:
    async with a_table(tmp_path) as host, at_the_door(tmp_path) as (app, pilot):
        app.join(ticket(host), "Ada", None)
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the offer")
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, StartScreen), "the door")
        assert app.session is None


@pytest.mark.slow
async def test_a_spectator_from_the_lobby_on_sees_the_game_begin(tmp_path: Path) -> None:
    async with a_table(tmp_path, in_play=False) as host, at_the_door(tmp_path) as (app, pilot):
        app.spectate(ticket(host), "Ada")
        await wait_until(pilot, lambda: app.lobby is not None and bool(app.lobby.seats), "lobby")
        assert isinstance(app.screen, LobbyScreen)
        hint = rendered(app.screen.query_one("#lobby-hint"))
        assert "You are watching this table" in hint
        await into_the_game_and_away(tmp_path / "mina", host)  # seat 1 sits down: it begins
        await wait_until(pilot, lambda: isinstance(app.screen, InvestigatorScreen), "the game")
        assert app.lobby is not None and app.lobby.watching


async def test_the_front_door_offers_to_watch_by_code(tmp_path: Path) -> None:
    async with at_the_door(tmp_path) as (app, pilot):
        menu = app.screen.query_one("#menu", OptionList)
        prompts = [str(menu.get_option_at_index(i).prompt) for i in range(menu.option_count)]
        assert "Watch a table by its code" in prompts
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, JoinScreen), "the form")
        screen: Any = app.screen
        assert screen.watching and not screen.query(RadioSet), "no seat to choose"
        assert "Watch a table" in rendered(screen.query_one(".setup-title"))
        assert [button.id for button in screen.query("Button")] == ["watch", "back"]
        shown = {key: active.binding.description for key, active in screen.active_bindings.items()}
        assert shown["ctrl+s"] == "Watch", "the form to watch says Watch, not Join"
        assert not screen.active_bindings["ctrl+o"].binding.show


@pytest.mark.parametrize(
    "make", [lambda: ChatPanel(can_speak=True), lambda: TableHeader("Hall")], ids=["chat", "header"]
)
async def test_a_widget_taken_down_before_its_first_frame_goes_quietly(make: Any) -> None:
    """A screen replaced at once (a spectator's lobby as the game begins, a tutorial
    chapter left as it opens) takes its widgets down before their mount and first watch
    are handled: the chat panel and the header once failed there, looking for children
    already gone, and the client stopped with a traceback."""
    app = App[None]()
    async with app.run_test() as pilot:
        for _ in range(5):
            widget = make()
            app.screen.mount(widget)
            widget.remove()
            await pilot.pause()
        assert not app.screen.query(type(make()))


async def test_a_widget_whose_children_are_being_taken_down_knows_it_at_once() -> None:
    """Textual takes the deepest children down first: as the app closed over a Stage Two
    screen just opened, the screen still held its prompt and no longer its vote, and the
    chat panel its input and not its log (15 runs in 24, twelve at once under coverage).
    The guard holds from the moment the removal begins, before any child has gone."""
    app = App[None]()
    async with app.run_test() as pilot:
        panel = ChatPanel(can_speak=True)
        await app.screen.mount(panel)
        await pilot.pause()
        assert not children_gone(panel)
        panel.remove()
        assert panel.children, "nothing has gone yet"
        assert children_gone(panel)
