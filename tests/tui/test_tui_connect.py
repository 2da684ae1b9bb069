"""``domicile play --connect wss://HOST:PORT --code CODE``: straight to that table (or to
watching it), with the join form's errors, and no front door behind it; against a real
host on 127.0.0.1 (port 0), in the app and in a ``domicile play`` process."""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from test_tui_laptop_process import REPO, TerminalPlayer
from test_tui_network import LOOPBACK, WIDE, door, hosted_elsewhere
from tui_support import settings, wait_until

from domicile_p2p.client_api import CODE_VARIABLE, CommandError
from domicile_p2p.net.address import Address
from domicile_p2p.net.join.codes import parse_code
from domicile_tui.app import DomicileApp
from domicile_tui.cli import register, seat_request_from, settings_from
from domicile_tui.screens.investigator import InvestigatorScreen
from domicile_tui.session import Role
from domicile_tui.ticket import SeatRequest


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="domicile")
    register(parser.add_subparsers(dest="command"))
    return parser.parse_args(["play", *argv])


def seat_asked(*argv: str) -> SeatRequest | None:
    args = parse(*argv)
    return seat_request_from(args, settings_from(args))


def wrong_code_for(code: str) -> str:
    real = parse_code(code)
    other = "acorn" if real.first != "acorn" else "amber"
    return f"{real.nameplate}-{other}-{real.second}"


def test_the_options_describe_the_seat_the_join_form_would() -> None:
    seat = seat_asked(
        "--connect", "wss://10.0.0.1:5000", "--code", "7 Raven Lantern", "--name", "Ada"
    )
    assert seat is not None
    assert str(seat.ticket.code) == "7-raven-lantern"
    assert seat.ticket.address == Address("10.0.0.1", 5000)
    assert (seat.name, seat.role, seat.watch, seat.ticket.fingerprint) == ("Ada", None, False, None)
    ghost = seat_asked("--connect", "10.0.0.1", "--code", "7-raven-lantern", "--role", "ghost")
    assert ghost is not None and ghost.role is Role.GHOST
    pinned = seat_asked(
        "--connect", "10.0.0.1", "--code", "7-raven-lantern", "--fingerprint", "ab" * 32
    )
    assert pinned is not None and pinned.ticket.fingerprint == bytes.fromhex("ab" * 32)
    watching = seat_asked("--connect", "10.0.0.1", "--code", "7-raven-lantern", "--watch")
    assert watching is not None and watching.watch
    assert seat_asked("--name", "Ada") is None
    assert settings_from(parse()).role is Role.INVESTIGATOR  # hosting, as before


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--connect", "http://10.0.0.1", "--code", "7-raven-lantern"), "tables speak wss://"),
        (("--connect", "wss://", "--code", "7-raven-lantern"), "cannot join: "),
        (("--connect", "10.0.0.1", "--code", "raven"), "cannot join: "),
        (
            ("--connect", "10.0.0.1", "--code", "7-raven-lantern", "--fingerprint", "ab"),
            "64 hexadecimal",
        ),
        (("--connect", "10.0.0.1"), "--connect needs the table's code: add --code CODE"),
        (("--code", "7-raven-lantern"), "--code is for joining a table: add --connect URL"),
        (("--watch",), "--watch is for joining a table"),
        (("--role", "any"), "--role any is for joining a table"),
        (("--connect", "10.0.0.1", "--code", "7-raven-lantern", "--offline"), "drop --offline"),
        (("--connect", "10.0.0.1", "--code", "7-raven-lantern", "--resume"), "drop --resume"),
        (
            ("--connect", "10.0.0.1", "--code", "7-raven-lantern", "--watch", "--role", "ghost"),
            "no seat",
        ),
    ],
)
def test_a_seat_that_cannot_be_asked_for_is_a_one_line_error(
    argv: tuple[str, ...], message: str
) -> None:
    with pytest.raises(CommandError) as caught:
        seat_asked(*argv)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_the_code_may_come_from_the_environment_out_of_sight_of_ps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(CODE_VARIABLE, "7-raven-lantern")
    seat = seat_asked("--connect", "10.0.0.1")
    assert seat is not None and str(seat.ticket.code) == "7-raven-lantern"
    given = seat_asked("--connect", "10.0.0.1", "--code", "8-amber-owl")
    assert given is not None and str(given.ticket.code) == "8-amber-owl"  # --code wins
    assert f"${CODE_VARIABLE}" in " ".join(action.help or "" for action in play_parser()._actions)
    monkeypatch.setenv(CODE_VARIABLE, "raven")
    with pytest.raises(CommandError, match="cannot join: "):
        seat_asked("--connect", "10.0.0.1")
    assert seat_asked() is None  # not joining: the variable means nothing


def play_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="domicile")
    subparsers = parser.add_subparsers(dest="command")
    register(subparsers)
    return subparsers.choices["play"]


