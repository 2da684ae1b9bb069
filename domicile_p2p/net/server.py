"""The asyncio adapter of :class:`~domicile_p2p.net.host_session.HostSession`.

It only pumps: frames from websockets (TLS 1.3, frames over 64 KiB refused
by websockets itself) are decoded and handed to the session, and the
session's effects are carried out in order.  Each connection has its own
writer task and a bounded queue, so one slow or stuck client never stalls
the host or the other players; a client whose queue overflows is closed.

Connections come from two places: websockets, and *local links* for the
bots the host runs itself.  A local link is an in-memory pair of queues that
carries exactly the text frames a websocket would, so a hosted bot joins
with the code, proves its key and plays through the same session code as a
remote player.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import ssl
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from domicile_p2p.net.effects import (
    Close,
    ConnectionId,
    GameFinished,
    HostEffect,
    Log,
    Persist,
    Send,
    TableChanged,
)
from domicile_p2p.net.errors import WireError
from domicile_p2p.net.guard_outbox import BoundedOutbox, OutboxLimits, bound_socket, send_within
from domicile_p2p.net.host_session import CLOSE_GOING_AWAY, HostSession
from domicile_p2p.net.wire import MAX_FRAME, decode_client, text

CLOSE_TOO_BIG: Final = 1009

_logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class _Closing:
    code: int
    reason: str


class _Outbox(Protocol):
    def put(self, item: str | _Closing) -> bool: ...


class HostHooks(Protocol):
    """What the server does with the effects that are not network traffic."""

    def persist(self, table: int, events: Sequence[Mapping[str, Any]]) -> None:
        """Append ``events`` durably (fsync) before returning."""

    def log(self, event: str, fields: Mapping[str, Any]) -> None: ...

    def table_changed(self, table: int) -> None: ...

    def game_finished(self, table: int, game_id: str) -> None: ...


class _QueueOutbox:
    """A websocket connection's outbox: bounded in frames and bytes (``guard_outbox.py``)."""

    def __init__(self, limits: OutboxLimits) -> None:
        self.box: BoundedOutbox[str | _Closing] = BoundedOutbox(limits)
        self.stuck = False

    def put(self, item: str | _Closing) -> bool:
        if isinstance(item, _Closing):
            self.box.force(item)
            return True
        return self.box.put(item, len(item))


