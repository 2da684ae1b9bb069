"""Text from others is data in the client: never markup, never terminal control (issue 20).

A host, a peer, a pack or a saved file chooses the words of a table name, a seat's
name, a chat line, a card, a refusal.  Each is fed here with markup (``[/]`` raised
``MarkupError``; ``[@click=app.quit]`` is an action) and with escape sequences, bidi
and zero-width characters, and must show as it was written, inert.  The bytes a real
terminal receives are checked in ``tests/inert``.
"""

from __future__ import annotations

import ast
import asyncio
import unicodedata
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from replay_support import HOSTILE_CHAT, HOSTILE_NAMES, hostile_game, replay_app
from textual.style import Style
from tui_support import (
    DATA_DIR,
    PACK,
    begin,
    make_app,
    record_notifications,
    rendered,
    view_of,
    wait_until,
)
from tui_support import (
    settings as table_settings,
)

from domicile_p2p.net.adapters.discovery import DiscoveredTable, TableAdvert
from domicile_p2p.net.wire import TableState
from domicile_p2p.packs import Pack
from domicile_p2p.text import inert
from domicile_p2p.transcript.schema import Kind
from domicile_tui.app import DomicileApp
from domicile_tui.connect import TableDoor
from domicile_tui.news import (
    ActionRefused,
    ChatLine,
    ChatPosted,
    LobbyChanged,
    SessionClosed,
    StatusChanged,
    ViewChanged,
)
from domicile_tui.pacing import BotPace
from domicile_tui.screens.investigator import InvestigatorScreen
from domicile_tui.screens.recap import RecapScreen
from domicile_tui.screens.replay import ReplayScreen
from domicile_tui.screens.seeker import card_detail
from domicile_tui.session import Role
from domicile_tui.status import Severity, Status
from domicile_tui.widgets.card import CardTile
from domicile_tui.widgets.chat import ChatPanel
from domicile_tui.widgets.plain import Static

CLIENT = Path(__file__).resolve().parents[2] / "clients" / "domicile_tui"
WIDE = (120, 36)
MARKUP = ("[/]", "[bold red]", "[@click=app.quit]")
CONTROL = "\x1b]0;pwned\x07\x1b[2J\x9b31m\u202e\u200b"
"""The window title (OSC 0), a screen clear, the 8-bit CSI, a right-to-left override and
a zero-width space, as a hostile peer would send them."""


def screen_lines(app: DomicileApp) -> list[str]:
    """The screen as the terminal gets it: every line, after the app's line filters."""
    strips = app.screen._compositor.render_strips()
    return ["".join(segment.text for segment in strip) for strip in strips]


def unsafe_on(lines: list[str]) -> list[str]:
    return [
        char
        for line in lines
        for char in line
        if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Zl", "Zp")
    ]


def shown(app: DomicileApp, text: str) -> bool:
    return any(text in line for line in screen_lines(app))


# --------------------------------------------------------------------- the code itself


def _client_modules() -> list[tuple[Path, ast.Module]]:
    return [(path, ast.parse(path.read_text())) for path in sorted(CLIENT.rglob("*.py"))]


def _plain_tooltip(value: ast.expr) -> bool:
    """A tooltip Textual shows as it is: ``Content(...)``, ``None``, or a choice of them."""
    if isinstance(value, ast.IfExp):
        return _plain_tooltip(value.body) and _plain_tooltip(value.orelse)
    if isinstance(value, ast.Constant):
        return value.value is None
    return isinstance(value, ast.Call) and ast.unparse(value.func) == "Content"


def test_no_module_of_the_client_reads_markup() -> None:
    """Textual's Static and Label read a str as markup: the client uses its plain ones,
    and nothing asks for markup by name."""
    found: list[str] = []
    for path, module in _client_modules():
        where = path.relative_to(CLIENT)
        for node in ast.walk(module):
            if (
                isinstance(node, ast.ImportFrom)
                and (node.module or "").startswith("textual.widgets")
                and path.name != "plain.py"
            ):
                found += [
                    f"{where}: imports {alias.name} from {node.module}"
                    for alias in node.names
                    if alias.name in ("Static", "Label")
                ]
            if isinstance(node, ast.Attribute) and node.attr == "from_markup":
                found.append(f"{where}:{node.lineno}: from_markup")
            if (
                isinstance(node, ast.keyword)
                and node.arg == "markup"
                and not (isinstance(node.value, ast.Constant) and node.value.value is False)
            ):
                found.append(f"{where}:{node.lineno}: markup={ast.unparse(node.value)}")
            if (
                isinstance(node, ast.Call)
                and ast.unparse(node.func).endswith("OptionList")
                and not any(k.arg == "markup" for k in node.keywords)
            ):
                found.append(f"{where}:{node.lineno}: an OptionList reading markup")
            if (
                isinstance(node, ast.Assign)
                and any(ast.unparse(t).endswith(".tooltip") for t in node.targets)
                and not _plain_tooltip(node.value)
            ):
                found.append(f"{where}:{node.lineno}: a tooltip from a str (read as markup)")
    assert found == []


