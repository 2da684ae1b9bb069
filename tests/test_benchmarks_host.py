"""bench_host's arithmetic: the issue 11 ratio, and the py-spy summary it ranks."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))  # the scripts import their shared _common module

from _common import Report  # noqa: E402
from _host import report  # noqa: E402
from _host.measure import PhaseResult  # noqa: E402
from _host.profiling import read_profile  # noqa: E402
from _host.signatures import Ed25519Cost  # noqa: E402


def _saturation(events: int, cores: float, ed25519: Ed25519Cost | None) -> PhaseResult:
    return PhaseResult(
        "saturation", [], [], events, events, 10.0, cores, 0.1, [], [], 0.0, 0.0, ed25519=ed25519
    )


def test_the_cpu_per_event_ratio_is_the_host_over_the_bare_server_plus_ed25519() -> None:
    out = Report("host", {}, report.COLUMNS)
    host = _saturation(10_000, 0.5, Ed25519Cost(verify=100e-6, sign=40e-6))  # 500 us/event
    bare = _saturation(20_000, 0.2, Ed25519Cost(verify=120e-6, sign=60e-6))  # 100 us/event
    report.finish(out, {"domicile": {10: [host]}, "bare": {10: [bare]}}, 1000)
    by_name = {target.name: target for target in out.targets}
    old = by_name["saturation events/s per host core vs bare, K=10"]
    new = by_name["saturation host CPU per event vs (bare + Ed25519), K=10"]
    assert old.value == pytest.approx(0.2)  # 2,000 vs 10,000 events/s per core
    # 500 / (100 + mean(100, 120) + mean(40, 60)) = 500 / 260
    assert new.value == pytest.approx(500 / 260)
    assert new.met is False and new.limit == 1.3 and new.better == "lower"


def test_without_an_anchor_run_the_ratio_is_not_measured() -> None:
    out = Report("host", {}, report.COLUMNS)
    host = _saturation(10_000, 0.5, Ed25519Cost(verify=100e-6, sign=40e-6))
    report.finish(out, {"domicile": {10: [host]}, "bare": {}}, 1000)
    assert [target.met for target in out.targets] == [None, None]


def test_a_profile_ranks_cpu_by_category_and_by_function(tmp_path: Path) -> None:
    raw = tmp_path / "py-spy.txt"
    raw.write_text(
        "main (domicile_p2p/cli/__init__.py:5);run (asyncio/base_events.py:9);"
        "select (selectors.py:468) 50\n"
        "main (domicile_p2p/cli/__init__.py:5);"
        "GameTable.submit (domicile_p2p/transcript/table.py:1);"
        "PublicKey.verifies (domicile_p2p/identity.py:86) 30\n"
        "main (domicile_p2p/cli/__init__.py:5);"
        "GameTable.submit (domicile_p2p/transcript/table.py:2);"
        "Identity.sign (domicile_p2p/identity.py:128) 10\n"
        "main (domicile_p2p/cli/__init__.py:5);write (asyncio/selector_events.py:1) 10\n"
        "_worker (concurrent/futures/thread.py:81) 400\n"
    )
    profile = read_profile(raw)
    assert profile is not None
    assert profile.shares["idle (waiting in select)"] == pytest.approx(0.5)  # pool idle left out
    assert profile.cpu_shares() == pytest.approx(
        {
            "signature checks (Ed25519 verify)": 0.6,
            "signing (Ed25519 sign)": 0.2,
            "asyncio machinery": 0.2,
        }
    )
    assert list(profile.self_time) == [
        "PublicKey.verifies (domicile_p2p/identity.py)",
        "Identity.sign (domicile_p2p/identity.py)",
        "write (asyncio/selector_events.py)",
    ]
    # Line numbers merged, entry points left out: the submit is under 80 % of the CPU.
    assert profile.host_inclusive["GameTable.submit (domicile_p2p/transcript/table.py)"] == 0.8
    assert not any("cli/" in name for name in profile.host_inclusive)
