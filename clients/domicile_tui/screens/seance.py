"""The séance, told with a little drama: candles gutter, markers are judged one by one,
the wrong ones fly off, the found cards go into their finders' hands.

The telling is a sequence of *beats* paced by a timer; any key skips to the
end, and a key at the end closes it.  With ``step=0`` (tests, snapshots) the
whole outcome shows at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.events import Click
from textual.reactive import reactive
from textual.timer import Timer

from domicile_p2p.client_api import Pack
from domicile_p2p.rules import CulpritSeance, Outcome, Seance, Stage, View
from domicile_tui.framing import LOST, WON, nights_before_anniversary
from domicile_tui.keys import HelpKeys
from domicile_tui.personas import persona
from domicile_tui.screens.popup import PopUp
from domicile_tui.theme import FLOURISH, LATER_STYLES, MARKER_LOCKED, NO, YES
from domicile_tui.widgets.plain import Static, assemble

FLY_FRAMES = 6
"""Frames of a wrong marker flying off its card."""

_FLAMES = ("✦", "✧", "*", "·", "✧", "✦")


@dataclass(frozen=True, slots=True)
class Judgement:
    """One marker at the séance, and what became of it."""

    seat: int
    name: str
    card: str
    correct: bool
    no_guess: bool = False
    """The sand-glass ran out before this seat placed a marker (before the group agreed, in
    Stage Two): no guess, judged wrong."""


def judgements(before: View, action: Seance | CulpritSeance, pack: Pack) -> tuple[Judgement, ...]:
    state = before.state
    if isinstance(action, CulpritSeance):
        accused = state.accusation
        if accused is None:  # only the sand-glass ends Stage Two without one accusation
            return (Judgement(0, "The group", "no one", action.correct, no_guess=True),)
        return (Judgement(0, "The group", pack.investigator_card(accused).name, action.correct),)
    found: list[Judgement] = []
    for verdict in action.verdicts:
        marker = state.investigator(verdict.seat).marker
        card = pack.investigator_card(marker).name if marker is not None else "no card"
        name = state.config.name(verdict.seat)
        no_guess = verdict.seat in state.no_guess
        found.append(Judgement(verdict.seat, name, card, verdict.correct, no_guess=no_guess))
    return tuple(found)


def summary(after: View, judged: tuple[Judgement, ...], culprit: bool) -> Content:
    state = after.state
    if state.outcome is Outcome.WON:
        return Content.styled(WON, "bold $success")
    if state.outcome is Outcome.LOST:
        return Content.styled(LOST, "bold $error")
    if culprit:
        return Content.styled(
            f"The wrong name. Day {state.day} begins, "
            f"{nights_before_anniversary(state.day)}; the Ghost tries again.",
            "bold $warning",
        )
    right = sum(1 for j in judged if j.correct)
    text = f"{right} found, {len(judged) - right} astray."
    if state.stage is Stage.CULPRIT:
        return Content.styled(f"{text} The plot is solved: Stage Two begins.", "bold $success")
    countdown = nights_before_anniversary(state.day).capitalize()
    return Content.styled(f"{text} Day {state.day} begins. {countdown}.", "bold")


class SeanceScreen(PopUp[None]):
    CSS_PATH = LATER_STYLES
    HELP_TITLE = "The séance"
    HELP_KEYS: ClassVar[tuple[HelpKeys, ...]] = (
        HelpKeys(("enter", "space", "escape"), "skip to the outcome, then close"),
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,escape", "skip", "Skip / close"),
    ]

    beat: reactive[int] = reactive(0)
    frame: reactive[int] = reactive(0)

    def __init__(
        self,
        before: View,
        after: View,
        action: Seance | CulpritSeance,
        *,
        step: float,
        passes_after: float | None = None,
    ) -> None:
        """``step``: seconds between two beats of the telling (0: the outcome at once).
        ``passes_after``: seconds the outcome stays up before the séance closes by itself
        (``None``: until a key closes it); nobody needs to act at a séance."""
        super().__init__()
        self.before = before
        self.after = after
        self.action = action
        self.step = step
        self.passes_after = passes_after
        self._timer: Timer | None = None
        self._flutter: Timer | None = None
        self._passing: Timer | None = None

    @property
    def judged(self) -> tuple[Judgement, ...]:
        pack = self.app.pack  # type: ignore[attr-defined]
        return judgements(self.before, self.action, pack)

    @property
    def beats(self) -> int:
        """Candles, then two beats per marker (shown, judged), then the outcome."""
        return 1 + 2 * len(self.judged) + 1

    @property
    def finished(self) -> bool:
        return self.beat >= self.beats

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog seance-dialog"):
            yield Static(id="candles")
            yield Static(id="seance-title")
            yield Static(FLOURISH, classes="flourish")
            yield Static(id="seance-lines")
            yield Static(id="seance-hint", classes="hint")

    def on_mount(self) -> None:
        if self.step <= 0:
            self.beat = self.beats
            self.frame = FLY_FRAMES
        else:
            self._timer = self.set_interval(self.step, self._next_beat)
            self._flutter = self.set_interval(self.step / 8, self._next_frame)
        self._show()

    def _next_beat(self) -> None:
        if self.finished:
            if self._timer is not None:
                self._timer.stop()
            return
        self.beat += 1
        self.frame = 0

    def _next_frame(self) -> None:
        self.frame += 1
        if self.finished and self.frame > len(_FLAMES) and self._flutter is not None:
            self._flutter.stop()

    def watch_beat(self) -> None:
        self._show()
        if self.finished and self.passes_after is not None and self._passing is None:
            self._passing = self.set_timer(self.passes_after, self._pass)

    def _pass(self) -> None:
        """The outcome has been up long enough: the séance closes by itself (a key pressed
        just as it does is still the séance's, as when a key closes it)."""
        if self.is_current:
            self.close_by_itself(None)

    def watch_frame(self) -> None:
        self._show()

    def _show(self) -> None:
        if not self.query("#candles"):
            return  # not composed yet (or already gone): on_mount shows it
        self.query_one("#candles", Static).update(self._candles())
        title = f"The séance of day {self.before.state.day}"
        self.query_one("#seance-title", Static).update(Content.styled(title, "bold $primary"))
        self.query_one("#seance-lines", Static).update(self._lines())
        if not self.finished:
            hint = "Enter to skip"
        elif self.passes_after is not None:
            hint = "Enter to continue (it goes on by itself in a moment)"
        else:
            hint = "Enter to continue"
        self.query_one("#seance-hint", Static).update(Content.styled(hint, "$text-muted"))

    def _candles(self) -> Content:
        if self.finished:
            flames = Content.styled("   ".join("✦" for _ in range(7)), "bold $primary")
        else:
            flames = Content.styled(
                "   ".join(_FLAMES[(self.frame + i * 2) % len(_FLAMES)] for i in range(7)),
                "$primary",
            )
        sticks = Content.styled("   ".join("█" for _ in range(7)), "$secondary")
        return Content("\n").join([flames, sticks])

    def _lines(self) -> Content:
        lines: list[Content] = []
        if self.beat == 0:
            lines.append(Content.styled("The candles gutter… the spirits gather…", "italic"))
        judged = self.judged
        for index, judgement in enumerate(judged):
            shown, decided = 1 + 2 * index, 2 + 2 * index
            if self.beat < shown:
                break
            lines.append(self._judgement_line(judgement, decided))
        if self.finished:
            lines.append(Content(""))
            lines.append(summary(self.after, judged, isinstance(self.action, CulpritSeance)))
        return Content("\n").join(lines)

    def _judgement_line(self, judgement: Judgement, decided: int) -> Content:
        judged_now = self.beat >= decided
        gone = judged_now and not judgement.correct
        if judgement.seat:
            look = persona(judgement.seat)
            who = assemble(look.tag(), " ", (judgement.name, "bold"))
            chip_style = f"bold {look.colour}"
        else:
            who = Content.styled(judgement.name, "bold")
            chip_style = "bold $primary"
        chip = (
            Content.styled("·", "$text-muted")
            if gone
            else Content.styled(MARKER_LOCKED, chip_style)
        )
        if judgement.no_guess:
            return self._no_guess_line(who, judgement, judged_now)
        accusation = "" if judgement.seat else "accuses "
        card = Content.styled(accusation + judgement.card, "$text-muted" if gone else "bold")
        line = assemble(who, "  ", chip, " ", card, "  ")
        if not judged_now:
            return line + Content.styled("…", "$text-muted")
        if judgement.correct:
            if judgement.seat:
                return line + Content.styled(
                    f"{YES} found: it goes into {judgement.name}'s hand", "bold $success"
                )
            return line + Content.styled(f"{YES} the culprit!", "bold $success")
        flown = self.finished or self.beat > decided or self.frame >= FLY_FRAMES
        if flown:
            text = "the marker flies off" if judgement.seat else "innocent: the marker flies off"
            return line + Content.styled(f"{NO} {text}", "bold $error")
        trail = Content.styled(" " * self.frame + MARKER_LOCKED, chip_style)
        return line + Content.styled(f"{NO} ", "bold $error") + trail

    @staticmethod
    def _no_guess_line(who: Content, judgement: Judgement, judged_now: bool) -> Content:
        """A seat the sand-glass ran out on before it guessed: no marker to judge or fly off."""
        did = "made no guess" if judgement.seat else "agreed on no one"
        line = assemble(who, "  ", (f"{did}: the sand-glass ran out", "italic $text-muted"), "  ")
        if not judged_now:
            return line + Content.styled("…", "$text-muted")
        return line + Content.styled(f"{NO} no guess is a wrong guess", "bold $error")

    def action_skip(self) -> None:
        if self.finished:
            self.close(None)
        else:
            self.beat = self.beats
            self.frame = FLY_FRAMES

    def on_click(self, event: Click) -> None:
        self.action_skip()
