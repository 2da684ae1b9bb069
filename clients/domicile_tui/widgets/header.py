"""The top line of every game screen: where we are, which day, who you are.

At 80 columns a line cannot hold it all, so it gives way in order: the pack's
name goes first, then "you are", then the middle of a long name ("…"); the
stage, the calendar, the seat and its title always stay.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.reactive import reactive

from domicile_p2p.rules import GHOST, View
from domicile_tui.describe import phase_line, stage_title
from domicile_tui.news import LobbyInfo
from domicile_tui.personas import persona
from domicile_tui.widgets.calendar import calendar_line
from domicile_tui.widgets.plain import Static, assemble
from domicile_tui.widgets.teardown import children_gone


def watchers_line(watchers: tuple[str, ...]) -> Content:
    """``◎ 2 watching``: how many look on without a seat (their names in the lobby and the
    tooltip); nothing when nobody does."""
    if not watchers:
        return Content("")
    return Content.styled(f" ◎ {len(watchers)} watching", "$text-muted")


class TableHeader(Horizontal):
    view: reactive[View | None] = reactive(None)
    lobby: reactive[LobbyInfo | None] = reactive(None)

    def __init__(self, place: str, *, watching: bool = False, id: str | None = None) -> None:
        """``watching``: a spectator's screen (it watches a seat; it is nobody)."""
        super().__init__(id=id)
        self.place = place
        self.watching = watching

    def compose(self) -> ComposeResult:
        yield Static(id="header-pack")
        yield Static(id="header-place")
        yield Static(id="header-calendar")
        yield Static("watching " if self.watching else "you are ", id="header-you-are")
        yield Static(id="header-name")
        yield Static(id="header-title")
        yield Static(id="header-watchers")

    def watch_lobby(self, lobby: LobbyInfo | None) -> None:
        if children_gone(self):
            return
        watchers = () if lobby is None else lobby.watchers
        shown = self.query_one("#header-watchers", Static)
        shown.update(watchers_line(watchers))
        shown.tooltip = Content("Watching: " + ", ".join(watchers)) if watchers else None

    def watch_view(self, view: View | None) -> None:
        if view is None or children_gone(self):
            return
        state = view.state
        pack = assemble(("☾ ", "$primary"), (self.place, "bold"), "  ")
        self.query_one("#header-pack", Static).update(pack)
        self.query_one("#header-place", Static).update(
            Content.styled(stage_title(state), "$secondary")
        )
        self.query_one("#header-calendar", Static).update(calendar_line(state.day))
        look = persona(view.seat)
        if view.seat == GHOST:
            name, title = assemble(look.tag()), Content.styled(" the Ghost", "bold")
        else:
            name = assemble(look.tag(), " ", (state.config.name(view.seat), "bold"))
            title = Content.styled(f", {look.title}", "$text-muted")
        self.query_one("#header-name", Static).update(name)
        self.query_one("#header-title", Static).update(title)
        self.tooltip = Content(phase_line(state))
