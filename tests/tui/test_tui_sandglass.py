"""The sand-glass in the client: the draining bar everyone sees, the offline table calling
time, the set-up form's setting, and a seat that made no guess at the séance.

No test here waits on the wall clock: the app drains the bar by a clock the test
holds still and moves by hand, and the offline table's host keeps a clock that stands
still too (:class:`Hourglass`): its glass runs out when the test moves it on.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Select, Static
from tui_support import DATA_DIR, PACK, SEED, begin, rendered, settings, settle, view_of, wait_until

from domicile_p2p.net.adapters.clock import SteppedClock
from domicile_p2p.net.adapters.store import StoredTable, UnfinishedTable
from domicile_p2p.net.join.codes import parse_code
from domicile_p2p.net.sessions.guards.sandglass import SEANCE_SEEN_WITHIN
from domicile_p2p.net.sessions.room import RoomConfig
from domicile_p2p.packs import Pack, load_pack
from domicile_p2p.rules import GHOST, CulpritSeance, Difficulty, Phase, Seance, View, view
from domicile_p2p.transcript import Replica
from domicile_p2p.transcript.files import read_transcript
from domicile_p2p.transcript.selfplay import PlainPolicy
from domicile_tui.app import DomicileApp
from domicile_tui.connect import TableDoor
from domicile_tui.networked import NetworkTable, resumed_settings
from domicile_tui.pacing import BotPace
from domicile_tui.pages import SetupPage
from domicile_tui.sandglass import Glass
from domicile_tui.screens.ghost import GhostScreen
from domicile_tui.screens.investigator import InvestigatorScreen
from domicile_tui.screens.seance import Judgement, SeanceScreen, judgements
from domicile_tui.screens.setup import HostSetupScreen
from domicile_tui.screens.start import StartScreen
from domicile_tui.session import Role
from domicile_tui.widgets.sandglass import SandGlassBar, glass_line

TIMER = 60
WIDE = (120, 36)


class FrozenClock:
    """The app's clock, standing still until the test moves it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Hourglass:
    """The offline table's host's clock: it stands still, so its sand-glass runs out when
    the test says, and not before."""

    def __init__(self) -> None:
        self.clock = SteppedClock()

    def left(self, app: DomicileApp) -> float | None:
        """Seconds until the host's glass runs out (``None``: no glass turned)."""
        session = app.session
        assert isinstance(session, NetworkTable) and session.host is not None
        server = session.host.server
        assert server is not None
        deadline = server.session.next_deadline()
        return None if deadline is None else deadline - self.clock.now()

    def run_out(self, app: DomicileApp) -> None:
        """The glass turned runs out now."""
        left = self.left(app)
        assert left is not None, "no glass is turned"
        self.clock.advance(left)


class Dawdler:
    """An investigator who never makes up their mind: only the sand-glass ends the day."""

    def act(self, _view: View) -> None:
        return None


def timed_app(
    role: Role,
    clock: FrozenClock,
    hourglass: Hourglass,
    timer: int | None = TIMER,
    *,
    dawdlers: bool = False,
    open_at_once: bool = True,
) -> DomicileApp:
    """An offline table with a sand-glass; its bots are the protocol's plain players (or,
    with ``dawdlers``, investigators who never place a marker)."""

    def policies(seat: int, _pack: Pack, bot_seed: int) -> Any:
        return Dawdler() if dawdlers and seat != GHOST else PlainPolicy(seat, bot_seed)

    door = TableDoor(
        PACK,
        pace=BotPace(0),
        seed=SEED,
        lan=False,
        data_dir=DATA_DIR,
        policy_factory=policies,
        clock=hourglass.clock,
    )
    return DomicileApp(
        door,
        defaults=replace(settings(role), timer=timer),
        open_at_once=open_at_once,
        offline=True,
        seance_step=0.0,
        clock=clock,
    )


def bar_text(app: DomicileApp) -> str:
    bar = app.screen.query_one(SandGlassBar)
    assert bar.display, "the sand-glass is not shown"
    return str(bar.render())


async def redraw(pilot: Pilot[Any]) -> None:
    pilot.app.screen.query_one(SandGlassBar).refresh()
    await pilot.pause()


def investigating(app: DomicileApp) -> bool:
    return app.view is not None and app.view.state.phase is Phase.INVESTIGATION


# --------------------------------------------------------------------------- the bar itself


def test_the_bar_drains_to_empty_and_says_how_long_is_left() -> None:
    glass = Glass((1, 1), seconds=60, began=100.0)
    full, half, gone = (glass_line(glass, now, 80).plain for now in (100.0, 130.0, 161.0))
    assert full.startswith("⧗ Sand-glass █") and full.endswith("1:00 left") and "░" not in full
    assert "0:30 left" in half and half.count("█") == pytest.approx(full.count("█") / 2, abs=1)
    assert "█" not in gone and "time's up: waiting for the host to call it" in gone
    called = glass_line(replace(glass, called=True), 101.0, 80).plain
    assert "█" not in called and "time's up: the host locked every placed marker" in called
    for now in (100.0, 130.0, 161.0):
        assert glass_line(glass, now, 80).cell_length == 80
        assert glass_line(glass, now, 30).cell_length == 30  # a narrow side: still one line


