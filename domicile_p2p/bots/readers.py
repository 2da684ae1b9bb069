"""How well each dream reads as each investigator card: the table every bot reads from.

Two readers fill it, and ``--readers`` chooses (``text`` everywhere bots play):

- ``text`` (:data:`TEXT`): a person's reading, from the words only
  (:class:`~domicile_p2p.packs.reading.TextReader`: a dream's text against each
  card's name and description, with the pack's public association table).  The
  reader is built from :func:`card_texts`, which keep a card's id, category,
  name and description and drop its motifs, so no motif reaches it.
- ``motifs`` (:data:`MOTIFS`): the old code book, kept for comparison: the
  motifs a dream shares with a card, plus
  :data:`~domicile_p2p.bots.naming.NAMED_WEIGHT` when its words name the card.

Both give numbers on one scale: a shared motif, or one word printed on only
one card of the category, is worth about 1; a card's name about 3.  The table
is computed once per pack and reader (every dream against every card), so a
bot's reading in play is a dictionary lookup.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Final

from domicile_p2p.bots.motifs import PerPack, motif_index
from domicile_p2p.bots.naming import NAMED_WEIGHT, dream_names
from domicile_p2p.packs import InvestigatorCard, Pack
from domicile_p2p.packs.reading import (
    CardText,
    Clue,
    TextReader,
    load_associations,
)


class Readers(Enum):
    """What the bots read a dream by."""

    TEXT = "text"
    MOTIFS = "motifs"


DEFAULT_READERS: Final = Readers.TEXT


@dataclass(frozen=True, slots=True)
class Fits:
    """Each dream id mapped to each investigator card id and how well it reads as it."""

    readers: Readers
    fits: dict[str, dict[str, float]]

    def fit(self, dream: str, card: str) -> float:
        return self.fits[dream][card]

    def of(self, dream: str) -> dict[str, float]:
        """The dream's fit with every investigator card."""
        return self.fits[dream]

    def total(self, dreams: Iterable[str], card: str) -> float:
        """How well ``dreams`` read as ``card``, together."""
        fits = self.fits
        return sum(fits[dream][card] for dream in dreams)


def card_texts(cards: Iterable[InvestigatorCard]) -> tuple[CardText, ...]:
    """What a player sees of ``cards``: no motif is copied."""
    return tuple(CardText(card.id, card.category, card.name, card.description) for card in cards)


class PackTexts:
    """A pack read as a person reads it: one :class:`TextReader` per category."""

    def __init__(self, pack: Pack) -> None:
        associations = load_associations(pack.source)
        self.readers = [
            TextReader(card_texts(pack.category(category)), associations)
            for category in ("character", "location", "item")
        ]
        self.dreams = {dream.id: dream.text for dream in pack.dreams}
        # A word printed on one card of a category of n cards is worth ln(1 + n);
        # dividing by it puts such a word at 1, like one shared motif.
        self.scale = {
            card.id: 1 / math.log(1 + len(reader.cards))
            for reader in self.readers
            for card in reader.cards
        }

    def clues(self, dream: str, card: str) -> list[Clue]:
        """The words of ``dream`` that read as ``card``, the weightiest first."""
        for reader in self.readers:
            for position, candidate in enumerate(reader.cards):
                if candidate.id == card:
                    found = reader.clues(self.dreams[dream])[position]
                    return sorted(found, key=lambda clue: -clue.weight)
        raise KeyError(card)


def _text_fits(pack: Pack) -> Fits:
    texts = pack_texts(pack)
    fits: dict[str, dict[str, float]] = {}
    for dream in pack.dreams:
        row: dict[str, float] = {}
        for reader in texts.readers:
            for card, score in reader.read(dream.text).items():
                row[card] = round(score * texts.scale[card], 3)
        fits[dream.id] = row
    return Fits(Readers.TEXT, fits)


def _motif_fits(pack: Pack) -> Fits:
    index = motif_index(pack)
    names = dream_names(pack)
    cards = [card.id for card in pack.investigator_cards]
    fits = {
        dream.id: {
            card: float(index.overlap(dream.id, card) + NAMED_WEIGHT * names.names(dream.id, card))
            for card in cards
        }
        for dream in pack.dreams
    }
    return Fits(Readers.MOTIFS, fits)


pack_texts = PerPack(PackTexts)
"""The pack's text readers, built once per pack content."""

_FITS: Final = {Readers.TEXT: PerPack(_text_fits), Readers.MOTIFS: PerPack(_motif_fits)}


def fits(pack: Pack, readers: Readers = DEFAULT_READERS) -> Fits:
    """The fit table of ``pack`` under ``readers``, built once per pack content."""
    return _FITS[readers](pack)
