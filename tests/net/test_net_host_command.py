"""``domicile host``'s options as the host sees them: many tables, the setup timeout."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from domicile_p2p.cli import CommandError
from domicile_p2p.cli.host import config_from, register
from domicile_p2p.net.adapters.gc_pauses import THAW_EVERY
from domicile_p2p.net.adapters.host import HostConfig
from domicile_p2p.net.adapters.store import StoredTable
from domicile_p2p.net.join.codes import JoinCode
from domicile_p2p.net.sessions.guards.setup import DEFAULT_SETUP_TIMEOUT
from domicile_p2p.net.sessions.host import HostLimits
from domicile_p2p.net.sessions.room import RoomConfig
from domicile_p2p.rules import Difficulty


def _config(tmp_path: Path, *options: str) -> HostConfig:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    args = parser.parse_args(["host", "--headless", "--data-dir", str(tmp_path), *options])
    return config_from(args)


def test_a_host_takes_a_thousand_tables_and_a_setup_timeout(tmp_path: Path) -> None:
    config = _config(tmp_path, "--tables", "1000", "--setup-timeout", "900")
    assert config.tables == 1000
    assert config.limits.setup_timeout == 900.0
    default = _config(tmp_path)
    assert default.limits.setup_timeout == DEFAULT_SETUP_TIMEOUT
    assert default.gc_thaw_every == THAW_EVERY
    assert _config(tmp_path, "--gc-thaw-every", "60").gc_thaw_every == 60.0


def test_a_host_takes_a_connection_rate(tmp_path: Path) -> None:
    assert _config(tmp_path).limits.connection_rate == HostLimits().connection_rate
    assert _config(tmp_path, "--connection-rate", "2.5").limits.connection_rate == 2.5


def test_a_host_takes_its_ready_timeout_for_a_rematchs_lobby(tmp_path: Path) -> None:
    assert _config(tmp_path).limits.ready_timeout == HostLimits().ready_timeout == 120
    assert _config(tmp_path, "--ready-timeout", "45").limits.ready_timeout == 45


def test_a_host_takes_a_sand_glass_and_keeps_it_with_the_table(tmp_path: Path) -> None:
    assert _config(tmp_path).timer is None
    config = _config(tmp_path, "--timer", "90")
    assert config.timer == 90
    room = RoomConfig(4, JoinCode(4, "raven", "lantern"), "T", 2, Difficulty.EASY, config.timer)
    stored = StoredTable(room, frozenset())
    assert StoredTable.from_json(stored.to_json(), tmp_path).config.timer == 90


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        (("--setup-timeout", "0"), "setup-timeout"),
        (("--gc-thaw-every", "0.5"), "GC thaw"),
        (("--tables", "10000"), "1 to 9999 tables"),
        (("--code", "10000-raven-lantern"), "1 to 9999"),
        (("--timer", "9"), "--timer is 10 to 3600 seconds, not 9"),
        (("--timer", "3601"), "--timer is 10 to 3600 seconds"),
        (("--connection-rate", "0"), "--connection-rate is more than 0"),
        (("--ready-timeout", "0"), "--ready-timeout is more than 0"),
    ],
)
def test_out_of_range_options_are_refused_saying_why(
    tmp_path: Path, options: tuple[str, ...], reason: str
) -> None:
    with pytest.raises(CommandError, match=reason):
        _config(tmp_path, *options)
