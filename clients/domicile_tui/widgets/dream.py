"""A dream card: a few lines of surreal text, face up on the table or in the Ghost's hand."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.content import Content
from textual.events import Click
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from domicile_p2p.client_api import DreamCard
from domicile_tui.theme import YES
from domicile_tui.widgets.now import tell_now
from domicile_tui.widgets.plain import assemble


class DreamTile(Widget, can_focus=True):
    """A dream card.

    On the table, Enter (or a click) opens it to read the whole text.  In
    the Ghost's hand (``selectable``), Enter or Space picks it for a give,
    and ``o`` opens it.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "primary", "Choose", show=False, priority=True),
        Binding("o", "open", "Read", show=False, priority=True),
    ]

    selected: reactive[bool] = reactive(False)

    class Opened(Message):
        def __init__(self, card_id: str) -> None:
            super().__init__()
            self.card_id = card_id

    class Toggled(Message):
        def __init__(self, card_id: str) -> None:
            super().__init__()
            self.card_id = card_id

    def __init__(
        self,
        dream: DreamCard,
        *,
        selectable: bool = False,
        number: int | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.dream = dream
        self.selectable = selectable
        self.number = number
        self.tooltip = Content(dream.text)  # a pack's words: never markup

    def render(self) -> Content:
        if self.content_size.height == 1 and self.number is not None:
            # One line (the Ghost's hand on a short screen): the number and the pick lead.
            mark = f"{self.number} {YES} " if self.selected else f"{self.number} ☁ "
            style = "bold $primary" if self.selected else "bold $secondary"
            line = assemble((mark, style), self.dream.text)
            return line.truncate(max(self.content_size.width, 1), ellipsis=True)
        return Content(self.dream.text)

    def watch_selected(self, selected: bool) -> None:
        self.set_class(selected, "-selected")
        self._title()
        self.refresh()

    def on_mount(self) -> None:
        self._title()

    def _title(self) -> None:
        number = "" if self.number is None else f"{self.number} "
        mark = f" {YES} chosen" if self.selected else ""
        self.border_title = f"{number}☁{mark}" if number or mark else None

    def action_primary(self) -> None:
        if self.selectable:
            tell_now(self, self.Toggled(self.dream.id))
        else:
            tell_now(self, self.Opened(self.dream.id))

    def action_open(self) -> None:
        tell_now(self, self.Opened(self.dream.id))

    def on_click(self, event: Click) -> None:
        event.stop()
        self.screen.set_focus(self)
        if event.chain >= 2:
            self.action_open()
        else:
            self.action_primary()
