"""The game, day by day: the recap over the end screen or the replay viewer."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content

from domicile_tui.keys import HelpKeys
from domicile_tui.recap import CardText, Recap
from domicile_tui.screens.popup import PopUp
from domicile_tui.theme import FLOURISH, LATER_STYLES
from domicile_tui.widgets.plain import Static
from domicile_tui.widgets.recap import recap_content
from domicile_tui.widgets.wrapped import Redrawn


class RecapScreen(PopUp[None]):
    """The recap, scrolled with the arrows and the page keys."""

    CSS_PATH = LATER_STYLES
    HELP_TITLE = "The game, day by day"
    HELP_KEYS: ClassVar[tuple[HelpKeys, ...]] = (
        HelpKeys(("up", "down"), "scroll"),
        HelpKeys(("pageup", "pagedown", "home", "end"), "scroll by a page, to the top, the end"),
        HelpKeys(("escape", "r", "q"), "close the recap"),
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,r,q", "close", "Close"),
    ]
    AUTO_FOCUS = "#recap-scroll"

    def __init__(
        self, recap: Recap | None, names: CardText, dreams: CardText, *, title: str = ""
    ) -> None:
        super().__init__()
        self.recap = recap
        self.names = names
        self.dreams = dreams
        self.title_text = title or "The game, day by day"

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog recap-dialog"):
            yield Static(Content.styled(self.title_text, "bold $primary"), classes="help-title")
            yield Static(FLOURISH, classes="flourish")
            with VerticalScroll(id="recap-scroll"):
                yield Redrawn(
                    lambda width: recap_content(self.recap, self.names, self.dreams, width),
                    id="recap",
                )
            yield Static(
                Content.styled("↑↓ PgUp PgDn to read · Esc or R to close", "$text-muted"),
                classes="hint",
            )

    def action_close(self) -> None:
        self.close(None)
