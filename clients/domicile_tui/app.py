"""The application: one session to a table, its latest news, and the screen that fits it.

The app keeps the latest of everything the session said (the lobby, the
view, the chat, the connection's status, the verification report) as
reactive attributes; screens watch them and hand them down to widgets.
Which screen shows is a function of that news (:meth:`DomicileApp.route`),
so the player is always where the game is: the lobby before a game, the
investigator's table or the Ghost's screen during it, Stage Two, the end.
Before any table, the news is the front door's page the player went to
(:meth:`DomicileApp.go`): screens ask the app to go somewhere, never show
one another.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events, work
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.dom import DOMNode
from textual.filter import LineFilter
from textual.notifications import SeverityLevel
from textual.reactive import reactive
from textual.screen import ModalScreen, Screen
from textual.theme import Theme

from domicile_p2p.rules import GHOST, Phase, Stage
from domicile_tui import screens
from domicile_tui.inert import InertOutput, inert_news
from domicile_tui.keys import CARDS, EVERYWHERE, TUTORIAL
from domicile_tui.pages import FrontPage, JoinPage, ReplayPage, SetupPage, StartPage
from domicile_tui.sandglass import Glass, follow
from domicile_tui.session import Role, TableSession, TableSettings
from domicile_tui.status import Severity, Status
from domicile_tui.theme import CANDLELIGHT, FIRST_STYLES, LATER_STYLES

if TYPE_CHECKING:
    from domicile_p2p.client_api import Pack, UnfinishedTable
    from domicile_p2p.rules import Action, View
    from domicile_tui.coach import Coach
    from domicile_tui.connect import TableDoor
    from domicile_tui.news import ChatLine, LobbyInfo, SessionEvent, Verification
    from domicile_tui.screens.app_api import ScreensApp
    from domicile_tui.screens.help import HelpSection
    from domicile_tui.screens.seance import SeanceScreen
    from domicile_tui.ticket import JoinTicket, SeatRequest

CLOSE_TIMEOUT = 1.2
"""Seconds to leave the table cleanly when quitting (a host that left is not waited for:
quitting ends within two seconds, and says what it does meanwhile)."""
QUITTING = Status("Quitting: leaving the table…", Severity.WARNING, connected=False)
ACKNOWLEDGED_WITHIN = 10.0
"""Seconds an action waits for the table to take it in (its view, or its refusal) before the
next request goes anyway: the table itself still plays them in order, this only keeps a lost
answer from holding every later key."""
HOLD_AFTER_CLOSE = 0.5
"""Seconds after the key that closed a dialog in which the dialog's own keys still are its
own: a second press meant for it is not taken by the screen behind (``screens.popup``).
Counted from when the keys came in, not from when the app got to them."""

DELIVERED = "delivered"
"""Where, in the data dir, a transcript delivered to a browser is written first."""
SEANCE_PASSES_AFTER = 4.0
"""Seconds a séance's outcome stays up before it closes by itself for a player (``domicile
play``): nobody needs to act at a séance, and the table waits for nobody's Enter."""
SPECTATOR_PASSES_AFTER = 2.0
"""The same for a spectator, whose séances always pass by themselves."""
CATCHING_UP_PASSES_AFTER = 0.5
"""The same for a séance with later ones waiting behind it (a client catching up)."""

NOT_AT_A_TABLE = Status("Not at a table", connected=False)
OPENING = Status("Opening the table…", connected=False)

Request = Callable[["TableSession"], Awaitable[None]]
"""Something to ask the table, sent in its turn (``DomicileApp.request``)."""

DoorOpener = Callable[[], "TableDoor"]
"""Opens the door to tables (loads the card pack and whatever tables run on); may be slow."""


def every_screen() -> tuple[type[Screen[Any]], ...]:
    """Every screen, in the order a game meets them (the help lists them so)."""
    return (
        screens.StartScreen,
        screens.HostSetupScreen,
        screens.JoinScreen,
        screens.LobbyScreen,
        screens.BrowserSeatScreen,
        screens.InvestigatorScreen,
        screens.GhostScreen,
        screens.SeanceScreen,
        screens.CulpritScreen,
        screens.EndScreen,
        screens.ExportScreen,
        screens.CardScreen,
        screens.ConfirmScreen,
        screens.RecapScreen,
        screens.ReplayScreen,
        screens.ChapterScreen,
    )


def front_screen(page: FrontPage) -> Screen[None]:
    """The screen that shows a page of the front door."""
    match page:
        case SetupPage():
            return screens.HostSetupScreen(page)
        case JoinPage():
            return screens.JoinScreen(page)
        case ReplayPage():
            return screens.ReplayScreen(page)
        case StartPage():
            return screens.StartScreen(page)


