"""Behind the Ghost's screen: who must find what, and how each investigator is doing."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.events import Click
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from domicile_p2p.client_api import Pack
from domicile_p2p.rules import CATEGORY_ORDER, GameState, Phase, Stage, View
from domicile_tui.describe import awaiting_dreams
from domicile_tui.personas import persona
from domicile_tui.theme import MARKER_LOCKED, MARKER_PLACED, NO, YES
from domicile_tui.widgets.board import Board
from domicile_tui.widgets.now import tell_now
from domicile_tui.widgets.plain import assemble


class ColumnRow(Widget, can_focus=True):
    """One investigator's secret column.  Enter or a click makes them the recipient."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "pick", "Serve", show=False, priority=True),
    ]

    view: reactive[View | None] = reactive(None)
    recipient: reactive[bool] = reactive(False)
    away: reactive[bool] = reactive(False)
    """The investigator left the table (their seat waits for them)."""

    class Picked(Message):
        def __init__(self, seat: int) -> None:
            super().__init__()
            self.seat = seat

    def __init__(self, seat: int, pack: Pack) -> None:
        super().__init__(id=f"column-row-{seat}")
        self.seat = seat
        self.pack = pack

    def watch_recipient(self, recipient: bool) -> None:
        self.set_class(recipient, "-recipient")

    def render(self) -> Content:
        view = self.view
        if view is None or view.ghost is None:
            return Content("")
        return column_entry(
            view, self.seat, self.pack, self.content_size.width, self.recipient, self.away
        )

    def on_click(self, event: Click) -> None:
        event.stop()
        self.screen.set_focus(self)
        tell_now(self, self.Picked(self.seat))

    def action_pick(self) -> None:
        tell_now(self, self.Picked(self.seat))


def _status(state: GameState, seat: int, away: bool) -> Content:
    investigator = state.investigator(seat)
    if state.phase is Phase.ENDED:
        return Content("")
    if away:
        return Content.styled("away", "bold $warning")
    if state.stage is Stage.PLOT and investigator.done:
        return Content.styled(f"{YES} all three found", "$success")
    if seat in awaiting_dreams(state):
        return Content.styled("awaits your dreams", "bold $primary")
    if investigator.locked:
        return Content.styled("locked", "$text-muted")
    return Content.styled("deciding", "$text-muted")


def column_entry(
    view: View, seat: int, pack: Pack, width: int, recipient: bool = False, away: bool = False
) -> Content:
    """Two lines for one investigator, made to be read whole at 80 columns.

    The first: who (the one to serve marked ``▶``), and on the right where their marker
    stands, locked or not, and whether it is right (before a marker: what they are doing).
    The second: the card they seek first (``▸``), then what they found (``✓``) and what is
    still to come (``·``); a line cut short loses the end, never the target.
    """
    state, ghost = view.state, view.ghost
    assert ghost is not None
    look = persona(seat)
    investigator = state.investigator(seat)
    column = ghost.column(seat)
    culprit = state.stage is Stage.CULPRIT and ghost.culprit == seat
    title = assemble(look.tag(), " ", (state.config.name(seat), "bold"))
    if recipient:
        title = Content.styled("▶ ", "bold $primary") + title
    if culprit:
        title += Content.styled(" ☠", "bold $accent")
    right = _marker(view, seat, pack) or _status(state, seat, away)
    room = width - right.cell_length - 1
    if title.cell_length > room:
        title = title.truncate(max(room, 1), ellipsis=True)
    gap = max(width - title.cell_length - right.cell_length, 1)
    first = title + Content(" " * gap) + right
    sought: list[Content] = []
    others: list[Content] = []
    for index, category in enumerate(CATEGORY_ORDER):
        name = pack.investigator_card(column.card(category)).name
        if state.stage is Stage.CULPRIT or index < len(investigator.found):
            others.append(Content.styled(f"{YES} {name}", "$success"))
        elif category is investigator.seeking:
            sought.append(Content.styled(f"▸ {name}", "bold $primary"))
        else:
            others.append(Content.styled(f"· {name}", "$text-muted"))
    second = Content("  ") + Content("   ").join([*sought, *others])
    return Content("\n").join([first, second.truncate(width, ellipsis=True)])


def _marker(view: View, seat: int, pack: Pack) -> Content | None:
    """Where ``seat``'s marker stands (``◆`` locked, ``◇`` not) and whether it is right."""
    state, ghost = view.state, view.ghost
    assert ghost is not None
    investigator = state.investigator(seat)
    marker = investigator.marker
    if marker is None or state.phase is Phase.ENDED:
        return None
    look = persona(seat)
    glyph = MARKER_LOCKED if investigator.locked else MARKER_PLACED
    if state.stage is Stage.CULPRIT:
        right = marker == ghost.column(ghost.culprit).character
    else:
        seeking = investigator.seeking
        right = seeking is not None and ghost.column(seat).card(seeking) == marker
    verdict = (
        Content.styled(f" {YES} right", "bold $success")
        if right
        else Content.styled(f" {NO} wrong", "bold $error")
    )
    return assemble(
        (f"{glyph} ", f"bold {look.colour}"), pack.investigator_card(marker).name, verdict
    )


class SecretColumns(Board):
    """Every investigator's column, one row each."""

    view: reactive[View | None] = reactive(None)
    recipient: reactive[int | None] = reactive(None)
    away: reactive[frozenset[int]] = reactive(frozenset())

    def __init__(self, pack: Pack, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.pack = pack
        self._seats: tuple[int, ...] = ()

    def compose(self) -> ComposeResult:
        view = self.view
        if view is None:
            return
        self._seats = tuple(view.state.config.seats)
        for seat in self._seats:
            yield ColumnRow(seat, self.pack)

    async def watch_view(self, view: View | None) -> None:
        if view is None:
            return
        if tuple(view.state.config.seats) != self._seats:
            await self.recompose()
        for row in self.query(ColumnRow):
            row.view = view
            row.recipient = row.seat == self.recipient
            row.away = row.seat in self.away

    def watch_away(self, away: frozenset[int]) -> None:
        for row in self.query(ColumnRow):
            row.away = row.seat in away

    def watch_recipient(self, recipient: int | None) -> None:
        for row in self.query(ColumnRow):
            row.recipient = row.seat == recipient
