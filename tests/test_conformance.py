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

import msgspec
import pytest

from domicile_p2p.fairness.seeds import SelfplaySeeds
from domicile_p2p.transcript import Check
from domicile_p2p.transcript.errors import HOST, party
from domicile_p2p.transcript.files import encode_transcript, read_transcript
from domicile_p2p.transcript.schema import GenesisBody
from domicile_p2p.transcript.selfplay import Seating
from domicile_p2p.transcript.verify import verify
from protocol_tools.forge import entries_of, seal

PROTOCOL = Path(__file__).resolve().parents[1] / "protocol"
GAMES = PROTOCOL / "vectors" / "games"
EXPECTED: dict[str, Any] = json.loads((GAMES / "expected.json").read_text("utf-8"))["results"]
PROTOCOL_2_GAMES = Path(__file__).resolve().parent / "data" / "protocol-v2"
PROTOCOL_2: dict[str, Any] = json.loads((PROTOCOL_2_GAMES / "expected.json").read_text("utf-8"))[
    "results"
]
CHECK_NUMBERS = {number: check for number, check in enumerate(list(Check)[:12], start=1)}


def _first_failure(report_error: Any) -> tuple[str, int, str] | None:
    if report_error is None:
        return None
    return (report_error.check, report_error.seq, report_error.party)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_verify_reports_the_expected_first_failure(name: str) -> None:
    expected = EXPECTED[name]
    report = verify(GAMES / f"{name}.jsonl", jobs=1)
    assert report.recognized == expected["recognized"]
    assert report.valid == expected["valid"]
    error = expected["error"]
    wanted = None if error is None else (error["check"], error["seq"], error["party"])
    assert _first_failure(report.error) == wanted, report.summary


@pytest.mark.parametrize("name", sorted(PROTOCOL_2))
def test_protocol_2_games_still_verify_under_protocol_2s_rules(name: str) -> None:
    # Kept from protocol 2's vectors: their refreshes draw 2 and 5 cards and their packs hold
    # 12 dreams, both refused by protocol 3; protocol 2's rules accept them.
    expected = PROTOCOL_2[name]
    report = verify(PROTOCOL_2_GAMES / f"{name}.jsonl", jobs=1)
    assert report.recognized and report.valid == expected["valid"]
    error = expected["error"]
    wanted = None if error is None else (error["check"], error["seq"], error["party"])
    assert _first_failure(report.error) == wanted, report.summary
    assert [{"name": c.name, "ok": c.ok} for c in report.checks] == expected["checks"]


def test_a_protocol_2_game_relabelled_protocol_3_fails_protocol_3s_rules() -> None:
    events = read_transcript(PROTOCOL_2_GAMES / "honest.jsonl")
    entries = entries_of(events)
    genesis = entries[0].body
    assert isinstance(genesis, GenesisBody) and genesis.protocol == 2
    entries[0] = entries[0].with_body(msgspec.structs.replace(genesis, protocol=3))
    keys = Seating.from_seeds(SelfplaySeeds.from_number(125), 2)  # the vectors' seed then
    report = verify(encode_transcript(seal(entries, host=keys.host, seats=keys.identities)))
    assert _first_failure(report.error) == (Check.GENESIS.value, 0, HOST)
    assert report.error is not None
    assert "needs at least 16 dream cards, but the pack has 12" in report.error.reason


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
