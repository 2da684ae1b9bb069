"""The investigator's table (Stage One): the tableau, the dreams, the others, the chat."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical

from domicile_p2p.rules import View
from domicile_tui.keys import HelpKeys
from domicile_tui.screens.seeker import INSPECT, SeekerScreen, card_detail
from domicile_tui.widgets.chat import ChatPanel
from domicile_tui.widgets.dream import DreamTile
from domicile_tui.widgets.dreams import DreamShelf
from domicile_tui.widgets.header import TableHeader
from domicile_tui.widgets.investigators import InvestigatorList
from domicile_tui.widgets.plain import Static
from domicile_tui.widgets.sandglass import SandGlassBar
from domicile_tui.widgets.status_bar import BottomBar
from domicile_tui.widgets.tableau import Tableau
from domicile_tui.widgets.teardown import children_gone


class InvestigatorScreen(SeekerScreen):
    HELP_TITLE = "The investigator's table (Stage One)"
    HELP_KEYS: ClassVar[tuple[HelpKeys, ...]] = (
        HelpKeys(("up", "down", "left", "right"), "move between the cards"),
        HelpKeys(("enter", "space"), "place your marker on the card (or read a dream)"),
        HelpKeys(("i", "o"), "read the card under the cursor in full"),
        HelpKeys(("l",), "lock your marker when you are sure; again to unlock"),
        HelpKeys(("t",), "talk to the table"),
        HelpKeys(("c",), "back to the tableau"),
        HelpKeys(("d",), "the dreams on the table"),
        HelpKeys(("escape",), "from the chat back to the tableau"),
        HelpKeys(("f2", "f3"), "on a phone: the players and the chat, or the table (⇄)"),
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "noop", "Place marker", key_display="⏎", show=True),
        Binding("l", "lock", "Lock / unlock", priority=True),
        INSPECT,
        Binding("t", "talk", "Talk", priority=True),
        Binding("c", "cards", "Tableau", priority=True),
        Binding("d", "dreams", "Dreams", priority=True),
        Binding("escape", "leave_chat", "Back to the tableau", show=False, priority=True),
    ]

    def compose(self) -> ComposeResult:
        pack = self.client.pack
        watching = self.watching
        yield TableHeader(pack.name.removeprefix("The "), watching=watching, id="header").data_bind(
            view=InvestigatorScreen.view, lobby=InvestigatorScreen.lobby
        )
        yield Static(id="prompt")
        yield SandGlassBar(self.client.clock, id="sandglass").data_bind(
            glass=InvestigatorScreen.glass
        )
        with Horizontal(id="table-body"):
            with Vertical(id="table-main"):
                yield Tableau(pack, watching=watching, id="tableau").data_bind(
                    view=InvestigatorScreen.view
                )
                yield Static(card_detail(None), id="card-detail")
                yield DreamShelf(pack, watching=watching, id="dreams").data_bind(
                    view=InvestigatorScreen.view
                )
            with Vertical(id="table-side"):
                yield InvestigatorList(pack, id="investigators").data_bind(
                    view=InvestigatorScreen.view, lobby=InvestigatorScreen.lobby
                )
                yield ChatPanel(can_speak=not self.watching, id="chat").data_bind(
                    lines=InvestigatorScreen.chat
                )
        yield BottomBar(id="bottom").data_bind(status=InvestigatorScreen.status)

    def watch_view(self, view: View | None) -> None:
        if view is None or children_gone(self):
            return
        self.query_one("#prompt", Static).update(self.prompt(view))
        self.call_after_refresh(self.ensure_focus)

    def focus_cards(self) -> None:
        # Asked after a refresh too: the screen may be gone by then (Stage Two replaced it).
        for tableau in self.query(Tableau).results(Tableau):
            tableau.focus_first_sought()

    def dream_tiles(self) -> list[DreamTile]:
        return list(self.query_one(DreamShelf).query(DreamTile).results(DreamTile))

    def palette_commands(self) -> Iterable[SystemCommand]:
        yield SystemCommand("Lock or unlock my marker", "Decide, or think again", self.action_lock)
        yield SystemCommand("Talk to the table", "Focus the chat line", self.action_talk)
        yield SystemCommand("Read my dreams", "Focus my dream cards", self.action_dreams)
