"""Trust on first use, but not blind: what a pinned host fingerprint allows.

The first join proves the host's certificate in the PAKE (both sides knew the
table code and saw the same certificate), and only then is its fingerprint
pinned for the address dialled.  Every later connection to that address
(reconnects, a restarted client) must present the same certificate, or it is
refused as :class:`~domicile_p2p.net.errors.HostIdentityChanged` and never
retried.

This is the decision alone; where pins are kept is the adapter's
(:class:`~domicile_p2p.net.adapters.pins.PinStore`, a file in the data dir).
"""

from __future__ import annotations

import hmac

from domicile_p2p.net.errors import HostIdentityChanged


def matches_pin(address: str, pinned: bytes | None, seen: bytes) -> bool:
    """True when ``address`` is pinned to ``seen``; False when nothing is pinned yet.

    Raises :class:`HostIdentityChanged` when it is pinned to something else.
    """
    if pinned is None:
        return False
    if not hmac.compare_digest(pinned, seen):
        raise HostIdentityChanged(address, pinned.hex(), seen.hex())
    return True