def test_no_module_of_the_client_assembles_unmeasured() -> None:
    """Textual's Content.assemble drops a part's control codes after measuring it, which
    leaves its styles between letters that are not there: the client assembles through
    ``widgets.plain.assemble``, which keeps them."""
    found = [
        f"{path.relative_to(CLIENT)}:{node.lineno}"
        for path, module in _client_modules()
        if path.name != "plain.py"
        for node in ast.walk(module)
        if isinstance(node, ast.Attribute) and node.attr == "assemble"
    ]
    assert found == []


@pytest.mark.parametrize("control", ["\x07", "\x08", "\x0b", "\x0c", "\r"])
def test_a_card_whose_words_hold_a_control_code_draws(control: str) -> None:
    """A card's words with a bell or a backspace before and after them: the strip under the
    tableau keeps each style on its own letters (Textual's own assemble raised drawing
    them: hypothesis found it with a backspace for a card's name)."""
    card = replace(PACK.characters[0], name=control, description=f"a{control}b")
    detail = card_detail(card)
    assert detail.plain == f"{control}  Character  a{control}b"
    assert [detail.plain[span.start : span.end] for span in detail.spans] == [
        control,
        "  Character",
        f"a{control}b",
    ]
    drawn = "".join(text for text, _ in detail.render(Style(), end=""))
    assert drawn == detail.plain


# ------------------------------------------------------------------ at an offline table


def hostile_pack(words: str) -> Pack:
    """The default pack with ``words`` in every card's name, description and dream."""
    return replace(
        PACK,
        name=f"{words} pack",
        characters=tuple(
            replace(card, name=f"{card.name} {words}", description=f"{words} {card.description}")
            for card in PACK.characters
        ),
        locations=tuple(
            replace(card, description=f"{card.description} {words}") for card in PACK.locations
        ),
        items=tuple(replace(card, description=f"{words}{card.description}") for card in PACK.items),
        dreams=tuple(replace(dream, text=f"{dream.text} {words}") for dream in PACK.dreams),
    )


def app_with(pack: Pack, role: Role, name: str = "Ada", table: str = "Hollowmere") -> DomicileApp:
    door = TableDoor(pack, pace=BotPace(0), seed=7, lan=False, data_dir=DATA_DIR)
    return DomicileApp(
        door,
        defaults=replace(table_settings(role, name=name), table_name=table),
        open_at_once=True,
        offline=True,
        seance_step=0.0,
    )


async def test_the_ghost_reads_a_card_whose_words_are_markup_and_control() -> None:
    words = " ".join(MARKUP) + CONTROL
    app = app_with(hostile_pack(words), Role.GHOST)
    async with app.run_test(size=WIDE, notifications=True, tooltips=True) as pilot:
        notes = record_notifications(app)
        await begin(pilot)
        await pilot.press("v")
        await pilot.pause()
        card = app.screen.focused
        assert isinstance(card, CardTile)
        await pilot.press("enter")
        await pilot.pause()
        assert notes == [f"On the tableau: {card.card.name}: {card.card.description}"]
        assert shown(app, "[/] [bold red] [@click=app.quit]")
        assert unsafe_on(screen_lines(app)) == []
        # The card's tooltip (its name and words) on hover, as written.
        await pilot.hover(card)
        tooltip = app.screen.query_one("#textual-tooltip")
        await wait_until(pilot, lambda: tooltip.display, what="the tooltip")
        assert f"{card.card.name.split(' [')[0]} [/] [bold red] [@click=app.quit]" in rendered(
            tooltip
        )
        assert unsafe_on(screen_lines(app)) == []
        assert app.is_running


async def test_a_table_and_a_player_named_in_markup_play_on() -> None:
    app = app_with(PACK, Role.INVESTIGATOR, name="[bold red]", table="[/]")
    async with app.run_test(size=WIDE, notifications=True, tooltips=True) as pilot:
        await wait_until(pilot, lambda: shown(app, "[/]"), what="the table's name in the lobby")
        await begin(pilot)
        assert shown(app, "[bold red]")
        assert app.is_running


