"""Join codes and fingerprint phrases: what people read out loud."""

from __future__ import annotations

from pathlib import Path

import pytest

from domicile_p2p.net.codes import NAMEPLATES, JoinCode, free_nameplate, new_code, parse_code
from domicile_p2p.net.errors import BadJoinCode
from domicile_p2p.net.words import WORD_INDEX, WORDS, phrase


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
    codes = {new_code(7) for _ in range(50)}
    assert len(codes) > 1, "the words are drawn at random"
    for code in codes:
        assert code.nameplate == 7
        assert code.first in WORD_INDEX and code.second in WORD_INDEX
        assert parse_code(str(code)) == code
    with pytest.raises(ValueError):
        new_code(0)


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
        ("", "expected a digit and two words"),
        ("raven-lantern", "expected a digit and two words"),
        ("7-raven", "expected a digit and two words"),
        ("0-raven-lantern", "1 to 9"),
        ("12-raven-lantern", "1 to 9"),
        ("7-raven-lanterns", "'lanterns' is not one of the words"),
        ("7-raven-lantern-moss", "expected a digit and two words"),
    ],
)
def test_malformed_codes_are_a_typed_error_saying_why(typed: str, reason: str) -> None:
    with pytest.raises(BadJoinCode, match=reason):
        parse_code(typed)


def test_free_nameplate_avoids_taken_ones_and_knows_when_none_is_left() -> None:
    taken = {1, 2, 3, 4, 5, 6, 7, 8}
    assert free_nameplate(taken) == 9
    assert {free_nameplate(set()) for _ in range(200)} == set(NAMEPLATES)
    with pytest.raises(ValueError, match="at most 9 tables"):
        free_nameplate(set(NAMEPLATES))


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
