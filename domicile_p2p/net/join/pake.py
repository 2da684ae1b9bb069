"""The join PAKE: proving, both ways, that the client reached the host showing this code.

A person reads a table code off the host's screen and types it.  The code is
the password of SPAKE2 (Magic Wormhole's PAKE; the ``spake2`` package): the
client is side A, the host side B.  Each side ends with a key that matches
the other's only if both used the same code; an attacker gets one guess per
attempt and learns nothing offline.

A matching key alone does not stop a man in the middle who relays the PAKE
messages between the real client and the real host.  So both sides then send
a key confirmation, an HMAC with the PAKE key over the *binding*: the table's
nameplate, the certificate fingerprint the client saw on its TLS connection
(the host uses its own), the player's public key, the host's per-connection
challenge and both PAKE messages.  A relay presents its own certificate to
the client, so the fingerprints differ, both confirmations fail, and neither
side accepts: the client says "wrong table code" and pins nothing.

Byte layout (``protocol/WIRE.md``, "Join")::

    binding  = lp("domicile-p2p/v1/join/confirm") || lp(ascii(nameplate))
               || lp(fingerprint) || lp(player_key) || lp(nonce) || lp(msg_A) || lp(msg_B)
    mac_host   = HMAC-SHA256(key, lp("host")   || binding)
    mac_client = HMAC-SHA256(key, lp("client") || binding)

where ``lp(x) = u32be(len(x)) || x``.  The host's confirmation goes first (with
its PAKE message); the client checks it before revealing its own.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from typing import Final

from spake2 import SPAKE2_A, SPAKE2_B

from domicile_p2p.fairness.commit import length_prefixed
from domicile_p2p.net.errors import HostMisbehaved, WireError, WrongCode
from domicile_p2p.net.join.codes import JoinCode

CLIENT_ID: Final = b"domicile-p2p/v1/join/client"
HOST_ID: Final = b"domicile-p2p/v1/join/host"
CONFIRM_LABEL: Final = b"domicile-p2p/v1/join/confirm"
MESSAGE_BYTES: Final = 33
"""A SPAKE2 message: one side byte and a 32-byte Ed25519 group element."""
MAC_BYTES: Final = 32


@dataclass(frozen=True, slots=True)
class Binding:
    """What both confirmations commit to, as this side sees it."""

    nameplate: int
    host_fingerprint: bytes
    player_key: bytes
    nonce: bytes

    def transcript(self, client_message: bytes, host_message: bytes) -> bytes:
        return length_prefixed(
            CONFIRM_LABEL,
            str(self.nameplate).encode("ascii"),
            self.host_fingerprint,
            self.player_key,
            self.nonce,
            client_message,
            host_message,
        )


def _mac(key: bytes, role: bytes, transcript: bytes) -> bytes:
    return hmac.new(key, length_prefixed(role) + transcript, hashlib.sha256).digest()


def _finish(side: SPAKE2_A | SPAKE2_B, message: bytes) -> bytes:
    if len(message) != MESSAGE_BYTES:
        raise ValueError(f"a PAKE message is {MESSAGE_BYTES} bytes, not {len(message)}")
    try:
        key = side.finish(message)
    except Exception as exc:  # spake2 raises ValueError, AssertionError or its own errors
        raise ValueError(f"not a valid PAKE message ({type(exc).__name__})") from exc
    return bytes(key)


class ClientPake:
    """The client's half: start with :attr:`message`, then :meth:`finish` with the host's reply."""

    def __init__(self, code: JoinCode, binding: Binding) -> None:
        self._binding = binding
        self._spake = SPAKE2_A(code.password, idA=CLIENT_ID, idB=HOST_ID)
        self.message: bytes = bytes(self._spake.start())

    def finish(self, host_message: bytes, host_mac: bytes) -> bytes:
        """Check the host's confirmation and return the client's, or raise :class:`WrongCode`."""
        try:
            key = _finish(self._spake, host_message)
        except ValueError as exc:
            raise HostMisbehaved(f"the host's PAKE reply is malformed: {exc}") from None
        transcript = self._binding.transcript(self.message, host_message)
        if not hmac.compare_digest(_mac(key, b"host", transcript), host_mac):
            raise WrongCode(
                "wrong table code (or a different host answered at this address): "
                "check the code on the host's screen"
            )
        return _mac(key, b"client", transcript)


@dataclass(frozen=True, slots=True)
class HostReply:
    """The host's answer to a client's PAKE message, and what it expects back."""

    message: bytes
    mac: bytes
    expected_client_mac: bytes

    def client_confirmed(self, client_mac: bytes) -> bool:
        return hmac.compare_digest(self.expected_client_mac, client_mac)


def host_reply(code: JoinCode, binding: Binding, client_message: bytes) -> HostReply:
    """Run the host's half against ``client_message`` (raises :class:`WireError` if malformed)."""
    spake = SPAKE2_B(code.password, idA=CLIENT_ID, idB=HOST_ID)
    message = bytes(spake.start())
    try:
        key = _finish(spake, client_message)
    except ValueError as exc:
        raise WireError("bad-message", f"the PAKE message is malformed: {exc}") from None
    transcript = binding.transcript(client_message, message)
    return HostReply(message, _mac(key, b"host", transcript), _mac(key, b"client", transcript))
