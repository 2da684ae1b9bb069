"""The pack linter: do a pack's words and its motifs tell the same story?

People read a dream's text; the bots (and a Ghost guessing how the table
will read a card) read its motif tags.  A pack is well made when the two
agree and when every answer can be dreamt of.  :func:`lint_pack` checks a
loaded pack and returns its warnings, in file order; it never raises and
does no I/O (the file paths come from :attr:`Pack.source`).  Warnings are
not errors: a pack with warnings still loads and plays.

The rules, each with the ``rule`` code its warnings carry (``docs/packs.md``
says how to fix each):

``giveaway``
    A dream names an investigator card (:mod:`domicile_p2p.packs.names`):
    the table looks the card up instead of reading the dream.  A dream should
    evoke (a colour, a texture, a mood, an event) and fit more than one card.
``names-unshared``
    A dream names a card and shares no motif with it.
``names-elsewhere``
    A dream names a card, but another card of the same category shares more
    motifs with the dream: the text sends people to one card, the tags send
    the bots to another.
``names-two``
    A dream names two cards of one category.
``few-dreams``
    Fewer than :data:`MIN_POINTING_DREAMS` dreams *point to* an investigator
    card.  A dream points to a card when it shares more motifs with it than
    with any other card of its category (:func:`points_to`); a card that few
    dreams point to can hardly be dreamt of.
``shared-name``
    One name ("cane") names two investigator cards.
``motif-few-dreams``
    A motif of the vocabulary is on fewer than :data:`MIN_MOTIF_DREAMS` dreams.
``motif-no-card``
    A motif of the vocabulary is on no investigator card, so it points nowhere.
``near-duplicate``
    Two dreams are near-duplicates (:func:`near_duplicate`): the later one is
    reported.
``reads-elsewhere``
    A dream's motifs point to a card, but a person reading its words (the
    text reader, :mod:`domicile_p2p.packs.reading`) is drawn to another card
    of the category far more (:data:`READS_ELSEWHERE_FACTOR` times the score).
    This rule reads every dream against every card, so it runs only when
    :func:`lint_pack` is given the pack's association table (``domicile pack
    check`` does; loading a pack does not).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from domicile_p2p.packs.model import (
    CATEGORIES,
    DreamCard,
    InvestigatorCard,
    LintWarning,
    Pack,
)
from domicile_p2p.packs.names import NameIndex, NameMatch, singular, words
from domicile_p2p.packs.reading import Associations, CardText, TextReader
from domicile_p2p.packs.record import CATEGORY_FILES, DREAM_FILE, PACK_FILE

MIN_POINTING_DREAMS = 4
"""Dreams that must point to every investigator card."""

MIN_MOTIF_DREAMS = 4
"""Dreams that must show every motif of the vocabulary."""

READS_ELSEWHERE_FACTOR = 2.0
"""A dream reads elsewhere when another card's text score is this many times its motifs' card's."""

NEAR_DUPLICATE_WORDS = 0.6
"""Two dreams sharing this share of their words are near-duplicates, whatever their motifs."""

NEAR_DUPLICATE_WORDS_SAME_MOTIFS = 0.3
"""Two dreams with the same motifs are near-duplicates from this share of their words."""

_STOP_WORDS = """
    a an the and or but of in on at to into onto from with without by for as is are was
    were be been it its this that these those there their they them his her hers he she
    him you your yours i me my we our us one every each all any no not never so than then
    when where while who whom whose which what out up down over under through like until
    always only still just once
"""
STOP_WORDS: frozenset[str] = frozenset(singular(word) for word in _STOP_WORDS.split())
"""Words that say nothing about a dream's imagery, left out when dreams are compared."""


def points_to(dream: DreamCard, cards: Sequence[InvestigatorCard]) -> InvestigatorCard | None:
    """The card of ``cards`` sharing strictly more motifs with ``dream`` than any other, if one."""
    best: InvestigatorCard | None = None
    best_shared = 0
    tied = False
    for card in cards:
        shared = len(dream.motifs & card.motifs)
        if shared > best_shared:
            best, best_shared, tied = card, shared, False
        elif shared == best_shared:
            tied = True
    return None if tied or best_shared == 0 else best


def content_words(text: str) -> frozenset[str]:
    """The words of a dream that carry its imagery (:func:`names.words` minus stop words)."""
    return _content(words(text))


def _content(spelled: Iterable[str]) -> frozenset[str]:
    return frozenset(word for word in spelled if word not in STOP_WORDS)


def word_overlap(first: str, second: str) -> float:
    """The share of content words two texts have in common (Jaccard index, 0 to 1)."""
    return _jaccard(content_words(first), content_words(second))


def _jaccard(first: frozenset[str], second: frozenset[str]) -> float:
    if not first or not second:
        return 0.0
    common = len(first & second)
    return common / (len(first) + len(second) - common)


