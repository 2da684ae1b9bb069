"""domicile_p2p.text: outside text made inert for display (issue 20, defect 2)."""

from __future__ import annotations

import json
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domicile_p2p.text import (
    BIDI_CONTROLS,
    Unsafe,
    describe,
    inert,
    is_inert,
    json_inert,
    unsafe_characters,
    unsafe_kind,
    without_unsafe,
)

C0 = [chr(code) for code in range(0x20)] + ["\x7f"]
C1 = [chr(code) for code in range(0x80, 0xA0)]
ZERO_WIDTH = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u180e", "\U000e0041"]
ESCAPE_SEQUENCES = [
    "\x1b]0;pwned\x07",  # OSC 0: the window title
    "\x1b]2;pwned\x1b\\",  # OSC 2, ended by ST
    "\x1b]52;c;aGVsbG8=\x07",  # OSC 52: write the clipboard
    "\x1b[2J\x1b[H",  # clear the screen, cursor home
    "\x1b[1;31;44m",  # SGR colours
    "\x1bP+q544e\x1b\\",  # DCS
    "\x1b_payload\x1b\\",  # APC
    "\x1bc",  # RIS: reset the terminal
    "\x9b2J",  # the 8-bit CSI
    "\x9d0;pwned\x9c",  # the 8-bit OSC, ended by the 8-bit ST
]

HANGUL_FILLERS = "\u115f\u1160\u3164\uffa0"

outside_text = st.text(
    st.one_of(
        st.characters(codec=None),
        st.sampled_from(C0 + C1 + sorted(BIDI_CONTROLS) + ZERO_WIDTH + ["[", "]", "\u2028"]),
    )
) | st.lists(st.sampled_from([*ESCAPE_SEQUENCES, "[/]", "[bold red]", "ok"])).map("".join)
"""Any string, with every kind of unsafe character and escape sequence well represented."""


def _terminal_acting(text: str) -> list[str]:
    """Characters of ``text`` that a terminal acts on or a reader cannot see."""
    return [
        char
        for char in text
        if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Zl", "Zp") or char in HANGUL_FILLERS
    ]


@pytest.mark.parametrize("char", C0)
def test_every_c0_control_and_delete_is_shown(char: str) -> None:
    assert unsafe_kind(char) is Unsafe.C0_CONTROL
    assert inert(f"a{char}b") == "a" + ascii(char)[1:-1] + "b"


@pytest.mark.parametrize("char", C1)
def test_every_c1_control_is_shown(char: str) -> None:
    assert unsafe_kind(char) is Unsafe.C1_CONTROL
    assert inert(char) == f"\\x{ord(char):02x}"


@pytest.mark.parametrize("sequence", ESCAPE_SEQUENCES)
def test_an_escape_sequence_is_inert_at_its_introducer(sequence: str) -> None:
    shown = inert(sequence)
    assert "\x1b" not in shown and not any(0x80 <= ord(c) <= 0x9F for c in shown)
    assert shown.isascii() and shown.isprintable()
    assert shown.startswith(("\\x1b", "\\x9b", "\\x9d"))


def test_the_osc_title_sequence_reads_as_what_was_sent() -> None:
    assert inert("hi \x1b]0;pwned\x07 there") == "hi \\x1b]0;pwned\\x07 there"


@pytest.mark.parametrize("char", sorted(BIDI_CONTROLS))
def test_every_bidi_control_is_neutralised(char: str) -> None:
    assert unsafe_kind(char) is Unsafe.BIDI_CONTROL
    assert inert(f"abc{char}def") == f"abc\\u{ord(char):04x}def"


@pytest.mark.parametrize("char", ZERO_WIDTH)
def test_zero_width_characters_are_shown_not_removed(char: str) -> None:
    assert unsafe_kind(char) is Unsafe.ZERO_WIDTH
    assert inert(f"bo{char}b") != inert("bob")
    assert inert(f"bo{char}b").startswith("bo\\")


def test_the_hangul_filler_that_prints_blank_is_shown() -> None:
    assert unsafe_kind("\u3164") is Unsafe.ZERO_WIDTH
    assert inert("\u3164") == "\\u3164"
    assert not is_inert("\u3164")


def test_line_separators_and_lone_surrogates_are_shown() -> None:
    assert inert("a\u2028b\u2029c") == "a\\u2028b\\u2029c"
    assert unsafe_kind("\ud800") is Unsafe.SURROGATE
    assert inert("\ud800").encode("utf-8") == b"\\ud800"


@pytest.mark.parametrize(
    "text",
    [
        "Mara",
        "Zoë & Ünal",
        "[/] [bold red] [@click=app.quit]",
        "C:\\games\\x1b",
        "שלום עולם",
        "مرحبا",
        "漢字 テーブル",
        "no\u00a0break",
        "🎲👻",
    ],
)
def test_plain_text_is_returned_unchanged(text: str) -> None:
    assert is_inert(text)
    assert inert(text) is text


def test_describe_names_the_kind_and_code_point() -> None:
    assert describe("\u202e") == "the bidi control U+202E"
    assert describe("\x1b") == "the C0 control U+001B"
    assert describe("\u200b") == "the zero-width character U+200B"


def test_unsafe_characters_lists_each_with_its_index_and_kind() -> None:
    assert list(unsafe_characters("a\x1bb\u202e")) == [
        (1, "\x1b", Unsafe.C0_CONTROL),
        (3, "\u202e", Unsafe.BIDI_CONTROL),
    ]


def test_the_classification_covers_every_code_point_python_calls_a_control_or_format() -> None:
    for code in range(0x110000):
        char = chr(code)
        category = unicodedata.category(char)
        if category in ("Cc", "Cf", "Cs", "Zl", "Zp"):
            assert unsafe_kind(char) is not None, f"U+{code:04X} ({category})"
        elif unsafe_kind(char) is not None:
            assert char in HANGUL_FILLERS, f"U+{code:04X} ({category})"


@given(outside_text)
def test_inert_text_never_acts_on_a_terminal(text: str) -> None:
    shown = inert(text)
    assert _terminal_acting(shown) == []
    assert is_inert(shown)
    assert inert(shown) == shown
    shown.encode("utf-8")  # never raises, even for a lone surrogate
    assert is_inert(text) == (shown == text)


@given(outside_text)
def test_without_unsafe_keeps_exactly_the_safe_characters(text: str) -> None:
    kept = without_unsafe(text)
    assert is_inert(kept)
    assert kept == "".join(char for char in text if not _terminal_acting(char))


@given(outside_text)
def test_json_inert_keeps_the_value_and_escapes_every_unsafe_character(text: str) -> None:
    dumped = json.dumps({"field": text, text: 1}, ensure_ascii=False)
    escaped = json_inert(dumped)
    assert json.loads(escaped) == json.loads(dumped)
    assert _terminal_acting(escaped) == []
    escaped.encode("utf-8")


def test_json_inert_escapes_c1_delete_and_bidi_controls() -> None:
    dumped = json.dumps({"name": "\x85\x7f\u202e\U000e0041"}, ensure_ascii=False)
    assert json_inert(dumped) == '{"name": "\\u0085\\u007f\\u202e\\udb40\\udc41"}'


def test_json_inert_keeps_whitespace_between_tokens() -> None:
    dumped = json.dumps({"a": ["\u2066"]}, ensure_ascii=False, indent=1)
    assert json.loads(json_inert(dumped)) == {"a": ["\u2066"]}
    assert "\n" in json_inert(dumped)
