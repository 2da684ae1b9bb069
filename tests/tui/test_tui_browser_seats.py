"""``domicile play --browser-seats N``: the table hosted on this laptop serves its seats to
browsers with ``domicile host``'s own server, and its lobby shows each seat's URL and QR
code (within 80x24); on 127.0.0.1, port 0."""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import re
import ssl

import pytest
from test_tui_network import LOOPBACK, WIDE, door
from tui_support import rendered, settings, wait_until

aiohttp = pytest.importorskip("aiohttp", reason="browser seats need the web extra")

from dataclasses import replace  # noqa: E402
from pathlib import Path  # noqa: E402

from domicile_p2p.client_api import CommandError, qr_lines  # noqa: E402
from domicile_p2p.net.address import Address  # noqa: E402
from domicile_p2p.net.join.codes import parse_code  # noqa: E402
from domicile_p2p.rules import Difficulty  # noqa: E402
from domicile_tui.app import DomicileApp  # noqa: E402
from domicile_tui.cli import browser_seats_from, register, settings_from  # noqa: E402
from domicile_tui.networked import HOST_DIR  # noqa: E402
from domicile_tui.news import LobbyInfo, SeatInfo  # noqa: E402
from domicile_tui.screens.browser_seats import BrowserSeatScreen  # noqa: E402
from domicile_tui.screens.lobby import LobbyScreen  # noqa: E402
from domicile_tui.session import Role  # noqa: E402
from domicile_tui.status import SeatKind  # noqa: E402
from domicile_tui.ticket import JoinTicket  # noqa: E402
from domicile_tui.widgets.investigators import who_plays  # noqa: E402
from domicile_tui.widgets.plain import Static  # noqa: E402

SMALL = (80, 24)


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="domicile")
    register(parser.add_subparsers(dest="command"))
    return parser.parse_args(["play", *argv])


def seats_asked(*argv: str) -> int:
    args = parse(*argv)
    return browser_seats_from(args, settings_from(args))


def test_play_checks_its_browser_seats_as_host_does() -> None:
    assert seats_asked() == 0
    assert seats_asked("--browser-seats", "2", "--interface", LOOPBACK) == 2
    # The player's own investigator seat is not a browser's; the Ghost's never is.
    assert seats_asked("--browser-seats", "3", "--interface", LOOPBACK, "--role", "ghost") == 3


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--browser-seats", "1"), "--browser-seats needs --interface IP"),
        (("--browser-seats", "3", "--interface", LOOPBACK), "has 2 open investigator seat(s)"),
        (("--browser-seats", "1", "--interface", LOOPBACK, "--offline"), "drop --offline"),
        (("--browser-seats", "1", "--interface", LOOPBACK, "--tutorial"), "drop --tutorial"),
        (("--browser-seats", "1", "--interface", LOOPBACK, "--menu"), "drop --menu"),
        (
            ("--browser-seats", "1", "--interface", LOOPBACK, "--browser-port", "-2"),
            "0 to 65535",
        ),
    ],
)
def test_browser_seats_play_cannot_serve_are_one_line_errors(
    argv: tuple[str, ...], message: str
) -> None:
    with pytest.raises(CommandError) as caught:
        seats_asked(*argv)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_a_joined_table_serves_no_browser_seats() -> None:
    from domicile_tui.cli import seat_request_from

    args = parse("--connect", "10.0.0.1", "--code", "7-raven-lantern", "--browser-seats", "1")
    with pytest.raises(CommandError, match="drop --browser-seats"):
        seat_request_from(args, settings_from(args))


