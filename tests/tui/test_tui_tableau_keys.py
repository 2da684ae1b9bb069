"""The arrow keys on the investigator's tableau go up and down a card's column, and no
further (issue 23 §10: "Down from the last Location card jumps to the Item column's last
card").  A column grows shorter as investigators find its cards; Down from its last card
took the nearest card below it in the next column."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from tui_support import (
    begin,
    clairvoyant_app,
    close_seance,
    make_app,
    press_at_the_table,
    turns,
    view_of,
    wait_until,
)

from domicile_p2p.rules import CATEGORY_ORDER, Category, Phase
from domicile_tui.app import DomicileApp
from domicile_tui.screens.investigator import InvestigatorScreen
from domicile_tui.widgets.card import CardTile

SIZES = [(80, 24), (120, 36)]


def _focused_id(app: DomicileApp) -> str | None:
    focused = app.screen.focused
    return focused.id if isinstance(focused, CardTile) else None


async def _walk_every_column(pilot: Pilot[Any], app: DomicileApp) -> None:
    """From each column's last card Down stays; from its first Up stays; Down walks it."""
    tableau = view_of(app).state.tableau
    for category in CATEGORY_ORDER:
        cards = tableau.cards(category)
        last, first = f"card-{cards[-1]}", f"card-{cards[0]}"
        app.screen.query_one(f"#{last}").focus()
        await wait_until(pilot, lambda last=last: _focused_id(app) == last, "the last card")
        await pilot.press("down")
        assert _focused_id(app) == last, (category, "Down from the column's last card")
        app.screen.query_one(f"#{first}").focus()
        await wait_until(pilot, lambda first=first: _focused_id(app) == first, "the first")
        await pilot.press("up")
        assert _focused_id(app) == first, (category, "Up from the column's first card")
        for index in range(1, len(cards)):
            await pilot.press("down")
            assert _focused_id(app) == f"card-{cards[index]}", (category, index)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_down_stays_in_a_full_column(size: tuple[int, int]) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await begin(pilot)
        await _walk_every_column(pilot, app)


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_down_from_the_last_card_of_a_shorter_column_stays_in_it(
    size: tuple[int, int],
) -> None:
    app = clairvoyant_app()  # the bots find their Characters on day 1: that column shrinks
    async with app.run_test(size=size) as pilot:
        await begin(pilot)
        first = view_of(app).state.tableau.cards(Category.CHARACTER)[0]
        app.screen.query_one(f"#card-{first}").focus()
        await press_at_the_table(pilot, "enter")
        await wait_until(pilot, lambda: view_of(app).state.investigator(1).marker == first)
        await press_at_the_table(pilot, "l")

        def day_two() -> bool:
            state = view_of(app).state
            return (
                state.day == 2
                and state.phase is Phase.INVESTIGATION
                and isinstance(app.screen, InvestigatorScreen)
            )

        async for _ in turns(pilot):  # the séance closed (Enter) until day 2 is played
            await close_seance(pilot)
            if day_two():
                break
        assert day_two(), "day 2"
        tableau = view_of(app).state.tableau
        lengths = [len(tableau.cards(category)) for category in CATEGORY_ORDER]
        assert lengths[0] < lengths[1], f"a column found shorter than the next: {lengths}"
        await wait_until(
            pilot,
            lambda: len(app.screen.query(CardTile)) == sum(lengths),
            "the tableau without the cards found",
        )
        await _walk_every_column(pilot, app)
