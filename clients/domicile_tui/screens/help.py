"""Every key, on one page: the current screen's first."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content

from domicile_tui.keys import HelpKeys
from domicile_tui.screens.popup import PopUp
from domicile_tui.theme import FLOURISH, LATER_STYLES
from domicile_tui.widgets.plain import Static, assemble

HelpSection = tuple[str, Sequence[HelpKeys]]


KEY_COLUMN = 16

THE_GAME = (
    "Someone was murdered in this house and is now its Ghost; it may never speak: it "
    "sends dream cards. Each "
    "investigator finds, one a round, a Character, then a Location, then an Item on "
    "the tableau: read your dreams, put your marker on the card they point to "
    "(Enter) and lock it (L); the séance says who was right. With all three found, "
    "everyone names the culprit together. The seven days count down to the anniversary "
    "of the murder: if it passes unsolved, the Ghost haunts the house another year. "
    "New to it? Learn to play on the front door (L), or domicile play --tutorial."
)
"""The game in a few lines, above the keys: the help is for players, not a rule book."""


def section_text(title: str, keys: Sequence[HelpKeys]) -> Content:
    width = max(KEY_COLUMN, *(len(entry.label) + 2 for entry in keys))
    lines = [Content.styled(title, "bold $primary")]
    for entry in keys:
        lines.append(assemble((entry.label.ljust(width), "bold $secondary"), entry.text))
    return Content("\n").join(lines)


class HelpScreen(PopUp[None]):
    CSS_PATH = LATER_STYLES
    HELP_TITLE = "This help"
    HELP_KEYS: ClassVar[tuple[HelpKeys, ...]] = (
        HelpKeys(("escape", "question_mark", "q"), "close the help"),
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q", "close", "Close"),
    ]

    def __init__(self, sections: Sequence[HelpSection]) -> None:
        super().__init__()
        self.sections = sections

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog help-dialog"):
            yield Static(Content.styled("Keys of the manor", "bold"), classes="help-title")
            yield Static(FLOURISH, classes="flourish")
            with VerticalScroll(id="help-scroll"):
                yield Static(Content.styled(THE_GAME, "italic"), classes="help-intro")
                for title, keys in self.sections:
                    yield Static(section_text(title, keys), classes="help-section")
            yield Static(Content.styled("Esc or ? to close", "$text-muted"), classes="hint")

    def action_close(self) -> None:
        self.close(None)
