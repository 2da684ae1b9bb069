"""The table on a phone (a browser seat held upright: fewer than 60 columns): the side
panel is a tab, the sought column's cards read in full, and every action is a tap on the
footer or on a card (a phone's keyboard has no Esc and no arrows)."""

from __future__ import annotations

from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Input
from textual.widgets._footer import FooterKey
from tui_support import begin, make_app, rendered, settle, view_of, wait_until

from domicile_tui.app import DomicileApp
from domicile_tui.screens.base import PHONE_COLUMNS
from domicile_tui.screens.investigator import InvestigatorScreen
from domicile_tui.screens.seance import SeanceScreen
from domicile_tui.widgets.card import CardTile
from domicile_tui.widgets.chat import ChatPanel

PHONES = {"40x30": (40, 30), "56x40": (56, 40)}


def footer_keys(app: DomicileApp, *, whole: bool = True) -> dict[str, FooterKey]:
    """The footer's keys by their action, each wholly on screen (none cut off)."""
    keys = {key.action: key for key in app.screen.query(FooterKey) if key.display}
    width, height = app.size
    for action, key in keys.items() if whole else ():
        region = key.region
        assert region.width and region.right <= width and region.bottom <= height, action
    return keys


async def tap(pilot: Pilot[Any], key: FooterKey) -> None:
    await pilot.click(key)
    await settle(pilot)


def sought_tiles(app: DomicileApp) -> list[CardTile]:
    return [tile for tile in app.screen.query(CardTile) if tile.has_class("-seek")]


@pytest.mark.parametrize("size", PHONES)
async def test_on_a_phone_the_side_panel_is_a_tab_and_card_names_read_in_full(
    size: str,
) -> None:
    app = make_app(plain_bots=True)
    async with app.run_test(size=PHONES[size]) as pilot:
        await begin(pilot)
        screen = app.screen
        assert isinstance(screen, InvestigatorScreen) and screen.phone
        side, main = screen.query_one("#table-side"), screen.query_one("#table-main")
        assert main.region.width == PHONES[size][0] and not side.region
        # The sought column alone, across the whole width: every name in full.
        shown = [tile for tile in screen.query(CardTile) if tile.region]
        assert shown and shown == sought_tiles(app)
        for tile in shown:
            assert rendered(tile).splitlines()[0].rstrip().startswith(tile.card.name)

        # ⇄: the players and the chat in place of the table, and back.
        await tap(pilot, footer_keys(app)["players"])
        assert side.region.width == PHONES[size][0] and not main.region
        assert "Idris" in rendered(screen.query_one("#investigators"))
        assert isinstance(screen.focused, Input)
        await tap(pilot, footer_keys(app)["table_tab"])
        assert main.region and not side.region
        assert isinstance(screen.focused, CardTile)


@pytest.mark.parametrize("size", PHONES)
async def test_on_a_phone_every_action_is_a_tap(size: str) -> None:
    app = make_app(plain_bots=True)
    async with app.run_test(size=PHONES[size]) as pilot:
        await begin(pilot)
        keys = footer_keys(app)
        assert {"players", "lock", "inspect", "talk", "cards", "dreams", "help"} <= set(keys)
        # A tap on a card places the marker; a tap on the footer's key locks it.
        target = sought_tiles(app)[1]
        await pilot.click(target)
        await wait_until(pilot, lambda: view_of(app).state.investigator(1).marker == target.card.id)
        await settle(pilot)  # the footer follows the focus (the card tapped)
        assert not view_of(app).state.investigator(1).locked
        await tap(pilot, footer_keys(app)["lock"])
        # The others (plain players) locked at once: the séance comes once this seat is too.
        await wait_until(pilot, lambda: isinstance(app.screen, SeanceScreen), what="the séance")


async def test_above_the_phone_width_the_side_panel_stays_beside_the_table() -> None:
    app = make_app(plain_bots=True)
    async with app.run_test(size=(PHONE_COLUMNS, 24)) as pilot:
        await begin(pilot)
        screen = app.screen
        assert isinstance(screen, InvestigatorScreen) and not screen.phone
        assert screen.query_one("#table-side").region and screen.query_one("#table-main").region
        assert "players" not in footer_keys(app, whole=False)
        # Turned upright (a phone's browser): the phone's layout, at once.
        await pilot.resize_terminal(40, 30)
        await settle(pilot)
        assert screen.phone and not screen.query_one("#table-side").region
        assert "players" in footer_keys(app)


