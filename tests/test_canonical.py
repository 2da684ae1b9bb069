"""Canonical JSON: one spelling for every value, and a refusal for everything else."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domicile_p2p.canonical import (
    MAX_SAFE_INTEGER,
    CanonicalError,
    canonical_object,
    decode,
    encode,
    is_canonical,
)

# --------------------------------------------------------------------------- encode


def test_keys_are_sorted_by_code_point_at_every_level() -> None:
    value = {"b": 1, "a": {"z": [], "B": None, "aa": True, "a": False}, "_": 0}
    assert encode(value) == b'{"_":0,"a":{"B":null,"a":false,"aa":true,"z":[]},"b":1}'


def test_there_is_no_whitespace() -> None:
    assert encode([1, [2, {"k": "v w"}], -3]) == b'[1,[2,{"k":"v w"}],-3]'
    assert encode({}) == b"{}" and encode([]) == b"[]"


def test_scalars() -> None:
    assert encode(None) == b"null"
    assert encode(True) == b"true" and encode(False) == b"false"
    assert encode(0) == b"0" and encode(-17) == b"-17"
    assert encode("") == b'""'
    assert encode(("tuple", 1)) == b'["tuple",1]'


@pytest.mark.parametrize(
    ("text", "spelled"),
    [
        ('say "hi"', b'"say \\"hi\\""'),
        ("back\\slash", b'"back\\\\slash"'),
        ("\b\f\n\r\t", b'"\\b\\f\\n\\r\\t"'),
        ("\x00\x01\x1f", b'"\\u0000\\u0001\\u001f"'),
        ("\x7f", b'"\x7f"'),
        ("/", b'"/"'),
        ("é€", '"é€"'.encode()),
        ("\u2028", '"\u2028"'.encode()),
        ("\U0001f47b", '"\U0001f47b"'.encode()),
        ("\x1a", b'"\\u001a"'),
    ],
)
def test_strings_escape_only_quote_backslash_and_controls(text: str, spelled: bytes) -> None:
    assert encode(text) == spelled
    assert decode(spelled) == text


def test_integers_stay_in_the_safe_range() -> None:
    assert encode(MAX_SAFE_INTEGER) == b"9007199254740991"
    assert encode(-MAX_SAFE_INTEGER) == b"-9007199254740991"
    for value in (MAX_SAFE_INTEGER + 1, -MAX_SAFE_INTEGER - 1, 10**30):
        with pytest.raises(CanonicalError, match="outside the safe range"):
            encode(value)


@pytest.mark.parametrize("value", [1.0, 0.5, math.nan, math.inf, -math.inf])
def test_floats_are_refused(value: float) -> None:
    with pytest.raises(CanonicalError, match="float has no canonical JSON encoding"):
        encode(value)


def test_a_refusal_says_where() -> None:
    with pytest.raises(CanonicalError, match=r"^\$\.outer\[1\]\.x: float"):
        encode({"outer": [0, {"x": 2.5}]})


@pytest.mark.parametrize("key", ["é", "\u2028", 1, None, ("a",)])
def test_keys_are_ascii_strings(key: object) -> None:
    with pytest.raises(CanonicalError, match="is not an ASCII string"):
        encode({key: 1})


@pytest.mark.parametrize("value", [b"bytes", {1, 2}, object(), 1j])
def test_other_types_are_refused(value: object) -> None:
    with pytest.raises(CanonicalError, match=f"{type(value).__name__} has no canonical"):
        encode({"k": [value]})


@pytest.mark.parametrize("text", ["\ud800", "a\udfffb", "\udc00\ud800"])
def test_lone_surrogates_are_refused(text: str) -> None:
    with pytest.raises(CanonicalError, match="string is not valid Unicode"):
        encode(text)
    with pytest.raises(CanonicalError, match="not valid Unicode"):
        encode({"k": text})


# --------------------------------------------------------------------------- decode


def test_decode_reads_what_encode_wrote() -> None:
    assert decode(b'{"a":[1,"x",null,true],"b":{}}') == {"a": [1, "x", None, True], "b": {}}


def test_duplicate_keys_are_refused() -> None:
    with pytest.raises(CanonicalError, match="duplicate object key 'a'"):
        decode(b'{"a":1,"b":{"a":1},"a":2}')


@pytest.mark.parametrize(
    "data", [b"1.0", b"[1e3]", b'{"x":-0.5}', b"NaN", b"[Infinity]", b"-Infinity"]
)
def test_floats_and_constants_are_refused(data: bytes) -> None:
    with pytest.raises(CanonicalError, match="is not allowed"):
        decode(data)


@pytest.mark.parametrize("data", [b"9007199254740992", b"[-9007199254740992]"])
def test_unsafe_integers_are_refused(data: bytes) -> None:
    with pytest.raises(CanonicalError, match="outside the safe range"):
        decode(data)


def test_lone_surrogates_are_refused_on_decode() -> None:
    with pytest.raises(CanonicalError, match="not valid Unicode"):
        decode(b'["\\ud800"]')


def test_non_ascii_keys_are_refused_on_decode() -> None:
    with pytest.raises(CanonicalError, match="is not an ASCII string"):
        decode('{"é":1}'.encode())


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"\xff\xfe", "not UTF-8"),
        (b'"\xc3"', "not UTF-8"),
        (b"{", "not JSON"),
        (b"[1,]", "not JSON"),
        (b"", "not JSON"),
        (b"[1] [2]", "not JSON"),
        (b"[" * 100_000 + b"]" * 100_000, "nesting too deep"),
    ],
)
def test_garbage_is_a_typed_error(data: bytes, words: str) -> None:
    with pytest.raises(CanonicalError, match=words):
        decode(data)
    assert not is_canonical(data)


# --------------------------------------------------------------------------- is_canonical


@pytest.mark.parametrize(
    "data",
    [b'{"a":1,"b":[true,null]}', b'"\\u001f"', '"é"'.encode(), b"-5", b"[]"],
)
def test_canonical_bytes(data: bytes) -> None:
    assert is_canonical(data)


@pytest.mark.parametrize(
    "data",
    [
        b'{"a": 1}',  # whitespace
        b' {"a":1}',
        b'{"b":1,"a":2}',  # unsorted keys
        b'"\\u0041"',  # an escape where none is needed
        b'"\\u00e9"',
        b'"\\u001F"',  # upper-case hex
        b'"\\/"',
        b"-0",  # another spelling of 0
        b"1.0",
        b'{"a":1,"a":1}',
    ],
)
def test_other_spellings_are_not_canonical(data: bytes) -> None:
    assert not is_canonical(data)


# --------------------------------------------------------------------------- round trip

ascii_keys = st.text(st.characters(min_codepoint=0, max_codepoint=127), max_size=8)
texts = st.text(st.characters(blacklist_categories=["Cs"]), max_size=20)
safe_integers = st.integers(-MAX_SAFE_INTEGER, MAX_SAFE_INTEGER)
values = st.recursive(
    st.none() | st.booleans() | safe_integers | texts,
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(ascii_keys, children, max_size=5)
    ),
    max_leaves=25,
)


@settings(max_examples=200, deadline=None)
@given(value=values)
def test_every_value_round_trips_to_the_same_bytes(value: object) -> None:
    data = encode(value)
    assert decode(data) == value
    assert is_canonical(data)
    assert encode(decode(data)) == data
    assert b"\n" not in data  # controls are always escaped


@settings(max_examples=100, deadline=None)
@given(value=st.dictionaries(ascii_keys, safe_integers, min_size=2, max_size=8))
def test_insertion_order_does_not_matter(value: dict[str, int]) -> None:
    backwards = dict(reversed(list(value.items())))
    assert encode(backwards) == encode(value)


# --------------------------------------------------------------------------- canonical_object


def _slow_answer(data: bytes) -> object | None:
    """What ``canonical_object`` must answer: the object when ``data`` is its canonical form."""
    if not is_canonical(data):
        return None
    value = decode(data)
    return value if isinstance(value, dict) else None


NOT_CANONICAL = [
    b"[]",
    b"null",
    b"-5",
    b'{"a": 1}',
    b'{"b":1,"a":2}',
    b'{"a":1,"a":1}',
    b'{"a":{"b":1,"b":1}}',
    b'"\\u0041"',
    b"-0",
    b"1.0",
    b"[1e3]",
    b"NaN",
    b"[-Infinity]",
    b"9007199254740992",
    b"[-9007199254740992]",
    b'{"k":12345678901234567890}',
    b"[" + b"7" * 5000 + b"]",
    b'["\\ud800"]',
    '{"é":1}'.encode(),
    '[{"x":{"é":[]}}]'.encode(),
    b"\xef\xbb\xbf[]",
    b"\xff",
    b"",
    b"[1] ",
    b"[" * 100_000 + b"]" * 100_000,
    b'{"n":9007199254740992}',
    b'{"a":[0,{"n":-90071992547409910}]}',
    b'{"n":18446744073709551616}',
    b'{"f":1.5}',
    b'{"f":[1e5]}',
    b'{"s":"\\ud800"}',
    b'{"s":"\\ud83d\\ude00"}',
    b'{"a":1} ',
    b'{"a":"\x01"}',
    b'{"a":"\xff"}',
    b'{"a":' * 10_000 + b"1" + b"}" * 10_000,
]


@pytest.mark.parametrize("data", NOT_CANONICAL)
def test_canonical_object_says_none_for_what_is_not_canonical(data: bytes) -> None:
    assert _slow_answer(data) is None
    assert canonical_object(data) is None


@pytest.mark.parametrize(
    "data",
    [
        b'{"n":9007199254740991}',
        b'{"a":[-9007199254740991,0],"b":null}',
        b'{"k":"12345678901234567890"}',
        '{"name":"Zoé","x":["€"]}'.encode(),
        b'{"\\u001f":"\\u001f"}',
        b'{"n":1234567890123456}',
        b'{"k":"a:1234567890123456","n":[-900719925474099]}',
        '{"s":"\u2028\x7f\U0001f600\\"\\\\\\b\\t"}'.encode(),
    ],
)
def test_canonical_object_reads_canonical_bytes(data: bytes) -> None:
    assert canonical_object(data) == decode(data)


def test_msgspec_spells_every_string_as_encode_does() -> None:
    # canonical_object compares msgspec's re-encoding with the bytes it read; that
    # stands for encode() only because the two spell every character alike (each
    # character is escaped or not on its own, so one string per block covers all).
    import msgspec

    encoder = msgspec.json.Encoder(order="sorted")
    surrogates = range(0xD800, 0xE000)
    for start in range(0, 0x110000, 0x1000):
        text = "".join(chr(c) for c in range(start, start + 0x1000) if c not in surrogates)
        assert encoder.encode(text) == encode(text), hex(start)
    assert encoder.encode({"b": [1, None], "a": {"d": True, "c": -3}}) == encode(
        {"b": [1, None], "a": {"d": True, "c": -3}}
    )


def test_an_integer_too_long_to_convert_is_a_typed_error() -> None:
    with pytest.raises(CanonicalError, match="not a usable number"):
        decode(b"[" + b"1" * 5000 + b"]")


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    value=values | st.dictionaries(ascii_keys, values, max_size=5),
    spelling=st.sampled_from(["canonical", "spaced", "ascii", "reversed"]),
)
def test_canonical_object_agrees_with_decode_and_encode(value: object, spelling: str) -> None:
    match spelling:
        case "canonical":
            data = encode(value)
        case "spaced":
            data = json.dumps(value, sort_keys=True, ensure_ascii=False).encode()
        case "ascii":
            data = json.dumps(value, sort_keys=True, separators=(",", ":")).encode()
        case _:
            text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
            data = text.encode()
    assert canonical_object(data) == _slow_answer(data)


@settings(max_examples=200, deadline=None)
@given(
    data=st.binary(max_size=40) | st.text(max_size=40).map(lambda t: t.encode("utf-8", "replace"))
)
def test_canonical_object_agrees_on_any_bytes(data: bytes) -> None:
    assert canonical_object(data) == _slow_answer(data)


@settings(max_examples=200, deadline=None)
@given(
    value=st.dictionaries(
        ascii_keys,
        st.integers(-(2**70), 2**70) | st.lists(st.integers(-(2**66), 2**66), max_size=3) | texts,
        max_size=4,
    )
)
def test_canonical_object_agrees_on_integers_of_any_length(value: dict[str, object]) -> None:
    # Integers of 16 digits and more take the standard library's path (msgspec would read
    # one beyond the safe range), shorter ones msgspec's: the answer is the same.
    data = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    assert canonical_object(data) == _slow_answer(data)
