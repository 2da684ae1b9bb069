"""The seats' secrets in the player's data dir: the Ghost's seeds, the investigators' entropies.

One file per game and seat, ``0600`` from its first byte.  A secret is drawn
(``fresh``, :func:`secrets.token_bytes` unless a test gives another source)
and written durably the first time a seat needs it, *before* the session's
agent can sign the commitment to it; a client that crashes or is killed
reads the same secret back, rebuilds its agent from (secret, events) and can
still reveal.  The session asks with a
:class:`~domicile_p2p.net.sessions.effects.SecretNeeded` effect and never
touches the file itself.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Final, Protocol

from domicile_p2p.fairness.commit import ENTROPY_BYTES, SEED_BYTES
from domicile_p2p.net.adapters.key_files import read_private_file, write_private_file
from domicile_p2p.net.errors import NetError
from domicile_p2p.rules import GHOST

SECRETS_DIR: Final = "secrets"
_GAME_ID: Final = re.compile(r"^[0-9a-f]{32}$")


class SecretKeeper(Protocol):
    """Where a seat's secrets are kept (a file per game and seat, or memory at an offline
    table, which nobody resumes)."""

    def for_seat(self, game_id: str, seat: int) -> bytes:
        """The secret seat ``seat`` commits to in game ``game_id`` (the same every time)."""


class SeatSecrets:
    """The Ghost's seeds and investigators' entropies, one file per game and seat, ``0600``."""

    def __init__(
        self, data_dir: Path, *, fresh: Callable[[int], bytes] = secrets.token_bytes
    ) -> None:
        self.directory = data_dir / SECRETS_DIR
        self._fresh = fresh

    def _load_or_create(self, name: str, size: int) -> bytes:
        path = self.directory / name
        try:
            value = read_private_file(path)
        except FileNotFoundError:
            value = self._fresh(size)
            if not write_private_file(path, value, exclusive=True):
                value = read_private_file(path)  # another process of ours was first
        if len(value) != size:
            raise NetError(f"{path} is damaged ({len(value)} bytes, not {size})")
        return value

    def ghost_seed(self, game_id: str) -> bytes:
        return self._load_or_create(f"{_checked(game_id)}-ghost.seed", SEED_BYTES)

    def entropy(self, game_id: str, seat: int) -> bytes:
        return self._load_or_create(f"{_checked(game_id)}-seat{seat}.entropy", ENTROPY_BYTES)

    def for_seat(self, game_id: str, seat: int) -> bytes:
        """The secret seat ``seat`` commits to in game ``game_id``: a seed or an entropy."""
        return self.ghost_seed(game_id) if seat == GHOST else self.entropy(game_id, seat)


def _checked(game_id: str) -> str:
    if not _GAME_ID.match(game_id):
        raise ValueError(f"not a game id: {game_id!r}")
    return game_id
