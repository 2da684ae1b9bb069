"""Each benchmark script runs at its tiniest size and ends with one valid JSON line.

This checks that the benchmarks still work against the code (an API they
use changed, a command they start was renamed), not how fast anything is:
speed targets are the benchmarks' business, never a test's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# `make bench` runs these before the benchmarks themselves; `make test` does not.
pytestmark = pytest.mark.benchmark

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
SCRIPTS = sorted(path.name for path in BENCHMARKS.glob("bench_*.py"))


def test_every_benchmark_is_covered() -> None:
    assert {
        "bench_discovery.py",
        "bench_host.py",
        "bench_selfplay.py",
        "bench_startup.py",
        "bench_verify.py",
    } <= set(SCRIPTS)


@pytest.mark.parametrize("script", SCRIPTS)
def test_a_benchmark_runs_quick_and_prints_one_json_line(script: str) -> None:
    # The venv's console scripts (domicile, py-spy) sit next to this interpreter.
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    result = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), "--quick"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=BENCHMARKS.parent,
        env=env,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    lines = result.stdout.strip().splitlines()
    record = json.loads(lines[-1])
    assert record["benchmark"] == script.removeprefix("bench_").removesuffix(".py")
    assert record["machine"]["nproc"] >= 1
    assert record["results"], "a benchmark that measured nothing"
    for target in record["targets"]:
        assert {"name", "value", "limit", "met"} <= set(target)
        assert target["met"] in (True, False, None)
    # The human table comes first: the JSON line is the only JSON line.
    assert sum(1 for line in lines if line.startswith("{")) == 1


SMALL = ("--events", "6", "--built", "12")


@pytest.mark.parametrize("what", ["host", "floor"])
def test_the_hosts_own_work_for_callgrind_runs_small(what: str) -> None:
    """``benchmarks/_host/own_work.py`` (counted under callgrind, never timed) still runs."""
    result = subprocess.run(
        [sys.executable, str(BENCHMARKS / "_host" / "own_work.py"), what, *SMALL],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=BENCHMARKS.parent,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert json.loads(result.stdout.strip().splitlines()[-1]) == {
        "what": what,
        "events": 6,
        "built": 12,
    }


@pytest.mark.parametrize("mode", ["verify", "floor", "none"])
def test_the_verify_passes_for_callgrind_run(mode: str, tmp_path: Path) -> None:
    """``benchmarks/verify_passes.py`` (counted under callgrind, never timed) still runs."""
    from domicile_p2p.cli import main

    game = tmp_path / "game.jsonl"
    played = ["--investigators", "1", "--difficulty", "easy", "--seed", "1"]
    assert main(["selfplay", *played, "--transcript", str(game)]) == 0
    result = subprocess.run(
        [sys.executable, str(BENCHMARKS / "verify_passes.py"), mode, str(game), "2"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=BENCHMARKS.parent,
    )
    assert result.returncode == 0, result.stderr[-2000:]
