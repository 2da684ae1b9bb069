"""The top line of every game screen: where we are, which day, who you are."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.reactive import reactive
from textual.widgets import Static

from domicile_p2p.rules import GHOST, View
from domicile_tui.describe import phase_line, stage_title
from domicile_tui.personas import persona
from domicile_tui.widgets.calendar import calendar_line


class TableHeader(Horizontal):
    view: reactive[View | None] = reactive(None)

    def __init__(self, place: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.place = place

    def compose(self) -> ComposeResult:
        yield Static(id="header-place")
        yield Static(id="header-calendar")
        yield Static(id="header-you")

    def watch_view(self, view: View | None) -> None:
        if view is None:
            return
        state = view.state
        place = Content.assemble(("☾ ", "$primary"), (self.place, "bold"), "  ")
        place += Content.styled(stage_title(state), "$secondary")
        self.query_one("#header-place", Static).update(place)
        self.query_one("#header-calendar", Static).update(calendar_line(state.day))
        look = persona(view.seat)
        if view.seat == GHOST:
            you = Content.assemble(("you are ", "$text-muted"), look.tag(), (" the Ghost", "bold"))
        else:
            you = Content.assemble(
                ("you are ", "$text-muted"),
                look.tag(),
                " ",
                (state.config.name(view.seat), "bold"),
                (f", {look.title}", "$text-muted"),
            )
        self.query_one("#header-you", Static).update(you)
        self.tooltip = phase_line(state)
