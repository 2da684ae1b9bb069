"""Browser seats from the command line: ``--browser-seats N`` and ``--browser-port``, for
``domicile host`` and a table ``domicile play`` hosts alike (one check, one server, one
QR code per seat); the server itself is :mod:`domicile_p2p.net.adapters.browser_seats`.

Light to import (every command's parser registers these options): the server and its web
extra load only when seats are served.
"""

from __future__ import annotations

import argparse
import importlib.util
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Final

from domicile_p2p.cli import CommandError

if TYPE_CHECKING:
    from domicile_p2p.net.adapters.host import RunningHost


def add_browser_seats_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--browser-seats",
        type=int,
        default=0,
        metavar="N",
        help="serve N open investigator seats to browsers, each at its own secret "
        "https://INTERFACE:PORT/s/TOKEN (logged as browser-seat; needs --interface and the "
        f"web extra: {WEB_EXTRA})",
    )
    parser.add_argument(
        "--browser-port",
        type=int,
        default=0,
        metavar="PORT",
        help="the port the browser seats are served on (default: any free one)",
    )


WEB_EXTRA: Final = "pip install 'domicile-p2p[web]'"


def check_browser_seats(seats: int, port: int, *, interface: str | None, open_seats: int) -> int:
    """``--browser-seats`` and ``--browser-port`` for a table of ``open_seats`` investigator
    seats that people may take, hosted on ``interface``: how many seats to serve (0: none),
    or a one-line error (``domicile host`` and ``domicile play`` alike)."""
    if seats == 0:
        return 0
    if seats < 0:
        raise CommandError("--browser-seats is 0 or more")
    if not 0 <= port <= 65535:
        raise CommandError(f"--browser-port is 0 to 65535, not {port}")
    if interface is None or interface in ("0.0.0.0", "::"):
        raise CommandError("--browser-seats needs --interface IP: the address the seats' URLs name")
    if seats > open_seats:
        raise CommandError(
            f"--browser-seats {seats}: the table has {open_seats} open investigator seat(s)"
        )
    if any(importlib.util.find_spec(name) is None for name in ("aiohttp", "textual_serve")):
        raise CommandError(f"--browser-seats needs the web extra: {WEB_EXTRA}")
    return seats


def print_browser_seats(urls: list[str]) -> None:
    """Each browser seat's URL and its QR code, for a phone to scan off the host's screen."""
    from domicile_p2p.net.adapters.browser_seats import qr_lines  # the web extra

    for number, url in enumerate(urls, 1):
        print(f"Browser seat {number}: {url}")
        print("\n".join(qr_lines(url)))


async def serve_browser_seats(
    host: RunningHost, seats: int, port: int
) -> tuple[Callable[[], Awaitable[None]], list[str]]:
    """Serve ``seats`` of the host's table to browsers (each logged as ``browser-seat``,
    its seat marked in the lobby once taken); returns what stops them, and their URLs."""
    from domicile_p2p.net.adapters.browser_seats import BrowserSeatServer  # the web extra
    from domicile_p2p.net.address import Address

    config = host.config
    assert config.interface is not None
    table = host.tables()[0]
    server = BrowserSeatServer(
        certificate=host.certificate,
        interface=config.interface,
        port=port,
        nameplate=table.nameplate,
        table_url=Address(config.interface, host.port).url,
        code=table.code,
        seats=seats,
        data_dir=config.data_dir / "browser-seats" / f"table-{table.nameplate}",
        log=host.log,
    )
    served = await server.start()
    host.mark_browser_seats([seat.key for seat in served], table.nameplate)
    return server.close, [seat.url for seat in served]
