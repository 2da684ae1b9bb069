"""Self-play passes for counting instructions: the bots' cost without the clock's noise.

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python benchmarks/selfplay_passes.py engine 4 10 1     # then ... 2

Records ``games`` games of ``investigators`` at normal (seeds as ``domicile simulate
--seed 0``), then plays them ``passes`` times: ``engine`` as ``sim.run_game`` does
(deal, bots, rules), ``anchor`` by re-applying the recorded actions with
``rules.apply`` (the engine alone), ``record`` not at all.  The instructions of one
pass are the difference between two and one passes, divided by the games; the ratio
engine / anchor is issue 11's and issue 22's "engine + bots <= 3 x the engine alone",
counted on a machine too loaded to time it (benchmarks/README.md, Self-play).
"""

from __future__ import annotations

import sys

from bench_selfplay import record

from domicile_p2p.packs import load_default_pack
from domicile_p2p.rules import Difficulty, apply
from domicile_p2p.sim import game_seed, run_game


def main(argv: list[str]) -> int:
    mode, investigators, games, passes = argv[0], int(argv[1]), int(argv[2]), int(argv[3])
    if mode not in ("engine", "anchor", "record"):
        print("usage: selfplay_passes.py engine|anchor|record INVESTIGATORS GAMES PASSES")
        return 2
    pack = load_default_pack()
    seeds = [game_seed(0, number) for number in range(games)]
    recorded = [record(pack, investigators, Difficulty.NORMAL, seed) for seed in seeds]
    for _ in range(passes):
        if mode == "engine":
            for seed in seeds:
                run_game(pack, investigators, Difficulty.NORMAL, seed)
        elif mode == "anchor":
            for game in recorded:
                state = game.start
                for action in game.actions:
                    state = apply(state, action)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
