"""Where things are kept: ``DOMICILE_DATA_DIR``, the optional config file, ``domicile paths``."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from domicile_p2p.cli import main
from domicile_p2p.cli._config import ConfigError, apply_config, config_file, load_config
from domicile_p2p.net.adapters.key_files import default_data_dir


@pytest.fixture
def homes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This test's own data and config dirs (XDG: what platformdirs reads on Linux)."""
    monkeypatch.setenv("DOMICILE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path


def test_the_data_dir_variable_moves_the_data_dir(homes: Path) -> None:
    assert default_data_dir() == homes / "data"


def test_an_empty_data_dir_variable_is_the_platforms(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOMICILE_DATA_DIR", "")
    assert default_data_dir().name == "domicile-p2p"


def test_no_config_file_is_no_settings(homes: Path) -> None:
    assert config_file() == homes / "config" / "domicile-p2p" / "config.toml"
    assert load_config() == {}


def _write_config(text: str) -> Path:
    path = config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_the_config_file_gives_the_options_not_given(homes: Path) -> None:
    _write_config('name = "Ada"\ndifficulty = "difficult"\ninterface = "127.0.0.1"\nport = 0\n')
    args = argparse.Namespace(name=None, difficulty="easy", interface=None, port=None)
    apply_config(args)
    assert vars(args) == {"name": "Ada", "difficulty": "easy", "interface": "127.0.0.1", "port": 0}


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('name = "Ada', "is not TOML: "),
        ('colour = "red"', "has 'colour', which is none of: name, difficulty, interface, port"),
        ('port = "47470"', "port must be a number"),
        ("name = 3", "name must be a string"),
        ('difficulty = "nightmare"', "difficulty must be one of easy, normal, difficult"),
        ("port = 70000", "port must be 0 to 65535"),
    ],
)
def test_a_broken_config_file_is_one_line_naming_it(homes: Path, text: str, problem: str) -> None:
    path = _write_config(text)
    with pytest.raises(ConfigError) as raised:
        load_config()
    message = str(raised.value)
    assert str(path) in message and problem in message and "\n" not in message


def test_paths_shows_the_data_dir_config_logs_and_games(
    homes: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["paths"]) == 0
    shown = dict(line.split(":  ", 1) for line in capsys.readouterr().out.splitlines())
    shown = {label.rstrip(":").strip(): path.strip() for label, path in shown.items()}
    data = homes / "data"
    assert shown["data dir"] == str(data)
    assert shown["config file"].startswith(str(homes / "config" / "domicile-p2p" / "config.toml"))
    assert shown["logs"].startswith(str(data / "logs"))
    assert shown["games (domicile host)"] == str(data / "games")
    assert shown["games (domicile play's tables)"] == str(data / "host" / "games")


@pytest.mark.slow
def test_play_with_a_broken_config_file_says_so_in_one_line(homes: Path) -> None:
    path = _write_config("port = -1\n")
    launcher = Path(sys.executable).with_name("domicile")
    result = subprocess.run(
        [str(launcher), "play", "--offline"],
        capture_output=True,
        text=True,
        env={**os.environ, "TERM": "dumb"},
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr == f"domicile play: the config file {path}: port must be 0 to 65535\n"
