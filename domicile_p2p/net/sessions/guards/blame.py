"""Who broke the protocol, said plainly: the message a player sees when a check fails.

A :class:`~domicile_p2p.transcript.Violation` names the event, the party at
fault and the check.  The party is not always the host that sent the event:
a Ghost that calls a wrong marker correct (caught at once, by the opening)
or a right one wrong (caught at the reveal) cheated, and the host only
relayed its signed action.  So the message leads with who is to blame:

    the Ghost cheated at event 37 (séance openings): seat 2's Location ...
    the host broke the protocol at event 12 (hash chain): ...
    seat 3 (Bea) cheated at event 20 (public rules), and the host let it through: ...

:func:`blamed` builds the :class:`~domicile_p2p.net.errors.Cheat` (a
:class:`~domicile_p2p.net.errors.BadEvent`) that the client raises, so every
front end shows the same sentence.
"""

from __future__ import annotations

from domicile_p2p.net.errors import Cheat
from domicile_p2p.transcript.errors import GHOST_PARTY, HOST, Violation


def headline(violation: Violation) -> str:
    """``the Ghost cheated at event 37 (séance openings)`` and the like."""
    where = f"at event {violation.seq} ({violation.check.value})"
    if violation.party == GHOST_PARTY:
        return f"the Ghost cheated {where}"
    if violation.party == HOST:
        return f"the host broke the protocol {where}"
    return f"{violation.party} cheated {where}, and the host let it through"


def blamed(violation: Violation) -> Cheat:
    """The error a client raises for ``violation``, its message leading with who is to blame."""
    return Cheat(f"{headline(violation)}: {violation.reason}", violation)
