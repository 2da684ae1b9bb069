"""A browser seat in a real browser: headless Chromium (a fresh profile, no name resolving,
no proxy) loads the seat's page from a host on 127.0.0.1, every request goes to that host
alone, the lobby arrives over the page's websocket; a wrong token and a page from another
origin are refused."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from devtools import Page, chromium, headless_chromium
from test_browser_seats import LOOPBACK, Served, serving

aiohttp = pytest.importorskip("aiohttp", reason="browser seats need the web extra")
from aiohttp import web  # noqa: E402

pytestmark = [
    pytest.mark.skipif(chromium() is None, reason="needs Chromium (.ci/run installs it)"),
    pytest.mark.slow,
]


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[Served]:
    async with serving(tmp_path) as seats:
        yield seats


@pytest.fixture
async def page(tmp_path: Path) -> AsyncIterator[Page]:
    async with headless_chromium(tmp_path / "profile") as browser:
        yield await browser.new_page()


def received_text(page: Page) -> bytes:
    """Everything the page's websocket received (the terminal's output), decoded."""
    frames = page.named("Network.webSocketFrameReceived")
    chunks = []
    for frame in frames:
        response = frame["response"]
        data = response["payloadData"]
        chunks.append(base64.b64decode(data) if response["opcode"] == 2 else data.encode())
    return b"".join(chunks)


async def test_the_seat_page_loads_from_the_host_alone_and_the_lobby_arrives(
    served: Served,
    page: Page,
) -> None:
    seat = served.seats.seats[0]
    await page.call("Page.navigate", url=seat.url + "?width=100&height=30")
    await page.until(lambda: b"Browser 1" in received_text(page), 90, "lobby in the page")
    assert served.host.tables()[0].seats_free == 1
    requested = [event["request"]["url"] for event in page.named("Network.requestWillBeSent")]
    sockets = [event["url"] for event in page.named("Network.webSocketCreated")]
    assert requested and sockets
    for url in [*requested, *sockets]:
        assert url.split("/")[2] == served.authority, url
    statuses = {
        e["response"]["url"]: e["response"]["status"]
        for e in page.named("Network.responseReceived")
    }
    assert all(status == 200 for status in statuses.values()), statuses
    assert not page.named("Network.loadingFailed")


async def test_a_wrong_token_is_404_in_the_browser(served: Served, page: Page) -> None:
    seat = served.seats.seats[0]
    wrong = seat.url[:-1] + ("A" if seat.url[-1] != "A" else "B")
    await page.call("Page.navigate", url=wrong)
    responses = await page.until(lambda: page.named("Network.responseReceived"), 30, "response")
    assert responses[0]["response"]["status"] == 404
    assert not page.named("Network.webSocketCreated")
    assert served.seats.live == frozenset()


async def test_a_page_from_another_origin_cannot_open_the_seat(served: Served, page: Page) -> None:
    seat = served.seats.seats[0]
    socket_url = seat.url.replace("https://", "wss://") + "/ws"

    async def elsewhere(_: web.Request) -> web.Response:
        return web.Response(
            text="<!DOCTYPE html><title>elsewhere</title>", content_type="text/html"
        )

    app = web.Application()
    app.add_routes([web.get("/", elsewhere)])
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, LOOPBACK, 0)
    await site.start()
    try:
        port = runner.addresses[0][1]
        await page.call("Page.navigate", url=f"http://{LOOPBACK}:{port}/")
        await page.until(lambda: page.named("Page.loadEventFired"), 30, "the other page")
        outcome = await page.evaluate(
            "new Promise(done => { const s = new WebSocket(" + repr(socket_url) + ");"
            " s.onopen = () => done('open'); s.onerror = () => done('refused'); })"
        )
        assert outcome == "refused"
        assert served.seats.live == frozenset()
        refused = [fields for event, fields in served.logged if event == "browser-seat-refused"]
        assert refused and f"http://{LOOPBACK}:{port}" in refused[-1]["reason"]
    finally:
        await runner.cleanup()
