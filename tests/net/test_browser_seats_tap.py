"""A browser seat played by taps, in headless Chromium with a phone's screen held upright:
the page asks to turn the phone sideways (and puts the request away when told), the
terminal takes the phone's layout, and a tap on a card places the seat's marker and a
tap on the footer's key locks it, as the host's transcript shows.

The terminal is drawn on a canvas: a cell is found from the terminal's size in cells
(what the page told the seat's process, on its websocket) and the screen's box on the
page (``getBoundingClientRect``); the taps are ``Input.dispatchMouseEvent`` there."""

from __future__ import annotations

import contextlib
import json
import math
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from devtools import Page, chromium, headless_chromium
from test_browser_seats import LOOPBACK, until
from test_browser_seats_chromium import received_text

aiohttp = pytest.importorskip("aiohttp", reason="browser seats need the web extra")

from domicile_p2p.net.adapters.browser_seats import BrowserSeat, BrowserSeatServer  # noqa: E402
from domicile_p2p.net.adapters.host import HostConfig, RunningHost, start_host  # noqa: E402
from domicile_p2p.packs import load_default_pack  # noqa: E402
from domicile_p2p.transcript.schema import GiveBody, Kind  # noqa: E402

pytestmark = [
    pytest.mark.skipif(chromium() is None, reason="needs Chromium (.ci/run installs it)"),
    pytest.mark.slow,
]

PHONE_UPRIGHT = {"width": 400, "height": 760, "deviceScaleFactor": 1, "mobile": True}
"""A phone's screen held upright, in CSS pixels (the page's terminal: ~40 columns)."""
PHONE_FOOTER_KEYS = ("players", "lock", "inspect", "talk", "cards", "dreams", "help")
"""The investigator's footer on a phone, in order, two keys a line (status_bar.KeysFooter):
⇄ Players & chat, L Lock / unlock, I Read card, T Talk, C Tableau, D Dreams, ? Help."""


@contextlib.asynccontextmanager
async def a_table_with_one_browser_seat(
    tmp_path: Path,
) -> AsyncIterator[tuple[RunningHost, BrowserSeat]]:
    """A host on 127.0.0.1 whose game begins once its browser seat is taken (the Ghost and
    the other investigator are bots, acting at once)."""
    host = await start_host(
        HostConfig(
            data_dir=tmp_path / "host",
            name="Friday",
            interface=LOOPBACK,
            port=0,
            investigators=2,
            bot_seats=frozenset({2}),
            ghost_bot=True,
            advertise=False,
            pack=load_default_pack(),
        )
    )
    table = host.tables()[0]
    server = BrowserSeatServer(
        certificate=host.certificate,
        interface=LOOPBACK,
        port=0,
        nameplate=table.nameplate,
        table_url=f"wss://{LOOPBACK}:{host.port}",
        code=table.code,
        seats=1,
        data_dir=tmp_path / "browser-seats",
        log=lambda event, fields: None,
    )
    (seat,) = await server.start()
    try:
        yield host, seat
    finally:
        await server.close()
        await host.close()


def terminal_size(page: Page) -> tuple[int, int]:
    """The terminal's columns and rows, as the page last told the seat's process: its
    websocket's query, then each ``resize`` it sent."""
    (created,) = page.named("Network.webSocketCreated")
    query = parse_qs(urlparse(created["url"]).query)
    size = (int(query["width"][0]), int(query["height"][0]))
    for frame in page.named("Network.webSocketFrameSent"):
        with contextlib.suppress(ValueError, TypeError, KeyError):
            kind, data = json.loads(frame["response"]["payloadData"])
            if kind == "resize":
                size = (int(data["width"]), int(data["height"]))
    return size


async def box(page: Page, selector: str) -> dict[str, float]:
    rect: dict[str, float] = await page.evaluate(
        f"(() => {{ const r = document.querySelector({json.dumps(selector)})"
        ".getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height}; })()"
    )
    return rect


