"""How a person reads a dream: its words against the words printed on the tableau's cards.

A player sees a dream's text and, on the table, each investigator card's
name and description; nothing else.  :class:`TextReader` reads exactly that
and no more: it is built from :class:`CardText` values and reads
:class:`DreamText` values (or plain strings), and neither type carries a
motif, so the pack's motif tags cannot reach it
(``tests/test_text_reader.py::test_the_reader_is_given_no_motif``).  The bot
investigators, the Ghost bot imagining how they will read its gives, and the
pack linter all read with it.

The reading (the method, documented in docs/packs.md)
-----------------------------------------------------
1. **Words.**  A text is split into words (:func:`domicile_p2p.packs.names.words`:
   lower case, singular, no possessive), common function words are dropped
   (:data:`STOP_WORDS`), and each word is reduced to a crude stem
   (:func:`stem`: a few irregular verbs, then "-ing", "-ed", "-y" and a final
   "-e" cut, a doubled last consonant undoubled), so "dripping", "drips" and
   "drip" are one word, and so are "gardener"'s "garden" and "gardens".
2. **Associations.**  A word also stands for every *association group* it
   belongs to: the pack's public table ``associations.toml`` (a reader's common
   knowledge: "asleep", "pillow", "laudanum" and "yawn" go together).  The
   table is data kept with the pack, readable by every player; it is not part
   of the pack's content hash (it decides no rule, only how a bot reads).
3. **Weights.**  A word or group counts by how rare it is among all the
   investigator cards of the pack (inverse document frequency: a word printed
   on one card says more than one printed on ten), and a word of a card's
   *name* counts :data:`NAME_WEIGHT` times a word of its description, the way
   a person matches a dream to the title first.
4. **Score.**  For each content word of the dream, a card earns the best of:
   the word itself on the card (its weight), or a group the word shares with a
   word on the card (:data:`ASSOCIATION_WEIGHT` of the group's weight).  The
   card's score is the sum over the dream's distinct words.

Everything is computed once per set of cards (:class:`TextReader`), and a
dream's reading is a dictionary lookup per word, so bots read thousands of
games' worth of dreams per second.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from domicile_p2p.packs.names import singular

ASSOCIATIONS_FILE: Final = "associations.toml"
"""The pack's association table, beside its card files (optional)."""

NAME_WEIGHT: Final = 3.0
"""A word of a card's name counts this many times a word of its description."""

ASSOCIATION_WEIGHT: Final = 0.5
"""A shared association group counts this share of the group's weight."""

_STOP_WORD_LIST: Final = """
    a about above across after again against all almost along already also although
    always am among an and another any anyone anything are around as at away back be
    because been before behind being below beneath beside between beyond both but by can
    cannot could did do doe does doing done down during each either else even ever every
    everyone everything few for from further had ha has have having he her here hers
    herself him himself his how i if in inside into is it its itself just last least
    less like little many may me more most much must my myself near never no nobody none
    nor not nothing now of off on once one only onto or other our ours out over own past
    perhaps quite rather same she should since so some someone something still such than
    that the their theirs them themselves then there these they thi this those though
    through till to too toward towards two under until up upon us very wa was we were
    what when where whether which while who whom whose why will with within without
    would yet you your yours yourself whole half full first second third once twice thing
    place house home manor hall room chamber man woman person people way come came go
    goe went gone get got make made take took give gave keep kept let look looked see
    saw seen seem say said tell told know knew find found
"""
STOP_WORDS: Final = frozenset(_STOP_WORD_LIST.split())
"""Words a reader passes over: function words, and the generic words of every dream
("house", "room", "come", "look"), and measures ("half", "full": "half full" is no
more the Decanter's than a full moon is).  Compared after :func:`singular` ("this" -> "thi")."""

_IRREGULAR: Final = {
    "ate": "eat",
    "bit": "bite",
    "bitten": "bite",
    "bled": "bleed",
    "blew": "blow",
    "bloody": "blood",
    "broke": "break",
    "broken": "break",
    "burnt": "burn",
    "drank": "drink",
    "drunk": "drink",
    "drew": "draw",
    "drawn": "draw",
    "dug": "dig",
    "eaten": "eat",
    "fallen": "fall",
    "fell": "fall",
    "flew": "fly",
    "froze": "freeze",
    "frozen": "freeze",
    "gilt": "gild",
    "golden": "gold",
    "grew": "grow",
    "grown": "grow",
    "hid": "hide",
    "hidden": "hide",
    "hung": "hang",
    "lit": "light",
    "rang": "ring",
    "sang": "sing",
    "sung": "sing",
    "sank": "sink",
    "sunk": "sink",
    "shook": "shake",
    "slept": "sleep",
    "spun": "spin",
    "stole": "steal",
    "stolen": "steal",
    "swam": "swim",
    "threw": "throw",
    "tore": "tear",
    "torn": "tear",
    "wept": "weep",
    "woke": "wake",
    "wore": "wear",
    "worn": "wear",
    "wove": "weave",
    "woven": "weave",
    "wooden": "wood",
    "woollen": "wool",
}
"""Irregular forms a reader knows, each mapped to the word a stem is cut from.  Not
"rung": a dream's rung is a ladder's, never a bell's (it would read as the Ring of Keys)."""

