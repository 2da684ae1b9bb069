"""The optional config file: ``domicile play``'s defaults (name, difficulty, interface, port).

It lives in the platform's config dir (``platformdirs``), as TOML::

    name = "Ada"
    difficulty = "difficult"
    interface = "192.168.1.20"
    port = 47470

An option given on the command line wins over the file.  A file that cannot
be used is one plain line naming it and what is wrong, before any screen.
Read only by the commands that use it: ``tomllib`` is not on every start's path.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Final

from domicile_p2p.cli import CommandError
from domicile_p2p.net.adapters.key_files import APP_NAME

CONFIG_FILE_NAME: Final = "config.toml"
_KINDS: Final[dict[str, type]] = {"name": str, "difficulty": str, "interface": str, "port": int}


class ConfigError(CommandError):
    """The config file cannot be used: its path and what is wrong, in one line."""


def config_file() -> Path:
    """Where the config file is looked for on this platform (it need not exist)."""
    import platformdirs

    return Path(platformdirs.user_config_dir(APP_NAME)) / CONFIG_FILE_NAME


def load_config(path: Path | None = None) -> dict[str, str | int]:
    """The settings of the config file at ``path`` (the platform's by default), checked;
    no file is no settings."""
    path = config_file() if path is None else path
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"the config file {path} cannot be read: {error}") from None
    import tomllib  # only when there is a file to read

    from domicile_p2p.rules import Difficulty

    try:
        values = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"the config file {path} is not TOML: {error}") from None
    for key, value in values.items():
        kind = _KINDS.get(key)
        if kind is None:
            known = ", ".join(_KINDS)
            raise ConfigError(f"the config file {path} has {key!r}, which is none of: {known}")
        if type(value) is not kind:
            raise ConfigError(
                f"the config file {path}: {key} must be a {'number' if kind is int else 'string'}"
            )
    difficulties = [difficulty.value for difficulty in Difficulty]
    if values.get("difficulty", Difficulty.NORMAL.value) not in difficulties:
        raise ConfigError(
            f"the config file {path}: difficulty must be one of {', '.join(difficulties)}"
        )
    port = values.get("port", 0)
    if not isinstance(port, int) or not 0 <= port <= 65535:
        raise ConfigError(f"the config file {path}: port must be 0 to 65535")
    return dict(values)


def apply_config(args: argparse.Namespace, path: Path | None = None) -> None:
    """Each setting of the config file becomes the value of its option not given."""
    for key, value in load_config(path).items():
        if getattr(args, key, None) is None:
            setattr(args, key, value)
