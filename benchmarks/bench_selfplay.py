"""Self-play: whole bot games per second on one core, engine only and with the full protocol.

    python benchmarks/bench_selfplay.py                 # 1, 3 and 6 investigators
    python benchmarks/bench_selfplay.py --games 200 --investigators 3

Three ways to play the same games, each timed over the same seeds:

- ``engine``: ``domicile_p2p.sim.run_game``: deal, then bots decide on their
  views and the rules engine applies (what ``domicile simulate`` does);
- ``anchor``: the engine alone: the dealt state, then ``apply`` over the very
  actions those games played, recorded beforehand (no bot, no view);
- ``protocol``: ``domicile_p2p.transcript.selfplay.play_game``: every action
  signed, ordered and signed by the table, checked by a replica (what
  ``domicile selfplay`` does, minus writing the file).

Targets: >= 1,000 games/s engine only (issue 7); engine/anchor <= 3 x (issue 11:
the bots cost at most twice what the rules do).  The ratio protocol/engine says
where the rest of the time goes.  The process is pinned to one
CPU so "per core" means what it says.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass

from _common import Report, Target, interleaved, parser, ratio

from domicile_p2p.bots import Policy, RecordingPolicy, make_policy
from domicile_p2p.fairness.seeds import SelfplaySeeds
from domicile_p2p.packs import Pack, load_default_pack
from domicile_p2p.rules import Action, Difficulty, GameState, apply
from domicile_p2p.sim import deal, run_game
from domicile_p2p.transcript.packref import card_lists
from domicile_p2p.transcript.selfplay import Seating, play_game

TARGET_GAMES_PER_SECOND = 1000.0
TARGET_OVER_ANCHOR = 3.0
"""Issue 11: engine + bots at most 3 x the engine alone replaying the same actions."""


@dataclass(frozen=True, slots=True)
class RecordedGame:
    start: GameState
    actions: tuple[Action, ...]


def record(pack: Pack, investigators: int, difficulty: Difficulty, seed: int) -> RecordedGame:
    """Play the game of ``seed`` once, keeping the dealt state and every action applied."""
    log: list[Action] = []

    def factory(seat: int, pack: Pack, bot_seed: int) -> Policy:
        return RecordingPolicy(make_policy(seat, pack, bot_seed), log)

    run_game(pack, investigators, difficulty, seed, policy=factory)
    return RecordedGame(deal(pack, investigators, difficulty, seed), tuple(log))


def replay(game: RecordedGame) -> GameState:
    state = game.start
    for action in game.actions:
        state = apply(state, action)
    assert state.outcome is not None
    return state


def protocol_game(pack: Pack, investigators: int, difficulty: Difficulty, seed: int) -> None:
    seeds = SelfplaySeeds.from_number(seed)
    play_game(
        seeds=seeds,
        seating=Seating.from_seeds(seeds, investigators),
        difficulty=difficulty,
        cards=card_lists(pack),
        pack_id=pack.id,
        pack_hash=pack.content_hash,
        policies=[
            make_policy(seat, pack, seeds.bot_seed(seat)) for seat in range(investigators + 1)
        ],
    )


def pin_to_one_cpu() -> int | None:
    """Run on one CPU only (the one we are on); which, or None where affinity is unsupported."""
    with contextlib.suppress(AttributeError, OSError):
        cpu = sorted(os.sched_getaffinity(0))[-1]
        os.sched_setaffinity(0, {cpu})
        return cpu
    return None


def main(argv: list[str] | None = None) -> int:
    options = parser(__doc__.splitlines()[0])
    options.add_argument("--games", type=int, default=60, help="games per round (default 60)")
    options.add_argument("--protocol-games", type=int, default=10, help="full-protocol games")
    options.add_argument("--rounds", type=int, default=5, help="timed rounds (median reported)")
    options.add_argument(
        "--investigators", type=int, action="append", help="repeatable (default: 1, 3, 6)"
    )
    options.add_argument("--difficulty", default="normal")
    args = options.parse_args(argv)
    if args.quick:
        args.games, args.protocol_games, args.rounds = 3, 1, 1
    sizes = args.investigators or [1, 3, 6]
    difficulty = Difficulty(args.difficulty)
    cpu = pin_to_one_cpu()
    pack = load_default_pack()

    report = Report(
        "selfplay",
        {
            "games": args.games,
            "protocol_games": args.protocol_games,
            "rounds": args.rounds,
            "investigators": sizes,
            "difficulty": difficulty.value,
            "pinned_cpu": cpu,
        },
        (
            "investigators",
            "actions/game",
            "engine games/s",
            "anchor (apply only) games/s",
            "engine/anchor time",
            "protocol games/s",
            "protocol/engine time",
        ),
    )
    engine_rates: dict[int, float] = {}
    over_anchor: dict[int, float] = {}
    for investigators in sizes:
        seeds = range(args.games)
        recorded = [record(pack, investigators, difficulty, seed) for seed in seeds]
        protocol_seeds = range(args.protocol_games)
        actions = sum(len(game.actions) for game in recorded) / len(recorded)

        def engine(investigators: int = investigators, seeds: range = seeds) -> None:
            for seed in seeds:
                run_game(pack, investigators, difficulty, seed)

        def anchor(recorded: list[RecordedGame] = recorded) -> None:
            for game in recorded:
                replay(game)

        def protocol(investigators: int = investigators, seeds: range = protocol_seeds) -> None:
            for seed in seeds:
                protocol_game(pack, investigators, difficulty, seed)

        calls: dict[str, Callable[[], object]] = {
            "engine": engine,
            "anchor": anchor,
            "protocol": protocol,
        }
        timings = interleaved(calls, rounds=args.rounds)
        per_engine = timings["engine"].median / args.games
        per_anchor = timings["anchor"].median / args.games
        per_protocol = timings["protocol"].median / args.protocol_games
        engine_rates[investigators] = 1 / per_engine
        over_anchor[investigators] = ratio(per_engine, per_anchor)
        report.row(
            investigators,
            actions,
            1 / per_engine,
            1 / per_anchor,
            ratio(per_engine, per_anchor),
            1 / per_protocol,
            ratio(per_protocol, per_engine),
        )
        report.results[f"k{investigators}"] = {
            "actions_per_game": actions,
            "engine_games_per_s": 1 / per_engine,
            "anchor_games_per_s": 1 / per_anchor,
            "engine_over_anchor": ratio(per_engine, per_anchor),
            "protocol_games_per_s": 1 / per_protocol,
            "protocol_over_engine": ratio(per_protocol, per_engine),
            "apply_us": per_anchor / actions * 1e6,
        }
    for investigators, rate in engine_rates.items():
        report.targets.append(
            Target(
                f"engine-only games/s, {investigators} investigator(s)",
                rate,
                TARGET_GAMES_PER_SECOND,
                "higher",
            )
        )
    for investigators, value in over_anchor.items():
        report.targets.append(
            Target(
                f"engine + bots / engine alone, {investigators} investigator(s)",
                value,
                TARGET_OVER_ANCHOR,
                "lower",
            )
        )
    report.note(
        "anchor = the same games' actions re-applied to the dealt state: the rules engine "
        "without bot decisions, views or the deal"
    )
    report.emit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
