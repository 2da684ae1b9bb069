"""The identity proof: a player's signature over the host's per-connection challenge.

When a player takes a seat (after the PAKE) or takes it back (on a
reconnect), it signs::

    frame("domicile-p2p/v1/net/proof", nonce, fingerprint, u32be(nameplate), player_key)

with its Ed25519 identity key (``frame`` as in ``protocol/SPEC.md``: each
field length-prefixed).  The nonce is fresh for every connection, so a
recorded proof is worthless; the fingerprint is the certificate the client
saw, so a proof given to an impostor cannot be replayed to the real host.
"""

from __future__ import annotations

import struct
from typing import Final

from domicile_p2p.fairness.commit import length_prefixed
from domicile_p2p.identity import BadPublicKey, Identity, PublicKey

PROOF_LABEL: Final = b"domicile-p2p/v1/net/proof"


def proof_message(nonce: bytes, fingerprint: bytes, nameplate: int, player_key: bytes) -> bytes:
    return length_prefixed(
        PROOF_LABEL, nonce, fingerprint, struct.pack(">I", nameplate), player_key
    )


def sign_proof(identity: Identity, nonce: bytes, fingerprint: bytes, nameplate: int) -> bytes:
    return identity.sign(proof_message(nonce, fingerprint, nameplate, identity.public_key.raw))


def proof_holds(
    player_key: bytes, proof: bytes, nonce: bytes, fingerprint: bytes, nameplate: int
) -> bool:
    try:
        key = PublicKey(player_key)
    except BadPublicKey:
        return False
    return key.verifies(proof, proof_message(nonce, fingerprint, nameplate, player_key))
