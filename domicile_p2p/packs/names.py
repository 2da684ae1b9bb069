"""Which investigator cards a dream's text names, as a person reading it would.

People read a dream's words; a dream that says "crypt" sends them to The
Family Crypt whatever its motif tags say.  This module decides, in one
documented way, when a text *names* a card, for the pack linter
(:mod:`domicile_p2p.packs.lint`) and for anyone else who needs to read a
dream as a person does.

The names of a card
-------------------
:func:`card_names` gives every phrase that names a card:

- its **full name** without a leading article ("The Family Crypt" ->
  "family crypt", "The Ring of Keys" -> "ring of keys");
- its **short names**: the ``names`` the pack gives the card (an optional
  field of investigator cards) or, when it gives none, the card's **head
  noun**: the last word of the name, or the word before the first "of"
  ("The Family Crypt" -> "crypt", "The Decanter of Port" -> "decanter",
  "The Bell-Pull Cord" -> "cord").  A pack lists ``names`` when the head
  noun misleads ("The Ring of Keys" is not named by every wedding ring:
  ``names = ["keys"]``) or when a card has other everyday names
  ("physician", "doctor").

A one-word name in :data:`GENERIC_WORDS` ("house", "room", ...) never counts:
"The Smoking Room" is named by "smoking room", never by "room".

Matching
--------
Text and names are compared word by word (:func:`words`): case-insensitive,
letters only (hyphens, apostrophes and punctuation separate words, so
"bell-pull cord" and "bell pull cord" are the same), a possessive "'s" dropped
("the sexton's spade" -> "sexton spade"), and every word reduced to its
singular by :func:`singular` ("knives" -> "knife", "cellars" -> "cellar"),
so a name matches only whole words, singular or plural.  Scanning the text
from left to right, the longest name that starts at a word wins and its
words are used up: "a stable boy" names The Stable Boy, not The Stables
("stables" -> "stable").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from domicile_p2p.packs.model import InvestigatorCard

GENERIC_WORDS: frozenset[str] = frozenset(
    {"house", "home", "manor", "hall", "room", "chamber", "place", "thing", "man", "woman"}
)
"""One-word names that never name a card: every dream happens in a house, in a room."""

ARTICLES: frozenset[str] = frozenset({"the", "a", "an"})
"""Leading words a card's full name drops ("The Family Crypt" -> "family crypt")."""

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
_POSSESSIVE = ("'s", "’s")
_IRREGULAR_PLURALS = {
    "children": "child",
    "men": "man",
    "women": "woman",
    "teeth": "tooth",
    "feet": "foot",
    "geese": "goose",
    "mice": "mouse",
    "lice": "louse",
    "knives": "knife",
    "wives": "wife",
    "lives": "life",
    "leaves": "leaf",
    "loaves": "loaf",
    "shelves": "shelf",
    "halves": "half",
    "wolves": "wolf",
    "calves": "calf",
    "thieves": "thief",
    "scarves": "scarf",
    "hooves": "hoof",
}


@functools.lru_cache(maxsize=4096)
def singular(word: str) -> str:
    """``word`` in lower case and, if it looks like an English plural, in the singular.

    A small rule set, not a dictionary: irregular plurals from a short list,
    then "-ies" -> "-y", "-sses/-shes/-ches/-xes" lose "-es", and a final
    "-s" goes unless the word ends in "-ss", "-us" or "-is".  Text and card
    names go through the same function, so a plural it spells oddly still
    matches its singular.
    """
    lower = word.casefold()
    irregular = _IRREGULAR_PLURALS.get(lower)
    if irregular is not None:
        return irregular
    if len(lower) > 4 and lower.endswith("ies"):
        return lower[:-3] + "y"
    if lower.endswith(("sses", "shes", "ches", "xes")):
        return lower[:-2]
    if len(lower) > 3 and lower.endswith("s") and not lower.endswith(("ss", "us", "is")):
        return lower[:-1]
    return lower


def words(text: str) -> tuple[str, ...]:
    """The words of ``text`` as they are compared: lower case, singular, no possessive "'s"."""
    found = []
    for match in _WORD.finditer(text):
        word = match.group()
        if word.casefold().endswith(_POSSESSIVE):
            word = word[:-2]
        found.append(singular(word))
    return tuple(found)


def head_noun(name: str) -> str:
    """The word that a card's name is about: the last word, or the word before "of"."""
    spelled = words(name)
    if not spelled:
        return ""
    if "of" in spelled[1:]:
        return spelled[spelled.index("of", 1) - 1]
    return spelled[-1]


def _without_article(name: str) -> tuple[str, ...]:
    spelled = words(name)
    if len(spelled) > 1 and spelled[0] in ARTICLES:
        return spelled[1:]
    return spelled


def card_names(card: InvestigatorCard) -> tuple[str, ...]:
    """Every phrase that names ``card``, normalised as :func:`words` spells them.

    The full name without its article first, then the short names (the
    card's ``names``, or its head noun); generic one-word names are dropped.
    """
    phrases = [" ".join(_without_article(card.name))]
    shorts = card.names if card.names else (head_noun(card.name),)
    phrases += [" ".join(words(short)) for short in shorts]
    unique: list[str] = []
    for phrase in phrases:
        if phrase and phrase not in GENERIC_WORDS and phrase not in unique:
            unique.append(phrase)
    return tuple(unique)


@dataclass(frozen=True, slots=True)
class NameMatch:
    """One place where a text names cards: ``phrase`` (normalised) names each of ``cards``."""

    phrase: str
    cards: tuple[InvestigatorCard, ...]


class NameIndex:
    """The names of a set of cards, ready to find in any number of texts."""

    def __init__(self, cards: Iterable[InvestigatorCard]) -> None:
        by_phrase: dict[tuple[str, ...], list[InvestigatorCard]] = {}
        for card in cards:
            for phrase in card_names(card):
                by_phrase.setdefault(tuple(phrase.split(" ")), []).append(card)
        self._cards = {phrase: tuple(named) for phrase, named in by_phrase.items()}
        self._longest = max((len(phrase) for phrase in self._cards), default=0)

    def ambiguous(self) -> dict[str, tuple[InvestigatorCard, ...]]:
        """Each phrase that names more than one card, with those cards."""
        return {" ".join(phrase): cards for phrase, cards in self._cards.items() if len(cards) > 1}

    def find(self, text: str) -> tuple[NameMatch, ...]:
        """Every name in ``text``, left to right; the longest name at a word wins."""
        return self.find_in_words(words(text))

    def find_in_words(self, spelled: Sequence[str]) -> tuple[NameMatch, ...]:
        """:meth:`find` for a text already split by :func:`words`."""
        matches: list[NameMatch] = []
        start = 0
        while start < len(spelled):
            for length in range(min(self._longest, len(spelled) - start), 0, -1):
                phrase = tuple(spelled[start : start + length])
                cards = self._cards.get(phrase)
                if cards is not None:
                    matches.append(NameMatch(" ".join(phrase), cards))
                    start += length
                    break
            else:
                start += 1
        return tuple(matches)


def named_cards(text: str, cards: Sequence[InvestigatorCard]) -> tuple[InvestigatorCard, ...]:
    """The cards among ``cards`` that ``text`` names, each once, in the order first named."""
    named: list[InvestigatorCard] = []
    for match in NameIndex(cards).find(text):
        named += [card for card in match.cards if card not in named]
    return tuple(named)
