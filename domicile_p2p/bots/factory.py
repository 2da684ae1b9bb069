"""``make_policy``: the right bot for a seat."""

from __future__ import annotations

from domicile_p2p.bots.ghost import GhostBot
from domicile_p2p.bots.investigator import InvestigatorBot
from domicile_p2p.packs import Pack
from domicile_p2p.rules import GHOST, Policy


def make_policy(seat: int, pack: Pack, seed: int) -> Policy:
    """The Ghost bot for seat 0, an investigator bot for any other seat."""
    if seat == GHOST:
        return GhostBot(pack, seed)
    return InvestigatorBot(seat, pack, seed)
