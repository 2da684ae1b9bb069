"""Where to write the transcript."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input

from domicile_tui.keys import HelpKeys
from domicile_tui.screens.popup import PopUp
from domicile_tui.theme import FLOURISH, LATER_STYLES
from domicile_tui.widgets.field import Field
from domicile_tui.widgets.plain import Static


class ExportScreen(PopUp[Path | None]):
    CSS_PATH = LATER_STYLES
    HELP_TITLE = "Exporting the transcript"
    HELP_KEYS: ClassVar[tuple[HelpKeys, ...]] = (
        HelpKeys(("enter",), "write the transcript there"),
        HelpKeys(("escape",), "cancel"),
    )
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, suggestion: Path) -> None:
        super().__init__()
        self.suggestion = suggestion

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Content.styled("Export the transcript", "bold $primary"))
            yield Static(FLOURISH, classes="flourish")
            yield Static(
                Content.styled(
                    "Anyone can check the game from this file: domicile verify FILE",
                    "$text-muted",
                )
            )
            yield Field(str(self.suggestion), id="export-path")
            yield Static(
                Content.styled("Enter to write · Esc to cancel", "$text-muted"), classes="hint"
            )

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text:
            self.notify("Type a file name.", severity="warning")
            return
        self.close(Path(text).expanduser())

    def action_cancel(self) -> None:
        self.close(None)
