"""How a bot investigator reads dream cards: the one model both sides of the table share.

Investigators score each card they might point at by how well the dreams they
hold read as it (:mod:`~domicile_p2p.bots.readers`: by their words, or by the
pack's motifs for comparison).  The Ghost bot uses the very same scoring to
choose its gives, the way a human Ghost imagines how the table will read a
card.  Keeping the model in one module is what keeps the two in step.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from domicile_p2p.bots.readers import Fits


def card_scores(table: Fits, dreams: Sequence[str], candidates: Sequence[str]) -> list[float]:
    """Stage One: for each candidate, how well every dream held reads as it, summed."""
    return [table.total(dreams, card) for card in candidates]


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
    rng: random.Random, options: Sequence[str], scores: Sequence[float], temperature: float
) -> str:
    """One of ``options``, the better scored the likelier; ``temperature`` 0 is a plain argmax.

    Ties at the top are broken by ``rng`` so no card is favoured by its position.
    """
    if not options:
        raise ValueError("cannot choose among no options")
    best = max(scores)
    if temperature <= 0:
        return rng.choice(
            [option for option, score in zip(options, scores, strict=True) if score == best]
        )
    weights = [math.exp((score - best) / temperature) for score in scores]
    return rng.choices(options, weights)[0]
