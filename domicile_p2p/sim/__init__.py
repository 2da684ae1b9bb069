"""Self-play: bots at every seat, many games, one summary (``domicile simulate``).

``run_game(pack, investigators, difficulty, seed)`` deals one game from
keys derived from ``seed`` (see ``game.py``) and plays it to the end;
``simulate(games, investigators, difficulty, seed, pack)`` plays many and
reports the win rate, the rounds used, how often Stage Two was reached and
where lost games were usually lost.
"""

from domicile_p2p.sim.game import (
    STAGE_ONE_TOO_LATE,
    STAGE_TWO_FAILURE,
    Deadlock,
    GameResult,
    bot_seed,
    deal,
    failure_point,
    may_act,
    play,
    run_game,
)
from domicile_p2p.sim.report import Progress, SimulationReport, game_seed, simulate

__all__ = [
    "STAGE_ONE_TOO_LATE",
    "STAGE_TWO_FAILURE",
    "Deadlock",
    "GameResult",
    "Progress",
    "SimulationReport",
    "bot_seed",
    "deal",
    "failure_point",
    "game_seed",
    "may_act",
    "play",
    "run_game",
    "simulate",
]