async def test_a_table_named_in_markup_is_offered_at_the_next_start(tmp_path: Path) -> None:
    """The table this laptop hosted, named ``[/]`` and left unfinished: the next
    ``domicile play`` names it in a notification, as written."""
    name = "[/] [@click=app.quit]"

    def laptop() -> TableDoor:
        return TableDoor(PACK, pace=BotPace(0), data_dir=tmp_path, interface="127.0.0.1")

    first = DomicileApp(
        laptop(), defaults=replace(table_settings(), table_name=name), open_at_once=True
    )
    async with first.run_test(size=WIDE, notifications=True, tooltips=True) as pilot:
        await wait_until(pilot, lambda: bool(first.lobby and first.lobby.can_start), what="lobby")
        await pilot.press("enter")
        await wait_until(pilot, lambda: first.view is not None, what="the game")
        await pilot.press("ctrl+q", "y")
    second = DomicileApp(laptop(), defaults=table_settings(), open_at_once=True)
    notes = record_notifications(second)  # before it runs: the note comes at once
    async with second.run_test(size=WIDE, notifications=True, tooltips=True) as pilot:
        await wait_until(pilot, lambda: bool(notes), what="the note")
        assert notes[0].startswith(f"An unfinished table: {name} is unfinished")
        await pilot.pause()
        assert second.is_running


async def test_an_advert_on_the_lan_is_listed_inert(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Anyone on the LAN announces a table (no code needed): the front door lists its
    name as written, inert."""
    advert = TableAdvert(f"[/] Friday {CONTROL}", 3, "d" * 64, 2, 2, "normal", TableState.LOBBY)
    heard = DiscoveredTable(f"[bold red] {CONTROL}", "127.0.0.1", 9, advert)

    async def the_lan(door: TableDoor, window: float = 0) -> list[DiscoveredTable]:
        return [heard]

    monkeypatch.setattr(TableDoor, "discover", the_lan)
    door = TableDoor(PACK, pace=BotPace(0), data_dir=tmp_path, interface="127.0.0.1")
    app = DomicileApp(door, defaults=table_settings(), open_at_once=False)
    async with app.run_test(size=WIDE, notifications=True, tooltips=True) as pilot:
        await wait_until(pilot, lambda: shown(app, "[/] Friday"), what="the advert listed")
        assert shown(app, f"[/] Friday {inert(CONTROL)}")
        assert unsafe_on(screen_lines(app)) == []
        assert app.is_running


@pytest.mark.parametrize("watching", [False, True], ids=["player", "spectator"])
async def test_news_from_a_table_shows_markup_and_controls_as_written(watching: bool) -> None:
    """Chat, names, refusals and connection errors, as a hostile host or peer sends
    them, come in through the app's one door for news (``receive``), to a player's
    screen and to a spectator's."""
    app = make_app(Role.INVESTIGATOR)
    async with app.run_test(size=WIDE, notifications=True, tooltips=True) as pilot:
        notes = record_notifications(app)
        await begin(pilot)
        if watching:
            assert app.lobby is not None
            app.receive(LobbyChanged(replace(app.lobby, watching=True)))
            await app.switch_screen(InvestigatorScreen())  # as a spectator's first view
            await pilot.pause()
            chat_panel = app.screen.query_one(ChatPanel)
            assert not chat_panel.can_speak, "the spectator's panel"
        for index, markup in enumerate(MARKUP):
            name = f"{markup}{CONTROL}"
            app.receive(ChatPosted(ChatLine(2, name, f"said {markup} {CONTROL}")))
            app.receive(ActionRefused(f"refused {markup}{CONTROL}"))
            app.receive(StatusChanged(Status(f"lost {markup}{CONTROL}", Severity.ERROR)))
            view = view_of(app)
            names = list(view.state.config.investigator_names)
            names[index] = name
            config = replace(view.state.config, investigator_names=tuple(names))
            app.receive(ViewChanged(replace(view, state=replace(view.state, config=config))))
            await pilot.pause()
            chat = rendered(app.screen.query_one("#chat-log"))
            assert f"said {markup} {inert(CONTROL)}" in chat.replace("\n", " ")
            assert f"Not allowed: refused {markup}{inert(CONTROL)}" in notes
            assert f"Connection: lost {markup}{inert(CONTROL)}" in notes
            assert any(f"{markup}\\x1b]0;pwned" in line for line in screen_lines(app))
        assert unsafe_on(screen_lines(app)) == []
        assert app.is_running


async def test_a_refusal_in_markup_closes_the_table_without_a_traceback() -> None:
    """A fake host refusing the join with ``[/]`` (the session closes, saying why): the
    message shows, as written."""
    app = make_app(Role.INVESTIGATOR)
    async with app.run_test(size=WIDE, notifications=True, tooltips=True) as pilot:
        notes = record_notifications(app)
        await begin(pilot)
        app.receive(SessionClosed(f"the host says [/] {CONTROL}", failed=True))
        await pilot.pause()
        assert notes[-1] == f"No table: the host says [/] {inert(CONTROL)}"
        assert unsafe_on(screen_lines(app)) == []
        assert app.is_running


async def test_a_lobby_of_hostile_names_shows_them_inert() -> None:
    app = make_app(Role.INVESTIGATOR)
    async with app.run_test(size=WIDE, notifications=True, tooltips=True) as pilot:
        await wait_until(pilot, lambda: app.lobby is not None, what="the lobby")
        lobby = app.lobby
        assert lobby is not None
        hostile = replace(
            lobby,
            table_name=f"[/]{CONTROL}",
            pack_name="[@click=app.quit]",
            seats=tuple(
                replace(seat, name=f"{MARKUP[seat.seat % 3]}{CONTROL}") for seat in lobby.seats
            ),
        )
        app.receive(LobbyChanged(hostile))
        await pilot.pause()
        assert shown(app, f"[/]{inert(CONTROL)}")
        assert unsafe_on(screen_lines(app)) == []
        assert app.is_running


async def test_a_replayed_game_shows_its_names_and_chat_inert() -> None:
    """``domicile replay`` of a game whose seats are named in markup and whose chat
    carries escape sequences: every event is told, the chat as written, inert."""
    app = replay_app(hostile_game(), None)
    async with app.run_test(size=WIDE, notifications=True, tooltips=True) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), what="the viewer")
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await wait_until(pilot, lambda: screen.replay is not None, what="the file")
        replay = screen.replay
        assert replay is not None and replay.report.valid
        said = next(
            index for index, frame in enumerate(replay.frames) if frame.event.kind is Kind.CHAT
        )
        await pilot.press(*["right"] * said)
        await pilot.pause()
        assert screen.index == said
        told = rendered(screen.query_one("#replay-position"))
        assert inert(HOSTILE_CHAT) in told.replace("\n", " ")
        assert any(HOSTILE_NAMES[1] in line for line in screen_lines(app))
        assert unsafe_on(screen_lines(app)) == []
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, RecapScreen), what="the recap")
        assert unsafe_on(screen_lines(app)) == []
        assert app.is_running


