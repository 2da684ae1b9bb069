"""Deal a game from keys: the public tableau from the joint seed, the secrets from the Ghost's key.

Every label below is part of the protocol (``protocol/SPEC.md``, "Dealing").
Card ids enter every shuffle sorted by id, so the deal depends on the pack's
content and not on the order of its files.

- tableau, per category ``c``: ``shuffle(J, "domicile-p2p/v1/tableau/" + c, sorted ids)``,
  first ``N`` cards (``N`` from the difficulty table);
- columns, per category ``c``: ``shuffle(K, "domicile-p2p/v1/columns/" + c, tableau[c])``,
  investigator seat ``s`` gets element ``s - 1``;
- culprit: seat ``1 + below(K, "domicile-p2p/v1/culprit", investigators)``;
- dream deck: ``shuffle(K, "domicile-p2p/v1/deck", sorted dream ids)``, top card first;
- the ``n``-th reshuffle (from 0): ``shuffle(K, "domicile-p2p/v1/reshuffle/" + n, sorted discard)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from domicile_p2p.fairness.derive import ByteStream, sample, shuffle
from domicile_p2p.rules import (
    CATEGORY_ORDER,
    Category,
    Column,
    SecretSetup,
    Tableau,
    TableConfig,
)

LABEL_PREFIX: Final = "domicile-p2p/v1/"


def label(*parts: object) -> str:
    """A domain label: ``domicile-p2p/v1/`` followed by ``parts`` joined with ``/``."""
    return LABEL_PREFIX + "/".join(str(part) for part in parts)


def deal_tableau(
    joint_seed: bytes,
    cards: Mapping[Category, Sequence[str]],
    size: int,
) -> Tableau:
    """The public Clue Tableau: ``size`` cards per category drawn from the pack's cards."""
    dealt = {
        category: sample(
            joint_seed, label("tableau", category.value), sorted(cards[category]), size
        )
        for category in CATEGORY_ORDER
    }
    return Tableau(dealt[Category.CHARACTER], dealt[Category.LOCATION], dealt[Category.ITEM])


class Reshuffler:
    """The Ghost's reshuffles: a pure function of the key, the reshuffle number and the cards."""

    __slots__ = ("_key",)

    def __init__(self, key: bytes) -> None:
        self._key = key

    def __call__(self, number: int, cards: tuple[str, ...]) -> tuple[str, ...]:
        return shuffle(self._key, label("reshuffle", number), sorted(cards))


def deal_secrets(ghost_key: bytes, config: TableConfig, tableau: Tableau) -> SecretSetup:
    """The Ghost's secret setup: columns, culprit and dream-deck order."""
    seats = config.investigators
    per_category = {
        category: shuffle(ghost_key, label("columns", category.value), tableau.cards(category))
        for category in CATEGORY_ORDER
    }
    columns = tuple(
        Column(
            per_category[Category.CHARACTER][index],
            per_category[Category.LOCATION][index],
            per_category[Category.ITEM][index],
        )
        for index in range(seats)
    )
    culprit = 1 + ByteStream(ghost_key, label("culprit")).below(seats)
    deck = shuffle(ghost_key, label("deck"), sorted(config.dream_cards))
    return SecretSetup(columns, culprit, deck, Reshuffler(ghost_key))
