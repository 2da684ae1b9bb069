"""Another game at the same table (issue 12, item 2), in the client: the host's N opens
the next game's lobby with the same code and seats, a guest's end screen follows by
itself, each person says ready (R), the owner may move the seats round (O)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_tui_end_to_end import play_a_whole_game
from test_tui_network import LOOPBACK, WIDE, door
from textual.pilot import Pilot
from textual.widgets import Input, Static
from tui_support import (
    PACK,
    composed,
    press_at_the_table,
    rendered,
    settings,
    view_of,
    wait_until,
)

from domicile_p2p.net.adapters.host import HostConfig, start_host
from domicile_p2p.rules import GHOST, Difficulty
from domicile_p2p.transcript.verify import verify
from domicile_tui.app import DomicileApp
from domicile_tui.news import ChatLine, LobbyInfo, SeatInfo
from domicile_tui.screens.confirm import ConfirmScreen
from domicile_tui.screens.end import EndScreen
from domicile_tui.screens.ghost import GhostScreen
from domicile_tui.screens.investigator import InvestigatorScreen
from domicile_tui.screens.join import JoinScreen
from domicile_tui.screens.lobby import LobbyScreen, rematch_hint
from domicile_tui.status import SeatKind


def _game_id(app: DomicileApp) -> str | None:
    host = app.session.host  # type: ignore[union-attr]
    return host.tables()[0].game_id if host is not None else None


def _shown(app: DomicileApp, widget: str) -> str:
    """The text of ``widget`` on the screen now ("" while that screen is still composed:
    a wait that reads it right after a screen change must not fail on that)."""
    found = app.screen.query(widget)
    return rendered(found.first(Static)) if found else ""


async def _to_the_end(pilot: Pilot[Any], app: DomicileApp) -> None:
    await play_a_whole_game(pilot, app)
    await wait_until(pilot, lambda: app.verification is not None, "the proof")
    assert app.verification is not None and app.verification.ok


@pytest.mark.slow
async def test_a_guests_end_screen_follows_the_host_into_the_next_games_lobby(
    tmp_path: Path,
) -> None:
    """When the host opens the next game (its owner's N, or ``--games`` after its rest) the
    guest on the end screen is taken to that lobby, says ready with R, and the second game
    begins, same code."""
    host = await start_host(
        HostConfig(
            data_dir=tmp_path / "host",
            name="Friday",
            interface=LOOPBACK,
            port=0,
            investigators=1,
            difficulty=Difficulty.EASY,
            ghost_bot=True,
            advertise=False,
            pack=PACK,
            games=2,
            rest=600,  # the host's own next game comes later: this test opens it itself
        )
    )
    code = host.tables()[0].code
    try:
        app = DomicileApp(
            door(tmp_path / "me"), defaults=settings(), open_at_once=False, seance_step=0
        )
        async with app.run_test(size=WIDE) as pilot:
            await pilot.press("a")
            await wait_until(pilot, lambda: composed(app, JoinScreen, "#code"), "the join form")
            app.screen.query_one("#code", Input).value = code
            app.screen.query_one("#address", Input).value = f"wss://{LOOPBACK}:{host.port}"
            await pilot.press("ctrl+s")
            await wait_until(pilot, lambda: isinstance(app.screen, InvestigatorScreen), "seated")
            first = host.tables()[0].game_id
            await _to_the_end(pilot, app)
            await wait_until(pilot, lambda: isinstance(app.screen, EndScreen), "the end")
            host.next_game()

            def next_lobby() -> bool:
                lobby = app.lobby
                return isinstance(app.screen, LobbyScreen) and lobby is not None and lobby.game == 2

            await wait_until(pilot, next_lobby, "the next game's lobby, by itself")
            lobby = app.lobby
            assert lobby is not None and lobby.code == code and not lobby.started
            assert lobby.your_seat == 1 and not lobby.you_ready
            await wait_until(pilot, lambda: "not ready" in _shown(app, "#lobby-seats"), "ready")
            hint = _shown(app, "#lobby-hint")
            assert "Game 2 at the same table" in hint and "R: say you are ready" in hint
            assert host.tables()[0].game_id is None, "nothing begins before the guest is ready"
            await pilot.press("r")
            await wait_until(pilot, lambda: isinstance(app.screen, InvestigatorScreen), "game 2")
            second = host.tables()[0].game_id
            assert second is not None and second != first
            assert host.tables()[0].code == code
            await app.session.close()  # type: ignore[union-attr]
    finally:
        await host.close()
    archive = tmp_path / "host" / "games" / f"{first}.json"
    assert verify(archive).valid


@pytest.mark.slow
async def test_the_hosts_n_opens_the_next_game_at_the_same_table_and_o_moves_the_seats(
    tmp_path: Path,
) -> None:
    app = DomicileApp(
        door(tmp_path),
        defaults=settings(investigators=1, difficulty=Difficulty.EASY),
        open_at_once=True,
        offline=False,
        seance_step=0,
    )
    async with app.run_test(size=WIDE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        # Enter starts a lobby the host has described, not the table still opening.
        await wait_until(pilot, lambda: bool(app.lobby and app.lobby.can_start), "startable")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, InvestigatorScreen), "the game")
        lobby = app.lobby
        assert lobby is not None
        code, first = lobby.code, _game_id(app)
        await _to_the_end(pilot, app)
        await wait_until(pilot, lambda: isinstance(app.screen, EndScreen), "the end")
        # The host is told where its game is kept (its own archive), and quitting says so.
        where = f"kept in the data dir, host/games/{first}.json"
        await wait_until(pilot, lambda: where in _shown(app, "#end-head"), "where it is kept")
        await press_at_the_table(pilot, "escape")  # not the last séance's, which closed itself
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        question = app.screen.question  # type: ignore[attr-defined]
        assert "lost" not in question and "host/games" in question
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, EndScreen), "the end again")
        # Game 1's talk stays with game 1 (its lines name the seats as they were then).
        app.chat = (ChatLine(1, "Ada", "well played"),)
        await press_at_the_table(pilot, "n")  # N again once it is no longer the dialog's

        def next_lobby() -> bool:
            lobby = app.lobby
            return isinstance(app.screen, LobbyScreen) and lobby is not None and lobby.game == 2

        await wait_until(pilot, next_lobby, "the next game's lobby")
        lobby = app.lobby
        assert lobby is not None and lobby.code == code, "the same table, the same code"
        assert app.chat == ()
        assert lobby.can_start and lobby.can_rotate and lobby.your_seat == 1
        await wait_until(pilot, lambda: "Game 2" in _shown(app, "#lobby-hint"), "the hint")
        hint = _shown(app, "#lobby-hint")
        assert "Game 2 at the same table" in hint and "O: everyone moves round" in hint
        assert "the table waits for you to start (Enter)" in hint
        assert "Waiting for you" not in hint, "the owner is waited for, never waits for itself"
        await pilot.press("o")
        await wait_until(pilot, lambda: app.lobby is not None and app.lobby.your_seat == GHOST, "")
        lobby = app.lobby
        assert lobby is not None
        assert [s.kind for s in lobby.seats] == [SeatKind.YOU, SeatKind.BOT]
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, GhostScreen), "game 2, as the Ghost")
        second = _game_id(app)
        assert second is not None and second != first
        assert view_of(app).seat == GHOST
        kept = tmp_path / "host" / "games" / f"{first}.json"
        assert verify(kept).valid
        await app.session.close()  # type: ignore[union-attr]


async def test_the_owner_starts_without_a_guest_not_ready_who_may_then_watch(
    tmp_path: Path,
) -> None:
    """A guest who never says ready cannot stall the next game: the lobby says how long a
    seat may stay not ready, the owner's start goes without them (the host's bot takes the
    seat), and the guest's screen says so and offers to watch instead; yes watches it."""
    host = await start_host(
        HostConfig(
            data_dir=tmp_path / "host",
            name="Friday",
            interface=LOOPBACK,
            port=0,
            investigators=1,
            difficulty=Difficulty.EASY,
            ghost_bot=True,
            advertise=False,
            pack=PACK,
            games=2,
            rest=600,
        )
    )
    code = host.tables()[0].code
    try:
        app = DomicileApp(
            door(tmp_path / "me"), defaults=settings(), open_at_once=False, seance_step=0
        )
        async with app.run_test(size=WIDE) as pilot:
            await pilot.press("a")
            await wait_until(pilot, lambda: composed(app, JoinScreen, "#code"), "the join form")
            app.screen.query_one("#code", Input).value = code
            app.screen.query_one("#address", Input).value = f"wss://{LOOPBACK}:{host.port}"
            await pilot.press("ctrl+s")
            await wait_until(pilot, lambda: isinstance(app.screen, InvestigatorScreen), "seated")
            await _to_the_end(pilot, app)
            await wait_until(pilot, lambda: isinstance(app.screen, EndScreen), "the end")
            host.next_game()
            await wait_until(
                pilot,
                lambda: "A seat not ready within 120 s is freed" in _shown(app, "#lobby-hint"),
                "the lobby says how long a seat may stay not ready",
            )
            host.start_table()  # the owner will not wait
            await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the offer")
            question = app.screen.question  # type: ignore[attr-defined]
            assert question == (
                "The host's owner started the game without you (you were not ready); "
                "you may watch it. Watch the game instead?"
            )
            await wait_until(pilot, lambda: host.tables()[0].game_id is not None, "game 2 began")
            await pilot.press("y")
            await wait_until(
                pilot, lambda: app.lobby is not None and app.lobby.watching, "watching game 2"
            )
            await app.session.close()  # type: ignore[union-attr]
    finally:
        await host.close()


