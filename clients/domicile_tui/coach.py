"""The tutorial at the table: which chapter the player is in, the hint, leaving.

The app holds one :class:`Coach` while the tutorial runs (``DomicileApp.tutorial``).
Each table screen shows the coach's hint in a :class:`~domicile_tui.widgets.hint.HintBar`,
which asks for it whenever what the player sees changes: the game as the screen
shows it (the app's ``shown``: a séance's outcome only once it is told), the
focus, the Ghost's picks.  When a chapter's lesson is done the coach says so
in a dialog and opens the next chapter's table; Esc or Ctrl+Q at the table
asks, then leaves the tutorial for the front door.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, Protocol

from textual.screen import ModalScreen
from textual.widgets import Input

from domicile_p2p.rules import Phase, Stage
from domicile_tui.describe import awaiting_dreams
from domicile_tui.screens.chapter import ChapterScreen
from domicile_tui.screens.confirm import ConfirmScreen
from domicile_tui.tutorial import CHAPTERS, Chapter, Focus, Situation, Step, Where
from domicile_tui.tutorial_table import chapter_table
from domicile_tui.widgets.card import CardTile
from domicile_tui.widgets.columns import ColumnRow
from domicile_tui.widgets.dream import DreamTile

if TYPE_CHECKING:
    from textual.screen import Screen
    from textual.worker import Worker

    from domicile_p2p.client_api import DreamCard, Pack
    from domicile_p2p.rules import View
    from domicile_tui.connect import TableDoor
    from domicile_tui.networked import NetworkTable
    from domicile_tui.session import TableSession, TableSettings

WHERE: Final = {
    "LobbyScreen": Where.LOBBY,
    "InvestigatorScreen": Where.TABLE,
    "GhostScreen": Where.GHOST,
    "CulpritScreen": Where.STAGE_TWO,
    "EndScreen": Where.END,
}
"""The screens the tutorial speaks on, by class name (screens load lazily)."""

LEAVE_QUESTION: Final = "Leave the tutorial? You go back to the front door."


def where_of(screen: Screen[Any]) -> Where | None:
    """Where the player is, when ``screen`` is one the tutorial speaks on."""
    return WHERE.get(type(screen).__name__)


def focus_of(screen: Screen[Any]) -> Focus:
    focused = screen.focused
    if isinstance(focused, Input):
        return Focus.CHAT
    if isinstance(focused, ColumnRow):
        return Focus.COLUMN
    if isinstance(focused, DreamTile):
        return Focus.DREAM
    if isinstance(focused, CardTile):
        return Focus.CARD
    return Focus.NOTHING


class CoachedApp(Protocol):
    """What the coach (and its hint bar) use of the app: the table shown, the dialogs, the
    next chapter's table (``DomicileApp`` is the one; the app imports the coach, so the
    coach names what it needs instead of importing the app back)."""

    tutorial: Coach | None
    defaults: TableSettings

    @property
    def pack(self) -> Pack: ...

    @property
    def door(self) -> TableDoor | None: ...
    @property
    def session(self) -> TableSession | None: ...
    @property
    def shown(self) -> View | None: ...
    @property
    def screen(self) -> Screen[Any]: ...
    @property
    def screen_stack(self) -> list[Screen[Any]]: ...
    def connect(self, session: TableSession) -> None: ...
    def push_screen(
        self, screen: Screen[Any], callback: Callable[[Any], None] | None = None
    ) -> object: ...
    def pop_screen(self) -> object: ...
    def run_worker(
        self, work: Any, *, group: str = ..., exit_on_error: bool = ...
    ) -> Worker[Any]: ...
    def call_later(self, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> bool: ...


LOOKED_FOR: Final = 3
"""How many of the dreams' shared images a hint names."""


def shared_images(dreams: list[DreamCard]) -> list[str]:
    """The images that come back most in ``dreams`` (their motifs, most frequent first)."""
    counted = Counter(motif for dream in dreams for motif in dream.motifs)
    ranked = sorted(counted, key=lambda motif: (-counted[motif], motif))
    return ranked[:LOOKED_FOR]


def look_for(situation: Situation, pack: Pack) -> str:
    """What to look for in the dreams of this step, in words (empty: nothing to read yet).

    An investigator reads the images their own dreams share (Stage Two: today's dreams of
    the group); the Ghost, the images of the card it must make someone find."""
    view = situation.view
    if view is None or (
        view.state.phase is not Phase.INVESTIGATION
        and situation.where
        in (
            Where.TABLE,
            Where.STAGE_TWO,
        )
    ):
        return ""
    state = view.state
    if situation.where is Where.GHOST and view.ghost is not None:
        waiting = awaiting_dreams(state)
        if state.stage is Stage.CULPRIT:
            card = pack.investigator_card(view.ghost.column(view.ghost.culprit).character)
        elif waiting and state.investigator(waiting[0]).seeking is not None:
            seeking = state.investigator(waiting[0]).seeking
            assert seeking is not None
            card = pack.investigator_card(view.ghost.column(waiting[0]).card(seeking))
        else:
            return ""
        shows = ", ".join(sorted(card.motifs)[:LOOKED_FOR])
        return f"Look for dreams that show {card.name}: {shows}."
    if situation.where is Where.STAGE_TWO and state.group_dreams:
        today = shared_images([pack.dream(card) for card in state.group_dreams[-3:]])
        return f"Today's dreams show {', '.join(today)}: which suspect, place and weapon fit?"
    me = situation.me
    if situation.where is Where.TABLE and me is not None and me.dreams and me.seeking:
        mine = shared_images([pack.dream(card) for card in me.dreams])
        return (
            f"Your dreams keep showing {', '.join(mine)}: look for a "
            f"{me.seeking.label} whose name or words have them (I reads a card in full)."
        )
    return ""


