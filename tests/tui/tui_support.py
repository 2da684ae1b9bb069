"""Helpers for the client's tests: apps at fixed seeds, and waiting for the table to move.

Every app here plays an offline table dealt from a fixed seed, with bots that
act at once and a séance told without pauses, so a test sees the same game
every time and never waits on a clock.  The networked tests' table is one host
config (:func:`hosted_table`), joined through the join form (:func:`join_by_the_form`).
"""

from __future__ import annotations

import asyncio
import atexit
import shutil
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Generic, TypeVar

from textual import events
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input

from domicile_p2p.bots import make_policy
from domicile_p2p.net.adapters.host import HostConfig, RunningHost
from domicile_p2p.packs import Pack, load_default_pack
from domicile_p2p.rules import GHOST, Difficulty, GhostKnowledge, Phase, View
from domicile_p2p.transcript.selfplay import PlainPolicy
from domicile_tui.app import DomicileApp
from domicile_tui.connect import TableDoor
from domicile_tui.networked import NetworkTable
from domicile_tui.news import SessionEvent
from domicile_tui.pacing import BotPace
from domicile_tui.screens.investigator import InvestigatorScreen
from domicile_tui.screens.join import JoinScreen
from domicile_tui.screens.seance import SeanceScreen
from domicile_tui.session import Role, TableSession, TableSettings
from domicile_tui.tutorial_table import stage_one_played

PACK: Pack = load_default_pack()
SEED = 7
DATA_DIR = Path(tempfile.mkdtemp(prefix="domicile-tui-tests-"))
atexit.register(shutil.rmtree, DATA_DIR, ignore_errors=True)
"""The data dir of these apps' doors (finished games are kept there): never the user's."""


SessionT = TypeVar("SessionT", bound=TableSession)


class Recorder(Generic[SessionT]):
    """Collects a session's events as they come (without an app); ``until`` waits for them.

    Waiting is driven by the session's events, not by a count of pauses: a condition is
    checked again as each event comes, however long the machine takes to produce it.  It
    fails at once if the session ends first, after :data:`QUIET` seconds without a
    single event, and after :data:`HANG_GUARD` seconds of events that never bring it (a
    guest that counts the seconds its host is away for ever once kept a run waiting)."""

    QUIET = 120.0

    def __init__(self, table: SessionT) -> None:
        self.table = table
        self.events: list[SessionEvent] = []
        self._arrived = asyncio.Event()
        self._task = asyncio.create_task(self._collect())

    async def _collect(self) -> None:
        try:
            async for event in self.table.events():
                self.events.append(event)
                self._arrived.set()
        finally:
            self._arrived.set()  # a waiter learns that nothing more will come

    def of(self, kind: type) -> list:  # type: ignore[type-arg]
        return [event for event in self.events if isinstance(event, kind)]

    async def until(self, condition: Callable[[], bool], what: str = "") -> None:
        """Wait until ``condition`` holds, checking it after each event (a condition on
        anything but the events holds by the event that follows it)."""
        deadline = time.monotonic() + HANG_GUARD
        while not condition():
            if self._task.done():
                raise AssertionError(f"the session ended before {what}")
            if time.monotonic() > deadline:
                last = self.events[-1] if self.events else None
                raise AssertionError(f"hung waiting for {what} (the last event: {last!r})")
            self._arrived.clear()
            try:
                await asyncio.wait_for(self._arrived.wait(), self.QUIET)
            except TimeoutError:
                raise AssertionError(f"no event in {self.QUIET:g} s waiting for {what}") from None

    async def stop(self) -> None:
        await self.table.close()
        await asyncio.wait_for(self._task, 5)


def settings(
    role: Role = Role.INVESTIGATOR,
    investigators: int = 3,
    difficulty: Difficulty = Difficulty.NORMAL,
    name: str = "Ada",
) -> TableSettings:
    return TableSettings(
        table_name="Hollowmere",
        player_name=name,
        role=role,
        difficulty=difficulty,
        investigators=investigators,
    )


