"""The table at 80x24: everything a player needs stays on screen, nothing loses its meaning."""

from __future__ import annotations

import pytest
from textual.widgets import Static
from tui_support import PACK, begin, make_app, rendered, view_of, wait_until

from domicile_tui.describe import ghost_refreshes
from domicile_tui.screens.card import CardScreen
from domicile_tui.screens.ghost import GhostScreen
from domicile_tui.screens.investigator import InvestigatorScreen
from domicile_tui.session import Role
from domicile_tui.widgets.card import CardTile
from domicile_tui.widgets.dream import DreamTile

NARROW = (80, 24)


@pytest.mark.slow
async def test_six_markers_on_one_card_keep_their_letters_and_locks_at_80x24() -> None:
    app = make_app(investigators=6)
    async with app.run_test(size=NARROW) as pilot:
        await begin(pilot)
        tile = app.screen.query(CardTile).first()
        tile.markers = ((1, True), (2, False), (3, True), (4, True), (5, False), (6, True))
        await pilot.pause()
        top = rendered(tile).splitlines()[0]
        assert top.endswith("A◆B◇C◆D◆E◇F◆"), top


async def test_the_investigators_see_the_ghosts_refreshes_left() -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await begin(pilot)
        side = rendered(app.screen.query_one("#investigators", Static))
        assert f"☾ The Ghost's refreshes\n  {ghost_refreshes(view_of(app).state)}" in side
        assert " left, " in side


@pytest.mark.slow
async def test_every_card_on_the_table_reads_in_full_at_80x24() -> None:
    app = make_app()
    async with app.run_test(size=NARROW) as pilot:
        await begin(pilot)
        for key in ("i", "o"):
            await pilot.press("down", "down")
            focused = app.screen.focused
            assert isinstance(focused, CardTile)
            await pilot.press(key)
            await wait_until(pilot, lambda: isinstance(app.screen, CardScreen), what="the card")
            assert rendered(app.screen.query_one(".card-name", Static)) == focused.card.name
            text = rendered(app.screen.query_one(".card-text", Static))
            assert text == focused.card.description
            await pilot.press("escape")
            await wait_until(pilot, lambda: isinstance(app.screen, InvestigatorScreen))
        await pilot.press("d")
        dream = app.screen.focused
        assert isinstance(dream, DreamTile)
        await pilot.press("i")
        await wait_until(pilot, lambda: isinstance(app.screen, CardScreen), what="the dream")
        assert rendered(app.screen.query_one(".card-text", Static)) == dream.dream.text


@pytest.mark.slow
async def test_the_ghost_reads_its_target_its_hand_and_the_decoys_in_full_at_80x24() -> None:
    app = make_app(Role.GHOST)
    async with app.run_test(size=NARROW) as pilot:
        await begin(pilot)
        ghost = view_of(app).ghost
        assert ghost is not None
        target = PACK.investigator_card(ghost.column(1).character)
        line = rendered(app.screen.query_one("#target-detail", Static))
        name = view_of(app).state.config.name(1)
        assert line.startswith(f"→ {target.name} (Character) for A {name}"), line

        await pilot.press("s", "i")  # on the secret columns: the card that column seeks
        await wait_until(pilot, lambda: isinstance(app.screen, CardScreen), what="the target")
        assert rendered(app.screen.query_one(".card-name", Static)) == target.name
        assert f"What A {name} seeks" in rendered(app.screen.query(".card-kind").first(Static))
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, GhostScreen))

        await pilot.pause(0.6)
        await pilot.press("h", "i")  # a dream of the hand
        await wait_until(pilot, lambda: isinstance(app.screen, CardScreen), what="the dream")
        hand_text = PACK.dream(ghost.hand[0]).text
        assert rendered(app.screen.query_one(".card-text", Static)) == hand_text
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, GhostScreen))

        await pilot.pause(0.6)
        await pilot.press("v")  # the whole tableau: a decoy
        await pilot.pause()
        decoy = app.screen.focused
        assert isinstance(decoy, CardTile)
        await pilot.press("i")
        await wait_until(pilot, lambda: isinstance(app.screen, CardScreen), what="the decoy")
        assert rendered(app.screen.query_one(".card-text", Static)) == decoy.card.description
