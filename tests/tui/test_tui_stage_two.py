"""Stage Two after a wrong accusation: today's dreams first, and every day labelled."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from screen_text import screen_lines
from test_tui_snapshots import a_second_day_of_stage_two, into_stage_two
from tui_support import settle, stage_two_app, view_of

from domicile_p2p.rules import Phase
from domicile_tui.screens.culprit import CulpritScreen, dreams_by_day
from domicile_tui.widgets.dream import DreamTile


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_todays_dreams_come_first_and_the_days_are_labelled(size: tuple[int, int]) -> None:
    app = stage_two_app(plain_ghost=True)
    async with app.run_test(size=size) as pilot:
        await a_second_day_of_stage_two(pilot)
        state = view_of(app).state
        today, yesterday = state.group_dreams[3:], state.group_dreams[:3]
        screen = app.screen
        assert isinstance(screen, CulpritScreen)
        tiles = [
            tile.dream.id for tile in screen.query("#group-dreams DreamTile").results(DreamTile)
        ]
        assert tiles == [*today, *yesterday]
        # The first of today's dreams shows without scrolling, under today's label; the
        # earlier give is labelled with its day.
        lines = screen_lines(app)
        label = next(i for i, line in enumerate(lines) if f"Today, day {state.day}" in line)
        first_words = " ".join(app.pack.dream(today[0]).text.split()[:3])
        assert any(first_words in line for line in lines[label:]), "\n".join(lines)
        # D goes to today's first dream.
        await pilot.press("d")
        assert isinstance(screen.focused, DreamTile) and screen.focused.dream.id == today[0]
        headings = [str(w.render()) for w in screen.query("#group-dreams .day-heading")]
        assert headings[0].startswith(f"Today, day {state.day}")
        assert headings[1].startswith(f"Day {state.day - 1}")


def test_the_latest_give_is_todays_once_the_dreams_phase_is_over() -> None:
    given = SimpleNamespace(group_dreams=tuple("abcdef"), day=5, phase=Phase.DREAMS)
    assert dreams_by_day(given) == ((4, tuple("def")), (3, tuple("abc")))  # type: ignore[arg-type]
    given.phase = Phase.INVESTIGATION
    assert dreams_by_day(given) == ((5, tuple("def")), (4, tuple("abc")))  # type: ignore[arg-type]


async def test_the_group_dreams_shelf_redrawn_as_it_is_taken_down_goes_quietly() -> None:
    """The shelf of the group's dreams, redrawn as the screen goes (a tutorial chapter
    left as Stage Two opened): it mounted a day's grid, then its cards into that grid,
    which a shelf being taken down had never mounted, and the client stopped with a
    MountError (twice, in two runs of the suite at once)."""
    app = stage_two_app(plain_ghost=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await into_stage_two(pilot)
        screen = app.screen
        assert isinstance(screen, CulpritScreen)
        days = screen.group_dreams
        assert days, "the group has its first dreams"
        screen.query_one("#group-dreams").remove()
        screen.group_dreams = ((days[0][0] + 1, days[0][1]), *days)
        await settle(pilot)
        assert app.is_running and not screen.query("#group-dreams")
