"""Canonical JSON: the one byte encoding of every hashed or signed value.

Everything that is hashed, signed or committed in domicile-p2p is first
turned into bytes by :func:`encode`.  Two implementations that agree on the
value must agree on the bytes, so the encoding admits exactly one spelling:

- objects with ASCII keys, sorted by code point, no duplicate keys;
- arrays, strings, booleans, ``null`` and integers in ``[-(2**53-1), 2**53-1]``;
  no floats (a float has many spellings and no use in this protocol);
- no whitespace; separators ``,`` and ``:``;
- strings as RFC 8785 section 3.2.2.2 spells them: UTF-8, only ``"``, ``\\``
  and control characters escaped (``\\b \\f \\n \\r \\t`` short forms, other
  controls as ``\\u00xx`` in lower-case hex); lone surrogates are refused.

Bytes never appear raw: protocol values that are bytes travel as lower-case
hex strings, which this module leaves to the caller.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any, Final

MAX_SAFE_INTEGER = 2**53 - 1

_ENCODER = json.JSONEncoder(
    ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False
)
"""The canonical spelling (built once: ``json.dumps`` builds an encoder per call)."""


class CanonicalError(ValueError):
    """A value that has no canonical encoding (the caller's bug or bad input)."""


def _check(value: object, path: str) -> None:
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, int):
        if abs(value) > MAX_SAFE_INTEGER:
            raise CanonicalError(f"{path}: integer {value} is outside the safe range")
        return
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise CanonicalError(f"{path}: string is not valid Unicode") from exc
        return
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str) or not key.isascii():
                raise CanonicalError(f"{path}: object key {key!r} is not an ASCII string")
            _check(item, f"{path}.{key}")
        return
    if isinstance(value, list | tuple):
        for index, item in enumerate(value):
            _check(item, f"{path}[{index}]")
        return
    raise CanonicalError(f"{path}: {type(value).__name__} has no canonical JSON encoding")


def _is_encodable(value: object) -> bool:
    """:func:`_check` without building paths: the fast answer for the common, valid case."""
    if value is None or isinstance(value, bool | str):
        return not isinstance(value, str) or value.isascii() or _is_unicode(value)
    if isinstance(value, int):
        return abs(value) <= MAX_SAFE_INTEGER
    if isinstance(value, Mapping):
        return all(
            isinstance(key, str) and key.isascii() and _is_encodable(item)
            for key, item in value.items()
        )
    if isinstance(value, list | tuple):
        return all(_is_encodable(item) for item in value)
    return False


def _is_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def validate(value: object) -> None:
    """Raise :class:`CanonicalError`, naming the offending path, if ``value`` has no encoding."""
    if not _is_encodable(value):
        _check(value, "$")


def encode(value: object) -> bytes:
    """Return the canonical JSON bytes of ``value`` or raise :class:`CanonicalError`."""
    validate(value)
    return _ENCODER.encode(value).encode("utf-8")


