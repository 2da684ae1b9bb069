"""How to reach a table across the network: a small value the start screen builds.

Kept apart from ``networked`` so the front door can describe a join without
loading the network stack (which only a hosted or joined table needs).
"""

from __future__ import annotations

from dataclasses import dataclass

from domicile_p2p.client_api import Address, JoinCode
from domicile_tui.session import Role


@dataclass(frozen=True, slots=True)
class JoinTicket:
    """Where a table is and how to get in: its address (``None``: hosted here) and code."""

    code: JoinCode
    address: Address | None = None
    fingerprint: bytes | None = None
    """The host's certificate fingerprint when known (from discovery): any other is refused."""


@dataclass(frozen=True, slots=True)
class SeatRequest:
    """A seat asked for on the command line (``domicile play --connect``): the app goes
    straight to that table, and ends when the player leaves it (no front door)."""

    ticket: JoinTicket
    name: str
    role: Role | None = None
    """``None``: any free seat."""
    watch: bool = False
    """Watch the table without a seat instead."""
