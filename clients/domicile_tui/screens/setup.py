"""Setting up a new table: your name, the table's, difficulty, investigators, seats, your role."""

from __future__ import annotations

from typing import ClassVar, Final

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Button, Checkbox, Footer, Input, RadioButton, RadioSet, Select

from domicile_p2p.rules import GHOST, MAX_INVESTIGATORS, Difficulty
from domicile_tui.describe import difficulty_note
from domicile_tui.keys import HelpKeys
from domicile_tui.pages import SetupPage, StartPage
from domicile_tui.personas import persona
from domicile_tui.screens.base import TableScreen
from domicile_tui.session import MAX_NAME_LENGTH, Role, SettingsError, TableSettings
from domicile_tui.theme import FLOURISH, LATER_STYLES
from domicile_tui.widgets.field import Field
from domicile_tui.widgets.plain import Label, Static
from domicile_tui.widgets.teardown import children_gone
from domicile_tui.widgets.toggles import MarkedCheckbox, MarkedRadioButton

NO_TIMER: Final = 0
"""The sand-glass choice "none" (a Select's value cannot be ``None``)."""
TIMER_CHOICES: Final = (NO_TIMER, 60, 90, 120, 180, 300)
"""Seconds of the sand-glasses offered (``--timer`` sets any other, and the form keeps it)."""


def timer_label(seconds: int) -> str:
    """A sand-glass in words: "none", "45 s", "1 min 30 s"."""
    if seconds == NO_TIMER:
        return "none: take your time"
    minutes, rest = divmod(seconds, 60)
    words = [f"{minutes} min"] if minutes else []
    words += [f"{rest} s"] if rest else []
    return " ".join(words) + " for each investigation"


def timer_options(current: int | None) -> list[tuple[str, int]]:
    """The sand-glasses to choose from, with ``current`` among them."""
    seconds = sorted({*TIMER_CHOICES, current or NO_TIMER})
    return [(timer_label(s), s) for s in seconds]


