"""The front door of the manor: tables found on the LAN, join one, host one, or play offline."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Vertical
from textual.content import Content
from textual.reactive import reactive
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from domicile_tui.inert import inert_news
from domicile_tui.keys import HelpKeys
from domicile_tui.pages import JoinPage, SetupPage, StartPage
from domicile_tui.screens.base import TableScreen
from domicile_tui.theme import FLOURISH, MANOR, TITLE
from domicile_tui.widgets.plain import Static, assemble
from domicile_tui.widgets.status_bar import BottomBar

if TYPE_CHECKING:  # the network stack loads after the first frame, with the door to tables
    from domicile_p2p.client_api import DiscoveredTable, UnfinishedTable

TAGLINE = "a game of dreams, for one silent ghost and the investigators of its murder"
LOOK_EVERY = 4.0
"""Seconds between two looks for tables on the LAN."""


def resume_entry(unfinished: UnfinishedTable) -> Content:
    """The front door's first line when this laptop hosted a table whose game is not over."""
    config = unfinished.stored.config
    when = "in its lobby" if unfinished.day is None else f"day {unfinished.day}"
    return assemble(
        ("Resume ", "bold"),
        (config.name, "bold $accent"),
        (f" · {when} · code {config.code}", "$text-muted"),
    )


def table_entry(table: DiscoveredTable) -> Content:
    from domicile_p2p.client_api import TableState  # loaded with the table's discovery

    advert = table.advert
    state = {
        TableState.LOBBY: f"{advert.seats_free} of {advert.seats_total} seats free"
        + (f" · {advert.bot_seats} bots to take over" if advert.bot_seats else ""),
        TableState.PLAYING: "playing",
        TableState.ENDED: "game over",
    }[advert.state]
    return assemble(
        (advert.name, "bold"),
        (f"  table {advert.nameplate}", "$secondary"),
        (f"  {state} · {advert.difficulty}", "$text-muted"),
    )


