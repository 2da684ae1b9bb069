"""Motifs as bit masks, so that a bot's reading of a dream is a few integer operations.

Every card of a pack (investigator cards and dream cards alike) gets one
integer whose bits are its motifs; the overlap of two cards is the number of
bits they share.  Bots play thousands of self-play games, so the index is
built once per pack and cached by the pack's content hash.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from domicile_p2p.packs import DreamCard, InvestigatorCard, Pack

_CACHE_LIMIT: Final = 16


@dataclass(frozen=True, slots=True)
class MotifIndex:
    """Each card id of a pack mapped to the bit mask of its motifs."""

    masks: dict[str, int]

    def mask(self, card: str) -> int:
        return self.masks[card]

    def overlap(self, first: str, second: str) -> int:
        """How many motifs the two cards share."""
        return (self.masks[first] & self.masks[second]).bit_count()

    def overlap_with(self, dreams: Iterable[str], card: str) -> int:
        """The motifs ``card`` shares with each of ``dreams``, summed over the dreams."""
        mask = self.masks[card]
        return sum((self.masks[dream] & mask).bit_count() for dream in dreams)


_cache: dict[str, MotifIndex] = {}


def motif_index(pack: Pack) -> MotifIndex:
    """The motif index of ``pack``, built once per pack content."""
    cached = _cache.get(pack.content_hash)
    if cached is not None:
        return cached
    cards = [*pack.characters, *pack.locations, *pack.items]
    vocabulary = sorted(
        {motif for card in cards for motif in card.motifs}
        | {motif for dream in pack.dreams for motif in dream.motifs}
    )
    bit = {motif: 1 << position for position, motif in enumerate(vocabulary)}
    entries: list[InvestigatorCard | DreamCard] = [*cards, *pack.dreams]
    masks: dict[str, int] = {}
    for entry in entries:
        mask = 0
        for motif in entry.motifs:
            mask |= bit[motif]
        masks[entry.id] = mask
    index = MotifIndex(masks)
    if len(_cache) >= _CACHE_LIMIT:
        _cache.clear()
    _cache[pack.content_hash] = index
    return index