def decode(data: bytes) -> object:
    """Parse JSON bytes, refusing what :func:`encode` could never have produced.

    Duplicate keys, floats, NaN and out-of-range integers are refused, so a
    decoded value re-encodes to a well-defined byte string.
    """

    def reject_duplicates(pairs: list[tuple[str, object]]) -> dict[str, object]:
        result: dict[str, object] = {}
        for key, item in pairs:
            if key in result:
                raise CanonicalError(f"duplicate object key {key!r}")
            result[key] = item
        return result

    def reject_float(text: str) -> object:
        raise CanonicalError(f"floating-point number {text} is not allowed")

    try:
        text = data.decode("utf-8")
        value: object = json.loads(
            text,
            object_pairs_hook=reject_duplicates,
            parse_float=reject_float,
            parse_constant=reject_float,
        )
    except UnicodeDecodeError as exc:
        raise CanonicalError("not UTF-8") from exc
    except RecursionError as exc:
        raise CanonicalError("nesting too deep") from exc
    except json.JSONDecodeError as exc:
        raise CanonicalError(
            f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from exc
    except ValueError as exc:  # an integer of thousands of digits: Python refuses to convert it
        raise CanonicalError(f"not a usable number: {exc}") from exc
    validate(value)
    return value


def _refuse_number(text: str) -> object:
    raise ValueError(f"{text} is not a canonical number")


_SAFE_LENGTH = len(str(MAX_SAFE_INTEGER)) - 1
"""An integer spelled in this many characters or fewer is in the safe range."""


def _safe_integer(text: str) -> int:
    value = int(text)
    if len(text) > _SAFE_LENGTH and abs(value) > MAX_SAFE_INTEGER:
        raise ValueError(f"{text} is outside the safe range")
    return value


_QUICK_DECODER = json.JSONDecoder(
    parse_float=_refuse_number, parse_int=_safe_integer, parse_constant=_refuse_number
)


def canonical_object(data: bytes) -> dict[str, object] | None:
    """The JSON object ``data`` holds when ``data`` is its canonical encoding; else ``None``.

    The quick way to read bytes that are almost always canonical (a
    transcript's lines): one parse and one re-encoding compared byte for
    byte, without :func:`decode`'s per-object hook and without walking the
    value.  Equal bytes rule out duplicate keys, unsorted keys, whitespace
    and other spellings; the parser refuses floats, ``NaN``, infinities and
    integers outside the safe range; re-encoding refuses lone surrogates.
    What is left, a key that is not ASCII, can only be there when the bytes
    are not all ASCII, and then the value is walked.

    Both steps run in ``msgspec``'s C code, whose JSON spells every string,
    integer, ``true``, ``false`` and ``null`` as :func:`encode` does
    (``tests/test_canonical.py`` holds it to that for every code point) and
    sorts keys by code point.  It would read an integer beyond the safe
    range without complaint, so bytes that may hold one (16 digits after
    ``:``, ``,`` or ``[`` and perhaps ``-``: in a string too, to stay cheap)
    go the standard library's way, which refuses it while parsing.

    ``None`` (not canonical, or not an object) says nothing about why:
    :func:`decode` and :func:`encode` do.
    """
    if _LONG_INTEGER_MARK in data.translate(_INTEGER_START):
        return _json_canonical_object(data)
    decoder, encoder, errors = _msgspec_codec()
    try:
        value: object = decoder.decode(data)
        again = encoder.encode(value)
    except errors:  # malformed, a float, a lone surrogate, nested too deep
        return None
    if not isinstance(value, dict) or again != data:
        return None
    if not data.isascii() and not _is_encodable(value):
        return None
    return value


_INTEGER_START: Final = bytes.maketrans(b"123456789,[-", b"000000000:::")
_LONG_INTEGER_MARK: Final = b":" + b"0" * 16
"""Where an integer of 16 digits or more could start (one of 15 or fewer is in the safe range):
after ``:``, ``,`` or ``[`` and perhaps ``-``, all read as ``:``, 16 digits, all read as ``0``
(one C pass and one search: a regular expression took longer than the parse)."""


@functools.cache
def _msgspec_codec() -> tuple[Any, Any, tuple[type[Exception], ...]]:
    """``msgspec``'s JSON decoder (floats refused) and sorted encoder, built on first use.

    Imported here, not at the top: the modules that only :func:`encode` (the
    pack loader, a client starting up) do not pay for ``msgspec``'s import.
    """
    import msgspec

    decoder = msgspec.json.Decoder(float_hook=_refuse_number)
    encoder = msgspec.json.Encoder(order="sorted")
    return decoder, encoder, (msgspec.MsgspecError, ValueError, RecursionError)


def _json_canonical_object(data: bytes) -> dict[str, object] | None:
    """:func:`canonical_object` with the standard library's parser and encoder."""
    try:
        value: object = _QUICK_DECODER.decode(data.decode("utf-8"))
        again = _ENCODER.encode(value).encode("utf-8")
    except (ValueError, RecursionError):  # JSONDecodeError, UnicodeError, refused numbers
        return None
    if not isinstance(value, dict) or again != data:
        return None
    if not data.isascii() and not _is_encodable(value):
        return None
    return value


def is_canonical(data: bytes) -> bool:
    """True when ``data`` is exactly the canonical encoding of what it decodes to."""
    try:
        return encode(decode(data)) == data
    except CanonicalError:
        return False


def whole_string(pattern: str) -> str:
    """``^pattern$`` matching the whole string in Python's ``re`` as in ECMA-262.

    msgspec checks a pattern with Python's ``re.search``, whose ``$`` also matches
    before a final line feed, so ``^[0-9a-f]{32}$`` accepted a game id ending in
    ``\n``.  JSON Schema patterns are ECMA-262, where ``$`` is the end of the string;
    the lookahead makes both dialects mean that (and is a no-op in ECMA-262).
    """
    return f"^{pattern}$(?!\\n)"