class HostSetupScreen(TableScreen):
    CSS_PATH = LATER_STYLES
    HELP_TITLE = "Setting up a table"
    HELP_KEYS: ClassVar[tuple[HelpKeys, ...]] = (
        HelpKeys(("tab", "shift+tab"), "move between the fields"),
        HelpKeys(("enter", "ctrl+s"), "open the table"),
        HelpKeys(("escape",), "back to the front door"),
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "open_table", "Open the table"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self, page: SetupPage) -> None:
        super().__init__()
        self.page = page
        self.offline = page.offline

    def compose(self) -> ComposeResult:
        defaults = self.client.defaults
        title = "A new offline table" if self.offline else "A new table on this laptop"
        with VerticalScroll(id="setup"):
            yield Static(Content.styled(title, "bold $primary"), classes="setup-title")
            yield Static(Content.styled(FLOURISH, "$secondary"), classes="flourish")
            with Horizontal(classes="field"):
                yield Label("Your name", classes="field-label")
                yield Field(defaults.player_name, id="player-name", max_length=MAX_NAME_LENGTH)
            with Horizontal(classes="field"):
                yield Label("Table name", classes="field-label")
                yield Field(defaults.table_name, id="table-name", max_length=MAX_NAME_LENGTH)
            with Horizontal(classes="field"):
                yield Label("Play as", classes="field-label")
                with RadioSet(id="role"):
                    yield MarkedRadioButton(
                        "an Investigator",
                        value=defaults.role is Role.INVESTIGATOR,
                        id="role-investigator",
                    )
                    yield MarkedRadioButton(
                        "the Ghost", value=defaults.role is Role.GHOST, id="role-ghost"
                    )
            with Horizontal(classes="field"):
                yield Label("Difficulty", classes="field-label")
                yield Select(
                    [(d.label, d) for d in Difficulty],
                    value=defaults.difficulty,
                    allow_blank=False,
                    id="difficulty",
                )
            with Horizontal(classes="field"):
                yield Label("Investigators", classes="field-label")
                yield Select(
                    [(str(n), n) for n in range(1, MAX_INVESTIGATORS + 1)],
                    value=defaults.investigators,
                    allow_blank=False,
                    id="investigators",
                )
            with Horizontal(classes="field"):
                yield Label("Sand-glass", classes="field-label")
                yield Select(
                    timer_options(defaults.timer),
                    value=defaults.timer or NO_TIMER,
                    allow_blank=False,
                    id="timer",
                )
            yield Static(id="difficulty-note")
            if not self.offline:
                yield Static(
                    Content.styled("Seats kept for people who join (the rest are bots)", "bold"),
                    classes="setup-subtitle",
                )
                with Vertical(id="open-seats"):
                    for seat in range(0, MAX_INVESTIGATORS + 1):
                        look = persona(seat)
                        label = "☾ the Ghost" if seat == GHOST else f"{look.letter} {look.title}"
                        box = MarkedCheckbox(
                            label, value=seat in defaults.open_seats, id=f"open-{seat}"
                        )
                        box.tooltip = Content(look.introduction()) if look.expertise else None
                        yield box
            else:
                yield Static(
                    Content.styled("Bots take every other seat.", "$text-muted"),
                    classes="setup-subtitle",
                )
            with Horizontal(classes="buttons"):
                yield Button("Open the table", id="open", variant="primary")
                yield Button("Back", id="back")
        yield Footer()

    def on_mount(self) -> None:
        if children_gone(self):
            return
        self._refresh_form()
        self.query_one("#player-name", Input).focus()

    @on(Select.Changed)
    @on(RadioSet.Changed)
    def _changed(self) -> None:
        self._refresh_form()

    def _refresh_form(self) -> None:
        difficulty = self.query_one("#difficulty", Select).value
        count = self.query_one("#investigators", Select).value
        if isinstance(difficulty, Difficulty) and isinstance(count, int):
            self.query_one("#difficulty-note", Static).update(
                Content.styled(difficulty_note(difficulty, count), "italic $text-muted")
            )
        if not self.offline and isinstance(count, int):
            you = GHOST if self._role() is Role.GHOST else 1
            for seat in range(0, MAX_INVESTIGATORS + 1):
                box = self.query_one(f"#open-{seat}", Checkbox)
                box.display = seat <= count
                box.disabled = seat == you
                if seat == you:
                    box.value = False
                    box.label = f"{box.label.plain.split(' (')[0]} (you)"

    def _timer(self) -> int | None:
        seconds = self.query_one("#timer", Select).value
        return seconds if isinstance(seconds, int) and seconds != NO_TIMER else None

    def _role(self) -> Role:
        ghost = self.query_one("#role-ghost", RadioButton).value
        return Role.GHOST if ghost else Role.INVESTIGATOR

    def settings(self) -> TableSettings:
        """The settings the form describes, or :class:`SettingsError` saying what to fix."""
        difficulty = self.query_one("#difficulty", Select).value
        count = self.query_one("#investigators", Select).value
        assert isinstance(difficulty, Difficulty) and isinstance(count, int)
        open_seats: frozenset[int] = frozenset()
        if not self.offline:
            open_seats = frozenset(
                seat
                for seat in range(0, count + 1)
                if self.query_one(f"#open-{seat}", Checkbox).value
            )
        return TableSettings(
            table_name=self.query_one("#table-name", Input).value,
            player_name=self.query_one("#player-name", Input).value,
            role=self._role(),
            difficulty=difficulty,
            investigators=count,
            open_seats=open_seats,
            timer=self._timer(),
        )

    @on(Button.Pressed, "#open")
    def action_open_table(self) -> None:
        try:
            settings = self.settings()
        except SettingsError as error:
            self.notify(str(error), title="Cannot open the table", severity="error")
            return
        self.client.sit_down(settings, offline=self.offline)

    @on(Input.Submitted)
    def _submitted(self) -> None:
        """Enter in a name field opens the table, as the button does."""
        self.action_open_table()

    @on(Button.Pressed, "#back")
    def action_back(self) -> None:
        self.client.go(StartPage())