_VOWELS: Final = frozenset("aeiou")
_UNDOUBLED: Final = frozenset("lsz")
"""Doubled last consonants kept (a "bell", a "moss", a "buzz")."""

_TOKEN: Final = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
_POSSESSIVE: Final = ("'s", "’s")
_CLAUSE_MARKS: Final = ",.;:!?()\u2014"


def stem(word: str) -> str:
    """The crude stem of one word already put in the singular (see the module)."""
    word = _IRREGULAR.get(word, word)
    if len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
    elif len(word) > 4 and word.endswith("ed"):
        word = word[:-2]
    elif len(word) > 4 and word.endswith("y") and word[-2] not in _VOWELS:
        word = word[:-1]
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in _VOWELS | _UNDOUBLED:
        word = word[:-1]
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    return word


@dataclass(frozen=True, slots=True)
class Word:
    """One content word of a text: as printed, and the stem it is compared by."""

    printed: str
    stem: str
    before: str | None
    """The content word printed just before it in the same clause, if any ("sleeping" of
    "sleeping birds"): what a quotation of the word keeps with it."""
    start: int = 0
    end: int = 0
    """Where the word is printed in its text (``text[start:end]``)."""


def content_words(text: str) -> tuple[Word, ...]:
    """The words of ``text`` a reader weighs, in order (stop words dropped)."""
    found: list[Word] = []
    previous: str | None = None
    end = 0
    for match in _TOKEN.finditer(text):
        printed = match.group()
        gap = text[end : match.start()]
        if gap != " " and any(mark in gap for mark in _CLAUSE_MARKS):
            previous = None  # a quotation never spans a clause
        end = match.end()
        lower = printed.casefold()
        if lower.endswith(_POSSESSIVE):
            lower = lower[:-2]
        single = singular(lower)
        if single in STOP_WORDS or lower in STOP_WORDS or len(single) < 2:
            previous = None
            continue
        found.append(Word(printed, stem(single), previous, match.start(), match.end()))
        previous = printed
    return tuple(found)


@dataclass(frozen=True, slots=True)
class CardText:
    """What a person sees of an investigator card: its id, category, name and description."""

    id: str
    category: str
    name: str
    description: str


@dataclass(frozen=True, slots=True)
class DreamText:
    """What a person sees of a dream card: its id and its text."""

    id: str
    text: str


@dataclass(frozen=True, slots=True)
class Associations:
    """Groups of words a reader links: each word's stem mapped to the groups it is in."""

    groups: Mapping[str, frozenset[str]]

    @classmethod
    def of(cls, table: Mapping[str, Iterable[str]]) -> Associations:
        """From ``{group name: its words}`` (the words as printed; any form)."""
        groups: dict[str, set[str]] = {}
        for name, members in table.items():
            for member in members:
                for word in content_words(member):
                    groups.setdefault(word.stem, set()).add(name)
        return cls({word: frozenset(names) for word, names in groups.items()})

    def of_stem(self, word: str) -> frozenset[str]:
        return self.groups.get(word, frozenset())


NO_ASSOCIATIONS: Final = Associations({})


class AssociationsError(ValueError):
    """The association table of a pack cannot be read."""


def load_associations(directory: Path) -> Associations:
    """The table ``associations.toml`` of the pack in ``directory``; none if it has none.

    The file holds one table, ``[groups]``, each key a group and its value a list
    of words or short phrases (1 to 60 words, each at most 40 characters)."""
    path = directory / ASSOCIATIONS_FILE
    if not path.is_file():
        return NO_ASSOCIATIONS
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise AssociationsError(f"{path}: {exc}") from None
    groups = data.get("groups")
    if not isinstance(groups, dict) or set(data) != {"groups"}:
        raise AssociationsError(f"{path}: must hold exactly one table, [groups]")
    for name, members in groups.items():
        if (
            not isinstance(members, list)
            or not 1 <= len(members) <= 60
            or not all(isinstance(m, str) and 0 < len(m) <= 40 for m in members)
        ):
            raise AssociationsError(
                f"{path}: group {name!r} must be a list of 1 to 60 words of 1 to 40 characters"
            )
    return Associations.of(groups)


