"""A verifier's report as the client tells it: each check, the secrets it proved, the recap.

Every table ends here, whichever way it was played: the offline table and the
networked one (``networked.py``) both verify the whole transcript from scratch,
as ``domicile verify`` does, and hand the app this summary (``GameVerified``).
"""

from __future__ import annotations

from domicile_p2p.client_api import VerifyReport
from domicile_tui.news import Check, Verification
from domicile_tui.recap import recap_of_events
from domicile_tui.timeline import truth_of


def verification_of(report: VerifyReport) -> Verification:
    """The client's summary of a verifier's report, with the secrets it proved."""
    checks = [Check(c.name, c.ok, c.detail) for c in report.checks]
    checks += [Check(n.name, None, n.detail) for n in report.not_checked]
    replica = report.replica
    reveal = truth_of(replica) if replica is not None else None
    head = replica.head if replica is not None and replica.events else None
    recap = recap_of_events(replica.events) if replica is not None else None
    return Verification(
        tuple(checks), report.valid, reveal=reveal, summary=report.summary, head=head, recap=recap
    )
