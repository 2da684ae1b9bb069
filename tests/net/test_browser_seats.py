"""Browser seats served by a real host on 127.0.0.1 (port 0): the token, the Origin and
Host, the page's files, and a seat's ``domicile play`` process at the table."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import importlib.util
import json
import re
import signal
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

aiohttp = pytest.importorskip("aiohttp", reason="browser seats need the web extra")

from domicile_p2p.cli import CommandError  # noqa: E402
from domicile_p2p.cli._browser_seats import (  # noqa: E402
    print_browser_seats,
    serve_browser_seats,
)
from domicile_p2p.cli.host import browser_seats_from, config_from, register  # noqa: E402
from domicile_p2p.net.adapters.browser_seats import (  # noqa: E402
    QR_BORDER,
    STATIC_FILES,
    BrowserSeatServer,
    qr_lines,
    seat_command,
    seat_environment,
)
from domicile_p2p.net.adapters.host import HostConfig, RunningHost, start_host  # noqa: E402
from domicile_p2p.net.adapters.key_files import load_or_create_identity  # noqa: E402
from domicile_p2p.net.join.codes import CODE_VARIABLE  # noqa: E402
from domicile_p2p.packs import load_default_pack  # noqa: E402

LOOPBACK = "127.0.0.1"


class Served:
    def __init__(self, host: RunningHost, seats: BrowserSeatServer, logged: list[Any]) -> None:
        self.host = host
        self.seats = seats
        self.logged = logged

    @property
    def authority(self) -> str:
        return self.seats.seats[0].url.split("/")[2]


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[Served]:
    async with serving(tmp_path) as seats:
        yield seats


def friday(tmp_path: Path) -> HostConfig:
    """A table on 127.0.0.1 with a bot Ghost and two open investigator seats."""
    return HostConfig(
        data_dir=tmp_path / "host",
        name="Friday",
        interface=LOOPBACK,
        port=0,
        investigators=2,
        ghost_bot=True,
        advertise=False,
        pack=load_default_pack(),
    )


@contextlib.asynccontextmanager
async def serving(tmp_path: Path) -> AsyncIterator[Served]:
    """A host on 127.0.0.1 (a bot Ghost, two open investigator seats), both served to
    browsers."""
    host = await start_host(friday(tmp_path))
    logged: list[Any] = []
    table = host.tables()[0]
    seats = BrowserSeatServer(
        certificate=host.certificate,
        interface=LOOPBACK,
        port=0,
        nameplate=table.nameplate,
        table_url=f"wss://{LOOPBACK}:{host.port}",
        code=table.code,
        seats=2,
        data_dir=tmp_path / "browser-seats",
        log=lambda event, fields: logged.append((event, dict(fields))),
    )
    await seats.start()
    try:
        yield Served(host, seats, logged)
    finally:
        await seats.close()
        await host.close()


def client() -> aiohttp.ClientSession:
    # The table's certificate is self-signed (players pin it); the test reads what is served.
    return aiohttp.ClientSession(connector=aiohttp.TCPConnector(ssl=False))


async def test_each_seat_is_logged_with_its_url(served: Served) -> None:
    urls = [seat.url for seat in served.seats.seats]
    assert len(set(urls)) == 2
    for url in urls:
        assert re.fullmatch(r"https://127\.0\.0\.1:\d+/s/[A-Za-z0-9_-]{22}", url)
    table = served.host.tables()[0].nameplate
    assert served.logged == [("browser-seat", {"table": table, "url": url}) for url in urls]


async def test_a_wrong_or_missing_token_gets_404_and_nothing_is_listed(served: Served) -> None:
    token = served.seats.seats[0].token
    base = f"https://{served.authority}"
    wrong = token[:-1] + ("A" if token[-1] != "A" else "B")
    async with client() as session:
        for path in (
            "/", "/s/", f"/s/{wrong}", f"/s/{wrong}/static/textual.js", f"/s/{wrong}/ws",
            "/static/", "/static/js/textual.js", f"/s/{token}/static/",
            f"/s/{token}/static/..%2f..%2fserver.py", f"/s/{token}/static/background.png",
            "/download/anything",
        ):  # fmt: skip
            async with session.get(base + path) as response:
                assert response.status == 404, path


async def test_the_page_needs_nothing_from_outside_the_host(served: Served) -> None:
    seat = served.seats.seats[0]
    async with client() as session:
        async with session.get(seat.url) as response:
            assert response.status == 200
            page = await response.text()
            policy = response.headers["Content-Security-Policy"]
            assert response.headers["Referrer-Policy"] == "no-referrer"
        urls = set(re.findall(r"[a-z]+://[^\"' )<>]+", page))
        assert urls == {f"wss://{served.authority}/s/{seat.token}/ws"}
        assert "default-src 'none'" in policy and f"connect-src wss://{served.authority}" in policy
        for name in STATIC_FILES:
            assert f"/s/{seat.token}/static/{name}" in page
            async with session.get(f"{seat.url}/static/{name}") as response:
                assert response.status == 200 and len(await response.read()) > 1000
                if name.endswith((".js", ".css")):
                    body = (await response.read()).decode()
                    assert "googleapis" not in body and "fonts.g" not in body


async def test_a_websocket_from_another_page_or_host_is_refused(served: Served) -> None:
    seat = served.seats.seats[0]
    ws_url = seat.url.replace("https://", "wss://") + "/ws"
    own = f"https://{served.authority}"
    async with client() as session:
        for headers in (
            {"Origin": "https://evil.example"},
            {"Origin": "null"},
            {"Origin": own, "Host": f"rebound.example:{served.authority.split(':')[1]}"},
            {},
        ):
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await session.ws_connect(ws_url, headers=headers)
            assert refused.value.status == 403, headers
    assert served.seats.live == frozenset()
    assert [event for event, _ in served.logged].count("browser-seat-refused") == 4
    assert served.host.tables()[0].seats_free == 2


async def frames_until(websocket: Any, done: Any, within: float) -> bytes:
    seen = b""
    deadline = time.monotonic() + within
    while not done(seen):
        left = deadline - time.monotonic()
        assert left > 0, seen[-2000:]
        try:
            message = await websocket.receive(timeout=left)
        except TimeoutError:
            continue
        if message.type is aiohttp.WSMsgType.BINARY:
            seen += message.data
        elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
            raise AssertionError(f"the seat closed: {seen[-2000:]!r}")
    return seen


async def closed_by_the_host(websocket: Any, within: float) -> None:
    deadline = time.monotonic() + within
    while True:
        message = await websocket.receive(timeout=max(0.01, deadline - time.monotonic()))
        if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
            return


async def until(condition: Any, within: float, what: str) -> None:
    deadline = time.monotonic() + within
    while not condition():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.05)


@pytest.mark.slow
async def test_a_seat_plays_at_the_table_and_a_page_that_comes_back_gets_it_back(
    served: Served,
) -> None:
    seat = served.seats.seats[0]
    ws_url = seat.url.replace("https://", "wss://") + "/ws?width=80&height=24"
    own = {"Origin": f"https://{served.authority}"}
    async with client() as session:
        first = await session.ws_connect(ws_url, headers=own)
        await until(lambda: served.host.tables()[0].seats_free == 1, 60, "the seat taken")
        assert served.seats.live == {seat.token}
        # The table's code is in the seat process's environment (its user's alone), never
        # on its command line (every local user's, in ps).
        pid = served.seats.process_id(seat.token)
        code = served.host.tables()[0].code
        assert pid is not None and code.encode() not in Path(f"/proc/{pid}/cmdline").read_bytes()
        environment = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        assert f"{CODE_VARIABLE}={code}".encode() in environment
        await frames_until(first, lambda seen: b"Browser 1" in seen, 60)
        # The same seat's page again (a phone woke up): the old process gives way.
        second = await session.ws_connect(ws_url, headers=own)
        await closed_by_the_host(first, 30)
        screen = await frames_until(second, lambda seen: b"Browser 1" in seen, 60)
        assert served.seats.live == {seat.token}
        assert served.host.tables()[0].seats_free == 1
        assert json.dumps(screen.decode(errors="replace"))  # the terminal's output, as bytes
        await second.close()
        await until(lambda: not served.seats.live, 30, "the process stopped")


def host_args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="domicile")
    register(parser.add_subparsers(dest="command"))
    return parser.parse_args(["host", "--headless", "--ghost", "bot", *argv])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--browser-seats", "1"), "--browser-seats needs --interface IP"),
        (("--browser-seats", "1", "--interface", "0.0.0.0"), "--browser-seats needs --interface"),
        (("--browser-seats", "-1"), "--browser-seats is 0 or more"),
        (("--browser-seats", "4", "--interface", LOOPBACK), "has 3 open investigator seat(s)"),
        (
            ("--browser-seats", "2", "--interface", LOOPBACK, "--bots", "2,3"),
            "has 1 open investigator seat(s)",
        ),
        (("--browser-seats", "1", "--interface", LOOPBACK, "--tables", "2"), "drop --tables"),
        (
            ("--browser-seats", "1", "--interface", LOOPBACK, "--browser-port", "70000"),
            "0 to 65535",
        ),
    ],
)
def test_browser_seats_the_table_cannot_serve_are_one_line_errors(
    argv: tuple[str, ...], message: str
) -> None:
    args = host_args(*argv)
    with pytest.raises(CommandError) as caught:
        browser_seats_from(args, config_from(args))
    assert message in str(caught.value)


def test_without_the_web_extra_the_option_says_how_to_get_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    args = host_args("--browser-seats", "1", "--interface", LOOPBACK)
    config = config_from(args)
    assert browser_seats_from(args, config) == 1
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name: None if name == "textual_serve" else real(name)
    )
    with pytest.raises(CommandError, match=re.escape("pip install 'domicile-p2p[web]'")):
        browser_seats_from(args, config)
    assert "pip install 'domicile-p2p[web]'" in " ".join(
        action.help or "" for action in argparse_actions(args)
    )


def argparse_actions(_: argparse.Namespace) -> list[argparse.Action]:
    parser = argparse.ArgumentParser(prog="domicile")
    register(parser.add_subparsers(dest="command"))
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return list(subparsers.choices["host"]._actions)


async def test_domicile_host_serves_and_logs_its_browser_seats(tmp_path: Path) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "domicile_p2p", "host", "--headless", "--interface", LOOPBACK,
        "--port", "0", "--investigators", "2", "--ghost", "bot", "--no-advertise",
        "--browser-seats", "2", "--data-dir", str(tmp_path),
        stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert process.stdout is not None
    try:
        records: list[dict[str, Any]] = []
        while len([r for r in records if r.get("event") == "browser-seat"]) < 2:
            line = await asyncio.wait_for(process.stdout.readline(), 60)
            assert line, records
            records.append(json.loads(line))
        seats = [r for r in records if r.get("event") == "browser-seat"]
        assert {tuple(sorted(r)) for r in seats} == {("event", "table", "time", "url")}
        async with client() as session:
            for record in seats:
                async with session.get(record["url"]) as response:
                    assert response.status == 200
                async with session.get(record["url"][:-1] + "x") as response:
                    assert response.status == 404
    finally:
        process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(process.wait(), 60) == 0


def modules_of(lines: list[str]) -> list[list[bool]]:
    """The light modules the half blocks draw, two rows a line."""
    tops = {"█": True, "▀": True, "▄": False, " ": False}
    bottoms = {"█": True, "▀": False, "▄": True, " ": False}
    rows: list[list[bool]] = []
    for line in lines:
        rows.append([tops[c] for c in line])
        rows.append([bottoms[c] for c in line])
    return rows


@pytest.mark.parametrize("host", ["127.0.0.1", "192.168.100.200"])
def test_a_seat_s_qr_code_is_its_url_and_fits_80x24(host: str) -> None:
    import segno

    url = f"https://{host}:54321/s/{'Ab-_' * 5}xy"
    lines = qr_lines(url)
    assert max(len(line) for line in lines) <= 80 and len(lines) + 1 <= 24
    matrix = segno.make(url, error="l", boost_error=False).matrix
    size = len(matrix)
    drawn = modules_of(lines)
    for row in range(size):
        for column in range(size):
            light = drawn[row + QR_BORDER][column + QR_BORDER]
            assert light == (not matrix[row][column])
    assert all(drawn[row][:QR_BORDER] == [True, True] for row in range(size))  # quiet zone


def test_the_host_s_screen_shows_each_seat_s_url_and_code(
    capsys: pytest.CaptureFixture[str],
) -> None:
    urls = [f"https://127.0.0.1:5/s/{'A' * 22}", f"https://127.0.0.1:5/s/{'B' * 22}"]
    print_browser_seats(urls)
    shown = capsys.readouterr().out.splitlines()
    assert shown[0] == f"Browser seat 1: {urls[0]}"
    second = shown.index(f"Browser seat 2: {urls[1]}")
    assert shown[1:second] == qr_lines(urls[0]) and shown[second + 1 :] == qr_lines(urls[1])


def test_a_seat_runs_an_investigator_s_client_pinned_to_this_host_with_its_own_data_dir(
    tmp_path: Path,
) -> None:
    argv = seat_command("wss://10.0.0.1:5", "ab" * 32, "Browser 1", tmp_path)
    assert argv[1:4] == ["-m", "domicile_p2p", "play"]
    options = dict(zip(argv[4::2], argv[5::2], strict=True))
    # The code goes by the environment: a command line is any local user's to read (ps).
    assert seat_environment("7-raven-lantern") == {"DOMICILE_TABLE_CODE": "7-raven-lantern"}
    assert options == {
        "--connect": "wss://10.0.0.1:5",
        "--fingerprint": "ab" * 32,
        "--role": "investigator",  # never the Ghost: its secrets would sit on the host
        "--name": "Browser 1",
        "--data-dir": str(tmp_path),
    }


async def test_each_seat_has_a_data_dir_of_its_own(served: Served) -> None:
    homes = [seat.data_dir for seat in served.seats.seats]
    assert len(set(homes)) == 2 and all(home.is_dir() for home in homes)
    assert all((home.stat().st_mode & 0o077) == 0 for home in homes)


def browser_seat_keys(data_dir: Path) -> dict[str, str]:
    """Each browser seat's data dir under ``data_dir``, with the key it holds."""
    homes = sorted((data_dir / "browser-seats").glob("table-*/seat-*"))
    return {
        str(home.relative_to(data_dir)): load_or_create_identity(home).public_hex for home in homes
    }


