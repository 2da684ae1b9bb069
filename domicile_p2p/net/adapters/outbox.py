"""What the host keeps for a client that does not read: bounded, and then the client goes.

A client that stops reading (a frozen laptop, a modified client, someone
who sends ``fetch 0`` in a loop to make the host send the whole transcript
again and again) must not make the host hold an ever-growing pile of
frames for it.

The host writes each frame straight into the connection's transport, as
``websockets.broadcast`` does: no queue and no writer task per connection,
so a broadcast to a table costs seven writes, not seven task switches.  What
the transport could not hand to the kernel yet stays in its write buffer,
and :class:`DirectOutbox` bounds that buffer twice:

- in bytes: a write that leaves more than ``bytes`` buffered means the
  client is far behind; the adapter drops it at once;
- in time: once more than ``watch_at`` bytes are buffered, the buffer must
  drain (to a quarter of that) within ``send_timeout`` seconds, or the
  client stopped reading and the adapter drops it.  (Keep-alive pings would
  notice too, but only after their own, longer, timeout.)
- in the kernel (:func:`bound_socket`): the socket's send buffer is fixed,
  so what the kernel holds for a client that does not read is bounded too,
  and the user-space buffer starts to grow soon.

A dropped client reconnects and takes its seat back like any other, and
catches up from the transcript.  Everyone else is written to directly and
never waits for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from websockets.asyncio.server import ServerConnection
from websockets.protocol import State

OUTBOX_BYTES: Final = 8 * 1024 * 1024
"""Bytes buffered for one connection at most: many whole transcripts, far less than a flood."""
WATCH_AT: Final = 64 * 1024
"""Bytes buffered from which the connection must drain within the send timeout."""
SEND_TIMEOUT: Final = 15.0
"""Seconds a connection may take to drain what is buffered for it."""
SOCKET_BUFFER: Final = 256 * 1024
"""The kernel's send buffer per connection.  Left to itself, Linux grows it to megabytes
for a peer that stopped reading; four full frames are plenty on a LAN."""


@dataclass(frozen=True, slots=True)
class OutboxLimits:
    """How much the host keeps for one connection, and how long it waits for it to read."""

    bytes: int = OUTBOX_BYTES
    send_timeout: float = SEND_TIMEOUT
    socket_buffer: int = SOCKET_BUFFER
    watch_at: int = WATCH_AT


class DirectOutbox:
    """Frames written at once into a websocket's transport, its write buffer bounded.

    ``websocket`` is a ``websockets`` asyncio connection (its sans-I/O
    ``protocol``, ``send_data``, ``transport``, and the flow control that
    ``paused`` and ``drain`` expose).  ``stuck(reason)`` is called once when
    the connection is over a bound; the caller drops it.
    """

    def __init__(self, websocket: Any, limits: OutboxLimits, stuck: Callable[[str], None]) -> None:
        self._websocket = websocket
        self._limits = limits
        self._stuck = stuck
        self._watch: asyncio.Task[None] | None = None
        self.peak_bytes = 0
        self.over = False
        # The transport pauses the connection from ``watch_at`` buffered bytes and
        # resumes it at a quarter of that: the drain clock's start and finish.
        websocket.transport.set_write_buffer_limits(high=limits.watch_at, low=limits.watch_at // 4)

    @property
    def queued_bytes(self) -> int:
        """Bytes the transport holds for this connection, not yet handed to the kernel."""
        return int(self._websocket.transport.get_write_buffer_size())

    def write(self, frames: Sequence[bytes]) -> bool:
        """Write text frames, in order; ``False`` (and ``stuck`` called) if over a bound.

        The frames reach the transport together (one TLS flush and one socket write
        instead of one per frame) while what they would leave buffered stays within the
        byte bound; a frame that may cross it is handed over and checked on its own, as
        if written alone, so a client over the bound never gets more than one frame past
        it.  A connection that is no longer open takes nothing and is not an error: it
        is on its way out.
        """
        websocket = self._websocket
        if self.over or websocket.protocol.state is not State.OPEN:
            return not self.over
        protocol = websocket.protocol
        room = self._limits.bytes - self.queued_bytes
        try:
            for frame in frames:
                protocol.send_text(frame)
                room -= len(frame)
                if room < 0:
                    websocket.send_data()
                    if not self.check():
                        return False
                    room = self._limits.bytes - self.queued_bytes
            websocket.send_data()
        except Exception:  # the transport is going away: its handler ends soon
            return True
        return self.check()

    def check(self) -> bool:
        """Hold the connection to both bounds, whoever wrote last; ``False`` if it is over.

        The host's frames call it, and so does every read (:class:`WatchedConnection`):
        websockets answers pings by itself, writing the pongs straight to the transport,
        and a client that pings without reading must not grow that buffer either.
        """
        if self.over:
            return False
        buffered = self.queued_bytes
        self.peak_bytes = max(self.peak_bytes, buffered)
        if buffered > self._limits.bytes:
            self._give_up("its outbox is full")
            return False
        if self._websocket.paused and self._watch is None:
            self._watch = asyncio.get_running_loop().create_task(self._drained_in_time())
        return True

    def close(self) -> None:
        """The connection is gone: stop watching it, and let go of the caller's callback
        (which usually holds this outbox: a cycle the collector would have to find)."""
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
        self._stuck = _gone

    async def _drained_in_time(self) -> None:
        try:
            async with asyncio.timeout(self._limits.send_timeout):
                await self._websocket.drain()
        except TimeoutError:
            self._give_up("it stopped reading")
        finally:
            self._watch = None

    def _give_up(self, reason: str) -> None:
        if not self.over:
            self.over = True
            self._stuck(reason)


READ_SLICE: Final = 16 * 1024
"""Bytes of one read that websockets parses before the outbox is checked again."""


def _gone(reason: str) -> None:
    """A closed outbox's ``stuck``: nobody is left to tell."""


