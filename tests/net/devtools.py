"""Headless Chromium driven over the DevTools protocol (a websocket), for the browser seat's
tests: a fresh profile, no network but what a test allows, every event kept."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import shutil
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--no-proxy-server",
    # No name resolves and no address but the loopback is reached: the page can load
    # from the host on 127.0.0.1 alone.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
)
LISTENING = "DevTools listening on "


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Page:
    """One tab, attached with its own session; its events are kept in order."""

    def __init__(self, browser: DevTools, session: str) -> None:
        self.browser = browser
        self.session = session
        self.events: list[dict[str, Any]] = []
        self.changed = asyncio.Event()

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        return await self.browser.call(method, session=self.session, **params)

    async def until(self, found: Callable[[], Any], within: float, what: str) -> Any:
        """Wait for ``found()`` to be true, re-asked at each event the page sends."""
        try:
            async with asyncio.timeout(within):
                while not (result := found()):
                    self.changed.clear()
                    await self.changed.wait()
        except TimeoutError:
            raise AssertionError(f"no {what} in {within} s") from None
        return result

    def named(self, method: str) -> list[dict[str, Any]]:
        return [event["params"] for event in self.events if event["method"] == method]

    async def evaluate(self, expression: str) -> Any:
        answer = await self.call(
            "Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True
        )
        return answer["result"].get("value")


class DevTools:
    def __init__(self, connection: ClientConnection) -> None:
        self.connection = connection
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._pages: dict[str, Page] = {}
        self._reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        async for raw in self.connection:
            message = json.loads(raw)
            if "id" in message:
                future = self._waiting.pop(message["id"], None)
                if future is not None and not future.done():
                    future.set_result(message)
            elif (page := self._pages.get(message.get("sessionId", ""))) is not None:
                page.events.append(message)
                page.changed.set()

    async def call(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        ident = next(self._ids)
        message: dict[str, Any] = {"id": ident, "method": method, "params": params}
        if session is not None:
            message["sessionId"] = session
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[ident] = future
        await self.connection.send(json.dumps(message))
        answer = await asyncio.wait_for(future, 60)
        if "error" in answer:
            raise AssertionError(f"{method}: {answer['error']}")
        result: dict[str, Any] = answer["result"]
        return result

    async def new_page(self) -> Page:
        target = await self.call("Target.createTarget", url="about:blank")
        attached = await self.call(
            "Target.attachToTarget", targetId=target["targetId"], flatten=True
        )
        page = Page(self, attached["sessionId"])
        self._pages[page.session] = page
        for domain in ("Network", "Page", "Runtime"):
            await page.call(f"{domain}.enable")
        # The host's certificate is the table's own, self-signed (players pin it by its
        # fingerprint): this profile is the test's alone.
        await page.call("Security.setIgnoreCertificateErrors", ignore=True)
        return page

    async def close(self) -> None:
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._reader
        await self.connection.close()


@contextlib.asynccontextmanager
async def headless_chromium(profile: Path) -> AsyncIterator[DevTools]:
    """A headless Chromium with a fresh profile in ``profile``, closed afterwards."""
    binary = chromium()
    assert binary is not None
    process = await asyncio.create_subprocess_exec(
        binary, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--remote-debugging-port=0",
        "about:blank",
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert process.stderr is not None
    try:
        url = ""
        async with asyncio.timeout(60):
            while not url:
                line = (await process.stderr.readline()).decode(errors="replace")
                assert line, "chromium ended before it listened"
                if line.startswith(LISTENING):
                    url = line.removeprefix(LISTENING).strip()
        drain = asyncio.ensure_future(process.stderr.read())
        async with connect(url, max_size=None) as connection:
            browser = DevTools(connection)
            try:
                yield browser
            finally:
                await browser.close()
        drain.cancel()
    finally:
        if process.returncode is None:
            process.kill()
        await process.wait()
