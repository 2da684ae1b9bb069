"""The bottom line: the state of the connection to the table, never a crash."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer

from domicile_tui.status import Severity, Status
from domicile_tui.widgets.plain import assemble

_GLYPHS = {Severity.INFO: "◉", Severity.WARNING: "⚠", Severity.ERROR: "✗"}
_STYLES = {
    Severity.INFO: "$success",
    Severity.WARNING: "bold $warning",
    Severity.ERROR: "bold $error",
}


def status_line(status: Status) -> Content:
    glyph = _GLYPHS[status.severity] if status.connected else "○"
    style = _STYLES[status.severity] if status.connected else "bold $warning"
    return assemble(
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


PHONE_KEY_COLUMNS = 2
"""The footer's keys a line on a phone (each key wide enough for its words)."""


class KeysFooter(Footer):
    """Textual's footer of keys, which on a phone (its screen's ``-phone``) wraps its keys
    onto as many lines as they take, every one on screen to be tapped, where Textual's
    would set them all on one line (cut off past the screen's edge); and shows them even
    while the app has no focus (a page not tapped yet)."""

    _shown: tuple[object, ...] | None = None
    """What the keys on show say (see :meth:`_keys`): rebuilt only when it changes."""

    def bindings_changed(self, screen: Screen[Any]) -> None:
        # Textual's waits while the app has no focus, and a browser seat's page has none
        # until it is first tapped: its keys must be there to be tapped.  And Textual's
        # rebuilds its keys at every change of focus, when a tap in between is lost.
        self._bindings_ready = True
        if self.is_attached and screen is self.screen and self._keys() != self._shown:
            self.call_after_refresh(self.recompose)

    def _keys(self) -> tuple[object, ...]:
        shown = tuple(
            (binding.key, binding.action, binding.description, enabled)
            for (_, binding, enabled, _tooltip) in self.screen.active_bindings.values()
            if binding.show
        )
        return (self.screen.has_class("-phone"), *shown)

    def compose(self) -> ComposeResult:
        self._shown = self._keys() if self._bindings_ready else None
        yield from super().compose()
        if self.screen.has_class("-phone"):
            # After Textual's own: it sets one column per key on the widget's own style.
            self.styles.grid_size_columns = PHONE_KEY_COLUMNS


class BottomBar(Vertical):
    """The status line above the footer of key bindings, docked at the bottom."""

    status: reactive[Status] = reactive(Status("Not at a table"))

    def compose(self) -> ComposeResult:
        yield StatusBar().data_bind(BottomBar.status)
        yield KeysFooter()