def never_at_the_door(app: DomicileApp) -> list[str]:
    """The names of the screens shown, recorded as they show (the front door must not be)."""
    shown: list[str] = []
    original = app.show

    def show(screen: Any) -> None:
        shown.append(type(screen).__name__)
        original(screen)

    app.show = show  # type: ignore[method-assign]
    return shown


async def test_connect_goes_straight_to_the_table(tmp_path: Path) -> None:
    host = await hosted_elsewhere(tmp_path / "host")
    try:
        args = parse(
            "--connect", f"wss://{LOOPBACK}:{host.port}", "--code", host.tables()[0].code,
            "--name", "Ada",
        )  # fmt: skip
        seat = seat_request_from(args, settings_from(args))
        app = DomicileApp(door(tmp_path / "me"), defaults=settings(), seat=seat, seance_step=0)
        async with app.run_test(size=WIDE) as pilot:
            shown = never_at_the_door(app)
            await wait_until(pilot, lambda: isinstance(app.screen, InvestigatorScreen), "seated")
            assert app.lobby is not None and app.lobby.your_seat == 1 and not app.lobby.watching
            assert "StartScreen" not in shown
            await app.session.close()  # type: ignore[union-attr]
            await wait_until(pilot, lambda: not app.is_running, "the app to end")
        assert app.door_failure is None and app.return_code == 0
        assert "StartScreen" not in shown
    finally:
        await host.close()


async def test_connect_and_watch_watches_the_table(tmp_path: Path) -> None:
    host = await hosted_elsewhere(tmp_path / "host")
    try:
        code = host.tables()[0].code
        seat = seat_asked("--connect", f"{LOOPBACK}:{host.port}", "--code", code, "--watch")
        app = DomicileApp(door(tmp_path / "me"), defaults=settings(), seat=seat, seance_step=0)
        async with app.run_test(size=WIDE) as pilot:
            await wait_until(pilot, lambda: app.lobby is not None, "the table")
            assert app.lobby is not None and app.lobby.watching
            assert host.tables()[0].seats_free == 1  # no seat taken
            await app.session.close()  # type: ignore[union-attr]
    finally:
        await host.close()


async def test_a_wrong_code_ends_the_app_with_the_join_forms_error(tmp_path: Path) -> None:
    host = await hosted_elsewhere(tmp_path / "host")
    try:
        wrong = wrong_code_for(host.tables()[0].code)
        seat = seat_asked("--connect", f"wss://{LOOPBACK}:{host.port}", "--code", wrong)
        app = DomicileApp(door(tmp_path / "me"), defaults=settings(), seat=seat, seance_step=0)
        async with app.run_test(size=WIDE) as pilot:
            shown = never_at_the_door(app)
            await wait_until(pilot, lambda: not app.is_running, "the app to end")
        assert isinstance(app.door_failure, CommandError)
        assert "the host refused the code" in str(app.door_failure)
        assert app.return_code == 2
        assert "StartScreen" not in shown
        assert host.tables()[0].seats_free == 1
    finally:
        await host.close()


def domicile_play(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(REPO), str(REPO / "clients"), env.get("PYTHONPATH", "")]
    )
    return subprocess.run(
        [sys.executable, "-m", "domicile_p2p", "play", *argv],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=60,
        check=False,
    )


def test_a_bad_url_is_refused_before_any_screen(tmp_path: Path) -> None:
    done = domicile_play(
        "--connect", "http://127.0.0.1:1", "--code", "7-raven-lantern", "--data-dir",
        str(tmp_path), cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr == (
        "domicile play: cannot join: 'http://127.0.0.1:1': tables speak wss:// "
        "(websockets over TLS) only\n"
    )
    assert done.stdout == ""


async def until_exited(player: TerminalPlayer, within: float) -> int:
    deadline = time.monotonic() + within
    while (code := player.process.poll()) is None:
        assert time.monotonic() < deadline, bytes(player.output[-2000:])
        await asyncio.sleep(0.05)
    return code


async def test_the_command_joins_a_real_host_and_a_wrong_code_is_refused(
    tmp_path: Path,
) -> None:
    host = await hosted_elsewhere(tmp_path / "host")
    url = f"wss://{LOOPBACK}:{host.port}"
    code = host.tables()[0].code
    refused = TerminalPlayer(tmp_path / "refused", "--connect", url, "--code", wrong_code_for(code))
    try:
        assert await until_exited(refused, 60) == 2
        said = bytes(refused.output).decode(errors="replace")
        assert "domicile play: the host refused the code" in said
        assert host.tables()[0].seats_free == 1

        seated = TerminalPlayer(tmp_path / "ada", "--connect", url, "--code", code)
        try:
            deadline = time.monotonic() + 60
            while host.tables()[0].seats_free != 0:
                assert seated.process.poll() is None, bytes(seated.output[-2000:])
                assert time.monotonic() < deadline, bytes(seated.output[-2000:])
                await asyncio.sleep(0.05)
        finally:
            seated.stop()
    finally:
        refused.stop()
        await host.close()
