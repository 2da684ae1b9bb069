"""Which investigator cards each dream's text names, as a person reading it would.

People read a dream's words: a dream that says "crypt" sends them to The
Family Crypt whatever its motif tags say.  So the bots read the words too
(:mod:`domicile_p2p.packs.names` decides when a text names a card): the Ghost
bot never gives a dream that names a wrong card of the category sought, and
an investigator bot counts a card named in a dream's text as strong evidence
(:data:`NAMED_WEIGHT` motifs' worth).  A wrong card is one on the table that
the receiver might choose instead of the right one.  Built once per pack, cached by the
pack's content hash, like the motif index.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from domicile_p2p.bots.motifs import PerPack
from domicile_p2p.packs import Pack
from domicile_p2p.packs.names import NameIndex
from domicile_p2p.rules import Give, View

NAMED_WEIGHT: Final = 3
"""What a dream naming a card adds to that card's score, in shared motifs: a name
outweighs the two or three motifs a dream usually shares with any one card."""


@dataclass(frozen=True, slots=True)
class DreamNames:
    """Each dream id of a pack mapped to the ids of the investigator cards its text names."""

    named: dict[str, frozenset[str]]

    def names(self, dream: str, card: str) -> bool:
        """Whether ``dream``'s text names ``card``."""
        return card in self.named.get(dream, ())

    def bonus(self, dreams: Iterable[str], card: str) -> int:
        """What the names in ``dreams`` add to ``card``'s score."""
        return NAMED_WEIGHT * sum(card in self.named.get(dream, ()) for dream in dreams)

    def names_wrongly(self, dream: str, target: str, choices: Iterable[str]) -> bool:
        """Whether ``dream`` names one of ``choices`` (the cards on the table of the
        category sought) other than ``target``: a person would be sent the wrong way."""
        named = self.named.get(dream)
        if not named:
            return False
        return any(card != target and card in named for card in choices)


def wrong_named_cards(names: DreamNames, view: View, give: Give) -> tuple[str, ...]:
    """The dreams of ``give`` whose text names a wrong card, on the table, of the category
    its receiver seeks; judged from the Ghost's ``view`` (it knows the right card)."""
    if view.ghost is None:
        raise ValueError("only the Ghost's view says which card a give should point to")
    seeking = view.state.investigator(give.to).seeking
    if seeking is None:
        return ()
    target = view.ghost.column(give.to).card(seeking)
    choices = view.state.tableau.cards(seeking)
    return tuple(card for card in give.cards if names.names_wrongly(card, target, choices))


def _build_dream_names(pack: Pack) -> DreamNames:
    cards = [*pack.characters, *pack.locations, *pack.items]
    index = NameIndex(cards)
    named: dict[str, frozenset[str]] = {}
    for dream in pack.dreams:
        ids = frozenset(card.id for match in index.find(dream.text) for card in match.cards)
        if ids:
            named[dream.id] = ids
    return DreamNames(named)


dream_names = PerPack(_build_dream_names)
"""The dream names of a pack, built once per pack content."""
