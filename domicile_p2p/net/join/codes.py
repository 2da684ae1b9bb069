"""Join codes: the short secret a host shows and a player types, ``7-raven-lantern``.

A code is a *nameplate* (the table's number at its host, 1 to
:data:`MAX_TABLES`: ``7-raven-lantern``, ``123-raven-lantern``) and two words
from :data:`~domicile_p2p.net.join.words.WORDS`.  The nameplate is public (it only
routes the connection, like Magic Wormhole's); the whole code is the password
of the join PAKE (``pake.py``), so a guess costs an attacker one online
attempt, which the host counts and rate-limits per remote address, over every
table of the host together.  The words are the secret: two words are 16 bits
per table, however many digits the number has, and a guess is against one
table's words; with the host's limit of a few failures per minute per
address, guessing is hopeless for the length of a game night, with 1 table
or 1,000.

A host with few tables keeps one-digit numbers (the shortest thing to read
out loud); only a host with more than 9 tables hands out longer ones.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Final

from domicile_p2p.net.errors import BadJoinCode
from domicile_p2p.net.join.words import WORD_INDEX, WORDS

MAX_TABLES: Final = 9999
CODE_VARIABLE: Final = "DOMICILE_TABLE_CODE"
"""The environment variable ``domicile play --connect`` reads a table's code from when
``--code`` is not given: a command line is shown to every local user (``ps``), a
process's environment to its own user only.  A browser seat's client gets its code so."""
NAMEPLATES: Final = range(1, MAX_TABLES + 1)
"""Table numbers of one host: up to four digits."""
_NUMBER_SPANS: Final = (range(1, 10), range(1, 100), range(1, 1000), NAMEPLATES)
"""Where :func:`free_nameplate` looks first: numbers as short as the host's table count allows."""

_SEPARATORS: Final = re.compile(r"[\s\-_.]+")

Below = Callable[[int], int]
"""A randomness source the adapter gives: ``below(n)`` is a uniform integer in ``[0, n)``
(``secrets.randbelow`` in the host; this module draws nothing itself)."""


@dataclass(frozen=True, slots=True)
class JoinCode:
    nameplate: int
    first: str
    second: str

    def __str__(self) -> str:
        return f"{self.nameplate}-{self.first}-{self.second}"

    @property
    def password(self) -> bytes:
        """The PAKE password: the canonical spelling of the whole code."""
        return str(self).encode("ascii")


def new_code(nameplate: int, below: Below) -> JoinCode:
    """A fresh code for the table at ``nameplate``, its words drawn with ``below``."""
    if nameplate not in NAMEPLATES:
        raise ValueError(f"a nameplate is a number from 1 to {MAX_TABLES}, not {nameplate}")
    return JoinCode(nameplate, WORDS[below(len(WORDS))], WORDS[below(len(WORDS))])


def free_nameplate(taken: Collection[int], below: Below) -> int:
    """A random nameplate not in ``taken``, with as few digits as possible.

    Random so codes do not all start with 1; one digit while a free one is
    left, then two, then three, then four.
    """
    for span in _NUMBER_SPANS:
        if len(taken) < len(span):
            # A few random draws find a free number unless the span is nearly full;
            # then list the free ones (once per table at most, at start-up).
            for _ in range(8):
                candidate = span[below(len(span))]
                if candidate not in taken:
                    return candidate
            free = [number for number in span if number not in taken]
            if free:
                return free[below(len(free))]
    raise ValueError(f"a host serves at most {MAX_TABLES} tables")


def parse_code(text: str) -> JoinCode:
    """Read a code as a person typed it: any case, dashes or spaces between the parts."""
    parts = [part for part in _SEPARATORS.split(text.strip().lower()) if part]
    if len(parts) != 3 or not parts[0].isascii() or not parts[0].isdigit():
        raise BadJoinCode(
            f"{text!r} is not a table code: expected a number and two words, like 7-raven-lantern"
        )
    nameplate = int(parts[0]) if len(parts[0]) <= len(str(MAX_TABLES)) else 0
    if nameplate not in NAMEPLATES:
        raise BadJoinCode(f"{text!r} is not a table code: the number must be 1 to {MAX_TABLES}")
    for word in parts[1:]:
        if word not in WORD_INDEX:
            raise BadJoinCode(f"{text!r} is not a table code: {word!r} is not one of the words")
    return JoinCode(nameplate, parts[1], parts[2])
