"""Browser seats: a table's investigator seat played in a browser, served by the host.

Each seat is ``https://ADDRESS:PORT/s/TOKEN`` (TLS with the table's certificate, bound to
the table's interface).  Its page is this module's own (textual-serve's asks an outside
font host for a stylesheet, and a LAN has no internet): it loads textual-serve's terminal
script and the fonts bundled with it, from this server only.  The page's websocket runs
``domicile play --connect … --role investigator`` for that seat (the table's code in its
environment, not on its command line, which any local user may read), with the seat's
own data dir (its identity key: a page that comes back gets its game back), through
textual-serve's process bridge.  Who may reach what is decided in
:mod:`domicile_p2p.net.browser_gate`: a wrong or missing token gets 404 everywhere, a
websocket from another page or host is refused, one process runs per seat at most.

Needs the ``web`` extra (``pip install 'domicile-p2p[web]'``); importing this module
without it raises :class:`ImportError`.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import secrets
import shlex
import sys
from asyncio.subprocess import Process
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any, Final

from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from domicile_p2p.net.adapters.key_files import load_or_create_identity
from domicile_p2p.net.adapters.tls import HostCertificate, server_context
from domicile_p2p.net.browser_gate import (
    TOKEN_BYTES,
    Admission,
    admit,
    authority,
    same_origin,
    seat_of,
)
from domicile_p2p.net.join.codes import CODE_VARIABLE

STATIC_FILES: Final[Mapping[str, str]] = {
    "xterm.css": "css/xterm.css",
    "textual.js": "js/textual.js",
    "RobotoMono.ttf": "fonts/RobotoMono-VariableFont_wght.ttf",
    "RobotoMono-Italic.ttf": "fonts/RobotoMono-Italic-VariableFont_wght.ttf",
}
"""Every file a seat's page loads, by the name it is served under: nothing else is served
(no directory, no listing)."""
CONTENT_TYPES: Final[Mapping[str, str]] = {
    ".css": "text/css",
    ".js": "text/javascript",
    ".ttf": "font/ttf",
}
MIN_SIZE, MAX_SIZE = 10, 400
"""The terminal sizes a page may ask for (columns or rows); others are clamped."""
STOP_WAIT = 5.0
"""Seconds a seat's process has to quit when its page goes, before it is killed."""
HEARTBEAT = 15.0
"""Seconds between the websocket's pings: a page gone silent (a phone asleep) is noticed."""

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>{title}</title>
<link rel="stylesheet" href="{static}xterm.css">
<script src="{static}textual.js"></script>
<style>
@font-face {{ font-family: "Roboto Mono"; src: url("{static}RobotoMono.ttf"); }}
@font-face {{ font-family: "Roboto Mono"; font-style: italic;
  src: url("{static}RobotoMono-Italic.ttf"); }}
