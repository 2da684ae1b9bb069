"""The replay viewer: a saved game, event by event, as the table saw it.

The screen is painted first; then, in a thread, the verifier is loaded and
the file verified exactly as ``domicile verify`` does (a progress line says
which of the two is under way); its verdict stays on top.  Nothing of the
verifier, the recap or the table's drawing is imported before the first
frame (``tests/tui/test_tui_replay_startup.py``), so the viewer opens as
fast at any length of game.  Then →/← step one event, PgDn/PgUp one day,
Home/End to either end.  Each event shows the public table just after it,
and from the Ghost's reveal on the Ghost's columns too.  The event
verification failed at is marked; the last event names the outcome in
``domicile verify``'s own words.  R opens the recap of the game so far.
"""

from __future__ import annotations

import asyncio
import importlib
from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.reactive import reactive
from textual.widgets import LoadingIndicator

from domicile_tui.keys import HelpKeys
from domicile_tui.pages import ReplayPage
from domicile_tui.replay_file import ReplayError
from domicile_tui.screens.base import TableScreen
from domicile_tui.status import Status
from domicile_tui.theme import NO
from domicile_tui.widgets.plain import Static
from domicile_tui.widgets.status_bar import BottomBar
from domicile_tui.widgets.teardown import children_gone
from domicile_tui.widgets.wrapped import Redrawn

if TYPE_CHECKING:
    from domicile_tui.replay import Replay

LOADING = "Loading the verifier…"
CHECKING = "Checking the signatures, the hash chain and every move…"
"""The progress line while the file is opened: the imports, then the verification."""
_AFTER_THE_FIRST_FRAME = ("domicile_tui.replay", "domicile_tui.widgets.replay_table")
"""What the viewer loads in its thread once painted: the verifier (through the file's
opening) and what draws a replay, the recap included."""


