"""``make_policy``: the right bot for a seat."""

from __future__ import annotations

from domicile_p2p.bots.ghost import GhostBot
from domicile_p2p.bots.investigator import InvestigatorBot
from domicile_p2p.bots.readers import DEFAULT_READERS, Readers
from domicile_p2p.packs import Pack
from domicile_p2p.rules import GHOST, Policy


def make_policy(seat: int, pack: Pack, seed: int, readers: Readers = DEFAULT_READERS) -> Policy:
    """The Ghost bot for seat 0, an investigator bot for any other seat, both reading
    dreams with ``readers`` (a person's reading of the words, by default)."""
    if seat == GHOST:
        return GhostBot(pack, seed, readers=readers)
    return InvestigatorBot(seat, pack, seed, readers=readers)
