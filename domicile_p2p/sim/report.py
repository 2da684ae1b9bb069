"""Many self-play games at one difficulty, summed up."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from domicile_p2p.bots import DEFAULT_READERS, Readers
from domicile_p2p.packs import Pack
from domicile_p2p.rules import Difficulty
from domicile_p2p.sim.game import GameResult, run_game

Progress = Callable[[int, int], None]
"""``progress(done, total)``, called after every game."""


@dataclass(frozen=True, slots=True)
class SimulationReport:
    """The outcome of ``games`` self-play games at one table size and difficulty."""

    games: int
    difficulty: Difficulty
    investigators: int
    seed: int
    wins: int
    mean_rounds: float
    stage_two_games: int
    readers: Readers = DEFAULT_READERS
    """What the bots read the dreams by."""
    failures: dict[str, int] = field(default_factory=dict)
    """How many games were lost at each failure point."""
    ghost_gives: int = 0
    """Stage One gives the Ghost made, in all games."""
    wrong_named_gives: int = 0
    """Of those, the gives with a dream whose text names a wrong card of the category sought."""
    group_gives: int = 0
    """Stage Two gives, in all games."""
    group_gives_splittable: int = 0
    """Of those, the gives whose hand held one dream for each of the culprit's cards."""
    group_gives_split: int = 0
    """Of the splittable ones, the gives that were split one dream per card."""

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    @property
    def stage_two_rate(self) -> float:
        return self.stage_two_games / self.games

    @property
    def usual_failure(self) -> str | None:
        """The most common failure point (ties: the first in sorted order), or ``None``."""
        if not self.failures:
            return None
        return min(self.failures, key=lambda point: (-self.failures[point], point))

    @property
    def usual_failure_share(self) -> float:
        """The share of the lost games that failed at :attr:`usual_failure`."""
        point = self.usual_failure
        losses = self.games - self.wins
        return 0.0 if point is None or losses == 0 else self.failures[point] / losses

    def as_json(self) -> dict[str, object]:
        return {
            "games": self.games,
            "difficulty": self.difficulty.value,
            "investigators": self.investigators,
            "seed": self.seed,
            "readers": self.readers.value,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 4),
            "mean_rounds": round(self.mean_rounds, 3),
            "stage_two_rate": round(self.stage_two_rate, 4),
            "usual_failure": self.usual_failure,
            "usual_failure_share": round(self.usual_failure_share, 4),
            "failures": dict(sorted(self.failures.items())),
            "ghost_gives": self.ghost_gives,
            "wrong_named_gives": self.wrong_named_gives,
            "group_gives": self.group_gives,
            "group_gives_splittable": self.group_gives_splittable,
            "group_gives_split": self.group_gives_split,
        }


def game_seed(seed: int, number: int) -> int:
    """The seed of game ``number`` of a simulation: SHA-256("domicile-p2p/sim/<seed>/game/<n>")."""
    digest = hashlib.sha256(f"domicile-p2p/sim/{seed}/game/{number}".encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big")


def simulate(
    games: int,
    investigators: int,
    difficulty: Difficulty,
    seed: int,
    pack: Pack,
    progress: Progress | None = None,
    readers: Readers = DEFAULT_READERS,
) -> SimulationReport:
    """Play ``games`` self-play games; the same arguments always give the same report."""
    if games < 1:
        raise ValueError(f"a simulation plays at least one game, not {games}")
    results: list[GameResult] = []
    for number in range(games):
        results.append(
            run_game(pack, investigators, difficulty, game_seed(seed, number), readers=readers)
        )
        if progress is not None:
            progress(number + 1, games)
    failures = Counter(result.failure for result in results if result.failure is not None)
    return SimulationReport(
        games=games,
        difficulty=difficulty,
        investigators=investigators,
        seed=seed,
        wins=sum(result.won for result in results),
        mean_rounds=sum(result.rounds for result in results) / games,
        stage_two_games=sum(result.reached_stage_two for result in results),
        readers=readers,
        failures=dict(failures),
        ghost_gives=sum(result.ghost_gives for result in results),
        wrong_named_gives=sum(result.wrong_named_gives for result in results),
        group_gives=sum(result.group_gives for result in results),
        group_gives_splittable=sum(result.group_gives_splittable for result in results),
        group_gives_split=sum(result.group_gives_split for result in results),
    )
