"""Names that fit: the header keeps "you are …, the Spiritualist" whole at 80x24, a 40-character
name keeps the lobby's columns in place, and a Stage Two séance is never called final."""

from __future__ import annotations

import pytest
from tui_support import begin, door, settings, wait_until

from domicile_p2p.rules import MAX_NAME_LENGTH, PHASE_DESCRIPTIONS, Phase, Stage
from domicile_tui.app import DomicileApp
from domicile_tui.news import SeatInfo
from domicile_tui.personas import persona
from domicile_tui.screens.lobby import LobbyScreen, seat_line
from domicile_tui.session import Role
from domicile_tui.status import SeatKind

NARROW = (80, 24)
LONGEST = "Bartholomew Fitzgerald-Wolverhampton III"
assert len(LONGEST) == MAX_NAME_LENGTH


def screen_lines(app: DomicileApp) -> list[str]:
    """The terminal's lines as the player sees them, plain text."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def named_app(name: str, role: Role = Role.INVESTIGATOR) -> DomicileApp:
    return DomicileApp(
        door(), defaults=settings(role, name=name), open_at_once=True, offline=True, seance_step=0
    )


@pytest.mark.parametrize("name", ["Ada", "Mina", "Wilhelmina", "Anne-Sophie Marchetti", LONGEST])
async def test_the_header_says_who_you_are_in_full_at_80x24(name: str) -> None:
    app = named_app(name)
    async with app.run_test(size=NARROW) as pilot:
        await begin(pilot)
        top = screen_lines(app)[0].rstrip()
        assert top.endswith(f", {persona(1).title}"), top
        assert "Day 1 of 7" in top
        shown = top.removesuffix(f", {persona(1).title}").rsplit("A ", 1)[-1]
        assert shown == name or (shown.endswith("…") and name.startswith(shown[:-1])), top


async def test_the_ghosts_header_fits_at_80x24() -> None:
    app = named_app(LONGEST, Role.GHOST)
    async with app.run_test(size=NARROW) as pilot:
        await begin(pilot)
        top = screen_lines(app)[0].rstrip()
        assert top.endswith("the Ghost") and "Day 1 of 7" in top, top


def test_a_name_of_40_characters_keeps_the_lobbys_columns_in_place() -> None:
    def columns(name: str) -> tuple[int, int]:
        line = seat_line(SeatInfo(1, name, SeatKind.YOU, ready=True)).plain
        return line.index("you"), line.index("✓ ready")

    assert columns(LONGEST) == columns("Ada")
    shown = seat_line(SeatInfo(1, LONGEST, SeatKind.YOU)).plain
    assert LONGEST[:20] in shown and "…" in shown and LONGEST not in shown


async def test_a_long_name_fits_the_lobby_at_80x24() -> None:
    app = named_app(LONGEST)
    async with app.run_test(size=NARROW) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
        await pilot.pause()
        lines = screen_lines(app)
        mine = next(line for line in lines if persona(1).title in line)
        assert " you " in mine and "host" in mine, mine
        others = [line for line in lines if "(bot)" in line or " bot " in line]
        assert others and all(line.index(" bot ") == mine.index(" you ") for line in others)


def test_no_stage_two_seance_is_called_final() -> None:
    # A wrong accusation is followed by another day: "The séance of day N", never "final".
    words = PHASE_DESCRIPTIONS[(Stage.CULPRIT, Phase.SEANCE)]
    assert "final" not in words and "séance" in words
