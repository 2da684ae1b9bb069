"""Bots: policies that play any seat from exactly what that seat may see.

A policy is a pure decision function over a :class:`~domicile_p2p.rules.View`;
its randomness comes from a seed it is built with, never from the clock.
"""

from __future__ import annotations

from typing import Protocol

from domicile_p2p.rules import Action, View


class Policy(Protocol):
    def act(self, view: View) -> Action | None:
        """The seat's next action, or ``None`` when it has nothing to do now."""