def help_sections(current: type[Screen[Any]]) -> list[HelpSection]:
    """The help's sections: this screen's keys, cards, everywhere, then every other screen."""

    def section(screen: type[Screen[Any]]) -> HelpSection:
        return (getattr(screen, "HELP_TITLE", screen.__name__), getattr(screen, "HELP_KEYS", ()))

    listed = every_screen()
    sections = [section(current)] if current in listed else []
    sections += [("Cards and dreams", CARDS), ("Everywhere", EVERYWHERE)]
    sections += [section(screen) for screen in listed if screen is not current]
    return [s for s in sections if s[1]]


class DomicileApp(App[None]):
    """Tortured Domicile in the terminal."""

    TITLE = "Tortured Domicile"
    # Textual declares CSS_PATH without ClassVar; re-annotating it upsets mypy.
    CSS_PATH = FIRST_STYLES
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "help", "Help", key_display="?"),
        Binding("ctrl+q", "quit", "Quit", priority=True, show=False),
        # The screen's own Tab moves the focus only once the key has reached the field it
        # leaves, after the keys typed behind it were handed to that field too: in a burst
        # ("code, Tab, address") the address went into the code.  Taken here, the focus
        # moves in the key's own turn, and the keys after it go to the next field.
        Binding("tab", "focus_next", show=False, priority=True),
        Binding("shift+tab", "focus_previous", show=False, priority=True),
    ]

    lobby: reactive[LobbyInfo | None] = reactive(None)
    view: reactive[View | None] = reactive(None)
    """The game as the session last told it."""
    shown: reactive[View | None] = reactive(None)
    """The game as the table's screens show it: ``view``, except while a séance is told,
    when it is the game just before that séance (nothing shows a result before its
    telling does)."""
    chat: reactive[tuple[ChatLine, ...]] = reactive(())
    status: reactive[Status] = reactive(NOT_AT_A_TABLE)
    verification: reactive[Verification | None] = reactive(None)
    kept: reactive[Path | None] = reactive(None)
    """Where the table keeps this game's transcript by itself, when it does."""
    glass: reactive[Glass | None] = reactive(None)
    """The sand-glass of the investigation under way, at a table that has one (it runs on
    the table's time, ``view``, not on ``shown``'s)."""

    def __init__(
        self,
        door: TableDoor | DoorOpener | None,
        *,
        defaults: TableSettings,
        open_at_once: bool = False,
        page: FrontPage | None = None,
        resuming: UnfinishedTable | None = None,
        offline: bool = False,
        lan: bool | None = None,
        seance_step: float = 0.9,
        clock: Callable[[], float] = time.monotonic,
        tutorial: bool | int = False,
        after_first_frame: Callable[[], object] | None = None,
        seat: SeatRequest | None = None,
        seance_passes_after: float | None = None,
    ) -> None:
        """With ``open_at_once`` a table with ``defaults`` opens at once (``offline`` or hosted
        here); otherwise the start screen shows, and ``defaults`` fill the set-up form.
        With ``resuming`` that unfinished table this laptop hosted comes back at once.

        ``door`` is the way to tables, or a function that opens it: then the app shows its
        first screen at once and opens the door in a thread right after (a failure there
        ends the app, and :attr:`door_failure` says why); ``None``, no table at all (the
        replay viewer, whose ``page`` is the first to show).  ``lan`` says whether this
        session uses the network; a door says so itself.  ``seance_step`` is the pause
        between the séance's beats (0 shows the outcome at once).  ``clock`` is what the
        sand-glass drains by (seconds; tests freeze it).  With ``tutorial`` the tutorial
        begins at once (a number: at that chapter).  ``after_first_frame`` is called once
        the first screen is painted, before anything else loads (``domicile play`` resumes
        the garbage collector there).
        With ``seat`` (``domicile play --connect``) the app goes straight to that table and
        has no front door: when the player leaves the table, or is refused a seat, the app
        ends (a refusal in :attr:`door_failure`).
        ``seance_passes_after``: seconds a séance's outcome stays up before it closes by
        itself (``None``: until a key closes it; a spectator's always pass).
        """
        super().__init__()
        self.door: TableDoor | None = None
        self.door_failure: Exception | None = None
        self._door_opener: DoorOpener | None = None
        self._door_opened = asyncio.Event()
        if door is None:
            self.lan = False
        elif callable(door):
            self._door_opener = door
            self.lan = True if lan is None else lan
        else:
            self._door_is_open(door)
            self.lan = door.lan
        self.defaults = defaults
        self.seance_step = seance_step
        self.seance_passes_after = seance_passes_after
        self.clock = clock
        self.session: TableSession | None = None
        self.opening: str | None = None
        """The name of the table being opened while the door to it still opens."""
        self.front: FrontPage = page or StartPage()
        """The front door's page the player went to (shown while at no table)."""
        self._requests: asyncio.Queue[Request] | None = None
        """What the player asked of the table, in the order of the keys, not yet sent."""
        self._awaited: tuple[Action, asyncio.Event] | None = None
        """The action sent last, and what is set once the table has taken it in."""
        self._next_glass_from: float | None = None
        """When the next sand-glass may turn (the last séance, and the time to see it)."""
        self._failed_join_goes_to: FrontPage | None = None
        """The join form as the player filled it, while a join may still fail."""
        self._then_learn = False
        """The table is being left for the tutorial, which begins once it is."""
        self._untold: deque[SeanceScreen] = deque()
        """Séances still to tell, oldest first (the first one may be on screen now)."""
        self._telling: SeanceScreen | None = None
        self._held: tuple[float, frozenset[str]] = (0.0, frozenset())
        self._key_time = 0.0
        """When the key being handled came in (Textual's clock)."""
        self.exported: Path | None = None
        """Where this game's transcript was exported (``None``: not yet)."""
        self._joined: tuple[JoinTicket, str] | None = None
        """The table this player last asked to sit at, and the name: watched instead when
        its seats turn out to be fixed."""
        self._launch = (open_at_once, offline)
        self._first_frame_seen = False
        self._after_first_frame = after_first_frame
        self._resuming = resuming
        self.seat = seat
        self._tutorial_at_once = tutorial
        self.tutorial: Coach | None = None
        """The tutorial, while the player is in it."""
        self._inert_output = InertOutput()
        self._begin_in_theme(CANDLELIGHT)

    @property
    def pack(self) -> Pack:
        """The card pack of the table (the door is open whenever a table is)."""
        if self.door is None:
            raise RuntimeError("the door to tables is not open yet")
        return self.door.pack

    # --- output -----------------------------------------------------------------------

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters, then the last guard: no unsafe character reaches the terminal."""
        return [*super().get_line_filters(), self._inert_output]

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """A notification, always read as plain text: messages carry names, a host's
        refusals and card words, never markup (``markup`` is taken and ignored, as every
        widget's ``notify`` passes it on)."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)

    def _check_action_state(self, action: str, default_namespace: DOMNode) -> bool | None:
        """Whether an action is enabled; none is once the last screen is gone.

        A footer asks this of every binding when it recomposes, and at shutdown a footer's
        queued recompose can run after the screen stack is empty: Textual 8's own
        ``screen.copy_text`` binding then raised ``ScreenStackError`` out of the app
        (tests/tui/test_tui_lifecycle.py::test_no_action_is_enabled_once_the_last_screen_is_gone)."""
        if not self.screen_stack:
            return False
        return super()._check_action_state(action, default_namespace)

    # --- lifecycle --------------------------------------------------------------------

    def _begin_in_theme(self, theme: Theme) -> None:
        """Start in ``theme`` as if it were Textual's default.

        Setting ``App.theme`` re-parses every stylesheet (with the new colours) on the next
        tick; before anything is parsed, giving the stylesheet the theme's variables and the
        app the classes a theme change would set is all a switch amounts to (the ANSI colour
        filter Textual built for its dark default already fits a dark theme).
        """
        self.register_theme(theme)
        self.set_reactive(DomicileApp.theme, theme.name)
        self.stylesheet.set_variables(self.get_css_variables())
        self.set_class(True, f"-theme-{theme.name}", update=False)
        self.set_class(theme.dark, "-dark-mode", update=False)
        self.set_class(not theme.dark, "-light-mode", update=False)

    def on_mount(self) -> None:
        # Textual holds every repaint until its start-up is over: a screen shown from here
        # would be laid out and rendered once in vain, so the first screen waits for that.
        self.call_later(self._first_screen)

    def _first_screen(self) -> None:
        open_at_once, offline = self._launch
        if self._tutorial_at_once:
            self.begin_tutorial(int(self._tutorial_at_once))
        elif self.seat is not None:
            self._take_asked_seat(self.seat)
        elif self._resuming is not None:
            self.resume(self._resuming)
        elif open_at_once and not offline and self.lan:
            self._host_unless_unfinished()
        elif open_at_once:
            self.sit_down(self.defaults, offline=offline)
        else:
            self.route()

    def first_frame_shown(self) -> None:
        """The first screen is painted (a screen says so once it is): now load the rest.

        The other screens' styles and the door to tables (the card pack, the game, the
        network stack) load only then, so that they do not hold up the first frame.
        """
        if self._first_frame_seen:
            return
        self._first_frame_seen = True
        if self._after_first_frame is not None:
            self._after_first_frame()
        self._load_later_styles()
        if self._door_opener is not None:
            self._open_door(self._door_opener)

    def _load_later_styles(self) -> None:
        """Parse the other screens' styles while the first screen is up (only theirs: the
        stylesheet keeps what it parsed), so the forms, the table and its dialogs need no full
        re-parse later."""
        stylesheet = self.stylesheet
        paths = [Path(path) for path in LATER_STYLES if not stylesheet.has_source(str(path))]
        if not paths:
            return
        stylesheet.read_all(paths)
        stylesheet.parse()
        stylesheet.update(self)
        self.css_path = [*self.css_path, *paths]  # watched too, under ``textual run --dev``

    @work(group="door", exit_on_error=False)
    async def _open_door(self, opener: DoorOpener) -> None:
        try:
            door = await asyncio.to_thread(opener)
        except Exception as error:  # a card pack that cannot serve, say: the command tells
            self.door_failure = error
            self.exit(return_code=2)
            return
        self._door_is_open(door)

    def _door_is_open(self, door: TableDoor) -> None:
        self.door = door
        self._door_opened.set()

    async def open_door(self) -> TableDoor:
        """The door to tables, once it is open (right after the first frame, at the latest)."""
        await self._door_opened.wait()
        assert self.door is not None
        return self.door

    @work(exclusive=True, group="opening")
    async def _host_unless_unfinished(self) -> None:
        """Host a new table at once, unless this laptop's last table is unfinished: then the
        front door offers to resume it first (a new table would put it aside)."""
        self.opening = self.defaults.table_name
        self.status = OPENING
        self.route()
        door = await self.open_door()
        try:
            unfinished = await asyncio.to_thread(door.unfinished)
        except Exception:  # a damaged store: the front door says so
            unfinished = None
            self.opening = None
            self.go(StartPage())
            return
        if unfinished is None:
            self.opening = None
            self.sit_down(self.defaults, offline=False)
            return
        self.opening = None
        self.status = NOT_AT_A_TABLE
        self.go(StartPage())
        self.notify(
            f"{unfinished.stored.config.name} is unfinished: resume it (first line), "
            "or host a new table (which puts it aside)",
            title="An unfinished table",
        )

    def sit_down(self, settings: TableSettings, *, offline: bool) -> None:
        """Open a table with ``settings``: offline, or hosted here for the LAN."""

        def open_table(door: TableDoor) -> TableSession:
            return door.offline(settings) if offline else door.host(settings)

        self._take_seat(open_table, settings.table_name)

    def begin_tutorial(self, chapter: int = 1) -> None:
        """The tutorial: a guided first game, offline, in chapters (``coach``), from
        ``chapter`` on."""
        from domicile_tui.coach import Coach

        coach = Coach(first=chapter)
        self.tutorial = coach
        self._take_seat(lambda door: coach.table(door, self.defaults.player_name), "the tutorial")

    def tutorial_chapter(self, number: int) -> None:
        """In the tutorial: go straight to chapter ``number``."""
        if self.tutorial is not None:
            self.tutorial.skip_to(self, number)

    def resume(self, unfinished: UnfinishedTable) -> None:
        """Bring back the unfinished table this laptop hosted (same code, seats and game)."""
        name = unfinished.stored.config.name
        self._take_seat(lambda door: door.resume(unfinished, self.defaults.player_name), name)

    def join(
        self, ticket: JoinTicket, name: str, role: Role | None, again: FrontPage | None = None
    ) -> None:
        """Take a seat at a table across the network (``again``: the page to come back to,
        as it was filled in, if the table cannot be reached or refuses the code)."""
        self._joined = (ticket, name)
        self._failed_join_goes_to = again
        self._take_seat(lambda door: door.join(ticket, name, role), "the table")

    def spectate(self, ticket: JoinTicket, name: str, again: FrontPage | None = None) -> None:
        """Watch a table across the network, without a seat (``watch`` is Textual's)."""
        self._joined = None
        self._failed_join_goes_to = again
        self._take_seat(lambda door: door.watch(ticket, name), "the table")

    def _take_asked_seat(self, seat: SeatRequest) -> None:
        if seat.watch:
            self.spectate(seat.ticket, seat.name)
        else:
            self.join(seat.ticket, seat.name, seat.role)

    def _end_without_a_door(self, reason: str, *, failed: bool) -> None:
        """A table joined from the command line is over for this player: the app ends (it has
        no front door to go back to), a refusal saying why as the command's error."""
        from domicile_p2p.client_api import CommandError

        self.door_failure = CommandError(reason) if failed else None
        self.exit(return_code=2 if failed else 0)

    def _offer_to_watch(self, reason: str) -> None:
        """A seat was refused because the table's seats are fixed: offer to watch instead."""
        joined = self._joined
        if joined is None:
            return
        ticket, name = joined

        def answer(yes: bool | None) -> None:
            if yes and self.session is None:
                self.spectate(ticket, name)
            elif self.seat is not None and self.session is None:
                self._end_without_a_door(reason, failed=True)

        question = f"{reason[:1].upper()}{reason[1:]}. Watch the game instead?"
        self.push_screen(screens.ConfirmScreen(question), answer)

    def _take_seat(self, open_session: Callable[[TableDoor], TableSession], name: str) -> None:
        if self.door is not None:
            self.connect(open_session(self.door))
            return
        # The door is still opening (the app's first moments): the lobby-to-be shows meanwhile.
        self.opening = name
        self.status = OPENING
        self.route()
        self._take_seat_once_open(open_session)

    @work(exclusive=True, group="opening")
    async def _take_seat_once_open(self, open_session: Callable[[TableDoor], TableSession]) -> None:
        door = await self.open_door()
        self.opening = None
        self.connect(open_session(door))

    def connect(self, session: TableSession) -> None:
        """Use ``session`` from now on; its events drive the screens."""
        self.session = session
        self.front = StartPage()  # where a player who leaves the table comes back to
        self.lobby = None
        self._untold.clear()
        self.view = None
        self.glass = None
        self._next_glass_from = None
        self.exported = self.kept = None
        self.chat = ()
        self.verification = None
        self._requests = asyncio.Queue()
        self._send_in_order(session, self._requests)
        self._pump(session)

    @work(exclusive=True, group="session")
    async def _pump(self, session: TableSession) -> None:
        await session.open()
        async for event in session.events():
            if session is not self.session:
                break
            self.receive(event)

    @work(exclusive=True, group="requests", exit_on_error=False)
    async def _send_in_order(self, session: TableSession, requests: asyncio.Queue[Request]) -> None:
        """Send the player's requests one at a time, in the order they were made: an action
        goes once the one before it is acknowledged, so keys act in order however fast they
        come (Enter then L in one burst places the marker, then locks it)."""
        while session is self.session:
            request = await requests.get()
            if session is not self.session:
                return
            try:
                await request(session)
            except Exception as error:  # a request that failed must not take the evening down
                self.notify(f"{error}", title="The table did not answer", severity="error")

    def request(self, request: Request) -> None:
        """Ask the table for something, after whatever was asked before it."""
        if self.session is not None and self._requests is not None:
            self._requests.put_nowait(request)

    async def _act_acknowledged(self, session: TableSession, action: Action) -> None:
        acknowledged = asyncio.Event()
        self._awaited = (action, acknowledged)
        try:
            await session.act(action)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(acknowledged.wait(), ACKNOWLEDGED_WITHIN)
        finally:
            self._awaited = None

    def _acknowledge(self, event: SessionEvent) -> None:
        """The table took in the action awaited (its view came, or its refusal): the next may go."""
        from domicile_tui.news import ActionRefused, SessionClosed, ViewChanged

        awaited = self._awaited
        if awaited is None:
            return
        action, acknowledged = awaited
        match event:
            case ViewChanged(_, led_by) if led_by == action:
                acknowledged.set()
            case ActionRefused() | SessionClosed():
                acknowledged.set()

    # --- news from the table ------------------------------------------------------------

    def receive(self, event: SessionEvent) -> None:
        """Take in one event from the session and show what it changed.

        Every word in it came from outside (a host, a peer, a pack): it is made inert
        here, once, before anything shows it (``domicile_tui.inert``)."""
        event = inert_news(event)
        self._show_news(event)
        self._acknowledge(event)

    def _show_news(self, event: SessionEvent) -> None:
        # Loaded with the first news from a table: the first frame needs none of it.
        from domicile_p2p.rules import CulpritSeance, Seance
        from domicile_tui.news import (
            ActionRefused,
            ChatPosted,
            GameVerified,
            GlassTurned,
            LobbyChanged,
            SessionClosed,
            StatusChanged,
            TranscriptKept,
            ViewChanged,
        )

        match event:
            case LobbyChanged(lobby):
                self.lobby = lobby
                if not lobby.started and self.view is not None and self._game_over():
                    # A new game at the same table: back to the lobby, and its talk starts
                    # afresh (the last game's lines named the seats as they were then).
                    self.view = None
                    self.exported = self.kept = None
                    self.verification = None
                    self.chat = ()
                self.route()
            case ViewChanged(view, action):
                self._failed_join_goes_to = None  # seated: the form is behind us
                before = self.view
                if isinstance(action, Seance | CulpritSeance):
                    from domicile_p2p.client_api import SEANCE_SEEN_WITHIN

                    # The next glass turns once everyone has seen this séance, as the host's.
                    self._next_glass_from = self.clock() + SEANCE_SEEN_WITHIN
                    if before is not None:
                        # Told in turn, oldest first, once whatever is open now has closed.
                        self._untold.append(
                            screens.SeanceScreen(before, view, action, step=self.seance_step)
                        )
                self.view = view
                self.glass = follow(
                    self.glass, view, action, self.clock(), not_before=self._next_glass_from
                )
                self.route()
            case GlassTurned(day, stage):
                # Everyone at the table has seen the séance: the host turned the glass now.
                now_at = self.view
                if now_at is not None and (now_at.state.day, now_at.state.stage) == (day, stage):
                    self._turn_glass_now()
            case ChatPosted(line):
                self.chat = (*self.chat, line)
            case StatusChanged(status):
                self.status = status
                if status.severity is Severity.ERROR:
                    self.notify(status.text, title="Connection", severity="error")
            case ActionRefused(message):
                self.notify(message, title="Not allowed", severity="error")
            case GameVerified(verification):
                self.verification = verification
            case TranscriptKept(path):
                self.kept = path
            case SessionClosed(reason, failed, watchable):
                self.session = None
                self.tutorial = None
                self.lobby = None
                self._untold.clear()
                self.view = None
                self.glass = None
                self.status = NOT_AT_A_TABLE
                if watchable:
                    self.route()
                    self._offer_to_watch(reason)
                    return
                if self.seat is not None:
                    self._end_without_a_door(reason, failed=failed)
                    return
                if failed:
                    self.notify(reason, title="No table", severity="error")
                    if self._failed_join_goes_to is not None:
                        self.front = self._failed_join_goes_to  # to correct what was typed
                elif self._then_learn:
                    self._then_learn = False
                    self.begin_tutorial()
                    return
                else:
                    self.notify(reason, title="Left the table")
                self.route()

    def _game_over(self) -> bool:
        return self.view is not None and self.view.state.phase is Phase.ENDED

    # --- which screen --------------------------------------------------------------------

    def desired(self) -> FrontPage | type[Screen[None]]:
        """What the news calls for: a page of the front door, or the table's screen."""
        if self.session is None:
            if self.opening is None and self.seat is None:
                return self.front
            return screens.LobbyScreen  # a table opening, or one joined with no front door
        view = self.shown
        if view is None:
            return screens.LobbyScreen
        if view.state.phase is Phase.ENDED:
            return screens.EndScreen
        if view.seat == GHOST:
            return screens.GhostScreen
        if view.state.stage is Stage.CULPRIT:
            return screens.CulpritScreen
        return screens.InvestigatorScreen

    def route(self) -> None:
        """Show the screen the news calls for, unless a dialog is open (then on its close)."""
        if not self.screen_stack or isinstance(self.screen, ModalScreen):
            return  # no screen (the app is closing), or a dialog: it routes on its close
        wanted = self.desired()
        current = self.screen
        if isinstance(wanted, type):
            if not isinstance(current, wanted):
                self.show(wanted())
        elif getattr(current, "page", None) != wanted:
            self.show(front_screen(wanted))
        if self._untold and self._telling is None:
            self._telling = self._untold[0]
            self._pace(self._telling, behind=len(self._untold) - 1)
            self.push_screen(self._telling, self._seance_told)

    def _pace(self, seance: SeanceScreen, *, behind: int) -> None:
        """How ``seance`` is told: it passes by itself for a spectator (and for a player when
        the app says so), at once when later séances wait behind it, and always within the
        time the host gives everyone to see a séance before it turns the next sand-glass."""
        from domicile_p2p.client_api import SEANCE_SEEN_WITHIN

        passes_after = self.seance_passes_after
        if self.lobby is not None and self.lobby.watching:
            passes_after = min(passes_after or SPECTATOR_PASSES_AFTER, SPECTATOR_PASSES_AFTER)
        if behind > 0 and passes_after is not None:
            seance.step = 0.0
            passes_after = min(passes_after, CATCHING_UP_PASSES_AFTER)
        if passes_after is not None and seance.step > 0:
            # The telling and the outcome's moment fit in the host's wait, with a second spare.
            room = max(SEANCE_SEEN_WITHIN - passes_after - 1.0, 0.0)
            seance.step = min(seance.step, room / seance.beats)
        seance.passes_after = passes_after

    def watch_view(self) -> None:
        self._show_what_is_told()

    def _show_what_is_told(self) -> None:
        self.shown = self._untold[0].before if self._untold else self.view

    def _seance_told(self, _: None = None) -> None:
        """A séance has closed: the table moves on to it (or to the next one)."""
        if self._untold and self._untold[0] is self._telling:
            self._untold.popleft()
        self._telling = None
        if not self._untold and self.session is not None and self.session.seance_seen():
            # The table turns the next glass now that this player has seen the séance.
            self._turn_glass_now()
        self._show_what_is_told()
        self.route()

    def _turn_glass_now(self) -> None:
        """The table turned the next sand-glass now (everyone has seen the séance): a glass
        waiting for it starts, and one not yet given starts at its give."""
        now = self.clock()
        self._next_glass_from = None
        if self.glass is not None and self.glass.began > now:
            self.glass = replace(self.glass, began=now)

    def go(self, page: FrontPage) -> None:
        """Go to ``page`` of the front door (shown while the player is at no table)."""
        self.front = page
        self.route()

    def show(self, screen: Screen[Any]) -> None:
        """Make ``screen`` the one base screen (dialogs go on top of it with ``push_screen``)."""
        if type(self.screen) is Screen:
            self.push_screen(screen)  # the app's blank first screen cannot be switched away
        else:
            self.switch_screen(screen)

    # --- what the player does ------------------------------------------------------------

    def act(self, action: Action) -> None:
        """Send a rules action for this player's seat once the ones before it are acknowledged
        (refusals come back as notifications)."""
        self.act_on(lambda _: action)

    def act_on(self, decide: Callable[[View], Action | None]) -> None:
        """Send the action ``decide`` makes of the game as it stands when its turn comes (after
        the actions before it are acknowledged): L behind Enter locks the marker Enter placed."""

        async def send(session: TableSession) -> None:
            view = self.view
            action = None if view is None else decide(view)
            if action is not None:
                await self._act_acknowledged(session, action)

        self.request(send)

    def say(self, text: str) -> None:
        self.request(lambda session: session.chat(text))

    def start_game(self) -> None:
        self.request(lambda session: session.start_game())

    def play_again(self) -> None:
        self.request(lambda session: session.play_again())

    def set_ready(self, ready: bool) -> None:
        """In the lobby of the table's next game: this player is (not) ready for it."""
        self.request(lambda session: session.set_ready(ready))

    def rotate_seats(self) -> None:
        """The owner moves everyone round one seat in the lobby of the table's next game."""
        self.request(lambda session: session.rotate_seats())

    def leave_table(self) -> None:
        """Leave the table (after asking, when a game is under way)."""
        session = self.session
        if session is None:
            self.route()
            return
        view = self.view
        watching = self.lobby is not None and self.lobby.watching
        if view is None or view.state.phase is Phase.ENDED or watching:
            self._send(session.close())
            return

        def answer(yes: bool | None) -> None:
            if yes and self.session is session:
                self._send(session.close())

        self.push_screen(
            screens.ConfirmScreen("Leave the table in the middle of the game?"), answer
        )

    def leave_to_learn(self) -> None:
        """Leave this table (nobody has played at it yet) for the tutorial."""
        session = self.session
        if session is None:
            self.begin_tutorial()
            return
        self._then_learn = True
        self._send(session.close())

    def export_transcript(self, path: Path) -> None:
        if self.session is not None:
            self._export(self.session, path)

    @work(group="export", exit_on_error=False)
    async def _export(self, session: TableSession, path: Path) -> None:
        try:
            written = await session.export_transcript(path)
        except OSError as error:
            self.notify(f"Could not write {path}: {error.strerror}", severity="error")
            return
        self.exported = written
        self.notify(f"Transcript written to {written}", title="Exported")

    def deliver_transcript(self, name: str) -> None:
        """Export for a player in a browser (a browser seat): the transcript is written in
        this client's own data dir and offered to the browser as a download, never to a
        path the player types (which would be a path on the host's machine)."""
        if self.session is not None:
            self._deliver(self.session, Path(name).name)

    @work(group="export", exit_on_error=False)
    async def _deliver(self, session: TableSession, name: str) -> None:
        door = await self.open_door()
        target = door.home / DELIVERED / name
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            written = await session.export_transcript(target)
        except OSError as error:
            self.notify(f"Could not write the transcript: {error.strerror}", severity="error")
            return
        self.exported = written
        self.deliver_binary(written, save_filename=written.name, mime_type="application/jsonl")
        self.notify("The transcript is on its way to your downloads", title="Exported")

    @work(group="send", exit_on_error=False)
    async def _send(self, request: Awaitable[None]) -> None:
        try:
            await request
        except Exception as error:  # a request that failed must not take the evening down
            self.notify(f"{error}", title="The table did not answer", severity="error")

    def quit_question(self) -> str | None:
        """What quitting now means for this player and the others, asked before it happens
        (``None``: nobody else is affected, quit at once)."""
        lobby = self.lobby
        if self.session is None or lobby is None or lobby.offline or lobby.watching:
            return None  # nobody else is affected (a spectator's leaving changes nothing)
        playing = self.view is not None and not self._game_over()
        if lobby.is_host:
            if playing:
                return (
                    "Quit? Everyone's game pauses until you run domicile play again and "
                    "resume (the same code, the same seats); their laptops wait for you."
                )
            return (
                "Quit? This table closes for everyone at it until you run domicile play "
                "again and resume it (the same code)."
            )
        if playing:
            return (
                "Quit? Your seat waits for you: the game waits at your turns until you come "
                "back (domicile play, then join with the same code)."
            )
        return "Quit? You leave this table; join again with its code to come back."

    async def action_quit(self) -> None:
        """Leave the table properly (a hosted table tells its players and stops advertising),
        after saying what that means when it means something for the others."""
        if self.tutorial is not None:
            self.tutorial.ask_to_leave(self)  # back to the front door, not out of the app
            return
        question = self.quit_question()
        screen = self.screen
        if question is None or (
            isinstance(screen, screens.ConfirmScreen) and screen.question == question
        ):
            await self._quit_now()  # Ctrl+Q twice: the answer is yes
            return

        async def answer(yes: bool | None) -> None:
            if yes:
                await self._quit_now()

        await self.push_screen(screens.ConfirmScreen(question), answer)

    async def _quit_now(self) -> None:
        session, self.session = self.session, None
        if session is not None:
            # Said at once, and kept: the table's news stops here (the status bar no longer
            # counts a host that is away).
            self.status = QUITTING
            self.notify("Leaving the table…", title="Quitting")
            with contextlib.suppress(Exception):
                await asyncio.wait_for(session.close(), CLOSE_TIMEOUT)
        self.exit()

    # --- dialogs ---------------------------------------------------------------------------

    def hold_keys(self, keys: frozenset[str], *, now: bool = False) -> None:
        """A dialog closed with one of ``keys``: they stay its own a moment longer, from the
        key that closed it (``now``: it closed by itself, from this moment)."""
        since = self._key_time
        if now:
            from textual._time import get_time  # the clock Textual stamps the keys with

            since = max(since, get_time())
        self._held = (since + HOLD_AFTER_CLOSE, keys)

    def holding(self, key: str) -> bool:
        """Whether ``key`` pressed now would still go to a dialog that just closed (and so do
        nothing at the screen behind it)."""
        from textual._time import get_time

        until, keys = self._held
        return key in keys and get_time() < until

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key):
            until, keys = self._held
            if event.key in keys and event.time < until:
                return  # a second press meant for the dialog that just closed
            if event.key not in keys:
                self._held = (0.0, frozenset())  # another key: what follows is the table's
            self._key_time = event.time
            if event.key == "escape" and self.tutorial is not None and self.tutorial.escape(self):
                return
        await super().on_event(event)

    def open_card(self, card_id: str, note: str = "") -> None:
        """Show a card's full name and text (``note``: why this card, in a few words)."""
        self.push_screen(screens.CardScreen(self.pack.card(card_id), note=note))

    def action_help(self) -> None:
        if not isinstance(self.screen, screens.HelpScreen):
            sections = help_sections(type(self.screen))
            if self.tutorial is not None:
                sections.insert(1, ("The tutorial", TUTORIAL))
            self.push_screen(screens.HelpScreen(sections))

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        yield SystemCommand("Help", "Every key of every screen", self.action_help)
        commands = getattr(screen, "palette_commands", None)
        if callable(commands):
            yield from commands()
        if self.session is not None:
            yield SystemCommand("Leave the table", "Leave this table", self.leave_table)
        yield SystemCommand("Quit", "Quit Tortured Domicile", self.action_quit)


if TYPE_CHECKING:
    # The app is what its screens see of it (mypy checks it here: screens/app_api.py).
    _SEEN_BY_SCREENS: type[ScreensApp] = DomicileApp
