"""Table talk: the one short line a bot investigator says when it locks its marker.

A person at the table should be able to follow a bot's reasoning and argue
with it, so the line names the card (or the group) and the imagery that led
there: the motifs the card shares with the dreams, the most often shared
first, and "named in a dream" when a dream's words name it.  Built only from
the public state and the pack, like every bot decision.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

from domicile_p2p.bots.naming import DreamNames
from domicile_p2p.packs import Pack
from domicile_p2p.rules import MAX_CHAT_LENGTH

REASONS: Final = 2
"""How many pieces of imagery a line cites."""


def _reasons(pack: Pack, names: DreamNames, dreams: Sequence[str], cards: Sequence[str]) -> str:
    shared: Counter[str] = Counter()
    named = False
    for dream in dreams:
        dream_motifs = pack.dream(dream).motifs
        for card in cards:
            shared.update(dream_motifs & pack.investigator_card(card).motifs)
            named = named or names.names(dream, card)
    cited = [motif for motif, _ in sorted(shared.items(), key=lambda kv: (-kv[1], kv[0]))]
    parts = [f"the {motif}" for motif in cited[:REASONS]]
    if named:
        parts.insert(0, "a dream names it")
        parts = parts[:REASONS]
    if not parts:
        return "a hunch"
    return " and ".join(parts)


def leaning_line(pack: Pack, names: DreamNames, dreams: Sequence[str], cards: Sequence[str]) -> str:
    """ "Leaning to The Library: the book and the candle": ``cards`` (one card, or a group)
    and why, from ``dreams``; at most :data:`MAX_CHAT_LENGTH` characters."""
    chosen = ", ".join(pack.investigator_card(card).name for card in cards)
    line = f"Leaning to {chosen}: {_reasons(pack, names, dreams, cards)}"
    return line[:MAX_CHAT_LENGTH]


def following_line(pack: Pack, leader: str, cards: Sequence[str]) -> str:
    """The line of a bot that moves its vote to the group ``leader`` has locked on."""
    chosen = ", ".join(pack.investigator_card(card).name for card in cards)
    return f"Going with {leader}: {chosen}"[:MAX_CHAT_LENGTH]
