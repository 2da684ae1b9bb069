"""A card held up to the candle: its whole text."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.events import Click

from domicile_p2p.client_api import DreamCard, InvestigatorCard
from domicile_tui.keys import HelpKeys
from domicile_tui.screens.popup import PopUp
from domicile_tui.theme import FLOURISH, LATER_STYLES
from domicile_tui.widgets.plain import Static


class CardScreen(PopUp[None]):
    CSS_PATH = LATER_STYLES
    HELP_TITLE = "Reading a card"
    HELP_KEYS: ClassVar[tuple[HelpKeys, ...]] = (
        HelpKeys(("escape", "enter", "space", "q"), "put the card down"),
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,space,q", "close", "Close"),
    ]

    def __init__(self, card: InvestigatorCard | DreamCard, *, note: str = "") -> None:
        super().__init__()
        self.card = card
        self.note = note

    def compose(self) -> ComposeResult:
        card = self.card
        with Vertical(classes="dialog card-dialog"):
            if self.note:
                yield Static(Content.styled(self.note, "$text-muted"), classes="card-kind")
            if isinstance(card, DreamCard):
                yield Static(Content.styled("☁  A dream", "bold $secondary"), classes="card-kind")
                yield Static(Content.styled(card.text, "italic"), classes="card-text")
            else:
                kind = Content.styled(card.category.capitalize(), "bold $secondary")
                yield Static(kind, classes="card-kind")
                yield Static(Content.styled(card.name, "bold $primary"), classes="card-name")
                yield Static(Content.styled(card.description, "italic"), classes="card-text")
            yield Static(FLOURISH, classes="flourish")
            yield Static(Content.styled("Esc to put it down", "$text-muted"), classes="hint")

    def action_close(self) -> None:
        self.close(None)

    def on_click(self, event: Click) -> None:
        self.close(None)