def door(seed: int = SEED) -> TableDoor:
    """An offline door: these apps never touch the network (not even to look for tables)."""
    return TableDoor(PACK, pace=BotPace(0), seed=seed, lan=False, data_dir=DATA_DIR)


def make_app(
    role: Role = Role.INVESTIGATOR,
    *,
    seed: int = SEED,
    investigators: int = 3,
    difficulty: Difficulty = Difficulty.NORMAL,
    open_at_once: bool = True,
    seance_step: float = 0.0,
    plain_bots: bool = False,
) -> DomicileApp:
    """An offline app at a fixed seed; ``plain_bots`` seats the protocol's plain players
    (they never change, so snapshots stay put when the real bots get smarter)."""
    table_door = door(seed)
    if plain_bots:
        table_door = TableDoor(
            PACK,
            pace=BotPace(0),
            seed=seed,
            lan=False,
            data_dir=DATA_DIR,
            policy_factory=lambda s, _p, b: PlainPolicy(s, b),
        )
    return DomicileApp(
        table_door,
        defaults=settings(role, investigators, difficulty),
        open_at_once=open_at_once,
        offline=True,
        seance_step=seance_step,
    )


LOOPBACK = "127.0.0.1"


def hosted_table(data_dir: Path, **changes: Any) -> HostConfig:
    """The table a networked test's app joins: "Friday" on 127.0.0.1 (port 0, not
    advertised), its host playing the Ghost and investigators 2 and 3 with bots, seat 1
    open; ``changes`` replace any of those (``timer=60``, ``advertise=True``)."""
    table = HostConfig(
        data_dir=data_dir,
        name="Friday",
        interface=LOOPBACK,
        port=0,
        investigators=3,
        bot_seats=frozenset({2, 3}),
        ghost_bot=True,
        advertise=False,
        pack=PACK,
    )
    return replace(table, **changes)


async def join_by_the_form(pilot: Pilot[Any], app: DomicileApp, host: RunningHost) -> None:
    """From the front door, join ``host``'s first table as a person does (A, its code and
    address typed, Ctrl+S) and wait to be seated at it."""
    await pilot.press("a")
    await wait_until(pilot, lambda: composed(app, JoinScreen, "#code"), "the join form")
    app.screen.query_one("#code", Input).value = host.tables()[0].code
    app.screen.query_one("#address", Input).value = f"wss://{LOOPBACK}:{host.port}"
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: isinstance(app.screen, InvestigatorScreen), "seated")


def composed(app: DomicileApp, screen: type[Screen[Any]], widget: str) -> bool:
    """``screen`` is on top and composed: its ``widget`` exists (a screen is pushed before
    its children are mounted, so a test that types at once can find no field)."""
    return isinstance(app.screen, screen) and bool(app.screen.query(widget))


HANG_GUARD = 600.0
"""Seconds of wall time after which a wait counts as hung.  A wait ends when what it
waits for happens; only a test that is stuck reaches this, never a loaded machine, which
only makes the wait longer.  (A wait counted in steps failed under load: issue 21.)"""


async def turns(pilot: Pilot[Any] | None = None, pause: float = 0.01) -> AsyncIterator[None]:
    """Turns of the loop (the app's, through ``pilot``), each after a short pause, until
    :data:`HANG_GUARD` seconds have passed: ``async for _ in turns(pilot)`` waits for the
    loop's body to ``return`` or ``break``, however slowly the table gets there."""
    deadline = time.monotonic() + HANG_GUARD
    while time.monotonic() < deadline:
        yield
        await (pilot.pause(pause) if pilot is not None else asyncio.sleep(pause))


async def wait_until(pilot: Pilot[Any], condition: Callable[[], bool], what: str = "") -> None:
    """Let the app run until ``condition`` holds (fails only when the test hangs)."""
    async for _ in turns(pilot):
        if condition():
            return
    app = pilot.app
    raise AssertionError(
        f"hung waiting for {what or condition} (screens {app.screen_stack}, "
        f"focused {app.screen.focused!r})"
    )


