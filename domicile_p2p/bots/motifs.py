"""Motifs as bit masks, so that a bot's reading of a dream is a few integer operations.

Every card of a pack (investigator cards and dream cards alike) gets one
integer whose bits are its motifs; the overlap of two cards is the number of
bits they share.  Bots play thousands of self-play games, so the index is
built once per pack and cached by the pack's content hash.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final, Generic, TypeVar

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


T = TypeVar("T")


class PerPack(Generic[T]):
    """``build(pack)``, computed once per pack content (keyed by its content hash): bots
    play thousands of games with one pack."""

    def __init__(self, build: Callable[[Pack], T]) -> None:
        self._build = build
        self._cache: dict[str, T] = {}

    def __call__(self, pack: Pack) -> T:
        cached = self._cache.get(pack.content_hash)
        if cached is not None:
            return cached
        built = self._build(pack)
        if len(self._cache) >= _CACHE_LIMIT:
            self._cache.clear()
        self._cache[pack.content_hash] = built
        return built


def _build_motif_index(pack: Pack) -> MotifIndex:
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
    return MotifIndex(masks)


motif_index = PerPack(_build_motif_index)
"""The motif index of a pack, built once per pack content."""
