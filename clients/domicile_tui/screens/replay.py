"""The replay viewer: a saved game, event by event, as the table saw it.

The file is verified first, in a thread, exactly as ``domicile verify``
does (the screen says so while it works); its verdict stays on top.  Then
→/← step one event, PgDn/PgUp one day, Home/End to either end.  Each event
shows the public table just after it, and from the Ghost's reveal on the
Ghost's columns too.  The event verification failed at is marked; the last
event names the outcome in ``domicile verify``'s own words.  R opens the
recap of the game so far.
"""

from __future__ import annotations

import asyncio
from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.reactive import reactive
from textual.widgets import LoadingIndicator

from domicile_tui.keys import HelpKeys
from domicile_tui.pages import ReplayPage
from domicile_tui.recap import recap_of
from domicile_tui.replay import Replay, ReplayError, event_line, open_replay
from domicile_tui.screens.base import TableScreen
from domicile_tui.screens.recap import RecapScreen
from domicile_tui.status import Status
from domicile_tui.theme import LATER_STYLES, NO, YES
from domicile_tui.widgets.plain import Static
from domicile_tui.widgets.replay_table import (
    columns_content,
    moment_line,
    seats_content,
    tableau_content,
)
from domicile_tui.widgets.status_bar import BottomBar
from domicile_tui.widgets.wrapped import Redrawn


def verdict_content(replay: Replay) -> Content:
    """The verification's verdict, without spoiling the outcome of a fair game."""
    report = replay.report
    events = f"{report.events} event{'s' if report.events != 1 else ''}"
    if report.valid:
        return Content.assemble(
            (f"{YES} Verified: ", "bold $success"),
            (f"every check passed ({events})", "$success"),
        )
    return Content.styled(f"{NO} {report.summary}", "bold $error")


def position_content(replay: Replay, index: int) -> Content:
    frames = replay.frames
    frame = frames[index]
    where = Content.styled(f"Event {frame.event.seq}", "bold")
    where += Content.styled(f" ({index + 1} of {len(frames)})", "$text-muted")
    what = event_line(frame, replay.timeline.config, replay.names)
    return Content.assemble(where, "  ", (what, "bold $primary"))


def notes_content(replay: Replay, index: int) -> Content:
    """What this event means for the verification, and the outcome at the last one."""
    frame = replay.frames[index]
    notes: list[Content] = []
    error = replay.report.error
    if index == replay.failing and error is not None:
        who = f" ({error.party})" if error.party else ""
        notes.append(
            Content.styled(f"{NO} Verification fails here{who}: {error.reason}", "bold $error")
        )
    elif frame.refused is not None:
        notes.append(
            Content.styled(f"{NO} The rules refuse this event: {frame.refused.reason}", "$error")
        )
    elif frame.unchecked:
        notes.append(
            Content.styled(
                "After a refused event: shown as written, the table is not replayed",
                "italic $warning",
            )
        )
    if index == len(replay.frames) - 1:
        style = "bold $success" if replay.report.valid else "bold $error"
        notes.append(Content.styled(replay.report.summary, style))
    return Content("\n").join(notes)


class ReplayScreen(TableScreen):
    CSS_PATH = LATER_STYLES
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
    AUTO_FOCUS = "#replay-body"

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
            yield LoadingIndicator(id="replay-loading")
            yield Static(id="replay-position")
            yield Static(id="replay-moment")
            yield Static(id="replay-notes")
            with VerticalScroll(id="replay-body"):
                yield Redrawn(id="replay-seats")
                yield Static(id="replay-tableau")
                yield Static(id="replay-columns")
        yield BottomBar(id="bottom").data_bind(status=ReplayScreen.bar)

    def on_mount(self) -> None:
        super().on_mount()
        self.bar = Status(f"Replay of {self.page.path.name}")
        self._open()

    @work(exclusive=True, group="replay", exit_on_error=False)
    async def _open(self) -> None:
        page = self.page
        try:
            replay = await asyncio.to_thread(
                open_replay, page.path, pack_dir=page.pack_dir, no_pack=page.no_pack
            )
        except ReplayError as error:
            self._cannot(f"Cannot open the file: {error}")
            return
        except Exception as error:  # a bug of the viewer's: said on screen, never a traceback
            self._cannot(f"The viewer failed on this file ({type(error).__name__}: {error})")
            return
        self.replay = replay
        self.index = replay.start

    def _cannot(self, why: str) -> None:
        self.query_one("#replay-loading").display = False
        self.query_one("#replay-verdict", Static).update(
            Content.styled(f"{NO} {why}", "bold $error")
        )

    def watch_replay(self, replay: Replay | None) -> None:
        if replay is None:
            return
        self.query_one("#replay-loading").display = False
        self.query_one("#replay-verdict", Static).update(verdict_content(replay))
        self._show()

    def watch_index(self) -> None:
        self._show()

    def _show(self) -> None:
        replay = self.replay
        if replay is None or not replay.frames:
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
        if replay is None or not replay.frames:
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
        replay = self.replay
        if replay is None:
            return
        recap = recap_of(replay.timeline, upto=self.index + 1)
        last = self.index == len(replay.frames) - 1
        title = "The game, day by day" if last else "The game so far, day by day"
        self.app.push_screen(RecapScreen(recap, replay.names, replay.dreams, title=title))

    def action_close(self) -> None:
        self.app.exit()
