"""An investigator card on the table: its name, a line of its description, the markers on it."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.content import Content
from textual.events import Click
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from domicile_p2p.client_api import InvestigatorCard
from domicile_tui.personas import persona
from domicile_tui.theme import MARKER_LOCKED, MARKER_PLACED
from domicile_tui.widgets.now import tell_now

Marker = tuple[int, bool]
"""A marker on a card: the investigator's seat, and whether it is locked."""


MIN_NAME = 10
"""Cells of a card's name kept visible however many markers share the card."""


def marker_chips(markers: tuple[Marker, ...], *, compact: bool = False) -> Content:
    """``A◆ C◇``: each marker's seat letter in its colour, ◆ when locked (``A◆C◇`` when
    compact: the sign of a lock is never dropped, only the spaces)."""
    parts: list[Content] = []
    for seat, locked in markers:
        look = persona(seat)
        glyph = MARKER_LOCKED if locked else MARKER_PLACED
        parts.append(Content.styled(f"{look.letter}{glyph}", f"bold {look.colour}"))
    return Content("" if compact else " ").join(parts)


class CardTile(Widget, can_focus=True):
    """One investigator card.  Enter or a click chooses it (places your marker)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "choose", "Place marker", show=False, priority=True),
    ]

    markers: reactive[tuple[Marker, ...]] = reactive(())

    class Chosen(Message):
        """The player chose this card."""

        def __init__(self, card_id: str) -> None:
            super().__init__()
            self.card_id = card_id

    def __init__(self, card: InvestigatorCard, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.card = card
        self.tooltip = Content(f"{card.name}\n{card.description}")  # a pack's words: never markup

    def render(self) -> Content:
        width = max(self.content_size.width, 1)
        chips = marker_chips(self.markers)
        if self.markers and width - chips.cell_length - 1 < MIN_NAME:
            chips = marker_chips(self.markers, compact=True)
        room = width - (chips.cell_length + 1 if self.markers else 0)
        name = Content.styled(self.card.name, "bold")
        if name.cell_length > room:
            name = name.truncate(max(room, 1), ellipsis=True)
        top = name.pad_right(max(width - name.cell_length - chips.cell_length, 0)) + chips
        description = Content.styled(self.card.description, "italic $text-muted")
        return Content("\n").join([top, description.truncate(width, ellipsis=True)])

    def action_choose(self) -> None:
        tell_now(self, self.Chosen(self.card.id))

    def on_click(self, event: Click) -> None:
        event.stop()
        self.screen.set_focus(self)
        self.action_choose()
