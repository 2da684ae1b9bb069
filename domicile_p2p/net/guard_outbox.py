"""What the host keeps for a client that does not read: bounded, and then the client goes.

A client that stops reading (a frozen laptop, a modified client, someone
who sends ``fetch 0`` in a loop to make the host send the whole transcript
again and again) must not make the host hold an ever-growing pile of
frames for it.  Each connection's outbox is bounded twice:

- in frames and in bytes (:class:`BoundedOutbox`): a frame that does not
  fit is refused, and the adapter closes the connection as too slow;
- in time (:func:`send_within`): a single frame that the connection has not
  taken in ``timeout`` seconds means the client stopped reading; the
  adapter drops it.  (Keep-alive pings would notice too, but only after
  their own, longer, timeout.)
- in the kernel (:func:`bound_socket`): the socket's send buffer is fixed,
  so what the kernel holds for a client that does not read is bounded too,
  and the send timeout starts soon.

A dropped client reconnects and takes its seat back like any other, and
catches up from the transcript.  Everyone else is served by their own
writer and never waits for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Final, Generic, TypeVar

OUTBOX_FRAMES: Final = 2048
OUTBOX_BYTES: Final = 8 * 1024 * 1024
"""Bytes queued for one connection at most: many whole transcripts, far less than a flood."""
SEND_TIMEOUT: Final = 15.0
"""Seconds one frame may wait for a connection that takes nothing in."""
SOCKET_BUFFER: Final = 256 * 1024
"""The kernel's send buffer per connection.  Left to itself, Linux grows it to megabytes
for a peer that stopped reading; four full frames are plenty on a LAN."""

Item = TypeVar("Item")


@dataclass(frozen=True, slots=True)
class OutboxLimits:
    """How much the host keeps for one connection, and how long it waits for it to read."""

    frames: int = OUTBOX_FRAMES
    bytes: int = OUTBOX_BYTES
    send_timeout: float = SEND_TIMEOUT
    socket_buffer: int = SOCKET_BUFFER


class BoundedOutbox(Generic[Item]):
    """A FIFO of frames for one connection, bounded in frames and in bytes.

    ``put(item, size)`` refuses (returns ``False``) what would go over either
    bound; ``force`` puts a control item (a close) regardless.  The writer
    takes items with :meth:`get` and calls :meth:`sent` once each is on the
    wire, which frees its bytes.
    """

    def __init__(self, limits: OutboxLimits | None = None) -> None:
        limits = limits or OutboxLimits()
        self.max_frames = limits.frames
        self.max_bytes = limits.bytes
        self._queue: asyncio.Queue[tuple[Item, int]] = asyncio.Queue()
        self._bytes = 0
        self.peak_bytes = 0

    @property
    def queued_bytes(self) -> int:
        """Bytes accepted and not yet sent (the frame being written included)."""
        return self._bytes

    @property
    def queued_frames(self) -> int:
        return self._queue.qsize()

    def put(self, item: Item, size: int) -> bool:
        if self._queue.qsize() >= self.max_frames or self._bytes + size > self.max_bytes:
            return False
        self._add(item, size)
        return True

    def force(self, item: Item) -> None:
        self._add(item, 0)

    def _add(self, item: Item, size: int) -> None:
        self._bytes += size
        self.peak_bytes = max(self.peak_bytes, self._bytes)
        self._queue.put_nowait((item, size))

    async def get(self) -> tuple[Item, int]:
        """The next item and its size; call :meth:`sent` with the size once it is written."""
        return await self._queue.get()

    def sent(self, size: int) -> None:
        self._bytes -= size


def bound_socket(transport: asyncio.BaseTransport, size: int) -> None:
    """Fix the kernel's send buffer of a connection's socket at ``size`` bytes (if it has one)."""
    sock = transport.get_extra_info("socket")
    if sock is not None and size > 0:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, size)


async def send_within(sending: Awaitable[None], timeout: float = SEND_TIMEOUT) -> bool:
    """Await one send; ``False`` if the connection took nothing in for ``timeout`` seconds."""
    try:
        await asyncio.wait_for(sending, timeout)
    except TimeoutError:
        return False
    return True
