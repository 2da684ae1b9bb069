"""The story the client tells around the rules, in one place (docs/RULES.md, "The story").

Someone was murdered at the house and is now its Ghost.  Once a year, in the
week before the anniversary of the murder, the investigators can reach it:
the seven days of the calendar count down to that night.  A table that names
the culprit frees the Ghost; a table that does not leaves it to haunt the
house another year, until the game is played again and won.  Never "forever".
"""

from __future__ import annotations

from typing import Final

from domicile_p2p.rules import LAST_DAY

_COUNTS: Final = ("one", "two", "three", "four", "five", "six")

GHOST_INTRODUCED: Final = (
    "Someone was murdered in this house and is now its Ghost. It cannot speak: it sends dreams."
)
"""Who the Ghost is, for a player meeting it for the first time."""

WON: Final = "The culprit is named. The Ghost is free at last."
WON_SHORT: Final = "the culprit is named: the Ghost is free"
LOST: Final = "The anniversary has passed. The Ghost must haunt the house another year."
LOST_SHORT: Final = "the anniversary has passed: the Ghost haunts the house another year"
"""The outcome of a game in a sentence (``LOST_SHORT``: a phrase, lower case)."""


def nights_before_anniversary(day: int) -> str:
    """Where ``day`` stands in the countdown: "three nights before the anniversary" on day 4.

    The last day of the calendar is the night of the anniversary itself.
    """
    if not 1 <= day <= LAST_DAY:
        raise ValueError(f"the calendar has days 1 to {LAST_DAY}, not {day}")
    left = LAST_DAY - day
    if left == 0:
        return "the night of the anniversary"
    nights = "night" if left == 1 else "nights"
    return f"{_COUNTS[left - 1]} {nights} before the anniversary"