async def test_a_resumed_table_serves_each_browser_seat_with_its_key_at_a_new_url(
    tmp_path: Path,
) -> None:
    """``--resume`` with ``--browser-seats``: each seat keeps its data dir and so its key
    (a seat it held is its own again), the table its code; the URLs are minted anew, so an
    old one, photographed or left in a phone's history, opens nothing."""
    config = friday(tmp_path)
    first = await start_host(config)
    try:
        close, urls = await serve_browser_seats(first, 2, 0)
        await close()
        table = first.tables()[0]
    finally:
        await first.close()
    keys = browser_seat_keys(config.data_dir)
    assert len(keys) == 2
    resumed = await start_host(dataclasses.replace(config, resume=True))
    try:
        close, new_urls = await serve_browser_seats(resumed, 2, 0)
        try:
            again = resumed.tables()[0]
            assert (again.nameplate, again.code) == (table.nameplate, table.code)
            assert browser_seat_keys(config.data_dir) == keys, "the same seats, the same keys"
            assert not set(new_urls) & set(urls)
            served_at = new_urls[0].rsplit("/s/", 1)[0]
            async with client() as session:
                for url in urls:  # an old seat's token, at the new server: nothing there
                    token = url.rsplit("/s/", 1)[1]
                    async with session.get(f"{served_at}/s/{token}") as response:
                        assert response.status == 404
        finally:
            await close()
    finally:
        await resumed.close()
