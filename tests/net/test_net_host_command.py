"""``domicile host``'s options as the host sees them: many tables, the setup timeout."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from domicile_p2p.cli import CommandError
from domicile_p2p.cli.host import config_from, register
from domicile_p2p.net.adapters.gc_pauses import THAW_EVERY
from domicile_p2p.net.adapters.host import HostConfig
from domicile_p2p.net.sessions.guards.setup import DEFAULT_SETUP_TIMEOUT


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


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        (("--setup-timeout", "0"), "setup-timeout"),
        (("--gc-thaw-every", "0.5"), "GC thaw"),
        (("--tables", "10000"), "1 to 9999 tables"),
        (("--code", "10000-raven-lantern"), "1 to 9999"),
    ],
)
def test_out_of_range_options_are_refused_saying_why(
    tmp_path: Path, options: tuple[str, ...], reason: str
) -> None:
    with pytest.raises(CommandError, match=reason):
        _config(tmp_path, *options)