@dataclass(frozen=True, slots=True)
class Clue:
    """Why a card scored: a word of the dream and what it earned."""

    word: Word
    weight: float


class TextReader:
    """Reads dreams against a fixed set of cards (a whole pack, or one category).

    Built once per set of cards: each card's words and groups with their weights.
    ``read(text)`` then costs a lookup per word and card."""

    __slots__ = ("_associations", "_by_group", "_by_stem", "_card_groups", "_card_words", "cards")

    def __init__(
        self, cards: Sequence[CardText], associations: Associations = NO_ASSOCIATIONS
    ) -> None:
        self.cards = tuple(cards)
        self._associations = associations
        words_of: list[dict[str, float]] = []
        for card in self.cards:
            weights: dict[str, float] = {}
            for word in content_words(card.description):
                weights[word.stem] = max(weights.get(word.stem, 0.0), 1.0)
            for word in content_words(card.name):
                weights[word.stem] = NAME_WEIGHT
            words_of.append(weights)
        groups_of: list[dict[str, float]] = []
        for weights in words_of:
            groups: dict[str, float] = {}
            for stemmed, weight in weights.items():
                for group in associations.of_stem(stemmed):
                    groups[group] = max(groups.get(group, 0.0), weight)
            groups_of.append(groups)
        word_rarity = _rarity(words_of)
        group_rarity = _rarity(groups_of)
        self._card_words = [
            {word: weight * word_rarity[word] for word, weight in weights.items()}
            for weights in words_of
        ]
        self._card_groups = [
            {
                group: ASSOCIATION_WEIGHT * weight * group_rarity[group]
                for group, weight in g.items()
            }
            for g in groups_of
        ]
        # The same weights by word and by group: a dream's word is looked up once, not
        # once per card.
        self._by_stem = _by_feature(self._card_words)
        self._by_group = _by_feature(self._card_groups)

    def clues(self, text: str | Sequence[Word]) -> list[list[Clue]]:
        """For each card (in order), the dream's words that point to it and what each earns:
        the most its card words or its groups give the word.  ``text`` may be given as its
        :func:`content_words` (to read one dream with several readers)."""
        found: list[list[Clue]] = [[] for _ in self.cards]
        seen: set[str] = set()
        by_stem, by_group = self._by_stem, self._by_group
        for word in content_words(text) if isinstance(text, str) else text:
            if word.stem in seen:
                continue
            seen.add(word.stem)
            weights = dict(by_stem.get(word.stem, ()))
            for group in self._associations.of_stem(word.stem):
                for position, weight in by_group.get(group, ()):
                    if weight > weights.get(position, 0.0):
                        weights[position] = weight
            for position, weight in weights.items():
                if weight > 0:
                    found[position].append(Clue(word, weight))
        return found

    def read(self, text: str) -> dict[str, float]:
        """Each card's score for the dream ``text`` (0 for a card it says nothing about)."""
        return {
            card.id: sum(clue.weight for clue in clues)
            for card, clues in zip(self.cards, self.clues(text), strict=True)
        }


def _by_feature(weights: Sequence[Mapping[str, float]]) -> dict[str, list[tuple[int, float]]]:
    """Each feature (a word's stem, a group) and the cards having it: position, weight."""
    cards: dict[str, list[tuple[int, float]]] = {}
    for position, card in enumerate(weights):
        for feature, weight in card.items():
            cards.setdefault(feature, []).append((position, weight))
    return cards


def _rarity(features: Sequence[Mapping[str, float]]) -> dict[str, float]:
    """Each feature's inverse document frequency over the cards: ln(1 + cards / cards having it)."""
    counts: dict[str, int] = {}
    for card in features:
        for feature in card:
            counts[feature] = counts.get(feature, 0) + 1
    total = len(features)
    return {feature: math.log(1 + total / count) for feature, count in counts.items()}


def reading(
    dream_text: str | DreamText,
    cards: Sequence[CardText],
    associations: Associations = NO_ASSOCIATIONS,
) -> dict[str, float]:
    """How a person reads one dream against ``cards``: each card id and its score.

    Builds a :class:`TextReader` for ``cards``; to read many dreams against the same
    cards, build one and call :meth:`TextReader.read`."""
    text = dream_text.text if isinstance(dream_text, DreamText) else dream_text
    return TextReader(cards, associations).read(text)
