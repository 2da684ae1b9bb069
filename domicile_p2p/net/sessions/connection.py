"""One connection to the host, sans I/O: its phase, what it holds, how it is refused.

A :class:`Connection` is what ``HostSession`` knows of one websocket: where
it comes from, the nonce it was welcomed with, its message budget, its
phase (:class:`Phase`, drawn in ``host.py``'s docstring) and, once it is in,
its table and seat.  Nothing here decides when to refuse; it says how:

- :meth:`Refusals.bad`: a message refused and nothing changed (a typed,
  non-fatal ``Error``), unless the connection has now sent more than
  ``max_bad_frames`` of those: then :meth:`Refusals.fatal`;
- :meth:`Refusals.fatal`: a fatal ``Error`` and a close; the connection is
  marked closing, so nothing it sends afterwards is read.

Both log who was refused and why, so every refusal can be found in the log.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Final

from domicile_p2p.net.join.pake import HostReply
from domicile_p2p.net.sessions.effects import Close, ConnectionId, HostEffect, Log, Send
from domicile_p2p.net.sessions.limits import TokenBucket
from domicile_p2p.net.wire import Error, ErrorCode, Join, Watch

CLOSE_NORMAL: Final = 1000
CLOSE_GOING_AWAY: Final = 1001
CLOSE_POLICY: Final = 1008
ERROR_CHARACTERS: Final = 500
"""The longest reason an ``Error`` carries (a longer one is cut, with an ellipsis)."""


class Phase(Enum):
    HELLO = "hello"
    QUEUED = "queued"  # a join waiting its turn for the PAKE (per address, or the host's rate)
    CONFIRM = "confirm"
    SEATED = "seated"
    WATCHING = "watching"  # a spectator: no seat, the table's public events only


@dataclass(slots=True)
class Connection:
    id: ConnectionId
    remote: str
    nonce: bytes
    opened: float
    bucket: TokenBucket
    phase: Phase = Phase.HELLO
    bad_frames: int = 0
    join: Join | Watch | None = None
    reply: HostReply | None = None
    nameplate: int | None = None
    seat: int | None = None
    closing: bool = False
    counted: bool = True
    """A network connection (it holds a descriptor): counted against the connection caps."""
    log_fields: dict[str, Any] = field(default_factory=dict)


class Refusals:
    """How a connection is refused: a message (:meth:`bad`) or the connection (:meth:`fatal`).

    ``forget`` is told of every connection refused for good, before it is closed, so the
    parts that keep it (the handshake's deadline, the join queue) let it go.
    """

    def __init__(self, max_bad_frames: int, forget: Callable[[Connection], None]) -> None:
        self.max_bad_frames = max_bad_frames
        self._forget = forget

    def bad(self, state: Connection, code: ErrorCode, message: str) -> list[HostEffect]:
        """``state``'s message is refused and changes nothing; one too many is fatal."""
        state.bad_frames += 1
        if state.bad_frames > self.max_bad_frames:
            return self.fatal(state, code, f"{message} (too many bad messages)")
        return [
            Log(
                "rejected",
                {
                    "connection": state.id,
                    "remote": state.remote,
                    "table": state.nameplate,
                    "seat": state.seat,
                    "code": code.value,
                    "reason": message,
                },
            ),
            Send(state.id, Error(code, clip(message))),
        ]

    def fatal(self, state: Connection, code: ErrorCode, message: str) -> list[HostEffect]:
        """``state`` is told why and closed; nothing it sends afterwards is read."""
        self._forget(state)
        state.closing = True
        fields: dict[str, Any] = {
            "connection": state.id,
            "remote": state.remote,
            "table": state.nameplate,
            "seat": state.seat,
            "code": code.value,
            "reason": message,
            **state.log_fields,
        }
        return [
            Log("refused", fields),
            Send(state.id, Error(code, clip(message), fatal=True)),
            Close(state.id, CLOSE_POLICY, code.value),
        ]


def clip(message: str) -> str:
    """``message`` as an ``Error`` carries it (at most ``ERROR_CHARACTERS``)."""
    if len(message) <= ERROR_CHARACTERS:
        return message
    return message[: ERROR_CHARACTERS - 3] + "..."
