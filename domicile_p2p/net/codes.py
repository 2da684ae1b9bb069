"""Join codes: the short secret a host shows and a player types, ``7-raven-lantern``.

A code is a *nameplate* (one digit, 1-9: which of the host's tables) and two
words from :data:`~domicile_p2p.net.words.WORDS`.  The nameplate is public
(it only routes the connection, like Magic Wormhole's); the whole code is
the password of the join PAKE (``pake.py``), so a guess costs an attacker
one online attempt, which the host counts and rate-limits.  Two words are
16 bits: with the host's limit of a few failures per minute per address,
guessing is hopeless for the length of a game night.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from domicile_p2p.net.errors import BadJoinCode
from domicile_p2p.net.words import WORD_INDEX, WORDS

NAMEPLATES: Final = range(1, 10)
"""Tables one host can serve at once, each with its own digit."""

_SEPARATORS: Final = re.compile(r"[\s\-_.]+")


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


def new_code(nameplate: int) -> JoinCode:
    """A fresh code for the table at ``nameplate``, its words drawn with :mod:`secrets`."""
    if nameplate not in NAMEPLATES:
        raise ValueError(f"a nameplate is a digit from 1 to 9, not {nameplate}")
    return JoinCode(nameplate, secrets.choice(WORDS), secrets.choice(WORDS))


def free_nameplate(taken: Iterable[int]) -> int:
    """A random nameplate not in ``taken`` (random so codes do not all start with 1)."""
    free = sorted(set(NAMEPLATES) - set(taken))
    if not free:
        raise ValueError(f"a host serves at most {len(NAMEPLATES)} tables")
    return secrets.choice(free)


def parse_code(text: str) -> JoinCode:
    """Read a code as a person typed it: any case, dashes or spaces between the parts."""
    parts = [part for part in _SEPARATORS.split(text.strip().lower()) if part]
    if len(parts) != 3 or not parts[0].isdigit():
        raise BadJoinCode(
            f"{text!r} is not a table code: expected a digit and two words, like 7-raven-lantern"
        )
    nameplate = int(parts[0])
    if nameplate not in NAMEPLATES:
        raise BadJoinCode(f"{text!r} is not a table code: the number must be 1 to 9")
    for word in parts[1:]:
        if word not in WORD_INDEX:
            raise BadJoinCode(f"{text!r} is not a table code: {word!r} is not one of the words")
    return JoinCode(nameplate, parts[1], parts[2])