async def at_the_table_on_a_phone(pilot: Pilot[Any]) -> None:
    app = pilot.app
    assert isinstance(app, DomicileApp)
    await begin(pilot)
    tile = sought_tiles(app)[1]
    await pilot.click(tile)
    await wait_until(pilot, lambda: view_of(app).state.investigator(1).marker == tile.card.id)
    await wait_until(
        pilot, lambda: "Your marker is on" in rendered(app.screen.query_one("#prompt"))
    )
    await settle(pilot)


async def the_players_tab_on_a_phone(pilot: Pilot[Any]) -> None:
    app = pilot.app
    assert isinstance(app, DomicileApp)
    await at_the_table_on_a_phone(pilot)
    await tap(pilot, footer_keys(app)["players"])
    await wait_until(pilot, lambda: set(footer_keys(app)) == {"table_tab"}, what="⇄ Table")
    await wait_until(pilot, lambda: app.screen.query_one("#table-side").region.width > 0)
    # The chat line has the focus: its cursor held still, so the picture does not depend
    # on when it is taken.
    app.screen.query_one(ChatPanel).query_one(Input).cursor_blink = False
    await settle(pilot)


PHONE_SCENES = {"table": at_the_table_on_a_phone, "players": the_players_tab_on_a_phone}


@pytest.mark.slow
@pytest.mark.parametrize("size", PHONES)
@pytest.mark.parametrize("scene", PHONE_SCENES)
def test_the_table_looks_as_it_should_on_a_phone(snap_compare: Any, scene: str, size: str) -> None:
    app = make_app(plain_bots=True)
    assert snap_compare(app, terminal_size=PHONES[size], run_before=PHONE_SCENES[scene])


async def test_the_footer_follows_its_screen_while_the_page_has_no_focus() -> None:
    # A browser seat's page has no focus until it is first tapped (Textual's app_focus):
    # the keys must be on screen, and the right ones, to be tapped all the same.
    app = make_app(plain_bots=True)
    async with app.run_test(size=PHONES["40x30"]) as pilot:
        await begin(pilot)
        app.post_message(events.AppBlur())
        await settle(pilot)
        assert not app.app_focus
        await app.screen.run_action("players")  # ⇄: the players' tab, its footer ⇄ Table
        await settle(pilot)
        assert not app.app_focus
        assert set(footer_keys(app)) == {"table_tab"}


async def test_a_tap_on_another_card_leaves_the_footer_s_keys_in_place() -> None:
    # Textual's footer rebuilds its keys at every change of focus: a tap on the footer
    # just after one on a card would find no key there, and be lost.
    app = make_app(plain_bots=True)
    async with app.run_test(size=PHONES["40x30"]) as pilot:
        await begin(pilot)
        before = footer_keys(app)
        await pilot.click(sought_tiles(app)[2])
        await wait_until(pilot, lambda: view_of(app).state.investigator(1).marker is not None)
        await settle(pilot)
        after = footer_keys(app)
        assert after.keys() == before.keys()
        assert all(after[action] is before[action] for action in before)


@pytest.mark.slow
async def test_stage_two_on_a_phone_reads_every_card_of_every_case_in_full() -> None:
    from test_tui_snapshots import into_stage_two
    from tui_support import stage_two_app

    from domicile_tui.screens.culprit import CulpritScreen
    from domicile_tui.widgets.grouped import GroupedTableau

    app = stage_two_app(plain_ghost=True)
    async with app.run_test(size=PHONES["40x30"]) as pilot:
        await into_stage_two(pilot)
        screen = app.screen
        assert isinstance(screen, CulpritScreen) and screen.phone
        tiles = list(screen.query_one(GroupedTableau).query(CardTile))
        assert len(tiles) == 3 * len(view_of(app).state.grouped_tableau)
        for tile in tiles:  # a name too long for its tile would end in "…"
            assert rendered(tile).splitlines()[0].rstrip().startswith(tile.card.name)
        assert {"players", "lock", "talk", "cards"} <= set(footer_keys(app))
