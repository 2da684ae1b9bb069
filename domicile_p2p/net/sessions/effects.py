"""What a sans-I/O session asks its adapter to do, as frozen values.

A session never touches a socket, a file or a clock.  It returns a list of
these, *in order*, and the adapter carries them out in that order: in
particular a :class:`Persist` is written to disk and fsync-ed before any
later :class:`Send` leaves, so no peer ever sees an event the host could
lose in a crash.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from domicile_p2p.net.wire import ClientMessage, HostMessage

ConnectionId = int


# ----------------------------------------------------------------- host side


@dataclass(frozen=True, slots=True)
class Send:
    """Send ``message`` on connection ``connection``."""

    connection: ConnectionId
    message: HostMessage


@dataclass(frozen=True, slots=True)
class Close:
    """Close ``connection`` (after the frames queued before it)."""

    connection: ConnectionId
    code: int
    reason: str


@dataclass(frozen=True, slots=True)
class Persist:
    """Append ``lines`` (events' canonical JSON, no newline) to table ``nameplate``'s log on disk,
    durably, before going on."""

    nameplate: int
    lines: tuple[bytes, ...]


@dataclass(frozen=True, slots=True)
class TableChanged:
    """Table ``nameplate``'s seats or state changed: refresh its advert."""

    nameplate: int


@dataclass(frozen=True, slots=True)
class GameFinished:
    """Table ``nameplate``'s game is over: archive its transcript."""

    nameplate: int
    game_id: str


@dataclass(frozen=True, slots=True)
class Log:
    """One structured log record (a JSON line in headless mode)."""

    event: str
    fields: Mapping[str, Any] = field(default_factory=dict)


HostEffect = Send | Close | Persist | TableChanged | GameFinished | Log


# ----------------------------------------------------------------- client side


@dataclass(frozen=True, slots=True)
class Transmit:
    """Send ``message`` to the host."""

    message: ClientMessage


@dataclass(frozen=True, slots=True)
class Pin:
    """The PAKE proved this fingerprint for the address dialled: pin it."""

    fingerprint: bytes


@dataclass(frozen=True, slots=True)
class ActionRefused:
    """The host refused this seat's last action; ``message`` says which rule, for the player."""

    code: str
    message: str


@dataclass(frozen=True, slots=True)
class SecretNeeded:
    """This seat needs its secret for game ``game_id``: the Ghost's seed, or an entropy.

    The adapter loads it from the player's data dir, or draws a fresh one and
    writes it there durably (``0600``) first, and hands it back with
    :meth:`~domicile_p2p.net.sessions.peer.PeerSession.secret_kept`.  Until
    then the seat signs nothing; so nothing it commits to can be lost in a
    crash, and the session itself never touches a file or draws randomness.
    """

    game_id: str
    seat: int


PeerEffect = Transmit | Pin | ActionRefused | SecretNeeded | Log
