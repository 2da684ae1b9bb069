"""The table at 80x24: everything a player needs stays on screen, nothing loses its meaning."""

from __future__ import annotations

from textual.widgets import Static
from tui_support import begin, make_app, rendered, view_of

from domicile_tui.describe import ghost_refreshes
from domicile_tui.widgets.card import CardTile

NARROW = (80, 24)


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