async def test_the_laptop_host_serves_browser_seats_and_its_lobby_shows_their_codes(
    tmp_path: Path,
) -> None:
    hosting = replace(door(tmp_path), browser_seats=2)
    app = DomicileApp(hosting, defaults=settings(), open_at_once=True, offline=False)
    async with app.run_test(size=SMALL) as pilot:
        await wait_until(
            pilot,
            lambda: app.lobby is not None and len(app.lobby.browser_seats) == 2,
            "the browser seats in the lobby",
        )
        await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await pilot.pause()
        urls = app.lobby.browser_seats  # type: ignore[union-attr]
        host = app.session.host  # type: ignore[union-attr]
        assert all(url.startswith(f"https://{LOOPBACK}:") for url in urls)
        join = rendered(app.screen.query_one("#lobby-join", Static))
        for number, url in enumerate(urls, 1):
            assert f"Browser {number}    {url}" in join

        # Served by the host's own certificate, as domicile host serves them.
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        async with aiohttp.ClientSession() as web:
            for url in urls:
                async with web.get(url, ssl=context) as response:
                    assert response.status == 200
            async with web.get(urls[0][:-2] + "xx", ssl=context) as response:
                assert response.status == 404
        port = int(urls[0].split("/")[2].rsplit(":", 1)[1])
        pem = await asyncio.to_thread(ssl.get_server_certificate, (LOOPBACK, port))
        der = ssl.PEM_cert_to_DER_cert(pem)
        assert hashlib.sha256(der).digest() == host.certificate.fingerprint

        # B: each seat's QR code in turn (N), the code within 80x24 with its URL above it.
        await pilot.press("b")
        await wait_until(pilot, lambda: isinstance(app.screen, BrowserSeatScreen), "the code")
        await pilot.pause()
        for url in (*urls, urls[0]):
            screen = app.screen
            assert url in rendered(screen.query_one("#browser-seat-url", Static))
            code = screen.query_one("#browser-seat-code", Static)
            assert rendered(code).splitlines() == qr_lines(url)
            region = code.region
            assert region.height == len(qr_lines(url))
            assert region.right <= SMALL[0] and region.bottom <= SMALL[1]
            await pilot.press("n")
            await pilot.pause()
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby again")


async def test_the_lobby_and_the_table_mark_the_seat_a_browser_plays(tmp_path: Path) -> None:
    hosting = replace(door(tmp_path), browser_seats=1)
    app = DomicileApp(hosting, defaults=settings(), open_at_once=True, offline=False)
    async with app.run_test(size=WIDE) as pilot:
        await wait_until(
            pilot, lambda: app.lobby is not None and bool(app.lobby.browser_seats), "the seats"
        )
        lobby = app.lobby
        assert lobby is not None and lobby.code is not None
        host = app.session.host  # type: ignore[union-attr]
        ticket = JoinTicket(parse_code(lobby.code), Address(LOOPBACK, host.port))
        # The browser seat's client, as its page would start it: the seat's own data dir
        # (its key, made when the seat was served); beside it a friend at a terminal.
        seat_dir = tmp_path / HOST_DIR / "browser-seats" / f"table-{ticket.code.nameplate}"
        guests = [
            door(seat_dir / "seat-1").join(ticket, "Browser 1", Role.INVESTIGATOR),
            door(tmp_path / "friend").join(ticket, "Idris", Role.INVESTIGATOR),
        ]
        for guest in guests:
            await guest.open()

        def people() -> dict[str, SeatInfo]:
            seats = app.lobby.seats if app.lobby is not None else ()
            return {info.name: info for info in seats if info.kind is SeatKind.HUMAN}

        await wait_until(pilot, lambda: len(people()) == 2, "both guests seated")
        await pilot.pause()
        assert people()["Browser 1"].browser and not people()["Idris"].browser
        seats = rendered(app.screen.query_one("#lobby-seats", Static))
        assert re.search(r"Browser 1 +browser ", seats) and re.search(r"Idris +person ", seats)
        for guest in guests:
            await guest.close()


def test_the_table_s_list_says_who_plays_in_a_browser() -> None:
    seats = (
        SeatInfo(0, "Bot", SeatKind.BOT),
        SeatInfo(1, "Ada", SeatKind.YOU),
        SeatInfo(2, "Browser 1", SeatKind.HUMAN, browser=True),
        SeatInfo(3, "Idris", SeatKind.HUMAN),
    )
    lobby = LobbyInfo("Friday", Difficulty.NORMAL, seats, your_seat=1, is_host=True, offline=False)
    said = [who_plays(lobby, seat, yours=seat == 1) for seat in range(4)]
    assert said == [" (bot)", " (you)", " (browser)", ""]
