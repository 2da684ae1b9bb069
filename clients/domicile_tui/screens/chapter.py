"""Between two chapters of the tutorial: what the last one taught, what the next one is."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content

from domicile_tui.keys import HelpKeys
from domicile_tui.screens.popup import PopUp
from domicile_tui.theme import FLOURISH, LATER_STYLES
from domicile_tui.tutorial import Chapter, Situation, chapter_over_words
from domicile_tui.widgets.plain import Static


class ChapterScreen(PopUp[bool]):
    """Closes with ``True`` to go on to the next chapter, ``False`` to leave the tutorial."""

    CSS_PATH = LATER_STYLES
    HELP_TITLE = "Between two chapters of the tutorial"
    HELP_KEYS: ClassVar[tuple[HelpKeys, ...]] = (
        HelpKeys(("enter", "space"), "go on to the next chapter"),
        HelpKeys(("escape",), "leave the tutorial (after asking)"),
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "answer(True)", "Next chapter"),
        Binding("escape", "answer(False)", "Leave the tutorial"),
    ]

    def __init__(self, done: Chapter, following: Chapter, situation: Situation) -> None:
        super().__init__()
        self.done = done
        self.following = following
        self.situation = situation

    def compose(self) -> ComposeResult:
        done, following = self.done, self.following
        with Vertical(classes="dialog chapter-dialog"):
            yield Static(
                Content.styled(f"Chapter {done.number} · {done.title} · done", "bold $primary"),
                classes="chapter-title",
            )
            yield Static(chapter_over_words(done, self.situation), classes="chapter-text")
            yield Static(FLOURISH, classes="flourish")
            yield Static(
                Content.styled(f"Chapter {following.number} · {following.title}", "bold"),
                classes="chapter-title",
            )
            yield Static(following.intro, classes="chapter-text")
            yield Static(
                Content.styled("Enter: go on   Esc: leave the tutorial", "$text-muted"),
                classes="hint",
            )

    def action_answer(self, go_on: bool) -> None:
        self.close(go_on)
