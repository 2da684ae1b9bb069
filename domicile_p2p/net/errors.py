"""Typed errors of the network layer, grouped by whose fault they are.

- :class:`BadJoinCode`, :class:`BadAddress`: the person typed something wrong.
- :class:`WireError`: the other side sent a frame that is not a valid message.
- :class:`Refused`: the host answered, and said no (a wrong code, a full table...).
- :class:`HostIdentityChanged`, :class:`HostMisbehaved`: the host (or someone
  pretending to be it) cannot be trusted.
- :class:`BadEvent`, :class:`Cheat`: an event this client can prove wrong; a
  :class:`Cheat` names who broke the protocol (the host, the Ghost, a seat).
- :class:`Unreachable`: the network failed; worth trying again.

A client retries only :class:`Unreachable`.  Everything else is *fatal*:
retrying a wrong code or a changed certificate in a loop would only turn a
mistake (or an attack) into a flood.
"""

from __future__ import annotations

from domicile_p2p.transcript.errors import GHOST_PARTY, HOST, Violation


class NetError(Exception):
    """Base of every error of the network layer."""

    fatal: bool = True


class BadJoinCode(NetError, ValueError):
    """The text a person typed is not a join code (their typo, shown to them)."""


class BadAddress(NetError, ValueError):
    """The address a person gave is not ``wss://HOST:PORT``."""


class WireError(NetError):
    """A frame that is not a valid protocol message: the sender's fault.

    ``code`` is the machine-readable reason sent back in the error reply.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Refused(NetError):
    """The host refused this client for a reason it named; never retried."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class WrongCode(Refused):
    """The PAKE confirmation failed: the code typed is not this host's table code.

    It is also what a man in the middle looks like: the confirmation binds the
    certificate this client saw, so a relay with another certificate fails here.
    """

    def __init__(self, message: str = "wrong table code") -> None:
        super().__init__("wrong-code", message)


class HostIdentityChanged(NetError):
    """The certificate at a pinned address is not the one pinned at the first join."""

    def __init__(self, address: str, pinned: str, seen: str) -> None:
        super().__init__(
            f"host identity changed at {address}: pinned {pinned[:16]}..., "
            f"now {seen[:16]}...; refusing to connect (remove the pin only if the host "
            "really got a new certificate)"
        )
        self.address = address
        self.pinned = pinned
        self.seen = seen


class HostMisbehaved(NetError):
    """The host sent something a correct host never sends (an invalid event, a bad reply)."""


class BadEvent(NetError):
    """The host sent an event this client can prove wrong (or one that contradicts its own)."""

    def __init__(self, message: str, violation: Violation | None = None) -> None:
        super().__init__(message)
        self.violation = violation


class Cheat(BadEvent):
    """An event that proves someone at the table cheated (see :attr:`party`, :attr:`seq`).

    Built by :func:`~domicile_p2p.net.sessions.guards.blame.blamed`, its
    message leading with who is to blame.
    """

    def __init__(self, message: str, violation: Violation) -> None:
        super().__init__(message, violation)
        self.party = violation.party
        self.seq = violation.seq
        self.check = violation.check

    @property
    def ghost_cheated(self) -> bool:
        return self.party == GHOST_PARTY

    @property
    def host_cheated(self) -> bool:
        return self.party == HOST


class Unreachable(NetError):
    """The connection failed or dropped: a network problem, worth a retry."""

    fatal = False