class StartScreen(TableScreen):
    HELP_TITLE = "The front door"
    HELP_KEYS: ClassVar[tuple[HelpKeys, ...]] = (
        HelpKeys(("up", "down"), "choose"),
        HelpKeys(("enter",), "go (on a table found on the LAN: join it)"),
        HelpKeys(("h",), "host a table on this laptop"),
        HelpKeys(("j",), "join a table by its code"),
        HelpKeys(("a",), "join a table by its address"),
        HelpKeys(("w",), "watch a table by its code, without a seat"),
        HelpKeys(("o",), "play offline against bots"),
        HelpKeys(("l",), "learn to play: a guided first game"),
        HelpKeys(("q",), "quit"),
    )
    AUTO_FOCUS = "#menu"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("h", "host", "Host"),
        Binding("j", "join_code", "Join by code"),
        Binding("a", "join_address", "By address"),
        Binding("w", "watch", "Watch"),
        Binding("o", "offline", "Offline"),
        Binding("l", "tutorial", "Learn to play"),
        Binding("q", "quit", "Quit"),
    ]

    found: reactive[tuple[DiscoveredTable, ...]] = reactive(())
    unfinished: UnfinishedTable | None = None

    def __init__(self, page: StartPage | None = None) -> None:
        super().__init__()
        self.page = page or StartPage()

    def compose(self) -> ComposeResult:
        with Vertical(id="front"):
            yield Static(Content.styled(MANOR, "$secondary"), id="manor")
            yield Static(Content.styled(TITLE, "bold $primary"), id="title")
            yield Static(Content.styled(TAGLINE, "italic $text-muted"), id="tagline")
            yield Static(Content.styled(FLOURISH, "$secondary"), classes="flourish")
            lan = self.client.lan
            with Center():
                yield OptionList(*self._menu(lan), id="menu", markup=False)
            if lan:
                yield Static(Content.styled("Tables on the LAN", "bold $secondary"), id="lan-title")
                with Center():
                    yield OptionList(id="lan-tables", markup=False)
            else:
                note = "Offline: no table on the LAN is looked for or offered."
                yield Static(Content.styled(note, "italic $text-muted"), id="lan-title")
        yield BottomBar(id="bottom").data_bind(status=StartScreen.status)

    @staticmethod
    def _menu(lan: bool) -> list[Option]:
        options = [
            Option("Host a table on this laptop", id="host"),
            Option("Join a table by its code", id="join-code"),
            Option("Join a table by its address", id="join-address"),
            Option("Watch a table by its code", id="watch"),
        ]
        return [
            *(options if lan else []),
            Option("Play offline against bots", id="offline"),
            Option("Learn to play (a guided first game)", id="tutorial"),
            Option("Quit", id="quit"),
        ]

    def on_mount(self) -> None:
        if self.client.lan:
            self._show_found()
            # Once the screen is painted: mDNS and the host's store need not hold it up.
            self.call_after_refresh(self.look_for_tables)
            self.call_after_refresh(self.offer_resume)

    @work(exclusive=True, group="resume", exit_on_error=False)
    async def offer_resume(self) -> None:
        """Offer first the table this laptop hosted whose game is not over, if any."""
        import asyncio

        door = await self.client.open_door()
        try:
            unfinished = await asyncio.to_thread(door.unfinished)
        except Exception as error:  # a damaged store: say so, and let the evening go on
            self.notify(f"The unfinished table cannot be resumed: {error}", severity="warning")
            return
        if unfinished is None or self.unfinished is not None:
            return
        self.unfinished = unfinished
        menu = self.query_one("#menu", OptionList)
        menu.add_option(Option(resume_entry(unfinished), id="resume"))
        # The new line goes first (OptionList has no insert): rebuild the list behind it.
        options = [menu.get_option_at_index(i) for i in range(menu.option_count)]
        menu.clear_options()
        menu.add_options([options[-1], *options[:-1]])
        menu.highlighted = 0

    @work(exclusive=True, group="discovery", exit_on_error=False)
    async def look_for_tables(self) -> None:
        """Keep the list of tables on the LAN fresh while the front door is open."""
        import asyncio

        door = await self.client.open_door()
        while True:
            try:
                # Anyone on the LAN writes an advert: its words are inert before they show.
                self.found = tuple(inert_news(table) for table in await door.discover())
            except Exception:  # mDNS is a convenience: a LAN that forbids it must not stop play
                self.found = ()
            await asyncio.sleep(LOOK_EVERY)

    def watch_found(self) -> None:
        self._show_found()

    def _show_found(self) -> None:
        # Read first: the first read of ``found`` calls ``watch_found`` (so this) once more,
        # and in the middle of the list's refill it would list its entries twice.
        found_tables = self.found
        found = self.query("#lan-tables")
        if not found:
            return  # not composed (the app is closing)
        tables = found.first(OptionList)
        highlighted = tables.highlighted
        tables.clear_options()
        if not found_tables:
            tables.add_option(
                Option(
                    Content.styled("Looking for tables… none yet", "italic $text-muted"),
                    disabled=True,
                )
            )
            return
        for index, table in enumerate(found_tables):
            tables.add_option(Option(table_entry(table), id=f"table-{index}"))
        if highlighted is not None and highlighted < len(found_tables):
            tables.highlighted = highlighted

    @on(OptionList.OptionSelected, "#menu")
    async def chosen(self, event: OptionList.OptionSelected) -> None:
        match event.option.id:
            case "resume" if self.unfinished is not None:
                self.client.resume(self.unfinished)
            case "host":
                self.action_host()
            case "join-code":
                self.action_join_code()
            case "join-address":
                self.action_join_address()
            case "watch":
                self.action_watch()
            case "offline":
                self.action_offline()
            case "tutorial":
                self.action_tutorial()
            case "quit":
                await self.client.action_quit()

    @on(OptionList.OptionSelected, "#lan-tables")
    def table_chosen(self, event: OptionList.OptionSelected) -> None:
        option_id = event.option.id or ""
        if option_id.startswith("table-"):
            self._join(found=self.found[int(option_id.removeprefix("table-"))])

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Without the LAN (--offline) the network's keys are not offered at all.
        if action in ("host", "join_code", "join_address", "watch"):
            return self.client.lan
        return True

    def _lan_only(self) -> bool:
        if not self.client.lan:
            self.notify("This is an offline session: play offline (O).", severity="warning")
        return self.client.lan

    def action_host(self) -> None:
        if self._lan_only():
            self._setup(offline=False)

    def action_offline(self) -> None:
        self._setup(offline=True)

    def action_tutorial(self) -> None:
        self.client.begin_tutorial()

    def action_join_code(self) -> None:
        if self._lan_only():
            self._join()

    def action_join_address(self) -> None:
        if self._lan_only():
            self._join(by_address=True)

    def action_watch(self) -> None:
        if self._lan_only():
            self.client.go(JoinPage(lan=self.found, watch=True))

    def _setup(self, *, offline: bool) -> None:
        self.client.go(SetupPage(offline=offline))

    def _join(self, *, found: DiscoveredTable | None = None, by_address: bool = False) -> None:
        self.client.go(
            JoinPage(found=found, by_address=by_address and found is None, lan=self.found)
        )

    async def action_quit(self) -> None:
        await self.client.action_quit()
