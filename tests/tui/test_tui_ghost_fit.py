"""The Ghost's screen at a laptop's 80x24: every investigator's target, marker and its state,
and all seven dreams, numbered for good."""

from __future__ import annotations

from screen_text import screen_lines
from test_tui_snapshots import behind_the_ghosts_screen
from tui_support import PACK, make_app, settle, view_of, wait_until

from domicile_tui.screens.ghost import GhostScreen
from domicile_tui.session import Role
from domicile_tui.widgets.hand import GhostHand, keep_places


def test_a_kept_card_keeps_its_number_and_new_ones_fill_the_freed_places() -> None:
    before = ("a", "b", "c", "d", "e", "f", "g")
    assert keep_places((), before) == before
    # b and e given, h and i drawn: they take 2 and 5.
    assert keep_places(before, ("a", "c", "d", "f", "g", "h", "i")) == (
        "a",
        "h",
        "c",
        "d",
        "i",
        "f",
        "g",
    )
    # A refresh: every card new, numbered as drawn.
    assert keep_places(before, tuple("mnopqrs")) == tuple("mnopqrs")
    # The deck ran dry: a place stays empty rather than renumber the rest.
    assert keep_places(before, ("a", "c")) == ("a", None, "c")


async def test_the_ghost_sees_every_investigator_and_all_seven_dreams_at_80x24() -> None:
    app = make_app(Role.GHOST, plain_bots=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await behind_the_ghosts_screen(pilot)
        screen = app.screen
        assert isinstance(screen, GhostScreen)
        view = view_of(app)
        knowledge = view.ghost
        assert knowledge is not None
        state = view.state
        shown = "\n".join(screen_lines(app))
        placed = 0
        for seat in state.config.seats:
            investigator = state.investigator(seat)
            seeking = investigator.seeking
            assert seeking is not None
            target = PACK.investigator_card(knowledge.column(seat).card(seeking)).name
            assert f"▸ {target}" in shown, shown
            if investigator.marker is not None:
                placed += 1
                name = PACK.investigator_card(investigator.marker).name
                glyph = "◆" if investigator.locked else "◇"
                right = knowledge.column(seat).card(seeking) == investigator.marker
                assert f"{glyph} {name} {'✓ right' if right else '✗ wrong'}" in shown, shown
        assert placed >= 1, "the scene has a marker to show"
        for number in range(1, 8):
            assert any(line.startswith(f" {number} ") for line in screen_lines(app)), shown

        # After a give the dreams kept keep their numbers.
        hand = screen.query_one(GhostHand)
        numbered = {tile.dream.id: tile.number for tile in hand.query("DreamTile").results()}
        await pilot.press("g")
        await wait_until(pilot, lambda: len(set(view_of(app).ghost.hand) - set(numbered)) > 0)  # type: ignore[union-attr]
        await settle(pilot)
        after = {tile.dream.id: tile.number for tile in hand.query("DreamTile").results()}
        kept = set(numbered) & set(after)
        assert kept and all(after[card] == numbered[card] for card in kept)
        assert sorted(after.values()) == list(range(1, 8))