def _rematch_lobby(*, owner: bool, ready: tuple[bool, bool]) -> LobbyInfo:
    """Game 2 at Bo's table: Bo (the owner, seat 1, not ready: the owner's Enter is its
    ready) and Ann (seat 2), seen by Bo (``owner``) or by Ann."""
    bo = SeatKind.YOU if owner else SeatKind.HUMAN
    ann = SeatKind.HUMAN if owner else SeatKind.YOU
    seats = (
        SeatInfo(0, "Bot", SeatKind.BOT),
        SeatInfo(1, "Bo", bo, ready=ready[0]),
        SeatInfo(2, "Ann", ann, ready=ready[1]),
    )
    return LobbyInfo(
        "Friday",
        Difficulty.NORMAL,
        seats,
        your_seat=1 if owner else 2,
        is_host=owner,
        offline=False,
        game=2,
        can_start=owner,
        can_rotate=owner,
    )


def test_the_rematch_lobby_tells_the_owner_what_it_does_and_the_guests_whom_they_wait_for() -> None:
    # The owner Bo read "Waiting for you, Bo." (issue 23 §10): as if the table waited for Bo.
    owner = rematch_hint(_rematch_lobby(owner=True, ready=(False, False))).plain
    assert "Waiting for" not in owner and "Bo" not in owner
    assert owner.endswith("Ann is not ready yet.")
    owner = rematch_hint(_rematch_lobby(owner=True, ready=(False, True))).plain
    assert owner.endswith("Everyone is ready: the table waits for you to start (Enter).")
    guest = rematch_hint(_rematch_lobby(owner=False, ready=(False, True))).plain
    assert guest.endswith("Waiting for Bo.")
    guest = rematch_hint(_rematch_lobby(owner=False, ready=(False, False))).plain
    assert guest.endswith("Waiting for Bo and you.")
