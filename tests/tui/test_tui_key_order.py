"""Keys act in the order they come, however fast: an action waits for the one before it.

The keys are posted to the app all at once, as a terminal delivers a burst, with no
pause for the app in between (Pilot's ``press`` waits after each key, which would hide
the race): the second key's action must see what the first one did.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.pilot import Pilot
from tui_support import (
    DATA_DIR,
    PACK,
    begin,
    make_app,
    record_notifications,
    settings,
    view_of,
    wait_until,
)

from domicile_p2p.rules import Give
from domicile_p2p.transcript.selfplay import PlainPolicy
from domicile_tui.app import DomicileApp
from domicile_tui.connect import TableDoor
from domicile_tui.pacing import BotPace
from domicile_tui.session import Role


class Idle:
    """An investigator who never acts: the séance waits, and the player's marker stays."""

    def act(self, view: Any) -> None:
        return None


def app_with_idle_investigators() -> DomicileApp:
    door = TableDoor(
        PACK,
        pace=BotPace(0),
        seed=7,
        lan=False,
        data_dir=DATA_DIR,
        policy_factory=lambda seat, _pack, seed: PlainPolicy(seat, seed) if seat == 0 else Idle(),
    )
    return DomicileApp(door, defaults=settings(), open_at_once=True, offline=True, seance_step=0)


def burst(pilot: Pilot[Any], *keys: str) -> None:
    for key in keys:
        character = key if len(key) == 1 else None
        pilot.app.post_message(events.Key(key, character))


async def test_enter_then_l_in_one_burst_locks_the_marker_enter_placed() -> None:
    # The others never act: with bots that lock at once the séance would come and clear
    # the lock before the test looked at it.
    app = app_with_idle_investigators()
    async with app.run_test(size=(80, 24)) as pilot:
        refused = record_notifications(app)
        await begin(pilot)
        burst(pilot, "down", "enter", "l")
        await wait_until(pilot, lambda: view_of(app).state.investigator(1).locked, what="a lock")
        assert not [line for line in refused if "Not allowed" in line]


async def test_l_twice_in_one_burst_locks_then_unlocks() -> None:
    app = app_with_idle_investigators()
    async with app.run_test(size=(80, 24)) as pilot:
        refused = record_notifications(app)
        await begin(pilot)
        await pilot.press("enter")
        await wait_until(pilot, lambda: view_of(app).state.investigator(1).marker is not None)
        sent = record_actions(app)
        burst(pilot, "l", "l")
        # The second L is decided once the first is acknowledged: on a locked marker.
        await wait_until(pilot, lambda: len(sent) == 2, what="two actions")
        assert [type(action).__name__ for action in sent] == ["Lock", "Unlock"]
        assert not [line for line in refused if "must place" in line]


async def test_the_ghost_gives_the_dream_picked_by_the_key_before_g() -> None:
    app = make_app(Role.GHOST, plain_bots=True)
    async with app.run_test(size=(80, 24)) as pilot:
        shown = record_notifications(app)
        await begin(pilot)
        knowledge = view_of(app).ghost
        assert knowledge is not None
        sent = record_actions(app)
        # 1 picks the first dream of the hand, G gives it: in one burst.
        burst(pilot, "1", "g")
        await wait_until(pilot, lambda: bool(sent), what=f"a give; notes: {shown}")
        assert isinstance(sent[0], Give)
        assert sent[0].cards == (knowledge.hand[0],)


def record_actions(app: Any) -> list[Any]:
    """Every action the app sends the table from now on."""
    sent: list[Any] = []
    session = app.session
    act = session.act

    async def recording(action: Any) -> None:
        sent.append(action)
        await act(action)

    session.act = recording
    return sent


async def test_quitting_says_so_while_it_leaves_the_table() -> None:
    app = make_app(plain_bots=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await begin(pilot)
        session = app.session
        assert session is not None
        said: list[str] = []
        close = session.close

        async def closing() -> None:
            said.append(app.status.text)  # what the status bar says while the table is left
            await close()

        session.close = closing  # type: ignore[method-assign]
        await pilot.press("ctrl+q")  # an offline table quits at once
        await wait_until(pilot, lambda: bool(said), what="the table left")
        assert said == ["Quitting: leaving the table…"]
