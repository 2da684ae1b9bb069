"""How long a bot "thinks" before it acts, so a table of bots feels like people.

A bot that answers in a millisecond makes the game unreadable: the Ghost's
gives, the markers and the séance would all land in one frame.  Each bot
action waits a delay drawn around ``mean`` (60% to 140% of it).  The
randomness is cosmetic and never touches the game: the game's randomness
comes only from the fairness layer.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Final

SEANCE_PAUSE: Final = 1.2
"""Seconds a human Ghost's séance waits before it is announced (the last marker settles)."""

DEFAULT_MEAN: Final = 1.0
SPREAD: Final = 0.4


@dataclass(frozen=True, slots=True)
class BotPace:
    mean: float = DEFAULT_MEAN
    rng: random.Random = field(default_factory=random.Random, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not 0 <= self.mean <= 60:
            raise ValueError(f"a bot delay is 0 to 60 seconds, not {self.mean}")

    def delay(self) -> float:
        """Seconds the next bot action waits (0 when the pace is 0: tests, benchmarks)."""
        if self.mean == 0:
            return 0.0
        return self.mean * self.rng.uniform(1 - SPREAD, 1 + SPREAD)