def test_a_second_left_shows_until_the_glass_is_empty() -> None:
    glass = Glass((1, 1), seconds=60, began=0.0)
    assert "0:01 left" in glass_line(glass, 59.2, 80).plain
    assert "time's up" in glass_line(glass, 60.0, 80).plain


# --------------------------------------------------------------------------- at the table


@pytest.mark.slow
async def test_an_investigator_watches_the_glass_drain_until_the_host_calls_time() -> None:
    clock, hourglass = FrozenClock(), Hourglass()
    app = timed_app(Role.INVESTIGATOR, clock, hourglass)
    async with app.run_test(size=WIDE) as pilot:
        await begin(pilot)
        await wait_until(pilot, lambda: investigating(app), what="the investigation")
        await settle(pilot)
        assert isinstance(app.screen, InvestigatorScreen)
        assert "1:00 left" in bar_text(app)
        await wait_until(pilot, lambda: hourglass.left(app) is not None, what="the host's glass")
        assert hourglass.left(app) == TIMER  # the offline table keeps the same glass
        clock.now += 45
        await redraw(pilot)
        assert "0:15 left" in bar_text(app)
        clock.now += 20  # this client's glass is out; the host has not called time yet
        await redraw(pilot)
        assert "waiting for the host" in bar_text(app)
        assert investigating(app)
        hourglass.run_out(app)  # Ada never placed her marker
        await wait_until(pilot, lambda: isinstance(app.screen, SeanceScreen), what="the séance")
        await settle(pilot)
        seance = app.screen
        assert isinstance(seance, SeanceScreen)
        assert seance.before.state.no_guess == (1,)
        lines = rendered(seance.query_one("#seance-lines", Static))
        assert "Ada  made no guess: the sand-glass ran out" in lines
        assert "no guess is a wrong guess" in lines
        await pilot.press("enter")
        await wait_until(pilot, lambda: view_of(app).state.day == 2, what="day 2")


@pytest.mark.slow
async def test_the_ghost_sees_the_same_glass_and_a_new_one_each_day() -> None:
    clock, hourglass = FrozenClock(), Hourglass()
    app = timed_app(Role.GHOST, clock, hourglass, dawdlers=True)
    async with app.run_test(size=WIDE) as pilot:
        await begin(pilot)
        for day in (1, 2):
            assert not app.screen.query_one(SandGlassBar).display  # no glass while giving
            for _ in range(3):
                await pilot.press("1", "g")
                await settle(pilot)
            await wait_until(pilot, lambda: investigating(app), what="the investigation")
            await settle(pilot)
            assert isinstance(app.screen, GhostScreen)
            assert app.glass is not None and app.glass.investigation == (day, 1)
            assert "1:00 left" in bar_text(app)
            clock.now += 50
            await redraw(pilot)
            assert "0:10 left" in bar_text(app)
            # The table's glass is turned (its wait begun) before the test runs it out.
            await wait_until(pilot, lambda: hourglass.left(app) is not None, what="the turn")
            # Day 2: the Ghost closed the séance (Enter) before giving, so the table, which
            # has no other person to wait for, turns the glass at once.
            assert hourglass.left(app) == TIMER
            hourglass.run_out(app)
            await wait_until(pilot, lambda: isinstance(app.screen, SeanceScreen), what="séance")
            await settle(pilot)
            lines = rendered(app.screen.query_one("#seance-lines", Static))
            assert lines.count("made no guess: the sand-glass ran out") == 3
            await pilot.press("enter")
            await wait_until(pilot, lambda d=day: view_of(app).state.day == d + 1, what="next day")
            await wait_until(pilot, lambda: isinstance(app.screen, GhostScreen))
            assert app.glass is None


@pytest.mark.slow
async def test_the_glass_turns_when_the_player_closes_the_seance() -> None:
    """The Ghost gives the next dreams while the player still reads the séance: the glass
    waits for them (at most SEANCE_SEEN_WITHIN) and turns the moment they close it (issue 23
    §8: it never runs out of sight)."""
    clock, hourglass = FrozenClock(), Hourglass()
    app = timed_app(Role.INVESTIGATOR, clock, hourglass)
    async with app.run_test(size=WIDE) as pilot:
        await begin(pilot)
        await wait_until(pilot, lambda: investigating(app), what="the investigation")
        await wait_until(pilot, lambda: hourglass.left(app) == TIMER, what="day 1's glass")
        hourglass.run_out(app)
        await wait_until(pilot, lambda: isinstance(app.screen, SeanceScreen), what="the séance")

        def next_day_under_way() -> bool:
            return (
                view_of(app).state.day == 2
                and investigating(app)
                and hourglass.left(app) is not None
            )

        await wait_until(pilot, next_day_under_way, what="day 2 begun behind the séance")
        assert isinstance(app.screen, SeanceScreen), "still reading the séance"
        left = hourglass.left(app)
        assert left is not None and TIMER < left <= TIMER + SEANCE_SEEN_WITHIN, "it waits"
        assert app.glass is not None and app.glass.began > clock.now, "the bar stays full"
        await pilot.press("enter")
        # Turned as the séance closed, no wait left.
        await wait_until(pilot, lambda: hourglass.left(app) == TIMER, what="the glass turned")
        await wait_until(pilot, lambda: isinstance(app.screen, InvestigatorScreen), what="table")
        assert app.glass is not None and app.glass.began == clock.now
        clock.now += 45
        await redraw(pilot)
        assert "0:15 left" in bar_text(app)


