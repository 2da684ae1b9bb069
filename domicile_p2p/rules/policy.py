"""``Policy``: what plays a seat, as the engine sees it: a view in, an action (or nothing) out.

The bots (``domicile_p2p.bots``), the protocol's own plain player
(``transcript.selfplay.PlainPolicy``), the simulator and the network's bot seats
all speak this one interface; it lives beside :class:`~domicile_p2p.rules.View`
so that none of them has to import another to name it.
"""

from __future__ import annotations

from typing import Protocol

from domicile_p2p.rules.actions import Action
from domicile_p2p.rules.visibility import View


class Policy(Protocol):
    """A player of one seat: a pure decision over that seat's view."""

    def act(self, view: View) -> Action | None:
        """The seat's next action, or ``None`` when it has nothing to do now."""