async def press_twice(
    pilot: Pilot[Any], key: str, character: str | None, behind: type[Screen[Any]]
) -> None:
    """``key``, and ``key`` again a moment later, as a terminal delivers them: the second
    comes in while the app still closes the dialog, and is handled once ``behind`` is back.

    Both presses are made at once, so that they are a moment apart by their own clocks
    however slowly the app gets to them (Pilot's own presses wait for the app in
    between, and under load that wait can outlast the moment a closed dialog holds its
    keys)."""
    first, second = events.Key(key, character), events.Key(key, character)
    pilot.app.post_message(first)
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, behind), what=behind.__name__)
    pilot.app.post_message(second)


async def press_at_the_table(pilot: Pilot[Any], *keys: str) -> None:
    """Press ``keys`` as a player who waits for a dialog to be gone: each once the app no
    longer holds it for a dialog that just closed (a séance that passed by itself keeps
    Esc, Enter and Space its own for a moment, and a test at machine speed is faster)."""
    app = pilot.app
    assert isinstance(app, DomicileApp)
    for key in keys:
        await wait_until(pilot, lambda key=key: not app.holding(key), f"{key} to be the table's")
        await pilot.press(key)


def screen_name(app: DomicileApp) -> str:
    return type(app.screen).__name__


async def begin(pilot: Pilot[Any]) -> None:
    """From the lobby, light the candles and wait for the first view of the game."""
    app = pilot.app
    assert isinstance(app, DomicileApp)
    await wait_until(pilot, lambda: screen_name(app) == "LobbyScreen", what="the lobby")
    await pilot.press("enter")
    await wait_until(pilot, lambda: app.view is not None, what="the first view")
    await settle(pilot)


async def settle(pilot: Pilot[Any]) -> None:
    """Let the bots and the screens catch up (bots act at once at these tables)."""
    for _ in range(5):
        await pilot.pause()


def secrets_of(app: DomicileApp) -> GhostKnowledge:
    """The Ghost's knowledge at an offline table (tests only: an oracle to steer the game)."""
    session = app.session
    assert isinstance(session, NetworkTable)
    return ghost_knowledge(session)


def ghost_knowledge(table: NetworkTable) -> GhostKnowledge:
    """What the Ghost of a table hosted here knows: its hosted bot's, or the player's own
    (tests only: an oracle to steer the game)."""
    host = table.host
    assert host is not None, "the table is open"
    ghost = host.bot_session(GHOST)
    if ghost is None:
        assert table._client is not None
        ghost = table._client.session
    shown = ghost.player.view()
    assert shown is not None and shown.ghost is not None, "the game is dealt"
    return shown.ghost


def view_of(app: DomicileApp) -> View:
    assert app.view is not None
    return app.view


def game_over(app: DomicileApp) -> bool:
    return app.view is not None and app.view.state.phase is Phase.ENDED


async def close_seance(pilot: Pilot[Any]) -> bool:
    """Close the séance dialog if it is showing; whether it was."""
    if isinstance(pilot.app.screen, SeanceScreen):
        await pilot.press("enter")
        await pilot.pause()
        return True
    return False


def investigator_bot(seat: int = 1, seed: int = SEED) -> Any:
    return make_policy(seat, PACK, seed)