async def tap_at(page: Page, x: float, y: float) -> None:
    for kind in ("mousePressed", "mouseReleased"):
        await page.call(
            "Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1
        )


async def tap_cell(page: Page, row: int, column: int) -> None:
    """A tap in the middle of the terminal's cell (``row``, ``column``), counted from 0."""
    columns, rows = terminal_size(page)
    screen = await box(page, "#terminal .xterm-screen")
    width, height = screen["width"] / columns, screen["height"] / rows
    await tap_at(page, screen["x"] + (column + 0.5) * width, screen["y"] + (row + 0.5) * height)


def moves_of(host: RunningHost, seat: int, kind: Kind) -> list[Any]:
    """The events of ``kind`` signed by ``seat`` in the host's transcript, in order."""
    room = next(iter(host.rooms.values()))
    events = room.game.event_objects if room.game is not None else ()
    return [event for event in events if event.kind is kind and event.seat == seat]


def dreams_given_to(host: RunningHost, seat: int) -> bool:
    room = next(iter(host.rooms.values()))
    events = room.game.event_objects if room.game is not None else ()
    return any(
        event.kind is Kind.GIVE and isinstance(event.body, GiveBody) and event.body.to == seat
        for event in events
    )


def seat_of(host: RunningHost, browser: BrowserSeat) -> int | None:
    room = next(iter(host.rooms.values()))
    return next((s for s, holder in room.holders.items() if holder.key == browser.key), None)


async def test_a_tap_places_the_marker_and_a_tap_locks_it_on_a_phone(tmp_path: Path) -> None:
    async with (
        a_table_with_one_browser_seat(tmp_path) as (host, browser),
        headless_chromium(tmp_path / "profile") as chromium_,
    ):
        page = await chromium_.new_page()
        await page.call("Emulation.setDeviceMetricsOverride", **PHONE_UPRIGHT)
        await page.call("Page.navigate", url=browser.url)
        await page.until(lambda: page.named("Page.loadEventFired"), 60, "the page")

        # Upright: the page asks to turn the phone sideways; OK puts the request away.
        shown = "getComputedStyle(document.getElementById('turn')).display"
        assert await page.evaluate(shown) == "flex"
        button = await box(page, "#turn button")
        await tap_at(page, button["x"] + button["width"] / 2, button["y"] + button["height"] / 2)
        assert await page.evaluate("document.getElementById('turn') === null")

        await until(lambda: seat_of(host, browser) is not None, 90, "the seat taken")
        seat = seat_of(host, browser)
        assert seat is not None
        await until(lambda: dreams_given_to(host, seat), 90, "the Ghost's first dreams")
        # The investigator's table drawn, its footer too (the terminal's output so far).
        await page.until(
            lambda: all(text in received_text(page) for text in (b"and seek a ", b"Lock / unlock")),
            60,
            "the table on the page",
        )
        columns, rows = terminal_size(page)
        assert columns < 60, "the phone's layout (fewer than 60 columns)"

        # The sought column alone fills the width, its cards from the fifth line down: a
        # tap on the eighth line, mid-screen, is on a card, which places the marker there.
        assert not moves_of(host, seat, Kind.PLACE)
        await tap_cell(page, 7, columns // 2)
        await until(lambda: moves_of(host, seat, Kind.PLACE), 60, "the marker placed")
        assert not moves_of(host, seat, Kind.LOCK)

        # L on the footer: its first line holds ⇄ and L, each half the width.
        footer_lines = math.ceil(len(PHONE_FOOTER_KEYS) / 2)
        lock = PHONE_FOOTER_KEYS.index("lock")
        await tap_cell(page, rows - footer_lines + lock // 2, (lock % 2) * (columns // 2) + 3)
        await until(lambda: moves_of(host, seat, Kind.LOCK), 60, "the marker locked")
        placed = moves_of(host, seat, Kind.PLACE)[-1]
        locked = moves_of(host, seat, Kind.LOCK)[-1]
        assert placed.counter < locked.counter  # the seat's own signed order
