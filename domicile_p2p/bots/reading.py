"""How a bot investigator reads dream cards: the one model both sides of the table share.

Investigators score each card they might point at by the motifs it shares
with the dreams they hold.  The Ghost bot uses the very same scoring to
choose its gives, the way a human Ghost imagines how the table will read
a card.  Keeping the model in one module is what keeps the two in step.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from domicile_p2p.bots.motifs import MotifIndex
from domicile_p2p.bots.naming import NAMED_WEIGHT, DreamNames


def card_scores(
    index: MotifIndex, names: DreamNames, dreams: Sequence[str], candidates: Sequence[str]
) -> list[int]:
    """Stage One: for each candidate, the motifs it shares with every dream held, summed,
    plus :data:`~domicile_p2p.bots.naming.NAMED_WEIGHT` for every dream whose text names it."""
    return [index.overlap_with(dreams, card) + names.bonus(dreams, card) for card in candidates]


def dream_fit(index: MotifIndex, names: DreamNames, dream: str, card: str) -> int:
    """How well one dream fits one card: the motifs they share, and the name if it names it."""
    fit = (index.masks[dream] & index.masks[card]).bit_count()
    return fit + NAMED_WEIGHT if names.names(dream, card) else fit


def group_scores(
    index: MotifIndex, names: DreamNames, dreams: Sequence[str], groups: Sequence[Sequence[str]]
) -> list[int]:
    """Stage Two: for each group, how well the group's dreams fit it.

    Each dream is meant for one card of the culprit's group (its Character,
    Location or Item), so a dream counts with the card of the group it fits
    best (:func:`dream_fit`), not with all three.
    """
    return [
        sum(max(dream_fit(index, names, dream, card) for card in group) for dream in dreams)
        for group in groups
    ]


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
