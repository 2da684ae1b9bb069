"""Conformance: ``verify`` on every vector game reports what ``expected.json`` says, and
every public rule of ``protocol/SPEC.md`` §12.2 has a tampered game that fails it where the
table says (its check, and the party it blames).

An independent verifier is compared with ours the same way: first failing check, event
``seq`` and party (SPEC §12, §16).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from domicile_p2p.transcript import Check
from domicile_p2p.transcript.errors import HOST, party
from domicile_p2p.transcript.files import read_transcript
from domicile_p2p.transcript.verify import verify

PROTOCOL = Path(__file__).resolve().parents[1] / "protocol"
GAMES = PROTOCOL / "vectors" / "games"
EXPECTED: dict[str, Any] = json.loads((GAMES / "expected.json").read_text("utf-8"))["results"]
CHECK_NUMBERS = {number: check for number, check in enumerate(list(Check)[:12], start=1)}


def _first_failure(report_error: Any) -> tuple[str, int, str] | None:
    if report_error is None:
        return None
    return (report_error.check, report_error.seq, report_error.party)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_verify_reports_the_expected_first_failure(name: str) -> None:
    expected = EXPECTED[name]
    report = verify(GAMES / f"{name}.jsonl", jobs=1)
    assert report.valid == expected["valid"]
    error = expected["error"]
    wanted = None if error is None else (error["check"], error["seq"], error["party"])
    assert _first_failure(report.error) == wanted, report.summary


def test_every_vector_game_has_an_expectation() -> None:
    on_disk = {p.relative_to(GAMES).with_suffix("").as_posix() for p in GAMES.rglob("*.jsonl")}
    assert on_disk == set(EXPECTED)


def _rule_table() -> dict[str, tuple[int, str]]:
    """SPEC §12.2's table: rule -> (check number, who is blamed)."""
    spec = (PROTOCOL / "SPEC.md").read_text("utf-8")
    section = spec[spec.index("### 12.2 The public rules") : spec.index("## 13.")]
    rows = re.findall(r"^\| ([A-Z]\d+) \| .*? \| (\d+) \| ([a-z ]+) \| .*\|$", section, re.M)
    return {rule: (int(check), blamed) for rule, check, blamed in rows}


def test_the_spec_table_lists_every_rule_once() -> None:
    table = _rule_table()
    assert len(table) == 43  # P1-P9, G0-G9, F1-F4, M1-M10, C1, S1-S6, T1-T3
    assert {rule[0] for rule in table} == {"P", "G", "F", "M", "C", "S", "T"}


def test_every_rule_of_the_spec_has_a_vector_failing_where_the_table_says() -> None:
    table = _rule_table()
    covered: set[str] = set()
    for name, expected in EXPECTED.items():
        if not name.startswith("rules/"):
            continue
        rule = expected["rule"]
        check_number, blamed = table[rule]
        error = expected["error"]
        assert error["check"] == CHECK_NUMBERS[check_number].value, name
        event = read_transcript(GAMES / f"{name}.jsonl")[error["seq"]]
        if blamed == "the actor":
            assert event.seat is not None and error["party"] == party(event.seat), name
        else:
            assert error["party"] == {"host": HOST, "ghost": party(0)}[blamed], name
        covered.add(rule)
    assert covered == set(table)