# -------------------------------------------------------------------------- the property

outside_text = st.lists(
    st.one_of(
        st.characters(codec=None),
        st.sampled_from(
            [chr(c) for c in range(0x20)]
            + [chr(c) for c in range(0x7F, 0xA0)]
            + list("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
            + list("\u200b\u200c\u200d\u2060\ufeff\u00ad\u3164\u2028[]")
        ),
        st.sampled_from(["\x1b]0;t\x07", "\x1b]52;c;eA==\x07", "\x1b[31m", *MARKUP]),
    ),
    min_size=1,
    max_size=30,
).map("".join)
"""Any text: every C0 and C1 control, bidi and zero-width characters, escape sequences,
brackets and markup well represented among the rest of Unicode."""


async def _show_everywhere(words: list[str]) -> None:
    """One app; each text as a seat's name, a chat line, a table's name, a refusal, an
    error and a pack card's name and words, in turn; after each the screen holds no unsafe
    character and the app runs."""
    app = make_app(Role.INVESTIGATOR)
    async with app.run_test(size=WIDE, notifications=True, tooltips=True) as pilot:
        notes = record_notifications(app)
        await begin(pilot)
        lobby = app.lobby
        assert lobby is not None
        for text in words:
            view = view_of(app)
            config = replace(view.state.config, investigator_names=(text, text, text))
            app.receive(ViewChanged(replace(view, state=replace(view.state, config=config))))
            app.receive(ChatPosted(ChatLine(1, text, text)))
            app.receive(LobbyChanged(replace(lobby, table_name=text, started=True)))
            app.receive(ActionRefused(text))
            app.receive(StatusChanged(Status(text, Severity.ERROR)))
            # A pack's words: the strip under the tableau, and the note the Ghost reads.
            card = replace(PACK.characters[0], name=text, description=text)
            app.screen.query_one("#card-detail", Static).update(card_detail(card))
            app.notify(f"{card.name}: {card.description}", title="On the tableau")
            await pilot.pause()
            assert unsafe_on(screen_lines(app)) == [], repr(text)
            assert f"Not allowed: {inert(text)}" in notes
            assert app.is_running
            app.clear_notifications()


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(outside_text, min_size=10, max_size=10))
@example(["\x08", "\x07", "0\x0b0", "\x0c", "\r", "a\x08b", "0", "\x1b[31m", "[/]", "\x08[/]"])
def test_any_text_from_outside_is_shown_inert_and_never_raises(words: list[str]) -> None:
    asyncio.run(_show_everywhere(words))