class Coach:
    """The tutorial in progress: its chapter, and whether that chapter's end was told."""

    def __init__(self, chapters: tuple[Chapter, ...] = CHAPTERS, first: int = 1) -> None:
        """``first``: the chapter to begin with (1: the first; a player who knows a part
        skips to the one they want)."""
        if not 1 <= first <= len(chapters):
            raise ValueError(f"the tutorial has chapters 1 to {len(chapters)}, not {first}")
        self.chapters = chapters
        self.index = first - 1
        self._ending_told = False

    @property
    def chapter(self) -> Chapter:
        return self.chapters[self.index]

    @property
    def last(self) -> bool:
        return self.index == len(self.chapters) - 1

    def table(self, door: TableDoor, player_name: str) -> NetworkTable:
        """The current chapter's table."""
        return chapter_table(self.chapter, door, player_name)

    def situation(self, app: CoachedApp, screen: Screen[Any]) -> Situation | None:
        where = where_of(screen)
        if where is None:
            return None
        chosen: frozenset[str] = getattr(screen, "chosen", frozenset())
        view = app.shown if where is not Where.LOBBY else None
        return Situation(where, view, focus_of(screen), picked=len(chosen))

    def hint(self, situation: Situation) -> Step:
        return self.chapter.step(situation)

    def heading(self) -> str:
        chapter = self.chapter
        return f"Tutorial {chapter.number}/{len(self.chapters)} · {chapter.title}"

    def seen(self, app: CoachedApp, situation: Situation) -> None:
        """The player sees ``situation``: when it ends the chapter, say so and go on."""
        if self.last or self._ending_told or not self.chapter.over(situation):
            return
        self._ending_told = True
        self._tell_ending(app, situation)

    def _tell_ending(self, app: CoachedApp, situation: Situation) -> None:
        done = self.chapter
        following = self.chapters[self.index + 1]

        def answer(go_on: bool | None) -> None:
            if go_on:
                self.next_chapter(app)
            else:
                self.ask_to_leave(app, staying=lambda: self._tell_ending(app, situation))

        app.push_screen(ChapterScreen(done, following, situation), answer)

    def next_chapter(self, app: CoachedApp) -> None:
        if self.last:
            return
        self.skip_to(app, self.index + 2)

    def skip_to(self, app: CoachedApp, number: int) -> None:
        """Go to chapter ``number`` (from 1) at once: its own table replaces this one."""
        if not 1 <= number <= len(self.chapters) or number == self.index + 1:
            return
        self.index = number - 1
        self._ending_told = False
        door = app.door
        assert door is not None, "the tutorial's first table opened the door"
        previous = app.session
        app.connect(self.table(door, app.defaults.player_name))
        if previous is not None:
            app.run_worker(previous.close(), group="tutorial", exit_on_error=False)

    # --- leaving ----------------------------------------------------------------------

    def escape(self, app: CoachedApp) -> bool:
        """Esc at a table screen of the tutorial: leave it (after asking); whether Esc was
        taken (in a dialog or in the chat line it keeps its usual meaning)."""
        screen = app.screen
        if isinstance(screen, ModalScreen) or isinstance(screen.focused, Input):
            return False
        if where_of(screen) is None:
            return False
        view = app.shown
        if self.last and view is not None and view.state.outcome is not None:
            self.leave(app)  # the tutorial is over: nothing to lose
        else:
            self.ask_to_leave(app)
        return True

    def ask_to_leave(self, app: CoachedApp, staying: Callable[[], None] | None = None) -> None:
        """Ask whether to leave; Ctrl+Q (or Esc) with the question open answers yes."""
        screen = app.screen
        if isinstance(screen, ConfirmScreen) and screen.question == LEAVE_QUESTION:
            screen.close(True)
            return

        def answer(yes: bool | None) -> None:
            if yes:
                self.leave(app)
            elif staying is not None:
                staying()

        app.push_screen(ConfirmScreen(LEAVE_QUESTION), answer)

    def leave(self, app: CoachedApp) -> None:
        """Back to the front door: the tutorial's table closes."""
        app.tutorial = None
        # Whatever dialog is open (a card, a séance) belongs to the table being left.
        while len(app.screen_stack) > 1 and isinstance(app.screen, ModalScreen):
            app.pop_screen()
        session = app.session
        if session is not None:
            app.run_worker(session.close(), group="tutorial", exit_on_error=False)
