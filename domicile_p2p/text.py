"""Text from outside the process, made inert for display.

A name, a chat line, a table name, a card's words or an error message that
came from a peer, a host, a pack or a saved file is data.  Written to a
terminal as it is, it can act: ESC and the other C0/C1 controls start
escape sequences (set the window title, write the clipboard with OSC 52,
clear or colour the screen), bidi controls reorder what follows them, and
zero-width characters make two different texts look the same.  This module
names those characters (:class:`Unsafe`, :func:`unsafe_kind`) and turns any
text into one that shows every one of them and does none of it
(:func:`inert`).

The decisions, each proven in ``tests/test_text.py``:

- **Every unsafe character is shown, none is removed.**  It becomes a
  visible escape in Python's spelling (``\\x1b``, ``\\n``, ``\\x9b``,
  ``\\u202e``, ``\\u200b``, ``\\U000e0041``), so what a reader sees is what
  was sent: ``"bob"`` and ``"bo\\u200bb"`` never look alike, and a removed
  character cannot hide a second line or a reordering.  Text with no unsafe
  character is returned unchanged (a backslash stays a backslash).
- **An escape sequence is made inert at its introducer.**  Every terminal
  sequence starts with ESC (CSI, OSC, DCS, APC, PM, SOS and the two-byte
  forms) or with a C1 control (the 8-bit CSI U+009B, OSC U+009D, ...).
  Both are controls, so they are shown as ``\\x1b`` / ``\\x9b``; what
  followed them is printable text and stays as it was (``\\x1b]0;title\\x07``
  reads as exactly that).
- **Bidi controls are neutralised** by showing them: U+061C, U+200E, U+200F,
  U+202A to U+202E and U+2066 to U+2069.  Right-to-left letters are
  ordinary letters and stay.
- **Zero-width and other invisible characters are shown**: every Unicode
  format character (category Cf: ZWSP, ZWNJ, ZWJ, word joiner, BOM, soft
  hyphen, tags, ...) and the Hangul fillers that are letters but print as
  blanks.  Emoji joined with ZWJ therefore show their joiners; that is the
  price of never letting two different names look the same.
- The line and paragraph separators U+2028 and U+2029 are shown, like a
  line feed: outside text never starts a line of its own.  Lone surrogates
  (which no UTF-8 stream can carry) are shown too, so writing the result
  never raises.

:func:`is_inert` is the predicate for input rules (a seat name may contain
nothing this module would change), :func:`json_inert` escapes the same
characters inside JSON text, for log files a terminal may show, and
:func:`without_unsafe` removes them, for a last guard at an output already laid out.
"""

from __future__ import annotations

import enum
import unicodedata
from collections.abc import Iterator
from typing import Final


class Unsafe(enum.Enum):
    """The kinds of character that act on a terminal or deceive a reader."""

    C0_CONTROL = "C0 control"
    """U+0000 to U+001F (ESC, the line feed, the bell, ...) and DEL U+007F."""
    C1_CONTROL = "C1 control"
    """U+0080 to U+009F (the 8-bit CSI, OSC, DCS, ...)."""
    BIDI_CONTROL = "bidi control"
    """The explicit direction marks, embeddings, overrides and isolates."""
    ZERO_WIDTH = "zero-width character"
    """Invisible: every format character that is no bidi control, and the Hangul fillers."""
    LINE_SEPARATOR = "line separator"
    """U+2028 and U+2029, which break a line like a line feed."""
    SURROGATE = "lone surrogate"
    """Half of a UTF-16 pair, which no UTF-8 output can carry."""


BIDI_CONTROLS: Final = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
"""Arabic letter mark, LRM, RLM, LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI."""

BLANK_LETTERS: Final = frozenset("\u115f\u1160\u3164\uffa0")
"""Hangul fillers: letters (category Lo) that print as nothing or as a blank."""

_SHORT_ESCAPES: Final = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}
_JSON_WHITESPACE: Final = frozenset("\t\n\r")


def unsafe_kind(char: str) -> Unsafe | None:
    """What ``char`` (one character) does that plain text must not, or ``None``."""
    code = ord(char)
    if code < 0x20 or code == 0x7F:
        return Unsafe.C0_CONTROL
    if code < 0x7F:  # printable ASCII, the common case
        return None
    if code <= 0x9F:
        return Unsafe.C1_CONTROL
    if char in BIDI_CONTROLS:
        return Unsafe.BIDI_CONTROL
    if char in BLANK_LETTERS:
        return Unsafe.ZERO_WIDTH
    category = unicodedata.category(char)
    if category == "Cf":
        return Unsafe.ZERO_WIDTH
    if category in ("Zl", "Zp"):
        return Unsafe.LINE_SEPARATOR
    if category == "Cs":
        return Unsafe.SURROGATE
    return None


def unsafe_characters(text: str) -> Iterator[tuple[int, str, Unsafe]]:
    """Each unsafe character of ``text``: its index, itself and its kind, in order."""
    for index, char in enumerate(text):
        kind = unsafe_kind(char)
        if kind is not None:
            yield index, char, kind


def is_inert(text: str) -> bool:
    """``text`` holds no unsafe character: :func:`inert` would return it unchanged."""
    # str.isprintable is False for every control, format character, line separator and
    # surrogate (and for harmless spaces and unassigned code points, which the slow path
    # lets through); the Hangul fillers are the only unsafe characters it calls printable.
    if text.isprintable() and BLANK_LETTERS.isdisjoint(text):
        return True
    return all(unsafe_kind(char) is None for char in text)


def describe(char: str) -> str:
    """``"the bidi control U+202E"``: one unsafe character, for a plain error message."""
    kind = unsafe_kind(char)
    what = kind.value if kind is not None else "character"
    return f"the {what} U+{ord(char):04X}"


def shown(char: str) -> str:
    """The visible spelling of one character: ``\\x1b``, ``\\u202e``, ``\\U000e0041``."""
    code = ord(char)
    if char in _SHORT_ESCAPES:
        return _SHORT_ESCAPES[char]
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def inert(text: str) -> str:
    """``text`` with every unsafe character replaced by its visible escape (see the module)."""
    if is_inert(text):
        return text
    return "".join(char if unsafe_kind(char) is None else shown(char) for char in text)


def without_unsafe(text: str) -> str:
    """``text`` with every unsafe character removed: for a last guard at an output whose
    layout is already measured (a terminal counts none of them as a cell), where showing
    them would no longer fit.  Text meant to be read goes through :func:`inert` first."""
    if is_inert(text):
        return text
    return "".join(char for char in text if unsafe_kind(char) is None)


def json_inert(json_text: str) -> str:
    """JSON text (``json.dumps(..., ensure_ascii=False)``) with every unsafe character
    written as a ``\\uXXXX`` escape.

    The result is the same JSON value.  The encoder already escapes the C0 controls
    inside strings, so a tab, line feed or carriage return here is whitespace between
    tokens and stays; every other unsafe character can stand only inside a string, where
    ``\\uXXXX`` (a surrogate pair above U+FFFF) means that character.
    """
    if is_inert(json_text):
        return json_text
    return "".join(
        char if char in _JSON_WHITESPACE or unsafe_kind(char) is None else _json_escape(char)
        for char in json_text
    )


def _json_escape(char: str) -> str:
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
