"""A yes-or-no question before something that cannot be undone."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button

from domicile_tui.keys import HelpKeys
from domicile_tui.screens.popup import PopUp
from domicile_tui.theme import FLOURISH, LATER_STYLES
from domicile_tui.widgets.plain import Static


class ConfirmScreen(PopUp[bool]):
    CSS_PATH = LATER_STYLES
    HELP_TITLE = "A question"
    HELP_KEYS: ClassVar[tuple[HelpKeys, ...]] = (
        HelpKeys(("y",), "yes"),
        HelpKeys(("n", "escape"), "no"),
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(FLOURISH, classes="flourish")
            yield Static(self.question, classes="question")
            with Horizontal(classes="buttons"):
                yield Button("Yes (Y)", id="yes", variant="primary")
                yield Button("No (N)", id="no")

    @on(Button.Pressed, "#yes")
    def yes(self) -> None:
        self.close(True)

    @on(Button.Pressed, "#no")
    def no(self) -> None:
        self.close(False)

    def action_answer(self, answer: bool) -> None:
        self.close(answer)
