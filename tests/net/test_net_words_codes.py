"""Join codes and fingerprint phrases: what people read out loud."""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest

from domicile_p2p.net.errors import BadJoinCode
from domicile_p2p.net.join.codes import (
    MAX_TABLES,
    NAMEPLATES,
    JoinCode,
    free_nameplate,
    new_code,
    parse_code,
)
from domicile_p2p.net.join.words import WORD_INDEX, WORDS, phrase


def test_word_list_is_256_distinct_words_none_a_prefix_of_another() -> None:
    assert len(WORDS) == 256
    assert list(WORDS) == sorted(set(WORDS))
    for word in WORDS:
        assert word.isascii() and word.isalpha() and word.islower()
        assert not any(other != word and other.startswith(word) for other in WORDS)


def test_phrase_is_one_word_per_byte_of_the_fingerprint() -> None:
    fingerprint = bytes([0, 1, 255, 128, 7, 9]) + bytes(26)
    assert phrase(fingerprint) == " ".join(
        [WORDS[0], WORDS[1], WORDS[255], WORDS[128], WORDS[7], WORDS[9]]
    )
    assert phrase(fingerprint, words=2) == f"{WORDS[0]} {WORDS[1]}"
    with pytest.raises(ValueError):
        phrase(b"\x00\x01", words=6)


def test_new_codes_use_the_nameplate_and_two_list_words() -> None:
    codes = {new_code(7, secrets.randbelow) for _ in range(50)}
    assert len(codes) > 1, "the words are drawn at random"
    for code in codes:
        assert code.nameplate == 7
        assert code.first in WORD_INDEX and code.second in WORD_INDEX
        assert parse_code(str(code)) == code
    with pytest.raises(ValueError):
        new_code(0, secrets.randbelow)
    with pytest.raises(ValueError):
        new_code(MAX_TABLES + 1, secrets.randbelow)


@pytest.mark.parametrize(
    ("typed", "nameplate", "password"),
    [
        ("7-raven-lantern", 7, b"7-raven-lantern"),
        ("12-raven-lantern", 12, b"12-raven-lantern"),
        ("123 Raven Lantern", 123, b"123-raven-lantern"),
        ("9999-raven-lantern", 9999, b"9999-raven-lantern"),
        ("007-raven-lantern", 7, b"7-raven-lantern"),
    ],
)
def test_table_numbers_past_nine_read_back_and_old_codes_stay_valid(
    typed: str, nameplate: int, password: bytes
) -> None:
    code = parse_code(typed)
    assert code == JoinCode(nameplate, "raven", "lantern")
    assert code.password == password, "one spelling of the PAKE password per code"
    assert parse_code(str(new_code(nameplate, secrets.randbelow))).nameplate == nameplate


@pytest.mark.parametrize(
    "typed",
    [
        "7-raven-lantern",
        "7 raven lantern",
        "  7-Raven-LANTERN ",
        "7_raven.lantern",
        "7 - raven lantern",
    ],
)
def test_codes_are_read_as_people_type_them(typed: str) -> None:
    assert parse_code(typed) == JoinCode(7, "raven", "lantern")
    assert parse_code(typed).password == b"7-raven-lantern"


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("", "expected a number and two words"),
        ("raven-lantern", "expected a number and two words"),
        ("7-raven", "expected a number and two words"),
        ("0-raven-lantern", "1 to 9999"),
        ("10000-raven-lantern", "1 to 9999"),
        ("99999999999999999999-raven-lantern", "1 to 9999"),
        ("\u0667-raven-lantern", "expected a number and two words"),
        ("7-raven-lanterns", "'lanterns' is not one of the words"),
        ("7-raven-lantern-moss", "expected a number and two words"),
    ],
)
def test_malformed_codes_are_a_typed_error_saying_why(typed: str, reason: str) -> None:
    with pytest.raises(BadJoinCode, match=reason):
        parse_code(typed)


def test_free_nameplate_avoids_taken_ones_and_knows_when_none_is_left() -> None:
    taken = {1, 2, 3, 4, 5, 6, 7, 8}
    assert free_nameplate(taken, secrets.randbelow) == 9
    assert {free_nameplate(set(), secrets.randbelow) for _ in range(200)} == set(range(1, 10)), (
        "one digit first"
    )
    one_digit = set(range(1, 10))
    assert 10 <= free_nameplate(one_digit, secrets.randbelow) <= 99, (
        "two digits once the nine are taken"
    )
    assert free_nameplate(set(range(1, 1000)), secrets.randbelow) >= 1000
    assert free_nameplate(set(NAMEPLATES) - {4321}, secrets.randbelow) == 4321
    with pytest.raises(ValueError, match="at most 9999 tables"):
        free_nameplate(set(NAMEPLATES), secrets.randbelow)


def test_a_host_numbers_a_thousand_tables_without_a_clash() -> None:
    taken: set[int] = set()
    for _ in range(1000):
        taken.add(free_nameplate(taken, secrets.randbelow))
    assert len(taken) == 1000 and len(taken & set(range(1, 1000))) == 999, "shortest first"


def test_the_word_list_in_wire_md_is_the_one_in_the_code() -> None:
    wire_md = (Path(__file__).resolve().parents[2] / "protocol" / "WIRE.md").read_text("utf-8")
    appendix = wire_md.split("## Appendix: the word list", 1)[1]
    block = appendix.split("```", 2)[1]
    listed: list[str] = []
    for row in block.strip().splitlines():
        first, _, words = row.partition(": ")
        assert int(first.split("-")[0]) == len(listed)
        listed += words.split()
    assert tuple(listed) == WORDS


def test_codes_and_nameplates_draw_only_from_the_source_they_are_given() -> None:
    draws: list[int] = []

    def first(n: int) -> int:
        draws.append(n)
        return 0

    assert new_code(7, first) == JoinCode(7, WORDS[0], WORDS[0])
    assert draws == [len(WORDS), len(WORDS)]
    assert free_nameplate(set(), first) == 1
    assert free_nameplate({1}, lambda n: n - 1) == 9
