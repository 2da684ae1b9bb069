"""What every screen at the table shares: the app's news, mirrored as reactive attributes.

A screen watches the app's ``view``, ``lobby``, ``chat``, ``status`` and
``verification`` and keeps a copy in its own reactives, so its widgets can
``data_bind`` to them (attributes down).  Widgets post messages up; the
screen turns them into requests to the app (``act``, ``say``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, ClassVar, Final, cast

from textual import events
from textual.app import SystemCommand
from textual.binding import BindingType
from textual.reactive import reactive
from textual.screen import Screen

from domicile_tui.keys import HelpKeys
from domicile_tui.sandglass import Glass
from domicile_tui.status import Status
from domicile_tui.widgets.status_bar import BottomBar

if TYPE_CHECKING:
    from domicile_p2p.rules import View
    from domicile_tui.news import ChatLine, LobbyInfo, Verification
    from domicile_tui.screens.app_api import ScreensApp


PHONE_COLUMNS: Final = 60
"""Below this many columns a screen is laid out for a phone (its ``-phone`` class): a
browser seat on a phone held upright is ~40 columns wide."""

MIRRORED = {
    "lobby": "lobby",
    "view": "shown",
    "chat": "chat",
    "status": "status",
    "verification": "verification",
    "glass": "glass",
}
"""Each reactive of a screen, and the app's news it mirrors."""


class TableScreen(Screen[None]):
    """A screen that shows the table; subclasses compose widgets bound to these reactives."""

    # Textual declares the breakpoints as instance attributes; mypy refuses a ClassVar here.
    HORIZONTAL_BREAKPOINTS = [  # noqa: RUF012
        (0, "-narrow"),
        (100, "-wide"),
    ]
    VERTICAL_BREAKPOINTS = [  # noqa: RUF012
        (0, "-short"),
        (30, "-tall"),
    ]
    BINDINGS: ClassVar[list[BindingType]] = []
    AUTO_FOCUS: ClassVar[str | None] = ""  # each screen puts the focus where play begins
    HELP_TITLE: ClassVar[str] = ""
    """The screen's name in the help."""
    HELP_KEYS: ClassVar[tuple[HelpKeys, ...]] = ()
    """The screen's keys, in words, for the help."""

    def __init__(
        self, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name, id, classes)
        # Begin with the breakpoint classes of the terminal's size: Textual sets them at the
        # screen's first resize, after its widgets are styled, and restyles them all again.
        try:
            width, height = self.app.size
        except RuntimeError:  # no app yet (built outside one): the first resize sets them
            return
        self.set_class(width < PHONE_COLUMNS, "-phone", update=False)
        for breakpoints, size in (
            (self.HORIZONTAL_BREAKPOINTS, width),
            (self.VERTICAL_BREAKPOINTS, height),
        ):
            fitting = [(at, name) for at, name in breakpoints or () if size >= at]
            if fitting:
                self.set_class(True, max(fitting)[1], update=False)

    view: reactive[View | None] = reactive(None)
    lobby: reactive[LobbyInfo | None] = reactive(None)
    chat: reactive[tuple[ChatLine, ...]] = reactive(())
    status: reactive[Status] = reactive(Status("", connected=False))
    verification: reactive[Verification | None] = reactive(None)
    glass: reactive[Glass | None] = reactive(None)

    @property
    def client(self) -> ScreensApp:
        """The app, as this screen sees it: the player's client, at whatever table it sits
        (``table`` said a table, one of four things the word meant)."""
        return cast("ScreensApp", self.app)

    @property
    def phone(self) -> bool:
        """Laid out for a phone (fewer than :data:`PHONE_COLUMNS` columns)."""
        return self.has_class("-phone")

    def on_resize(self, event: events.Resize) -> None:
        # Textual's breakpoints give a screen one class per axis: a phone is narrow too.
        if self.phone != (event.size.width < PHONE_COLUMNS):
            self.set_class(event.size.width < PHONE_COLUMNS, "-phone")
            self.refresh_bindings()

    def on_mount(self) -> None:
        # The game as it is told (``shown``): a séance's outcome only once it is told.
        for name, news in MIRRORED.items():
            self.watch(self.app, news, self._mirror(name))
        # Invoked once this screen is painted with what it composed.
        self.call_after_refresh(self.client.first_frame_shown)
        if self.client.tutorial is not None:
            self._coach_here()

    def _coach_here(self) -> None:
        """The tutorial's hint, on the screens it speaks on (loaded only for the tutorial)."""
        from domicile_tui.coach import where_of
        from domicile_tui.widgets.hint import HintBar

        coach = self.client.tutorial
        bottom = self.query(BottomBar)
        if coach is not None and where_of(self) is not None and bottom:
            bar = bottom.first(BottomBar)
            bar.add_class("-coached")
            bar.mount(HintBar(coach), before=0)

    def _mirror(self, name: str) -> Callable[[object], None]:
        def copy(value: object) -> None:
            setattr(self, name, value)

        return copy

    def on_screen_resume(self) -> None:
        # A dialog closed (or the app came back here): the game may have moved on meanwhile.
        self.client.route()

    def palette_commands(self) -> Iterable[SystemCommand]:
        """The screen's main actions for the command palette."""
        return ()
