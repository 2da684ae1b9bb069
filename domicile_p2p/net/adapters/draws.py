"""The random draws of a host and of the seats it plays: game ids, nonces, codes, bot seeds.

A host serving the LAN draws each from the operating system (:class:`SystemDraws`).
An offline table fixed by a seed (tests, demos, the tutorial's chapters) draws every
value of its games from that one number (:class:`SeededDraws`): game ``n`` at seed
``S`` is the game ``domicile selfplay --seed S+n-1`` would deal (its id, the Ghost's
seed, the investigators' entropies), and the seats' keys and the bots' seeds are its
first game's.  The sans-I/O sessions never draw: they are handed these.
"""

from __future__ import annotations

import random
import secrets
from typing import Final, Protocol

from domicile_p2p.fairness.commit import ENTROPY_BYTES, GAME_ID_BYTES, SEED_BYTES
from domicile_p2p.fairness.seeds import HOST, SelfplaySeeds
from domicile_p2p.identity import Identity
from domicile_p2p.rules import GHOST

BOT_SEED_BITS: Final = 63


class Draws(Protocol):
    def token_bytes(self, size: int) -> bytes:
        """``size`` random bytes (a handshake's nonce)."""

    def randbelow(self, bound: int) -> int:
        """A number in ``range(bound)`` (a join code's words, a table's number)."""

    def game_id(self) -> bytes:
        """The id of the host's next game."""

    def bot_seed(self, seat: int) -> int:
        """The seed of the policy a hosted bot plays ``seat`` with."""

    def identity(self, party: int | str) -> Identity:
        """A fresh key for a seat (by number) or for the host (``"host"``)."""

    def secret(self, game_id: str, seat: int) -> bytes:
        """What ``seat`` commits to in game ``game_id``: the Ghost's seed, an entropy."""


class SystemDraws:
    """Every draw from the operating system (a host serving the LAN)."""

    def token_bytes(self, size: int) -> bytes:
        return secrets.token_bytes(size)

    def randbelow(self, bound: int) -> int:
        return secrets.randbelow(bound)

    def game_id(self) -> bytes:
        return secrets.token_bytes(GAME_ID_BYTES)

    def bot_seed(self, seat: int) -> int:
        return secrets.randbits(BOT_SEED_BITS)

    def identity(self, party: int | str) -> Identity:
        return Identity.generate()

    def secret(self, game_id: str, seat: int) -> bytes:
        return secrets.token_bytes(SEED_BYTES if seat == GHOST else ENTROPY_BYTES)


class SeededDraws:
    """Every draw from one number (see the module docstring)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._first = SelfplaySeeds.from_number(seed)
        self._games: dict[str, SelfplaySeeds] = {}
        # Nonces and codes never reach a transcript: any fixed stream will do.
        self._stream = random.Random(seed)

    def token_bytes(self, size: int) -> bytes:
        return self._stream.randbytes(size)

    def randbelow(self, bound: int) -> int:
        return self._stream.randrange(bound)

    def game_id(self) -> bytes:
        schedule = SelfplaySeeds.from_number(self.seed + len(self._games))
        self._games[schedule.game_id.hex()] = schedule
        return schedule.game_id

    def bot_seed(self, seat: int) -> int:
        return self._first.bot_seed(seat)

    def identity(self, party: int | str) -> Identity:
        return Identity.from_private_bytes(self._first.identity(party))

    def host_identity(self) -> Identity:
        return self.identity(HOST)

    def secret(self, game_id: str, seat: int) -> bytes:
        schedule = self._games.get(game_id)
        if schedule is None:
            raise KeyError(f"game {game_id} was not dealt from seed {self.seed}")
        return schedule.ghost_seed if seat == GHOST else schedule.entropy(seat)
