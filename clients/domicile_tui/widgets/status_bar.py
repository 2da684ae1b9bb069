"""The bottom line: the state of the connection to the table, never a crash."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Footer

from domicile_tui.status import Severity, Status

_GLYPHS = {Severity.INFO: "◉", Severity.WARNING: "⚠", Severity.ERROR: "✗"}
_STYLES = {
    Severity.INFO: "$success",
    Severity.WARNING: "bold $warning",
    Severity.ERROR: "bold $error",
}


def status_line(status: Status) -> Content:
    glyph = _GLYPHS[status.severity] if status.connected else "○"
    style = _STYLES[status.severity] if status.connected else "bold $warning"
    return Content.assemble(
        (glyph, style), " ", (status.text, style if status.severity is not Severity.INFO else "")
    )


class StatusBar(Widget):
    status: reactive[Status] = reactive(Status("Not at a table"))

    def render(self) -> Content:
        help_hint = Content.styled("?  help   ctrl+p  commands", "$text-muted")
        line = status_line(self.status)
        width = self.content_size.width
        gap = width - line.cell_length - help_hint.cell_length
        if gap < 2:
            return line
        return line + Content(" " * gap) + help_hint


class BottomBar(Vertical):
    """The status line above the footer of key bindings, docked at the bottom."""

    status: reactive[Status] = reactive(Status("Not at a table"))

    def compose(self) -> ComposeResult:
        yield StatusBar().data_bind(BottomBar.status)
        yield Footer()