async def test_a_table_without_a_glass_shows_no_bar() -> None:
    clock, hourglass = FrozenClock(), Hourglass()
    app = timed_app(Role.INVESTIGATOR, clock, hourglass, timer=None)
    async with app.run_test(size=WIDE) as pilot:
        await begin(pilot)
        await wait_until(pilot, lambda: investigating(app), what="the investigation")
        await settle(pilot)
        assert app.glass is None and not app.screen.query_one(SandGlassBar).display
        assert hourglass.left(app) is None


async def test_the_set_up_form_carries_the_sand_glass() -> None:
    clock, hourglass = FrozenClock(), Hourglass()
    app = timed_app(Role.INVESTIGATOR, clock, hourglass, timer=45, open_at_once=False)
    async with app.run_test(size=WIDE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, StartScreen))
        app.go(SetupPage(offline=True))
        await wait_until(pilot, lambda: bool(app.screen.query("#timer")), what="the form")
        screen = app.screen
        assert isinstance(screen, HostSetupScreen)
        choice = screen.query_one("#timer", Select)
        assert choice.value == 45  # the --timer of the command line is kept
        assert screen.settings().timer == 45
        choice.value = 0
        assert screen.settings().timer is None
        choice.value = 120
        await pilot.pause()
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.session, NetworkTable))
        session = app.session
        assert isinstance(session, NetworkTable) and session.offline is not None
        assert session.hosting is not None and session.hosting.timer == 120


# --------------------------------------------------------------------------- how it looks


async def glass_half_run(pilot: Pilot[Any]) -> None:
    """The investigator's table with 25 of the glass's 60 seconds gone."""
    app = pilot.app
    assert isinstance(app, DomicileApp)
    await begin(pilot)
    await wait_until(pilot, lambda: investigating(app), what="the investigation")
    await settle(pilot)
    clock = app.clock
    assert isinstance(clock, FrozenClock)
    clock.now += 25
    await redraw(pilot)
    await settle(pilot)


@pytest.mark.slow
@pytest.mark.parametrize("size", [(120, 36), (80, 24)], ids=["120x36", "80x24"])
def test_the_sand_glass_looks_as_it_should(snap_compare: Any, size: tuple[int, int]) -> None:
    app = timed_app(Role.INVESTIGATOR, FrozenClock(), Hourglass())
    assert snap_compare(app, terminal_size=size, run_before=glass_half_run)


# --------------------------------------------------------------------------- the séance


def test_the_seance_tells_who_made_no_guess_in_both_stages() -> None:
    """The protocol's time-up game: time runs out on day 2 (one marker locked by the clock,
    one seat without a marker) and on day 7 in Stage Two (the group agreed on no one)."""
    root = Path(__file__).resolve().parents[2] / "protocol" / "vectors"
    pack = load_pack(root / "packs" / "vectors", announce_warnings=False)
    events = read_transcript(root / "games" / "time-up.jsonl")
    replica = Replica(events[0], authenticated=True)
    told: list[tuple[int, tuple[Judgement, ...]]] = []
    for event in events[1:]:
        before = replica.state
        replica.receive_authenticated(event)
        action = dict(replica.ledger.moves).get(event.seq)
        if before is None or not isinstance(action, Seance | CulpritSeance):
            continue
        clocked = bool(before.no_guess) or (
            isinstance(action, CulpritSeance) and before.accusation is None
        )
        if clocked:
            told.append((before.day, judgements(view(before, 1), action, pack)))
    (day, stage_one), (last_day, stage_two) = told
    assert day == 2 and last_day == 7
    # Seat 1's marker was locked where it stood by the clock (and was right); seat 2 had none.
    assert [(j.seat, j.no_guess, j.correct) for j in stage_one] == [
        (1, False, True),
        (2, True, False),
    ]
    assert stage_two == (Judgement(0, "The group", "no one", False, no_guess=True),)


def test_a_resumed_laptop_table_keeps_its_sand_glass() -> None:
    code = parse_code("4-wheat-owl")
    config = RoomConfig(4, code, "Friday", 3, Difficulty.NORMAL, timer=90)
    unfinished = UnfinishedTable(StoredTable(config, frozenset({2, 3}), owner=1), day=2)
    assert resumed_settings(unfinished, "Ada").timer == 90
