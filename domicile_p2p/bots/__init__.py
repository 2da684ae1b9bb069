"""Bots: policies that play any seat from exactly what that seat may see.

A policy (:class:`~domicile_p2p.rules.Policy`, re-exported here) is a pure
decision function over a :class:`~domicile_p2p.rules.View`; its randomness
comes from a seed it is built with, never from the clock.

``make_policy(seat, pack, seed)`` gives the Ghost bot for seat 0 and an
investigator bot for any other seat.  Both read the table with one shared
model (``reading.py`` over ``readers.py``): an investigator scores each card
by how the dreams it holds read as it (by default as a person reads them,
from the words of the dream and of the cards, never their motifs), and the
Ghost picks the dreams that make the right card score best by the widest
margin.
"""

from __future__ import annotations

from domicile_p2p.bots.errors import BotMisuse
from domicile_p2p.bots.factory import make_policy
from domicile_p2p.bots.ghost import GhostBot
from domicile_p2p.bots.investigator import InvestigatorBot
from domicile_p2p.bots.listener import Listener
from domicile_p2p.bots.readers import DEFAULT_READERS, Readers
from domicile_p2p.bots.recording import RecordingPolicy
from domicile_p2p.rules import Policy

__all__ = [
    "DEFAULT_READERS",
    "BotMisuse",
    "GhostBot",
    "InvestigatorBot",
    "Listener",
    "Policy",
    "Readers",
    "RecordingPolicy",
    "make_policy",
]
