"""The one rule for a seat's name, used wherever a name first arrives or is checked.

A seat's name is written into the genesis and shown on every player's
screen, in every log and in every replay, so it must be text a reader can
trust: not blank, at most :data:`~domicile_p2p.rules.MAX_NAME_LENGTH`
characters, and nothing that :func:`domicile_p2p.text.inert` would have to
neutralise (no C0/C1 control, no bidi control, no zero-width character, no
line separator, no lone surrogate).

The rule is checked where a name arrives (the host's ``join`` and ``watch``,
the lobby's seating, the client's settings) and where it is proven (the
genesis, so the host's own start and ``domicile verify`` agree).  A name the
host accepted can therefore never make its table's start fail.
"""

from __future__ import annotations

from domicile_p2p.rules import MAX_NAME_LENGTH
from domicile_p2p.text import describe, unsafe_characters


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a seat's name, as the end of a sentence whose subject is the
    name (``"cannot be blank"``); ``None`` when it can."""
    if not name.strip():
        return "cannot be blank"
    if len(name) > MAX_NAME_LENGTH:
        return f"has at most {MAX_NAME_LENGTH} characters, not {len(name)}"
    for _index, char, _kind in unsafe_characters(name):
        return f"cannot contain {describe(char)}"
    return None
