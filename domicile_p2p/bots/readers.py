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
from domicile_p2p.packs.names import NameIndex
from domicile_p2p.packs.reading import (
    CardText,
    Clue,
    TextReader,
    Word,
    content_words,
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

        self._clues: dict[str, dict[str, list[Clue]]] = {}
        self._quotations: dict[str, dict[Word, str]] = {}
        self._quoted: dict[tuple[str, str], tuple[tuple[str, float], ...]] = {}

    def clues(self, dream: str, card: str) -> list[Clue]:
        """The words of ``dream`` that read as ``card``, the weightiest first (each dream
        is read once, against every card)."""
        by_card = self._clues.get(dream)
        if by_card is None:
            self.read(dream)
            by_card = self._clues[dream]
        return by_card[card]

    def read(self, dream: str) -> dict[str, float]:
        """Each investigator card's score for ``dream`` (what ``TextReader.read`` gives),
        its clues kept for :meth:`clues`: the fit table and the quotations share one
        reading of each dream."""
        by_card: dict[str, list[Clue]] = {}
        scores: dict[str, float] = {}
        words = content_words(self.dreams[dream])
        for reader in self.readers:
            found = reader.clues(words)
            for candidate, clues in zip(reader.cards, found, strict=True):
                scores[candidate.id] = sum(clue.weight for clue in clues)
                by_card[candidate.id] = sorted(clues, key=lambda clue: -clue.weight)
        self._clues[dream] = by_card
        return scores

    def quoted(self, dream: str, card: str) -> tuple[tuple[str, float], ...]:
        """The quotations of ``dream`` that point to ``card``, each with its weight
        (:meth:`clues` quoted by :meth:`quotation`), read once per pack."""
        key = (dream, card)
        found = self._quoted.get(key)
        if found is None:
            found = self._quoted[key] = tuple(
                (self.quotation(dream, clue.word), clue.weight) for clue in self.clues(dream, card)
            )
        return found

    def quotation(self, dream: str, word: Word) -> str:
        """``word`` of ``dream`` as the bots quote it: with the content words printed next
        to it in its clause, at most :data:`QUOTED_WORDS` ("cold stone vault")."""
        quoted = self._quotations.get(dream)
        if quoted is None:
            quoted = self._quotations[dream] = _quotations(self.dreams[dream])
        return quoted.get(word, word.printed.lower())


QUOTED_WORDS: Final = 3
"""The most words of a dream one quotation holds."""


def _quotations(text: str) -> dict[Word, str]:
    """Each content word of ``text`` and the run of adjacent content words around it."""
    runs: list[list[Word]] = []
    for word in content_words(text):
        if word.before is None or not runs:
            runs.append([])
        runs[-1].append(word)
    quoted: dict[Word, str] = {}
    for run in runs:
        for position, word in enumerate(run):
            start = max(0, min(position - 1, len(run) - QUOTED_WORDS))
            first, last = run[start], run[min(start + QUOTED_WORDS, len(run)) - 1]
            quoted.setdefault(word, text[first.start : last.end].lower())
    return quoted


def _text_fits(pack: Pack) -> Fits:
    texts = pack_texts(pack)
    fits: dict[str, dict[str, float]] = {}
    for dream in pack.dreams:
        scores = texts.read(dream.id)
        fits[dream.id] = {
            card: round(score * texts.scale[card], 3) for card, score in scores.items()
        }
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

name_index = PerPack(lambda pack: NameIndex(pack.investigator_cards))
"""The names of the pack's investigator cards (to find the cards a chat line names)."""

_FITS: Final = {Readers.TEXT: PerPack(_text_fits), Readers.MOTIFS: PerPack(_motif_fits)}


def fits(pack: Pack, readers: Readers = DEFAULT_READERS) -> Fits:
    """The fit table of ``pack`` under ``readers``, built once per pack content."""
    return _FITS[readers](pack)