class Clairvoyant:
    """A test investigator who knows the answers: it steers a game into Stage Two.

    In Stage One it puts its marker on its own column's card and locks; in
    Stage Two the first investigator accuses the true culprit and the others
    follow the first investigator's accusation (as the real bots do), so a
    player in seat 1 leads the group.
    """

    def __init__(self, seat: int, truth: Callable[[], GhostKnowledge]) -> None:
        self.seat = seat
        self.truth = truth

    def act(self, view: View) -> Any:
        from domicile_p2p.rules import Lock, Place, Stage, Unlock

        state = view.state
        me = state.investigator(self.seat)
        if state.phase is not Phase.DREAMS and state.phase is not Phase.INVESTIGATION:
            return None
        if state.stage is Stage.CULPRIT:
            truth = self.truth()
            leader = state.investigator(1).marker
            target = truth.column(truth.culprit).character if self.seat == 1 else leader
            if state.phase is not Phase.INVESTIGATION or target is None:
                return None
            if me.marker != target:
                return Unlock(self.seat) if me.locked else Place(self.seat, target)
            return None if me.locked else Lock(self.seat)
        if me.done or not me.served or me.locked or me.seeking is None:
            return None
        target = self.truth().column(self.seat).card(me.seeking)
        return Lock(self.seat) if me.marker == target else Place(self.seat, target)


def clairvoyant_app(
    role: Role = Role.INVESTIGATOR,
    *,
    seed: int = SEED,
    plain_ghost: bool = False,
    seance_step: float = 0.0,
    stage_one: bool = False,
) -> DomicileApp:
    """An app whose bot investigators know their answers.

    The Ghost is the real bot, or with ``plain_ghost`` the protocol's plain
    player (which never changes, so snapshots do not move when the bots improve).
    With ``stage_one``, each game begins for the player at Stage Two (:class:`PreparedDoor`).
    """
    holder: list[DomicileApp] = []

    def policies(seat: int, pack: Pack, bot_seed: int) -> Any:
        if seat == 0:
            return PlainPolicy(seat, bot_seed) if plain_ghost else make_policy(seat, pack, bot_seed)
        return Clairvoyant(seat, lambda: secrets_of(holder[0]))

    app = DomicileApp(
        PreparedDoor(
            PACK,
            pace=BotPace(0),
            seed=seed,
            lan=False,
            data_dir=DATA_DIR,
            policy_factory=policies,
            stage_one_played=stage_one,
        ),
        defaults=settings(role),
        open_at_once=True,
        offline=True,
        seance_step=seance_step,
    )
    holder.append(app)
    return app


def record_notifications(app: DomicileApp) -> list[str]:
    """Every notification the app shows from now on, as ``title: message``."""
    shown: list[str] = []
    notify = app.notify

    def recording(message: str, *, title: str = "", **options: Any) -> None:
        shown.append(f"{title}: {message}" if title else message)
        notify(message, title=title, **options)

    app.notify = recording  # type: ignore[method-assign]
    return shown


def rendered(widget: Any) -> str:
    """The plain text a Static (or any widget with ``render``) shows."""
    content = widget.render()
    return str(getattr(content, "plain", content))


@dataclass(frozen=True, slots=True)
class PreparedDoor(TableDoor):
    """An offline door whose games begin for the player at Stage Two (``stage_one_played``):
    every investigator's Stage One is played first by guides who know the answers, at the
    engine's speed with no bot's pace (``tutorial_table.stage_one_played``, as the
    tutorial's Stage Two chapter begins): a test that is about a late position starts there
    instead of playing every day through Pilot.  The game is the same real game (every move
    signed, ordered and checked, the transcript whole and verified)."""

    stage_one_played: bool = False

    def offline(self, settings: TableSettings, **options: Any) -> NetworkTable:
        if not self.stage_one_played or options:
            return TableDoor.offline(self, settings, **options)
        return stage_one_played(self, settings)


def stage_two_app(
    *, seed: int = SEED, plain_ghost: bool = False, seance_step: float = 0.0
) -> DomicileApp:
    """:func:`clairvoyant_app` whose game opens at Stage Two: every investigator's Stage One
    is played in the core first, each finding its own column's cards as the
    :class:`Clairvoyant` does (the tutorial's Stage Two chapter begins so), its séances
    included.  Stage One through the app's keys and clicks is
    ``test_tui_flows.py::test_stage_two_the_group_agrees_on_the_culprit_and_wins``'s."""
    return clairvoyant_app(
        seed=seed, plain_ghost=plain_ghost, seance_step=seance_step, stage_one=True
    )
