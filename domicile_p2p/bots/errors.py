"""Errors a bot raises when it is wired up wrongly (the caller's fault, not a player's)."""

from __future__ import annotations


class BotMisuse(Exception):
    """A bot was given a view it cannot act on: another seat's, or a Ghost view without secrets."""