def near_duplicate(first: DreamCard, second: DreamCard) -> bool:
    """Whether two dreams are too alike for a player (or a bot) to tell apart.

    They are when at least :data:`NEAR_DUPLICATE_WORDS` of their content words
    are the same, or when their motif sets are identical and at least
    :data:`NEAR_DUPLICATE_WORDS_SAME_MOTIFS` of their words are.
    """
    return _near_duplicate(first, second, word_overlap(first.text, second.text))


def _near_duplicate(first: DreamCard, second: DreamCard, overlap: float) -> bool:
    if overlap >= NEAR_DUPLICATE_WORDS:
        return True
    return first.motifs == second.motifs and overlap >= NEAR_DUPLICATE_WORDS_SAME_MOTIFS


def lint_pack(pack: Pack, reading: Associations | None = None) -> tuple[LintWarning, ...]:
    """Every warning for ``pack``: pack.toml, then each card file in order, card by card.

    ``reading``: the pack's association table (``reading.load_associations``), to also
    read every dream as a person does (the ``reads-elsewhere`` rule); without it that
    rule, the slowest, is left out.
    """
    names = NameIndex(pack.investigator_cards)
    found = [
        *_motif_warnings(pack),
        *_investigator_warnings(pack, names),
        *_dream_warnings(pack, names),
    ]
    if reading is not None:
        found += _reading_warnings(pack, reading)
    files = [PACK_FILE, *CATEGORY_FILES.values(), DREAM_FILE]
    order = {card.id: position for position, card in enumerate(_all_cards(pack))}
    motif_order = {motif: position for position, motif in enumerate(sorted(pack.motifs))}
    found.sort(
        key=lambda w: (
            files.index(w.path.name),
            order.get(w.card or "", -1),
            motif_order.get(w.motif or "", -1),
        )
    )
    return tuple(found)


def _all_cards(pack: Pack) -> Iterable[InvestigatorCard | DreamCard]:
    return itertools.chain(pack.investigator_cards, pack.dreams)


def _path(pack: Pack, file: str) -> Path:
    return pack.source / file


def _card_warning(pack: Pack, card: InvestigatorCard, rule: str, message: str) -> LintWarning:
    return LintWarning(_path(pack, CATEGORY_FILES[card.category]), card.id, None, rule, message)


def _dream_warning(pack: Pack, dream: DreamCard, rule: str, message: str) -> LintWarning:
    return LintWarning(_path(pack, DREAM_FILE), dream.id, None, rule, message)


def _ids(cards: Iterable[InvestigatorCard | DreamCard]) -> str:
    return ", ".join(card.id for card in cards)


def _names(cards: Iterable[InvestigatorCard]) -> str:
    listed = [card.name for card in cards]
    return listed[0] if len(listed) == 1 else ", ".join(listed[:-1]) + " and " + listed[-1]


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _motif_warnings(pack: Pack) -> list[LintWarning]:
    found: list[LintWarning] = []
    on_cards = {motif for card in pack.investigator_cards for motif in card.motifs}
    for motif in sorted(pack.motifs):
        dreams = [dream for dream in pack.dreams if motif in dream.motifs]
        if len(dreams) < MIN_MOTIF_DREAMS:
            which = f" ({_ids(dreams)})" if dreams else ""
            found.append(
                LintWarning(
                    _path(pack, PACK_FILE),
                    None,
                    motif,
                    "motif-few-dreams",
                    f"is on {_plural(len(dreams), 'dream')}{which}; every motif needs at least "
                    f"{MIN_MOTIF_DREAMS}: tag more dreams that show it, or drop it",
                )
            )
        if motif not in on_cards:
            found.append(
                LintWarning(
                    _path(pack, PACK_FILE),
                    None,
                    motif,
                    "motif-no-card",
                    "is on no investigator card, so a dream that shows it points nowhere: "
                    "give it to the cards it describes, or drop it",
                )
            )
    return found


def _investigator_warnings(pack: Pack, names: NameIndex) -> list[LintWarning]:
    found: list[LintWarning] = []
    for category in CATEGORIES:
        cards = pack.category(category)
        pointing: dict[str, list[DreamCard]] = {card.id: [] for card in cards}
        for dream in pack.dreams:
            target = points_to(dream, cards)
            if target is not None:
                pointing[target.id].append(dream)
        for card in cards:
            dreams = pointing[card.id]
            if len(dreams) < MIN_POINTING_DREAMS:
                which = f" ({_ids(dreams)})" if dreams else ""
                verb = "points" if len(dreams) == 1 else "point"
                found.append(
                    _card_warning(
                        pack,
                        card,
                        "few-dreams",
                        f"{_plural(len(dreams), 'dream')}{which} {verb} to {card.name}; a card "
                        f"needs at least {MIN_POINTING_DREAMS}: tag or write dreams that share "
                        f"more motifs with it than with any other {category}",
                    )
                )
    for phrase, cards in names.ambiguous().items():
        for card in cards:
            others = [other for other in cards if other is not card]
            found.append(
                _card_warning(
                    pack,
                    card,
                    "shared-name",
                    f'its name "{phrase}" also names {_names(others)}: give the cards '
                    "distinct names (the optional `names` field)",
                )
            )
    return found


