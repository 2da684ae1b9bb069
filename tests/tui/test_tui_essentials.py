"""Every screen at 80x24 shows each fact a player needs, or names the key that reveals it.

The facts are the table "What each screen shows at 80x24" in docs/client.md: this test
reads that table, knows how to recognise each fact on screen, and fails when the two
disagree (a fact listed that it cannot check, or one it checks that is not listed), so
the documentation and the client stay the same list.  Each screen is built at 80x24
from the snapshots' fixed scenes and read as the terminal shows it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from screen_text import screen_lines
from test_tui_snapshots import (
    a_second_day_of_stage_two,
    at_the_end,
    at_the_seance,
    behind_the_ghosts_screen,
    in_the_lobby,
)
from textual.pilot import Pilot
from tui_support import PACK, begin, make_app, settle, stage_two_app, view_of, wait_until

from domicile_p2p.rules import CATEGORY_ORDER
from domicile_tui.app import DomicileApp
from domicile_tui.personas import persona
from domicile_tui.screens.end import head_lines
from domicile_tui.screens.seance import SeanceScreen
from domicile_tui.session import Role

DOC = Path(__file__).resolve().parents[2] / "docs" / "client.md"
LAPTOP = (80, 24)

Expect = Callable[[DomicileApp], list[str]]
"""The texts that show a fact on the screen, from what the app knows."""


def documented() -> dict[tuple[str, str], str]:
    """The table of docs/client.md: (screen, fact) -> the key that reveals it ('' if none)."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index("<!-- essentials:")
    rows: dict[tuple[str, str], str] = {}
    for line in text[start:].splitlines()[3:]:
        if not line.startswith("|"):
            break
        screen, fact, key = (cell.strip() for cell in line.strip("|").split("|"))
        rows[(screen, fact)] = key
    return rows


def first_words(text: str, count: int = 3) -> str:
    return " ".join(text.split()[:count])


def names(app: DomicileApp) -> list[str]:
    state = view_of(app).state
    return [state.config.name(seat) for seat in state.config.seats]


def markers(app: DomicileApp) -> list[str]:
    state = view_of(app).state
    placed = [state.investigator(s).marker for s in state.config.seats]
    return [PACK.investigator_card(card).name for card in placed if card is not None]


def agreement(app: DomicileApp) -> list[str]:
    """The accusation's verdict as the table stands: unanimous (everyone locked on one
    suspect), all agree (on one, not all locked) or not yet unanimous."""
    state = view_of(app).state
    seats = [state.investigator(s) for s in state.config.seats]
    accused = {seat.marker for seat in seats}
    if None in accused or len(accused) != 1:
        return ["The accusation", "not yet unanimous"]
    return ["The accusation", "unanimous" if all(s.locked for s in seats) else "all agree"]


def chips(app: DomicileApp) -> list[str]:
    """Each marker on the tableau, as its card shows it: the seat's letter and ◆ or ◇."""
    state = view_of(app).state
    shown = []
    for seat in state.config.seats:
        me = state.investigator(seat)
        if me.marker is not None:
            shown.append(f"{persona(seat).letter}{'◆' if me.locked else '◇'}")
    return shown


def lobby_seats(app: DomicileApp) -> list[str]:
    assert app.lobby is not None
    return [f"{info.name}" for info in app.lobby.seats]


def ghost_targets(app: DomicileApp) -> list[str]:
    view = view_of(app)
    assert view.ghost is not None
    found = []
    for seat in view.state.config.seats:
        seeking = view.state.investigator(seat).seeking
        if seeking is not None:
            card = view.ghost.column(seat).card(seeking)
            found.append(f"▸ {PACK.investigator_card(card).name}")
    return found


def ghost_markers(app: DomicileApp) -> list[str]:
    view = view_of(app)
    assert view.ghost is not None
    shown = []
    for seat in view.state.config.seats:
        me = view.state.investigator(seat)
        if me.marker is None or me.seeking is None:
            continue
        right = view.ghost.column(seat).card(me.seeking) == me.marker
        glyph = "◆" if me.locked else "◇"
        name = PACK.investigator_card(me.marker).name
        shown.append(f"{glyph} {name} {'✓ right' if right else '✗ wrong'}")
    return shown


def judged(app: DomicileApp) -> list[str]:
    """Each judged investigator's name, and each verdict's mark."""
    screen = app.screen
    assert isinstance(screen, SeanceScreen)
    shown = [judgement.name for judgement in screen.judged]
    return shown + ["✓" if judgement.correct else "✗" for judgement in screen.judged]


def todays_dreams(app: DomicileApp) -> list[str]:
    state = view_of(app).state
    return [f"Today, day {state.day}", first_words(PACK.dream(state.group_dreams[-3]).text)]


def culprit(app: DomicileApp) -> list[str]:
    verification = app.verification
    assert verification is not None and verification.reveal is not None
    column = verification.reveal.column(verification.reveal.culprit)
    return [f"It was {PACK.investigator_card(column.card(CATEGORY_ORDER[0])).name}"]