class ReplayScreen(TableScreen):
    # Its styles are the app's first (a screen's own would re-parse them all before the first
    # frame); the table it draws, once verified, is styled by the later ones (table.tcss).
    HELP_TITLE = "The replay viewer"
    HELP_KEYS: ClassVar[tuple[HelpKeys, ...]] = (
        HelpKeys(("right", "left"), "the next event, the one before"),
        HelpKeys(
            ("pagedown", "pageup"), "the next day; the start of this day (or of the one before)"
        ),
        HelpKeys(("home", "end"), "the first event, the last"),
        HelpKeys(("r",), "the recap of the game so far, day by day"),
        HelpKeys(("escape", "q"), "close the viewer"),
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        # Above the scrolling table's own keys (↑↓ still scroll it).
        Binding("right", "step(1)", "Next", key_display="→", priority=True),
        Binding("left", "step(-1)", "Back", key_display="←", priority=True),
        Binding("pagedown", "day(1)", "Next day", priority=True),
        Binding("pageup", "day(-1)", "Day back", priority=True),
        Binding("home", "jump(0)", "First", show=False, priority=True),
        Binding("end", "jump(-1)", "Last", show=False, priority=True),
        Binding("r", "recap", "Recap"),
        Binding("escape,q", "close", "Close"),
    ]
    AUTO_FOCUS = None  # the body, once mounted with the replay

    replay: reactive[Replay | None] = reactive(None, init=False)
    bar: reactive[Status] = reactive(Status("", connected=False))
    """The bottom line: the file shown (the app's own status is of tables)."""
    index: reactive[int] = reactive(0, init=False)

    def __init__(self, page: ReplayPage) -> None:
        super().__init__()
        self.page = page

    def compose(self) -> ComposeResult:
        with Vertical(id="replay"):
            yield Static(
                Content.styled(f"Verifying {self.page.path}…", "italic"), id="replay-verdict"
            )
            yield Static(Content.styled(LOADING, "$text-muted"), id="replay-progress")
            yield LoadingIndicator(id="replay-loading")
            # The event and the table are mounted with the replay: fewer widgets to style
            # before the first frame.
        yield BottomBar(id="bottom").data_bind(status=ReplayScreen.bar)

    async def _mount_the_table(self) -> None:
        """What shows an event: mounted once there is a replay to show."""
        body = VerticalScroll(
            Redrawn(id="replay-seats"),
            Static(id="replay-tableau"),
            Static(id="replay-columns"),
            id="replay-body",
        )
        await self.query_one("#replay").mount_all(
            (
                Static(id="replay-position"),
                Static(id="replay-moment"),
                Static(id="replay-notes"),
                body,
            )
        )
        body.focus()

    def on_mount(self) -> None:
        super().on_mount()
        self.bar = Status(f"Replay of {self.page.path.name}")
        # Once this screen is painted: the imports and the verification hold up no frame.
        self.call_after_refresh(self._open)

    @work(exclusive=True, group="replay", exit_on_error=False)
    async def _open(self) -> None:
        page = self.page
        try:
            for module in _AFTER_THE_FIRST_FRAME:
                await asyncio.to_thread(importlib.import_module, module)
            from domicile_tui.replay import open_replay

            self._progress(CHECKING)
            replay = await asyncio.to_thread(
                open_replay, page.path, pack_dir=page.pack_dir, no_pack=page.no_pack
            )
        except ReplayError as error:
            self._cannot(f"Cannot open the file: {error}")
            return
        except Exception as error:  # a bug of the viewer's: said on screen, never a traceback
            self._cannot(f"The viewer failed on this file ({type(error).__name__}: {error})")
            return
        await self._mount_the_table()
        self.replay = replay
        self.index = replay.start

    def _progress(self, what: str) -> None:
        self.query_one("#replay-progress", Static).update(Content.styled(what, "$text-muted"))

    def _cannot(self, why: str) -> None:
        self.query_one("#replay-loading").display = False
        self.query_one("#replay-progress").display = False
        self.query_one("#replay-verdict", Static).update(
            Content.styled(f"{NO} {why}", "bold $error")
        )

    def watch_replay(self, replay: Replay | None) -> None:
        if replay is None or children_gone(self):
            return
        from domicile_tui.widgets.replay_table import verdict_content  # loaded with the replay

        self.query_one("#replay-loading").display = False
        self.query_one("#replay-progress").display = False
        self.query_one("#replay-verdict", Static).update(verdict_content(replay))
        self._show()

    def watch_index(self) -> None:
        self._show()

    def _show(self) -> None:
        from domicile_tui.widgets.replay_table import (  # loaded with the replay
            columns_content,
            moment_line,
            notes_content,
            position_content,
            seats_content,
            tableau_content,
        )

        replay = self.replay
        if replay is None or not replay.frames or children_gone(self):
            return
        index = self.index
        frame = replay.frames[index]
        names, dreams = replay.names, replay.dreams
        state = frame.state
        self.query_one("#replay-position", Static).update(position_content(replay, index))
        self.query_one("#replay-moment", Static).update(moment_line(state))
        notes = notes_content(replay, index)
        notes_widget = self.query_one("#replay-notes", Static)
        notes_widget.update(notes)
        notes_widget.display = bool(notes.plain)
        seats = self.query_one("#replay-seats", Redrawn)
        tableau = self.query_one("#replay-tableau", Static)
        columns = self.query_one("#replay-columns", Static)
        seats.display = tableau.display = state is not None
        columns.display = state is not None and frame.truth is not None
        if state is None:
            return
        seats.draw(lambda width: seats_content(state, names, dreams, width))
        tableau.update(tableau_content(state, names))
        if frame.truth is not None:
            columns.update(columns_content(state, frame.truth, names))

    # --- keys ------------------------------------------------------------------------

    def _go(self, index: int) -> None:
        replay = self.replay
        if replay is None or not replay.frames or children_gone(self):
            return
        self.index = max(0, min(index, len(replay.frames) - 1))

    def action_step(self, by: int) -> None:
        self._go(self.index + by)

    def action_jump(self, to: int) -> None:
        replay = self.replay
        if replay is not None:
            self._go(to if to >= 0 else len(replay.frames) + to)

    def action_day(self, by: int) -> None:
        replay = self.replay
        if replay is None:
            return
        starts = replay.day_starts()
        if by > 0:
            later = [start for start in starts if start > self.index]
            self._go(later[0] if later else len(replay.frames) - 1)
        else:
            earlier = [start for start in starts if start < self.index]
            self._go(earlier[-1] if earlier else 0)

    def action_recap(self) -> None:
        from domicile_tui.recap import recap_of  # loaded with the replay
        from domicile_tui.screens.recap import RecapScreen

        replay = self.replay
        if replay is None:
            return
        recap = recap_of(replay.timeline, upto=self.index + 1)
        last = self.index == len(replay.frames) - 1
        title = "The game, day by day" if last else "The game so far, day by day"
        self.app.push_screen(RecapScreen(recap, replay.names, replay.dreams, title=title))

    def action_close(self) -> None:
        self.app.exit()
