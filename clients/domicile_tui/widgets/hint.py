"""The tutorial's hint: what to do now and why, under the table's prompt."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.content import Content
from textual.reactive import Reactive

from domicile_tui.tutorial import Step
from domicile_tui.widgets.plain import Static, assemble

if TYPE_CHECKING:
    from domicile_tui.coach import Coach, CoachedApp

LEAVE_KEYS = "Esc: leave"


def hint_text(heading: str, step: Step, looking: str = "") -> Content:
    """The hint: the chapter, the step's words, and what to look for in the dreams now."""
    text = assemble(
        ("✦ ", "$accent"),
        (heading, "bold $primary"),
        (f"  {LEAVE_KEYS}\n", "$text-muted"),
        step.text,
    )
    if looking:
        text += Content.styled(f"\n{looking}", "italic $secondary")
    return text


class HintBar(Static):
    """Follows what the screen shows (the game as told, the focus, the Ghost's picks) and
    shows the coach's hint for it; the coach moves to the next chapter from here."""

    def __init__(self, coach: Coach) -> None:
        super().__init__(id="tutorial-hint")
        self.coach = coach
        self.step: Step | None = None

    def on_mount(self) -> None:
        screen = self.screen
        self.watch(self.app, "shown", self._follow, init=False)
        self.watch(screen, "focused", self._follow, init=False)
        if isinstance(getattr(type(screen), "chosen", None), Reactive):  # the Ghost's picks
            self.watch(screen, "chosen", self._follow, init=False)
        self._follow()

    def _follow(self, _: object = None) -> None:
        app = cast("CoachedApp", self.app)
        if app.tutorial is not self.coach or not self.is_attached:
            return
        situation = self.coach.situation(app, self.screen)
        if situation is None:
            return
        from domicile_tui.coach import look_for

        self.step = self.coach.hint(situation)
        # (In the lobby there is nothing to read yet, and the card pack may still be loading.)
        looking = look_for(situation, app.pack) if situation.view is not None else ""
        self.update(hint_text(self.coach.heading(), self.step, looking))
        app.call_later(self.coach.seen, app, situation)
