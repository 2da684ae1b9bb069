"""Every value a self-played game needs, derived from one number.

``domicile selfplay --seed S`` must produce the same transcript, byte for
byte, on every machine: so the game id, the Ghost's seed, every
investigator's entropy, every identity key and every bot's seed are read
from one master key::

    master      = H("domicile-p2p/v1/selfplay", decimal(S))
    game id     = stream(master, "domicile-p2p/v1/selfplay/game-id")[:16]
    Ghost seed  = stream(master, "domicile-p2p/v1/selfplay/ghost-seed")[:32]
    entropy     = stream(master, "domicile-p2p/v1/selfplay/entropy/<seat>")[:32]
    identity    = stream(master, "domicile-p2p/v1/selfplay/identity/<seat or host>")[:32]
    bot seed    = u64be(stream(master, "domicile-p2p/v1/selfplay/bot/<seat>")[:8])

This is only for games played against oneself: in a real game each value
comes from the machine that owns it (``secrets``), never from a shared seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from domicile_p2p.fairness.commit import (
    ENTROPY_BYTES,
    GAME_ID_BYTES,
    SEED_BYTES,
    tagged_hash,
)
from domicile_p2p.fairness.deal import label
from domicile_p2p.fairness.derive import KEY_BYTES, DerivationError, stream_bytes

SELFPLAY_DOMAIN: Final = "domicile-p2p/v1/selfplay"
HOST: Final = "host"
"""The identity label of the table's host (seats are labelled by number)."""


@dataclass(frozen=True, slots=True)
class SelfplaySeeds:
    """The derivation schedule of a self-played game (see the module docstring)."""

    master: bytes

    def __post_init__(self) -> None:
        if len(self.master) != KEY_BYTES:
            raise DerivationError(f"the master key must be {KEY_BYTES} bytes")

    @classmethod
    def from_number(cls, seed: int) -> SelfplaySeeds:
        """The schedule of ``--seed seed``: any integer, written in decimal."""
        return cls(tagged_hash(SELFPLAY_DOMAIN, str(seed).encode("ascii")))

    def _read(self, count: int, *parts: object) -> bytes:
        return stream_bytes(self.master, label("selfplay", *parts), count)

    @property
    def game_id(self) -> bytes:
        return self._read(GAME_ID_BYTES, "game-id")

    @property
    def ghost_seed(self) -> bytes:
        return self._read(SEED_BYTES, "ghost-seed")

    def entropy(self, seat: int) -> bytes:
        return self._read(ENTROPY_BYTES, "entropy", seat)

    def identity(self, party: int | str) -> bytes:
        """The 32-byte Ed25519 private key of a seat (by number) or of the host (``"host"``)."""
        return self._read(32, "identity", party)

    def bot_seed(self, seat: int) -> int:
        return int.from_bytes(self._read(8, "bot", seat), "big")