html, body {{ margin: 0; height: 100%; background: #0c181f; }}
.textual-terminal {{ width: 100vw; height: 100vh; }}
.closed {{ display: none; color: #eee; font-family: "Roboto Mono", monospace;
  position: absolute; inset: 0; align-items: center; justify-content: center; }}
body.-closed .closed {{ display: flex; }}
.turn {{ display: none; }}
@media (orientation: portrait) and (max-width: {portrait_width}px) {{
  .turn {{ display: flex; gap: 1em; align-items: center; position: fixed; top: 0; left: 0;
    right: 0; z-index: 10; padding: 0.5em 1em; background: #ac5af4; color: #fff;
    font-family: "Roboto Mono", monospace; }}
}}
</style>
</head>
<body>
<div class="turn" id="turn"><span>Turn your phone sideways: the table has more room.</span>
  <button type="button" onclick="this.parentNode.remove()">OK</button></div>
<div class="closed"><p>The seat closed. <a href="" style="color:#ac5af4">Open it again</a></p></div>
<div id="terminal" class="textual-terminal" data-session-websocket-url="{websocket}"
  data-font-size="16"></div>
</body>
</html>
"""


PORTRAIT_WIDTH = 600
"""CSS pixels: a page held upright and at most this wide (a phone) is asked to turn
sideways (the terminal is then ~40 columns wide; sideways it is ~90, beyond the phone
layout's 60), with a button that puts the request away."""

QR_BORDER = 2
"""Light modules around the code (readers want a quiet zone; two are enough on a screen)."""


def qr_lines(url: str) -> list[str]:
    """``url`` as a QR code in text, two module rows a line (half blocks), its light modules
    drawn (a terminal's dark background is the code's dark): a seat's URL on an IPv4
    address (at most version 4, 37x37 with the border) takes at most 37 columns and 19
    lines, within 80x24."""
    import segno  # the web extra, as this whole module

    code = segno.make(url, error="l", boost_error=False)
    size = len(code.matrix) + 2 * QR_BORDER

    def light(row: int, column: int) -> bool:
        inner_row, inner_column = row - QR_BORDER, column - QR_BORDER
        if not (0 <= inner_row < len(code.matrix) and 0 <= inner_column < len(code.matrix)):
            return True
        return not code.matrix[inner_row][inner_column]

    glyphs = {(True, True): "█", (True, False): "▀", (False, True): "▄", (False, False): " "}
    return [
        "".join(glyphs[light(row, column), light(row + 1, column)] for column in range(size))
        for row in range(0, size, 2)
    ]


def mint_token() -> str:
    """A seat's token: random, URL-safe (what :func:`browser_gate.seat_of` expects)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def clamp(text: str | None, default: int) -> int:
    try:
        value = int(text) if text is not None else default
    except ValueError:
        value = default
    return max(MIN_SIZE, min(MAX_SIZE, value))


@dataclass(frozen=True, slots=True)
class BrowserSeat:
    """One seat served to a browser: its secret token, its URL, the data dir its client
    keeps its identity key in, and that key (public, hex: the seat the host marks)."""

    token: str
    url: str
    data_dir: Path
    key: str


def seat_command(table_url: str, fingerprint_hex: str, name: str, data_dir: Path) -> list[str]:
    """``domicile play`` for one browser seat: an investigator at this table, pinned to this
    host's certificate, with the seat's own data dir (never the host's).  The table's code
    is not on it (any local user may read a command line): see :func:`seat_environment`."""
    return [
        sys.executable, "-m", "domicile_p2p", "play",
        "--connect", table_url, "--fingerprint", fingerprint_hex,
        "--role", "investigator", "--name", name, "--data-dir", str(data_dir),
    ]  # fmt: skip


def seat_environment(code: str) -> dict[str, str]:
    """What a seat's process gets in its environment besides the host's: the table's code
    (:data:`CODE_VARIABLE`, readable by the host's user alone)."""
    return {CODE_VARIABLE: code}


class SeatProcess(AppService):
    """textual-serve's process bridge for one seat, run as this host wants it: the command
    run directly (no shell), its errors kept in the seat's own ``seat.log`` (never on the
    host's output, which is its JSON log), and a stop that always ends and reaps it."""

    def __init__(
        self, argv: Sequence[str], environment: Mapping[str, str], errors: Path, **bridge: Any
    ) -> None:
        super().__init__(shlex.join(argv), **bridge)
        self._argv = list(argv)
        self._environment = dict(environment)
        self._errors = errors

    @property
    def process(self) -> Process | None:
        return self._process

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Process:
        with self._errors.open("ab") as errors:
            self._process = process = await asyncio.create_subprocess_exec(
                *self._argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=errors,
                env={**self._build_environment(width=width, height=height), **self._environment},
            )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    async def run(self) -> None:
        """Relay the process's frames to the page until its output ends."""
        assert self._process is not None and self._process.stdout is not None
        stdout = self._process.stdout
        try:
            while (line := await stdout.readline()) and line != b"__GANGLION__\n":
                pass  # whatever the process says before Textual's prelude
            while True:
                kind = await stdout.readexactly(1)
                size = int.from_bytes(await stdout.readexactly(4), "big")
                payload = await stdout.readexactly(size)
                if kind == b"D":
                    await self.on_data(payload)
                elif kind == b"M":
                    await self.on_meta(payload)
                elif kind == b"P":
                    await self.on_packed(payload)
        except (asyncio.IncompleteReadError, ConnectionResetError):
            pass

    async def stop(self) -> None:
        """Ask the app to quit, and end it if it has not within :data:`STOP_WAIT`."""
        process, task = self._process, self._task
        if process is None:
            return
        with contextlib.suppress(Exception):
            await self._download_manager.cancel_app_downloads(app_service_id=self.app_service_id)
        if process.returncode is None:
            with contextlib.suppress(Exception):
                await self.send_meta({"type": "quit"})
            try:
                await asyncio.wait_for(process.wait(), STOP_WAIT)
            except TimeoutError:
                process.kill()
                await process.wait()
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            self._task = None


@dataclass(slots=True)
class _Live:
    websocket: web.WebSocketResponse
    service: SeatProcess


class BrowserSeatServer:
    """Serves ``seats`` browser seats of one table until :meth:`close`.

    ``interface`` is the address to bind and to name in the seats' URLs (a concrete one:
    a seat's URL must say where it is); ``port`` 0 takes any free one.  ``log`` is the
    host's JSON log (one ``browser-seat`` record per seat, refusals as
    ``browser-seat-refused``); ``command`` builds a seat's process (tests may swap it)."""

    def __init__(
        self,
        *,
        certificate: HostCertificate,
        interface: str,
        port: int,
        nameplate: int,
        table_url: str,
        code: str,
        seats: int,
        data_dir: Path,
        log: Callable[[str, Mapping[str, Any]], None],
        command: Callable[[str, str, str, Path], list[str]] = seat_command,
    ) -> None:
        self._certificate = certificate
        self._interface = interface
        self._port = port
        self._nameplate = nameplate
        self._table_url = table_url
        self._code = code
        self._log = log
        self._command = command
        self._served = ""
        self._seats: dict[str, BrowserSeat] = {}
        self._names: dict[str, str] = {}
        self._count = seats
        self._data_dir = data_dir
        self._live: dict[str, _Live] = {}
        self._lock = asyncio.Lock()
        self._downloads = DownloadManager()
        self._runner: web.AppRunner | None = None

    @property
    def seats(self) -> list[BrowserSeat]:
        return list(self._seats.values())

    @property
    def live(self) -> frozenset[str]:
        """The tokens of the seats whose process runs now."""
        return frozenset(self._live)

    def process_id(self, token: str) -> int | None:
        """The id of the process that runs the seat ``token`` now (``None``: none does)."""
        live = self._live.get(token)
        process = live.service.process if live is not None else None
        return process.pid if process is not None else None

    async def start(self) -> list[BrowserSeat]:
        app = web.Application()
        app.add_routes(
            [
                web.get("/s/{token}", self._page),
                web.get("/s/{token}/static/{name}", self._static),
                web.get("/s/{token}/ws", self._websocket),
                web.get("/download/{key}", self._download),
            ]
        )
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(
            self._runner,
            self._interface,
            self._port,
            ssl_context=server_context(self._certificate),
        )
        await site.start()
        port = self._runner.addresses[0][1]
        self._served = authority(self._interface, port)
        for index in range(self._count):
            token = mint_token()
            home = self._data_dir / f"seat-{index + 1}"
            home.mkdir(parents=True, exist_ok=True, mode=0o700)
            # The seat's key now, not when its page first opens: the host marks its seat
            # from the start (the client loads this same key from the seat's data dir).
            key = load_or_create_identity(home).public_hex
            seat = BrowserSeat(token, f"https://{self._served}/s/{token}", home, key)
            self._seats[token] = seat
            self._names[token] = f"Browser {index + 1}"
            self._log("browser-seat", {"table": self._nameplate, "url": seat.url})
        return self.seats

    async def close(self) -> None:
        for live in list(self._live.values()):
            await live.service.stop()
            await live.websocket.close()
        self._live.clear()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # --- routes -------------------------------------------------------------------------

    def _seat(self, request: web.Request) -> BrowserSeat:
        token = seat_of(request.match_info["token"], self._seats)
        if token is None:
            raise web.HTTPNotFound()
        return self._seats[token]

    async def _page(self, request: web.Request) -> web.Response:
        seat = self._seat(request)
        static = f"/s/{seat.token}/static/"
        page = PAGE.format(
            title=html.escape("Tortured Domicile"),
            static=html.escape(static),
            websocket=html.escape(f"wss://{self._served}/s/{seat.token}/ws"),
            portrait_width=PORTRAIT_WIDTH,
        )
        return web.Response(text=page, content_type="text/html", headers=self._headers())

    def _headers(self) -> dict[str, str]:
        # The token is the seat's password: no referrer carries it anywhere, no cache keeps it.
        return {
            "Content-Security-Policy": (
                "default-src 'none'; script-src 'self' 'unsafe-inline'; "
                "style-src 'self' 'unsafe-inline'; font-src 'self'; img-src 'self' data:; "
                f"connect-src wss://{self._served}; frame-ancestors 'none'; base-uri 'none'"
            ),
            "Referrer-Policy": "no-referrer",
            "Cache-Control": "no-store",
            "X-Content-Type-Options": "nosniff",
        }

    async def _static(self, request: web.Request) -> web.Response:
        self._seat(request)
        name = request.match_info["name"]
        relative = STATIC_FILES.get(name)
        if relative is None:
            raise web.HTTPNotFound()
        body = files("textual_serve").joinpath("static", *relative.split("/")).read_bytes()
        content_type = CONTENT_TYPES[Path(name).suffix]
        return web.Response(body=body, content_type=content_type, headers=self._headers())

    async def _download(self, request: web.Request) -> web.StreamResponse:
        """A file a seat's client delivers (Export's transcript): its key is the client's
        random delivery key, known only to the page it was delivered to."""
        key = request.match_info["key"]
        try:
            meta = await self._downloads.get_download_metadata(key)
        except KeyError:
            raise web.HTTPNotFound() from None
        response = web.StreamResponse(headers=self._headers())
        response.content_type = meta.mime_type
        safe_name = "".join(c for c in meta.file_name if c.isalnum() or c in "._-") or "download"
        response.headers["Content-Disposition"] = f'attachment; filename="{safe_name}"'
        await response.prepare(request)
        async for chunk in self._downloads.download(key):
            await response.write(chunk)
        await response.write_eof()
        return response

    async def _websocket(self, request: web.Request) -> web.StreamResponse:
        seat = self._seat(request)
        refusal = same_origin(
            request.headers.get("Origin"), request.headers.get("Host"), self._served
        )
        if refusal is not None:
            self._refused(seat, refusal.reason)
            raise web.HTTPForbidden()
        async with self._lock:
            admission = admit(seat.token, self._live.keys(), len(self._seats))
            if admission is Admission.REFUSE:
                self._refused(seat, "as many seat processes run as seats are served")
                raise web.HTTPServiceUnavailable()
            if admission is Admission.REPLACE:
                old = self._live.pop(seat.token)
                await old.service.stop()
                await old.websocket.close()
            websocket = web.WebSocketResponse(heartbeat=HEARTBEAT, max_msg_size=1 << 16)
            await websocket.prepare(request)
            service = SeatProcess(
                self._command(
                    self._table_url,
                    self._certificate.fingerprint_hex,
                    self._names[seat.token],
                    seat.data_dir,
                ),
                seat_environment(self._code),
                seat.data_dir / "seat.log",
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=websocket.close,
                download_manager=self._downloads,
            )
            live = _Live(websocket, service)
            self._live[seat.token] = live
            await service.start(
                clamp(request.query.get("width"), 80), clamp(request.query.get("height"), 24)
            )
        try:
            await self._relay(websocket, service)
        finally:
            await service.stop()
            if self._live.get(seat.token) is live:
                del self._live[seat.token]
        return websocket

    @staticmethod
    async def _relay(websocket: web.WebSocketResponse, service: AppService) -> None:
        """The page's keys, taps and size to the seat's process (anything else is dropped:
        the page is a stranger's until proven otherwise)."""
        async for message in websocket:
            if message.type is not WSMsgType.TEXT:
                continue
            try:
                envelope = message.json()
            except ValueError:
                continue
            if not isinstance(envelope, list) or len(envelope) != 2:
                continue
            kind, data = envelope
            if kind == "stdin" and isinstance(data, str):
                await service.send_bytes(data.encode("utf-8"))
            elif kind == "resize" and isinstance(data, dict):
                await service.set_terminal_size(
                    clamp(str(data.get("width")), 80), clamp(str(data.get("height")), 24)
                )
            elif kind == "ping" and isinstance(data, str | int | float):
                await websocket.send_json(["pong", data])
            elif kind == "blur":
                await service.blur()
            elif kind == "focus":
                await service.focus()

    def _refused(self, seat: BrowserSeat, reason: str) -> None:
        seat_number = list(self._seats).index(seat.token) + 1
        self._log(
            "browser-seat-refused",
            {"table": self._nameplate, "seat": seat_number, "reason": reason},
        )