def six_words(app: DomicileApp) -> list[str]:
    return [head_lines(app.verification).plain.splitlines()[0]]


EXPECTED: dict[tuple[str, str], Expect] = {
    ("Lobby", "every seat: its letter and who holds it"): lobby_seats,
    ("Lobby", "how the game begins"): lambda app: ["Press Enter"],
    ("Lobby", "how to learn the game first"): lambda app: ["L: learn to play"],
    ("Investigator", "the day and the calendar"): lambda app: [
        f"Day {view_of(app).state.day} of 7",
        "✦",
    ],
    ("Investigator", "who you are"): lambda app: ["A Ada"],
    ("Investigator", "what to do now"): lambda app: ["Read your dreams"],
    ("Investigator", "the category you seek"): lambda app: ["◂"],
    ("Investigator", "every investigator and where their marker stands"): lambda app: [
        *(name.split()[0] for name in names(app)),
        *chips(app),
    ],
    ("Investigator", "your first dream"): lambda app: [
        "Your dreams",
        first_words(PACK.dream(view_of(app).state.investigator(1).dreams[0]).text),
    ],
    ("Investigator", "the Ghost's refreshes left"): lambda app: ["refreshes"],
    ("Investigator", "the table talk"): lambda app: ["Table talk"],
    ("Ghost", "every investigator's target"): ghost_targets,
    ("Ghost", "every investigator's marker and whether it is right"): ghost_markers,
    ("Ghost", "all seven dreams, numbered"): lambda app: [f"\n {n} " for n in range(1, 8)],
    ("Ghost", "who still awaits dreams"): lambda app: ["Still to serve"],
    ("Ghost", "the refreshes left"): lambda app: ["Refreshes (R)"],
    ("Séance", "every investigator judged, and the verdict"): judged,
    ("Séance", "the outcome"): lambda app: ["astray"],
    ("Stage Two", "today's dreams, labelled"): todays_dreams,
    ("Stage Two", "every investigator's accusation"): lambda app: [
        *(name for name in names(app)),
        *markers(app),
    ],
    ("Stage Two", "whether the group agrees"): agreement,
    ("End", "won or lost"): lambda app: ["T H E   G H O S T   I S"],
    ("End", "who the culprit was"): culprit,
    ("End", "whether every check passed"): lambda app: ["Every check passed"],
    ("End", "the last link's six words"): six_words,
    ("End", "where the game is kept"): lambda app: ["kept in the data dir"],
    ("End", "every check of the proof"): lambda app: ["✓ Complete"],
}


async def investigator_table(pilot: Pilot[Any]) -> None:
    app = pilot.app
    assert isinstance(app, DomicileApp)
    await begin(pilot)
    await settle(pilot)


Scene = tuple[Callable[[], DomicileApp], Callable[[Pilot[Any]], Awaitable[None]]]
SCENES: dict[str, Scene] = {
    "Lobby": (lambda: make_app(plain_bots=True), in_the_lobby),
    "Investigator": (lambda: make_app(plain_bots=True), investigator_table),
    "Ghost": (lambda: make_app(Role.GHOST, plain_bots=True), behind_the_ghosts_screen),
    "Séance": (lambda: make_app(plain_bots=True), at_the_seance),
    "Stage Two": (lambda: stage_two_app(plain_ghost=True), a_second_day_of_stage_two),
    "End": (lambda: stage_two_app(plain_ghost=True), at_the_end),
}

KEY_LABEL = {"D": "d Dreams", "T": "t Talk", "End": ""}
"""How the footer names a key (``End`` is the scroll's own: its screen says so)."""


def test_the_documented_facts_are_the_ones_checked() -> None:
    assert set(documented()) == set(EXPECTED)
    assert {screen for screen, _ in documented()} == set(SCENES)


@pytest.mark.parametrize("screen", list(SCENES))
async def test_every_screen_shows_its_essential_facts_at_80x24(screen: str) -> None:
    make, reach = SCENES[screen]
    app = make()
    async with app.run_test(size=LAPTOP) as pilot:
        await reach(pilot)
        if screen == "End":
            await wait_until(pilot, lambda: app.kept is not None, what="the game kept")
        await settle(pilot)
        lines = screen_lines(app)
        shown = "\n".join(lines)
        footer = lines[-1]
        missing = []
        for (where, fact), key in documented().items():
            if where != screen:
                continue
            wanted = EXPECTED[(where, fact)](app)
            if all(text in shown for text in wanted):
                continue
            if key and key != "End" and KEY_LABEL[key] in footer:
                continue  # not all of it fits: the footer names the key that shows it
            if key == "End":
                await pilot.press("end")
                await settle(pilot)
                if all(text in "\n".join(screen_lines(app)) for text in wanted):
                    await pilot.press("home")
                    continue
            missing.append(f"{fact}: {[t for t in wanted if t not in shown]}")
        assert not missing, "\n".join([*missing, shown])
