"""The tutorial's chapters can be chosen: 2 or 3 in its lobby, or --chapter N."""

from __future__ import annotations

import pytest
from test_tui_tutorial import tutorial_app
from tui_support import DATA_DIR, PACK, settings, wait_until

from domicile_p2p.cli import CommandError, build_parser
from domicile_tui.app import DomicileApp
from domicile_tui.cli import _play
from domicile_tui.coach import shared_images
from domicile_tui.connect import TableDoor
from domicile_tui.pacing import BotPace
from domicile_tui.screens.culprit import CulpritScreen
from domicile_tui.screens.ghost import GhostScreen
from domicile_tui.screens.lobby import LobbyScreen
from domicile_tui.widgets.hint import HintBar


async def test_three_in_the_tutorials_lobby_goes_straight_to_stage_two() -> None:
    app = tutorial_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        assert app.tutorial is not None and app.tutorial.chapter.number == 1
        await pilot.press("3")
        await wait_until(pilot, lambda: isinstance(app.screen, CulpritScreen), "Stage Two")
        assert app.tutorial is not None and app.tutorial.chapter.number == 3


async def test_the_tutorial_can_begin_at_the_ghosts_chapter() -> None:
    door = TableDoor(PACK, pace=BotPace(0), lan=False, data_dir=DATA_DIR)
    app = DomicileApp(
        door, defaults=settings(), open_at_once=True, offline=True, seance_step=0, tutorial=2
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, GhostScreen), "the Ghost's chair")
        assert app.tutorial is not None and app.tutorial.chapter.number == 2


def test_chapter_without_the_tutorial_is_refused() -> None:
    args = build_parser().parse_args(["play", "--chapter", "2", "--offline"])
    with pytest.raises(CommandError, match="--chapter chooses where the tutorial begins"):
        _play(args)


def hint_words(app: DomicileApp) -> str:
    bars = app.screen.query(HintBar)
    return str(bars.first(HintBar).render()) if bars else ""


async def test_the_hints_name_what_to_look_for_in_the_dreams() -> None:
    app = tutorial_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await pilot.press("enter")
        await wait_until(pilot, lambda: "Your dreams keep showing" in hint_words(app), "the hint")
        view = app.view
        assert view is not None
        dreams = [PACK.dream(card) for card in view.state.investigator(view.seat).dreams]
        images = shared_images(dreams)
        assert images and f"Your dreams keep showing {', '.join(images)}" in hint_words(app)


async def test_the_ghosts_hint_names_what_its_dreams_must_show() -> None:
    door = TableDoor(PACK, pace=BotPace(0), lan=False, data_dir=DATA_DIR)
    app = DomicileApp(
        door, defaults=settings(), open_at_once=True, offline=True, seance_step=0, tutorial=2
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, GhostScreen), "the Ghost's chair")
        await wait_until(pilot, lambda: "Look for dreams that show" in hint_words(app), "its hint")
        knowledge = app.view.ghost  # type: ignore[union-attr]
        assert knowledge is not None
        targets = [
            PACK.investigator_card(knowledge.column(seat).card(seeking)).name
            for seat in app.view.state.config.seats  # type: ignore[union-attr]
            for seeking in [app.view.state.investigator(seat).seeking]  # type: ignore[union-attr]
            if seeking is not None
        ]
        assert any(f"Look for dreams that show {name}:" in hint_words(app) for name in targets)


def test_the_images_dreams_share_come_first() -> None:
    sea = PACK.dreams[0]
    others = [dream for dream in PACK.dreams[1:] if dream.motifs & sea.motifs][:2]
    shared = shared_images([sea, *others])
    counts = [sum(motif in d.motifs for d in [sea, *others]) for motif in shared]
    assert counts == sorted(counts, reverse=True) and counts[0] >= 2


async def test_the_tutorials_lobby_hint_waits_for_nothing_while_the_door_opens() -> None:
    # As ``domicile play --tutorial`` starts: the door (the card pack) opens after the first
    # frame, while the tutorial's lobby and its hint already show.
    door = TableDoor(PACK, pace=BotPace(0), lan=False, data_dir=DATA_DIR)
    app = DomicileApp(
        lambda: door, defaults=settings(), open_at_once=True, offline=True, tutorial=True
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await wait_until(pilot, lambda: "Press Enter to begin" in hint_words(app), "the hint")
        assert app.return_code is None, "nothing crashed"