class WatchedConnection(ServerConnection):
    """A server connection that calls ``after_read`` after each slice of a read it
    processes (its outbox's :meth:`DirectOutbox.check`: the replies websockets writes by
    itself count), and that leaves no reference cycle behind once its socket is closed.

    One read can carry far more than a slice when the host is busy (TLS hands over
    everything it decrypted at once): hundreds of pings whose pongs websockets would all
    write before a single check.  Parsing a read a slice at a time, and stopping once
    ``after_read`` says the connection is over its bound, keeps what a client that pings
    without reading can make the host buffer within ``READ_SLICE`` bytes of the bound,
    however loaded the host is.

    Why the cycles matter: the host freezes what survives the collector's middle
    generation (``gc_pauses.py``), and a connection lives long enough to be frozen, so
    a closed connection caught in a cycle would stay until the next thaw (ten minutes):
    waves of connections grew the heap by 96 MB a thousand.  Freed by their reference
    counts instead, they are gone the moment they close, frozen or not.
    """

    after_read: Callable[[], bool] | None = None
    _socket_transport: asyncio.BaseTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        # Under TLS, the transport of the socket itself is the TLS layer's own.
        ssl_protocol = getattr(transport, "_ssl_protocol", None)
        self._socket_transport = getattr(ssl_protocol, "_transport", None) or transport

    def data_received(self, data: bytes) -> None:
        after_read = self.after_read
        if after_read is None or len(data) <= READ_SLICE:
            super().data_received(data)
            if after_read is not None:
                after_read()
            return
        view = memoryview(data)
        for start in range(0, len(data), READ_SLICE):
            super().data_received(bytes(view[start : start + READ_SLICE]))
            if not after_read():
                return

    def send_data(self) -> None:
        """What the protocol has to send, to the transport in one write (websockets writes
        each frame on its own: for a batch of frames, a TLS flush and a socket write each).
        The bytes and their order are the same; the protocol asks for an end of stream
        (an empty chunk) only last, after its closing frame."""
        chunks = self.protocol.data_to_send()
        data = [chunk for chunk in chunks if chunk]
        if data:
            self.transport.writelines(data)
        if len(data) < len(chunks):  # half-close, as websockets does
            if self.transport.can_write_eof():
                with contextlib.suppress(Exception):
                    self.transport.write_eof()
            else:
                self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self.after_read = None
        transport, self._socket_transport = self._socket_transport, None
        if transport is not None:
            # The socket's transport lets go of its socket just after this returns.
            asyncio.get_running_loop().call_soon(break_transport_cycle, transport)


def break_transport_cycle(transport: asyncio.BaseTransport) -> None:
    """Drop the one reference cycle a closed asyncio socket transport keeps: its read
    callback, a method bound to itself (CPython 3.11's ``_SelectorSocketTransport``;
    the attribute is private, so only where it is there and the socket is gone)."""
    if getattr(transport, "_sock", True) is None and hasattr(transport, "_read_ready_cb"):
        transport._read_ready_cb = None


def bound_socket(transport: asyncio.BaseTransport, size: int) -> None:
    """Fix the kernel's send buffer of a connection's socket at ``size`` bytes (if it has one)."""
    sock = transport.get_extra_info("socket")
    if sock is not None and size > 0:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, size)
