"""How a bot investigator reads dream cards: the one model both sides of the table share.

Investigators score each card they might point at by how well the dreams they
hold read as it (:mod:`~domicile_p2p.bots.readers`: by their words, or by the
pack's motifs for comparison).  The Ghost bot uses the very same scoring to
choose its gives, the way a human Ghost imagines how the table will read a
card.  Keeping the model in one module is what keeps the two in step.
"""

from __future__ import annotations

import hashlib
import math
from bisect import bisect
from collections.abc import Sequence
from itertools import accumulate

from domicile_p2p.bots.readers import Fits


def card_scores(table: Fits, dreams: Sequence[str], candidates: Sequence[str]) -> list[float]:
    """Stage One: for each candidate, how well every dream held reads as it, summed."""
    rows = [table.fits[dream] for dream in dreams]  # each dream's row fetched once
    return [sum([row[card] for row in rows]) for card in candidates]


def group_scores(
    table: Fits, dreams: Sequence[str], groups: Sequence[Sequence[str]]
) -> list[float]:
    """Stage Two: for each group, how well the group's dreams fit it.

    Each dream is meant for one card of the culprit's group (its Character,
    Location or Item), so a dream counts with the card of the group it fits
    best, not with all three.
    """
    fits = table.fits
    return [sum(max(fits[dream][card] for card in group) for dream in dreams) for group in groups]


def softmax_choice(
    draw: float, options: Sequence[str], scores: Sequence[float], temperature: float
) -> str:
    """One of ``options``, the better scored the likelier; ``temperature`` 0 is a plain argmax.

    ``draw`` is a number in [0, 1) drawn evenly: it picks the option, and breaks ties at
    the top so no card is favoured by its position.
    """
    if not options:
        raise ValueError("cannot choose among no options")
    best = max(scores)
    if temperature <= 0:
        top = [option for option, score in zip(options, scores, strict=True) if score == best]
        return top[int(draw * len(top))]
    totals = list(accumulate(math.exp((score - best) / temperature) for score in scores))
    return options[min(bisect(totals, draw * totals[-1]), len(options) - 1)]


class DecisionDraws:
    """Numbers in [0, 1) drawn evenly, one for each decision a bot names: hashed from the
    bot's ``prefix`` (its seed and seat) and the decision's name, so the same decision
    always draws the same, however often it is asked, and no generator is seeded."""

    __slots__ = ("_prefix",)

    def __init__(self, prefix: str) -> None:
        self._prefix = hashlib.blake2b(prefix.encode(), digest_size=8)

    def draw(self, decision: str) -> float:
        hashed = self._prefix.copy()
        hashed.update(decision.encode())
        return int.from_bytes(hashed.digest(), "big") / 2.0**64
