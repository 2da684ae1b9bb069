"""Verification: ``verify`` on whole transcripts against the cost of their signatures alone.

    python benchmarks/bench_verify.py
    python benchmarks/bench_verify.py --investigators 6 --rounds 20

For 1, 3 and 6 investigators a transcript is made with ``domicile selfplay
--seed`` (so every run checks the same games), then, interleaved round by
round:

- ``verify``: ``domicile_p2p.transcript.verify.verify(data)`` on the file's
  bytes, in this process (parsing, chain, signatures, the replay with the
  Ghost's secrets: everything ``domicile verify`` checks), as
  ``domicile verify`` runs it: signatures on a thread per CPU (``jobs``
  below), the caller's included; its CPU time (every thread) is reported too;
- ``verify, 1 thread``: the same with ``jobs=1`` (``domicile verify --jobs 1``);
- ``floor`` (the anchor): every signature that transcript holds (the host's
  on every event, the player's on every action) checked once with
  ``cryptography``'s Ed25519 on one thread, messages and keys prepared
  beforehand: the least any one-thread verifier of this format must spend.

Targets: verify <= 1.2 x floor (issue 7), as ``domicile verify`` runs it
(wall time: what a user waits for) and on one thread (issue 11: the same CPU
budget as the floor); and the whole ``domicile verify FILE`` process,
less the interpreter's own start (``python -c pass``), <= 3 x the floor of
the 3-investigator game (issue 11; reported for every size).  Start-up is
reported apart: ``python -c pass``, ``python -c "import domicile_p2p.cli"``
and the import of everything ``domicile verify`` needs.  Processes run with
bytecode as an installed program has it (a ``PYTHONDONTWRITEBYTECODE`` in
the environment would make every run compile the game from source; the
warm-up run writes it).
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from _common import Report, Target, Timing, interleaved, ms, parser, ratio, time_calls, venv_bin
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from domicile_p2p.transcript.batch import default_jobs
from domicile_p2p.transcript.codec import Event
from domicile_p2p.transcript.files import split_lines
from domicile_p2p.transcript.ledger import read_genesis
from domicile_p2p.transcript.verify import verify

TARGET_RATIO = 1.2
PROCESS_TARGET_RATIO = 3.0
PROCESS_TARGET_INVESTIGATORS = 3


@dataclass(frozen=True, slots=True)
class Signatures:
    """Every (key, signature, message) a transcript holds, ready for Ed25519."""

    checks: tuple[tuple[Ed25519PublicKey, bytes, bytes], ...]
    host: int
    player: int

    def verify_all(self) -> None:
        for key, signature, message in self.checks:
            key.verify(signature, message)  # raises InvalidSignature: the anchor is honest


def signatures(data: bytes) -> Signatures:
    events = [Event.from_json(line) for line in split_lines(data)]
    table = read_genesis(events[0])
    host_key = Ed25519PublicKey.from_public_bytes(table.host_key.raw)
    seat_keys = [Ed25519PublicKey.from_public_bytes(key.raw) for key in table.seat_keys]
    game = table.genesis.game
    checks = []
    player = 0
    for event in events:
        assert event.host_sig is not None
        checks.append((host_key, bytes.fromhex(event.host_sig), event.host_message(table.game_id)))
        if event.seat is not None:
            action = event.action(game)  # its message encoded from the fields (as before)
            checks.append((seat_keys[event.seat], bytes.fromhex(action.sig), action.message()))
            player += 1
    return Signatures(tuple(checks), len(events), player)


def make_transcript(directory: Path, investigators: int, seed: int) -> Path:
    path = directory / f"game-{investigators}.jsonl"
    subprocess.run(
        [
            venv_bin("domicile"),
            "selfplay",
            "--investigators",
            str(investigators),
            "--difficulty",
            "normal",
            "--seed",
            str(seed),
            "--transcript",
            str(path),
        ],
        check=True,
        capture_output=True,
    )
    return path


# Bytecode as an installed program has it (see the module docstring).
PROCESS_ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def process_call(command: list[str], cpu: list[float] | None = None) -> Callable[[], None]:
    """Run ``command``; its CPU time (user + system, every thread) goes to ``cpu``."""

    def run() -> None:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(command, check=False, capture_output=True, env=PROCESS_ENV)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if cpu is not None:
            cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)

    return run


def process_wall(command: list[str], rounds: int) -> Timing:
    return time_calls(process_call(command), rounds=rounds, warmup=1)


def main(argv: list[str] | None = None) -> int:
    options = parser(__doc__.splitlines()[0])
    options.add_argument("--rounds", type=int, default=15, help="timed rounds (median reported)")
    options.add_argument("--process-rounds", type=int, default=7, help="process start-ups timed")
    options.add_argument("--seed", type=int, default=7, help="selfplay seed of the transcripts")
    options.add_argument(
        "--investigators", type=int, action="append", help="repeatable (default: 1, 3, 6)"
    )
    args = options.parse_args(argv)
    if args.quick:
        args.rounds, args.process_rounds = 1, 1
    sizes = args.investigators or [1, 3, 6]
    jobs = default_jobs()
    report = Report(
        "verify",
        {"rounds": args.rounds, "seed": args.seed, "investigators": sizes, "jobs": jobs},
        (
            "investigators",
            "events",
            "signatures",
            f"verify ms ({jobs} threads)",
            "its CPU ms",
            "verify ms (1 thread)",
            "floor ms",
            "verify/floor",
            "1 thread/floor",
            "one Ed25519 verify us",
            "`domicile verify` process ms",
            "process - python ms",
            "(process - python)/floor",
        ),
    )
    with tempfile.TemporaryDirectory(prefix="bench-verify-") as tmp:
        directory = Path(tmp)
        python = sys.executable
        startup = {
            "python -c pass": process_wall([python, "-c", "pass"], args.process_rounds),
            "import domicile_p2p.cli": process_wall(
                [python, "-c", "import domicile_p2p.cli"], args.process_rounds
            ),
            "import domicile_p2p.cli.verify (all `domicile verify` imports)": process_wall(
                [python, "-c", "import domicile_p2p.cli.verify"], args.process_rounds
            ),
        }
        for investigators in sizes:
            path = make_transcript(directory, investigators, args.seed)
            data = path.read_bytes()
            prepared = signatures(data)
            report_check = verify(data)
            if not report_check.valid:
                raise SystemExit(f"the selfplay transcript does not verify: {report_check.summary}")

            cpu: list[float] = []

            def run_verify(data: bytes = data, cpu: list[float] = cpu) -> None:
                started = time.process_time()  # every thread of the process
                verify(data, jobs=jobs)
                cpu.append(time.process_time() - started)

            def run_alone(data: bytes = data) -> None:
                verify(data, jobs=1)

            timings = interleaved(
                {"verify": run_verify, "alone": run_alone, "floor": prepared.verify_all},
                rounds=args.rounds,
            )
            count = len(prepared.checks)
            # The process and the bare interpreter in turns, so that load hits both alike.
            python_cpu: list[float] = []
            cli_cpu: list[float] = []
            walls = interleaved(
                {
                    "python": process_call([python, "-c", "pass"], python_cpu),
                    "cli": process_call([venv_bin("domicile"), "verify", str(path)], cli_cpu),
                },
                rounds=args.process_rounds,
            )
            cli = walls["cli"].median
            beyond_python = cli - walls["python"].median
            # On a loaded machine wall time is mostly waiting for a CPU; CPU time is not.
            beyond_python_cpu = statistics.median(cli_cpu) - statistics.median(python_cpu)
            floor_cpu = time_calls(
                prepared.verify_all, rounds=args.rounds, clock=time.thread_time
            ).median
            verify_s, floor_s = timings["verify"].median, timings["floor"].median
            alone_s = timings["alone"].median
            cpu_s = sorted(cpu)[len(cpu) // 2]
            report.row(
                investigators,
                prepared.host,
                count,
                ms(verify_s),
                ms(cpu_s),
                ms(alone_s),
                ms(floor_s),
                ratio(verify_s, floor_s),
                ratio(alone_s, floor_s),
                floor_s / count * 1e6,
                ms(cli),
                ms(beyond_python),
                ratio(beyond_python, floor_s),
            )
            report.results[f"k{investigators}"] = {
                "events": prepared.host,
                "signatures": count,
                "player_signatures": prepared.player,
                "verify_s": verify_s,
                "verify_cpu_s": cpu_s,
                "verify_one_thread_s": alone_s,
                "floor_s": floor_s,
                "verify_over_floor": ratio(verify_s, floor_s),
                "one_thread_over_floor": ratio(alone_s, floor_s),
                "ed25519_verify_s": floor_s / count,
                "cli_process_s": cli,
                "cli_minus_python_s": beyond_python,
                "cli_minus_python_over_floor": ratio(beyond_python, floor_s),
                "cli_minus_python_cpu_s": beyond_python_cpu,
                "floor_cpu_s": floor_cpu,
                "cli_minus_python_cpu_over_floor_cpu": ratio(beyond_python_cpu, floor_cpu),
            }
            report.note(
                f"{investigators} investigator(s): `domicile verify` process CPU less "
                f"`python -c pass` CPU {ms(beyond_python_cpu):.1f} ms, floor CPU "
                f"{ms(floor_cpu):.1f} ms: {ratio(beyond_python_cpu, floor_cpu):.2f} x"
            )
            report.targets.append(
                Target(
                    f"verify ({jobs} threads, as `domicile verify`) / signature floor, "
                    f"{investigators} investigator(s)",
                    ratio(verify_s, floor_s),
                    TARGET_RATIO,
                    "lower",
                    "x",
                )
            )
            report.targets.append(
                Target(
                    f"verify on 1 thread / signature floor, {investigators} investigator(s)",
                    ratio(alone_s, floor_s),
                    TARGET_RATIO,
                    "lower",
                    "x",
                )
            )
            if investigators == PROCESS_TARGET_INVESTIGATORS:
                report.targets.append(
                    Target(
                        "`domicile verify` process - `python -c pass` / signature floor, "
                        f"{investigators} investigators",
                        ratio(beyond_python, floor_s),
                        PROCESS_TARGET_RATIO,
                        "lower",
                        "x",
                    )
                )
    report.results["startup"] = {name: timing.median for name, timing in startup.items()}
    for name, timing in startup.items():
        report.note(f"start-up, {name}: {ms(timing.median):.1f} ms (process wall, median)")
    report.emit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
