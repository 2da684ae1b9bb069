"""A browser seat's URL as a QR code, for a friend's phone to scan off the laptop's screen.

The lobby of a table hosted with ``--browser-seats`` lists each seat's secret URL; B shows
them one at a time as a QR code (the one ``domicile host`` prints: ``qr_lines``) that fits
an 80x24 terminal with its URL above it.  Whoever scans it has the seat.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical

from domicile_tui.keys import HelpKeys
from domicile_tui.screens.popup import PopUp
from domicile_tui.theme import LATER_STYLES
from domicile_tui.widgets.plain import Static, assemble


class BrowserSeatScreen(PopUp[None]):
    CSS_PATH = LATER_STYLES
    HELP_TITLE = "A browser seat's code"
    HELP_KEYS: ClassVar[tuple[HelpKeys, ...]] = (
        HelpKeys(("n",), "the next browser seat's code"),
        HelpKeys(("b", "escape"), "back to the lobby"),
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "next", "Next seat"),
        Binding("b,escape", "back", "Back"),
    ]

    def __init__(self, urls: tuple[str, ...], first: int = 0) -> None:
        super().__init__()
        self.urls = urls
        self.shown = first

    def compose(self) -> ComposeResult:
        with Vertical(id="browser-seat"):
            yield Static(id="browser-seat-url")
            yield Static(id="browser-seat-code")

    def on_mount(self) -> None:
        super().on_mount()
        self._show()

    def _show(self) -> None:
        from domicile_p2p.client_api import qr_lines  # the web extra: a table serves seats

        url = self.urls[self.shown]
        more = "  (N: the next)" if len(self.urls) > 1 else ""
        self.query_one("#browser-seat-url", Static).update(
            assemble(
                (f"Browser seat {self.shown + 1} of {len(self.urls)}{more}\n", "bold"),
                (url, "$primary"),
            )
        )
        self.query_one("#browser-seat-code", Static).update("\n".join(qr_lines(url)))

    def action_next(self) -> None:
        self.shown = (self.shown + 1) % len(self.urls)
        self._show()

    def action_back(self) -> None:
        self.close(None)
