"""``domicile play``: its options, and the one-line errors a person sees for bad ones."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from domicile_p2p.cli import CommandError
from domicile_p2p.rules import Difficulty
from domicile_tui.cli import door_from, register, settings_from
from domicile_tui.session import Role


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="domicile")
    register(parser.add_subparsers(dest="command"))
    return parser.parse_args(["play", *argv])


def test_no_arguments_host_a_table_for_an_investigator_with_bots() -> None:
    args = parse("--name", "Ada")
    settings = settings_from(args)
    assert settings.role is Role.INVESTIGATOR and settings.your_seat == 1
    assert settings.difficulty is Difficulty.NORMAL and settings.investigators == 3
    assert settings.table_name == "Ada's table"
    assert settings.bot_seats == (0, 2, 3)
    door = door_from(args)
    assert door.lan and door.pace.mean == 1.0 and door.interface is None
    assert args.handler.__name__ == "play" and not args.menu


def test_the_sand_glass_reaches_the_table_hosted_or_offline() -> None:
    assert settings_from(parse()).timer is None
    assert settings_from(parse("--timer", "90")).timer == 90
    assert settings_from(parse("--timer", "60", "--offline")).timer == 60


def test_every_option_reaches_the_table(tmp_path: Path) -> None:
    args = parse(
        "--role", "ghost", "--difficulty", "very-difficult", "--investigators", "5",
        "--name", "Mina", "--table-name", "Friday", "--interface", "127.0.0.1",
        "--port", "0", "--offline", "--data-dir", str(tmp_path), "--bot-delay", "0", "--seed", "9",
    )  # fmt: skip
    settings = settings_from(args)
    assert (settings.role, settings.your_seat, settings.investigators) == (Role.GHOST, 0, 5)
    assert settings.difficulty is Difficulty.VERY_DIFFICULT
    assert (settings.player_name, settings.table_name) == ("Mina", "Friday")
    door = door_from(args)
    assert not door.lan and door.pace.mean == 0 and door.seed == 9
    assert door.data_dir == tmp_path and door.interface == "127.0.0.1" and door.port == 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--investigators", "0"), "a table has 1 to 6 investigators, not 0"),
        (("--name", "  "), "the player name cannot be empty"),
        (("--bot-delay", "-1"), "a bot delay is 0 to 60 seconds, not -1.0"),
        (("--timer", "5"), "--timer is 10 to 3600 seconds, not 5"),
        (("--timer", "5000", "--offline"), "--timer is 10 to 3600 seconds, not 5000"),
        (("--port", "70000"), "--port is 0 to 65535, not 70000"),
    ],
)
def test_bad_options_are_one_line_errors(argv: tuple[str, ...], message: str) -> None:
    args = parse(*argv)
    with pytest.raises(CommandError) as caught:
        settings_from(args)
        door_from(args)
    assert str(caught.value) == message


def test_a_broken_card_pack_is_named(tmp_path: Path) -> None:
    (tmp_path / "pack.toml").write_text("[pack]\nid = 'x'\n", encoding="utf-8")
    with pytest.raises(CommandError, match="cannot use the card pack"):
        door_from(parse("--pack", str(tmp_path)))