def _dream_warnings(pack: Pack, names: NameIndex) -> list[LintWarning]:
    found: list[LintWarning] = []
    spelled = {dream.id: words(dream.text) for dream in pack.dreams}
    for dream in pack.dreams:
        found += _naming_warnings(pack, names.find_in_words(spelled[dream.id]), dream)
    content = [_content(spelled[dream.id]) for dream in pack.dreams]
    for earlier, later, overlap in word_sharing_pairs(pack.dreams, content):
        if _near_duplicate(earlier, later, overlap):
            same = "the same motifs, " if earlier.motifs == later.motifs else ""
            found.append(
                _dream_warning(
                    pack,
                    later,
                    "near-duplicate",
                    f"is a near-duplicate of {earlier.id} ({same}{overlap:.0%} of their words "
                    "in common): rewrite one of them",
                )
            )
    return found


def word_sharing_pairs(
    dreams: Sequence[DreamCard], content: Sequence[frozenset[str]]
) -> Iterator[tuple[DreamCard, DreamCard, float]]:
    """Each pair of ``dreams`` whose ``content`` words meet, earlier first, with its overlap.

    Pairs sharing no word cannot be near-duplicates; an index of the dreams each word is in
    finds the others without comparing every pair (14,000 for the default pack).
    """
    holding: dict[str, list[int]] = {}
    for position, words_here in enumerate(content):
        common: Counter[int] = Counter()
        for word in words_here:
            earlier = holding.setdefault(word, [])
            common.update(earlier)
            earlier.append(position)
        for other in sorted(common):
            union = len(words_here) + len(content[other]) - common[other]
            yield dreams[other], dreams[position], common[other] / union


def _reading_warnings(pack: Pack, associations: Associations) -> list[LintWarning]:
    found: list[LintWarning] = []
    for category in CATEGORIES:
        cards = pack.category(category)
        seen = [CardText(card.id, card.category, card.name, card.description) for card in cards]
        reader = TextReader(seen, associations)
        for dream in pack.dreams:
            target = points_to(dream, cards)
            if target is None:
                continue
            scores = reader.read(dream.text)
            read_as = max(cards, key=lambda card: scores[card.id])
            best, meant = scores[read_as.id], scores[target.id]
            if read_as is target or best == 0 or best < READS_ELSEWHERE_FACTOR * meant:
                continue
            found.append(
                _dream_warning(
                    pack,
                    dream,
                    "reads-elsewhere",
                    f"its motifs point to {target.name}, but its words read as {read_as.name} "
                    f"(the text reader scores {best:.1f} against {meant:.1f}): show {target.name} "
                    "in the words, or tag what they show",
                )
            )
    return found


def _naming_warnings(
    pack: Pack, matches: Sequence[NameMatch], dream: DreamCard
) -> list[LintWarning]:
    found: list[LintWarning] = []
    named: dict[str, dict[str, str]] = {category: {} for category in CATEGORIES}
    in_text: dict[str, tuple[InvestigatorCard, str]] = {}
    for match in matches:
        for card in match.cards:
            named[card.category].setdefault(card.id, match.phrase)
            in_text.setdefault(card.id, (card, match.phrase))
    if in_text:
        listed = _names([card for card, _ in in_text.values()])
        quoted = ", ".join(f'"{phrase}"' for _, phrase in in_text.values())
        found.append(
            _dream_warning(
                pack,
                dream,
                "giveaway",
                f"names {listed} ({quoted}): a reader looks the card up instead of reading "
                "the dream; show what it looks, feels or sounds like instead, so that it "
                "fits more than one card",
            )
        )
    for category, by_id in named.items():
        cards = [pack.investigator_card(card_id) for card_id in by_id]
        if len(cards) > 1:
            listed = _names(cards) + " (" + ", ".join(f'"{p}"' for p in by_id.values()) + ")"
            found.append(
                _dream_warning(
                    pack,
                    dream,
                    "names-two",
                    f"names {len(cards)} {category}s, {listed}: a reader cannot tell which "
                    "one it means; name one at most",
                )
            )
        for card in cards:
            shared = len(dream.motifs & card.motifs)
            quoted = f'{card.name} ("{by_id[card.id]}")'
            if shared == 0:
                found.append(
                    _dream_warning(
                        pack,
                        dream,
                        "names-unshared",
                        f"names {quoted} but shares no motif with it: tag a motif of the card "
                        "that the text shows, or reword the text",
                    )
                )
                continue
            rivals = pack.category(category)
            best = max(len(dream.motifs & rival.motifs) for rival in rivals)
            if best > shared:
                better = [rival for rival in rivals if len(dream.motifs & rival.motifs) == best]
                found.append(
                    _dream_warning(
                        pack,
                        dream,
                        "names-elsewhere",
                        f"names {quoted} but its motifs point to {_names(better)} "
                        f"({_plural(best, 'shared motif')} against {shared}): retag it or "
                        "reword the text",
                    )
                )
    return found
