"""The sand-glass as a player sees it: how much of the investigation's time is left.

The host keeps the table's clock (``domicile_p2p.net.sessions.guards.sandglass``)
and ends an investigation whose glass ran out with a signed ``time-up``.
Nothing on the wire says *when* an investigation began, so a client counts
from the moment it saw the investigation begin: the same event the host
counts from, so the two glasses run out together, give or take the time the
event took to arrive.  Whatever this client's count says, the glass is
empty once the host's ``time-up`` comes (a client that came back in the
middle of an investigation started its glass full, and learns it only then);
and when this client's count ends first, the glass shows empty until the
host calls time.  After a séance the next glass waits until everyone has seen it, at
most ``SEANCE_SEEN_WITHIN`` counted from the séance's event: the app tells its table when
its player has seen the séance (``TableSession.seance_seen``); a table on this laptop
turns the glass then, and a networked host once every person at the table has said so,
which it tells every client (``GlassTurned``, the wire's ``all-seen``); the app turns its
own bar at that moment.

:func:`follow` is pure: the app hands it each new view of the game, the
action that led there and the time on its own clock, and keeps the
:class:`Glass` it returns (``None``: no glass runs, nothing is shown).
The bar that shows it is ``widgets.sandglass``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from domicile_p2p.rules import Action, Investigation, View


@dataclass(frozen=True, slots=True)
class Glass:
    """The glass of one investigation, turned when this client saw it begin (``began``)."""

    investigation: Investigation
    seconds: int
    began: float
    called: bool = False
    """The host called time (its signed ``time-up`` came): the glass is empty."""

    def left(self, now: float) -> float:
        """Seconds left at ``now`` (on the clock ``began`` was read from)."""
        if self.called:
            return 0.0
        return min(float(self.seconds), max(0.0, self.seconds - (now - self.began)))


def follow(
    glass: Glass | None,
    view: View,
    action: Action | None,
    now: float,
    not_before: float | None = None,
) -> Glass | None:
    """The glass once the table has moved to ``view`` (``action`` led there) at ``now``.

    A new investigation's glass is turned at ``now``, or at ``not_before`` if that is later:
    the host turns it only once everyone has seen the séance before it (``SEANCE_SEEN_WITHIN``
    after it at most), and the bar stays full until then (or until the app hears the
    table turned it: ``GlassTurned``)."""
    from domicile_p2p.rules import TimeUp, due  # the moves load with the first view

    state = view.state
    seconds = state.config.timer
    if seconds is None:
        return None
    now_due = due(state)
    investigation = now_due.key
    same = glass is not None and glass.investigation == investigation
    if now_due.investigation is not None:
        if glass is not None and same and not glass.called:
            return glass
        return Glass(investigation, seconds, now if not_before is None else max(now, not_before))
    if isinstance(action, TimeUp):
        began = glass.began if glass is not None and same else now
        return Glass(investigation, seconds, began, called=True)
    if glass is not None and same and glass.called and now_due.seance:
        return glass  # empty until the séance that time-up called for is announced
    return None