class HostServer:
    """Serves one :class:`HostSession` over websockets and local links."""

    def __init__(
        self,
        session: HostSession,
        hooks: HostHooks,
        *,
        clock: Callable[[], float] | None = None,
        outbox: OutboxLimits | None = None,
    ) -> None:
        self.session = session
        self.hooks = hooks
        self.outbox_limits = outbox or OutboxLimits()
        self._clock = clock or (lambda: asyncio.get_running_loop().time())
        self._ids = itertools.count(1)
        self._outboxes: dict[ConnectionId, _Outbox] = {}
        self._server: Server | None = None
        self._timer: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._tasks: set[asyncio.Task[Any]] = set()

    # ------------------------------------------------------------- lifecycle

    async def listen(self, host: str, port: int, context: ssl.SSLContext) -> int:
        """Start accepting TLS websocket connections; returns the port (useful with 0)."""
        self._server = await serve(
            self._handle,
            host,
            port,
            ssl=context,
            max_size=MAX_FRAME,
            max_queue=32,
            compression=None,  # no decompression bombs; frames are small anyway
            open_timeout=10,
            ping_interval=10,
            ping_timeout=20,
            close_timeout=2,
            server_header=None,
        )
        self._timer = asyncio.create_task(self._run_timer())
        sockets = list(self._server.sockets)
        return int(sockets[0].getsockname()[1])

    async def close(self) -> None:
        """Say goodbye to every connection, then stop listening."""
        self.apply(self.session.shutdown())
        # Give the writers a moment to flush the goodbye frames.
        await asyncio.sleep(0.05)
        if self._timer is not None:
            self._timer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._timer
        if self._server is not None:
            self._server.close(close_connections=True)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 5)
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # ------------------------------------------------------------- effects

    def apply(self, effects: Sequence[HostEffect]) -> None:
        """Carry out ``effects`` in order (a Persist is durable before later sends queue)."""
        for effect in effects:
            match effect:
                case Send(connection, message):
                    outbox = self._outboxes.get(connection)
                    if outbox is not None and not outbox.put(text(message)):
                        self._stuck(connection, outbox, "its outbox is full")
                case Close(connection, code, reason):
                    outbox = self._outboxes.get(connection)
                    if outbox is not None:
                        outbox.put(_Closing(code, reason))
                case Persist(table, events):
                    self.hooks.persist(table, events)
                case Log(event, fields):
                    self.hooks.log(event, fields)
                case TableChanged(table):
                    self.hooks.table_changed(table)
                case GameFinished(table, game_id):
                    self.hooks.game_finished(table, game_id)
        self._wake.set()

    def _stuck(self, connection: ConnectionId, outbox: _Outbox, reason: str) -> None:
        """A client that does not read: log it once, and close it (its writer drops it)."""
        if isinstance(outbox, _QueueOutbox):
            if outbox.stuck:
                return
            outbox.stuck = True
            fields = {
                "connection": connection,
                "reason": reason,
                "queued_bytes": outbox.box.queued_bytes,
                "peak_bytes": outbox.box.peak_bytes,
            }
        else:
            fields = {"connection": connection, "reason": reason}
        self.hooks.log("stuck", fields)
        outbox.put(_Closing(CLOSE_GOING_AWAY, "too slow"))

    async def _run_timer(self) -> None:
        while True:
            deadline = self.session.next_deadline()
            self._wake.clear()
            timeout = None if deadline is None else max(0.0, deadline - self._clock())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout)
            self.apply(self.session.tick(self._clock()))

    # ------------------------------------------------------------- websockets

    async def _handle(self, websocket: ServerConnection) -> None:
        connection = next(self._ids)
        outbox = _QueueOutbox(self.outbox_limits)
        self._outboxes[connection] = outbox
        bound_socket(websocket.transport, self.outbox_limits.socket_buffer)
        remote = _format_remote(websocket.remote_address)
        writer = asyncio.create_task(self._write(connection, websocket, outbox))
        try:
            self.apply(self.session.connect(connection, remote, self._clock()))
            async for frame in websocket:
                if writer.done():
                    break
                self._feed(connection, frame)
        except ConnectionClosed as closed:
            if closed.sent is not None and closed.sent.code == CLOSE_TOO_BIG:
                # websockets refused a frame over max_size and closed this connection.
                self.hooks.log(
                    "refused",
                    {
                        "connection": connection,
                        "remote": remote,
                        "code": "too-large",
                        "reason": f"a frame over {MAX_FRAME} bytes",
                    },
                )
        finally:
            self._outboxes.pop(connection, None)
            self.apply(self.session.disconnect(connection, self._clock()))
            if not writer.done():
                outbox.put(_Closing(1000, "bye"))
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 2)
            writer.cancel()

    def _feed(self, connection: ConnectionId, frame: str | bytes) -> None:
        now = self._clock()
        try:
            message = decode_client(frame)
        except WireError as error:
            self.apply(self.session.reject_frame(connection, error, now))
            return
        self.apply(self.session.receive(connection, message, now))

    async def _write(
        self, connection: ConnectionId, websocket: ServerConnection, outbox: _QueueOutbox
    ) -> None:
        try:
            while True:
                item, size = await outbox.box.get()
                if isinstance(item, _Closing):
                    await websocket.close(item.code, item.reason)
                    return
                sent = await send_within(websocket.send(item), self.outbox_limits.send_timeout)
                outbox.box.sent(size)
                if not sent:
                    # It took nothing in for a whole timeout: it stopped reading. Drop it
                    # without a closing handshake it would not read either.
                    self._stuck(connection, outbox, "it stopped reading")
                    websocket.transport.abort()
                    return
        except ConnectionClosed:
            return

    # ------------------------------------------------------------- local links

    def attach_local(self, remote: str = "local") -> LocalLink:
        """A connection from inside this process (a hosted bot), frames as text like a socket."""
        connection = next(self._ids)
        link = LocalLink(self, connection)
        self._outboxes[connection] = link
        self.apply(self.session.connect(connection, remote, self._clock()))
        return link

    def _local_frame(self, connection: ConnectionId, frame: str) -> None:
        if connection in self._outboxes:
            self._feed(connection, frame)

    def _local_closed(self, connection: ConnectionId) -> None:
        if self._outboxes.pop(connection, None) is not None:
            self.apply(self.session.disconnect(connection, self._clock()))

    def spawn(self, coroutine: Awaitable[Any]) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task


class LocalLink:
    """The client end of an in-process connection: ``send`` text frames, ``recv`` them."""

    def __init__(self, server: HostServer, connection: ConnectionId) -> None:
        self._server = server
        self.connection = connection
        self.inbox: asyncio.Queue[str | _Closing] = asyncio.Queue()
        self.closed = False

    def put(self, item: str | _Closing) -> bool:
        if not self.closed:
            self.inbox.put_nowait(item)
            if isinstance(item, _Closing):
                self.closed = True
                # Deferred: this runs in the middle of the server applying effects.
                asyncio.get_running_loop().call_soon(self._server._local_closed, self.connection)
        return True

    async def send(self, frame: str) -> None:
        if self.closed:
            raise ConnectionError("the local link is closed")
        self._server._local_frame(self.connection, frame)

    async def recv(self) -> str:
        """The next frame from the host; ``ConnectionError`` once the host closed the link."""
        item = await self.inbox.get()
        if isinstance(item, _Closing):
            raise ConnectionError(f"closed by the host: {item.reason}")
        return item

    async def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._server._local_closed(self.connection)


def _format_remote(address: Any) -> str:
    if isinstance(address, tuple) and len(address) >= 2:
        host, port = address[0], address[1]
        return f"[{host}]:{port}" if ":" in str(host) else f"{host}:{port}"
    return str(address)
