"""The asyncio adapter of :class:`~domicile_p2p.net.sessions.host.HostSession`.

It only pumps: frames from websockets (TLS 1.3, frames over 64 KiB refused
by websockets itself) are decoded and handed to the session, and the
session's effects are carried out in order.  Frames are written straight
into each connection's transport (``outbox.DirectOutbox``, as
``websockets.broadcast`` does), so a broadcast costs no task switch per
peer; what a connection's transport holds is bounded in bytes and in time,
so one slow or stuck client never stalls the host or the other players: it
is dropped.

Events reach the disk off the event loop, with group commit
(:class:`_DurableOrder`): a :class:`Persist` goes to a disk thread, and every
effect after it waits, in order, until the sync that covers it returns.
Persists that come while a sync runs are written together and synced once,
so the loop keeps serving while the disk works, and no peer ever sees an
event that is not on disk.  A write that fails (a full disk, no descriptor
left) is tried again until it works, every later effect held meanwhile: the
tables pause, and nothing is lost (``disk_trouble.py``).

Connections come from two places: websockets, and *local links* for the
bots the host runs itself.  A local link is an in-memory pair of queues that
carries exactly the text frames a websocket would, so a hosted bot joins
with the code, proves its key and plays through the same session code as a
remote player.
"""

from __future__ import annotations

import asyncio
import asyncio.sslproto as sslproto
import contextlib
import itertools
import logging
import socket
import ssl
import struct
import threading
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Final, Protocol

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State
from websockets.server import ServerProtocol

from domicile_p2p.net.adapters.clock import Clock, LoopClock
from domicile_p2p.net.adapters.disk_trouble import DiskTrouble
from domicile_p2p.net.adapters.memory_release import MemoryRelease
from domicile_p2p.net.adapters.outbox import (
    DirectOutbox,
    OutboxLimits,
    WatchedConnection,
    bound_socket,
    break_transport_cycle,
)
from domicile_p2p.net.errors import WireError
from domicile_p2p.net.sessions.effects import (
    Close,
    ConnectionId,
    GameFinished,
    HostEffect,
    Log,
    Persist,
    Send,
    TableChanged,
)
from domicile_p2p.net.sessions.host import HostSession
from domicile_p2p.net.wire import MAX_FRAME, decode_client, text

CLOSE_TOO_BIG: Final = 1009
DISK_THREADS: Final = 16
"""Disk threads at most: the tables of a group commit sync this many at once."""
TLS_READ_CHUNK: Final = 32 * 1024
"""Bytes asyncio's TLS layer reads from a seated (or watching) connection's socket at once.
Its default is a 256 KiB buffer per connection, filled with zeros up front: 1.75 GiB for
7,000 connections, when a frame here is at most 64 KiB and usually under 1 KiB."""
TLS_UNPROVEN_CHUNK: Final = 4 * 1024
"""The same until the connection has proven the join code (or its seat's key): from the
accept on, so a connection that never finishes its handshake, or sits idle after the
Welcome, holds 4 KiB for it, not 256 KiB.  What it sends before that is a few small frames."""

ACCEPT_BACKLOG: Final = 100
"""Connections the kernel keeps waiting for an accept (asyncio's own default)."""
REFUSED_PER_TURN: Final = 64
"""Connections refused at accept in one turn of the event loop at most, before it serves
the others (the listening socket is still readable: the loop comes back to it)."""

_logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class _Closing:
    code: int
    reason: str


class _Outbox(Protocol):
    def put(self, item: str | _Closing) -> bool: ...

    def put_frames(self, frames: Sequence[str]) -> None:
        """Several frames, in order (a socket takes them in one write)."""


class HostHooks(Protocol):
    """What the server does with the effects that are not network traffic."""

    def persist(self, nameplate: int, lines: Sequence[bytes]) -> None:
        """Append ``lines`` (events' canonical JSON) to table ``nameplate``'s log durably (fsync)
        before returning.

        Called in one of the server's disk threads, never on the event loop, so it
        must not touch the loop.  Calls for one table never overlap (and come in
        the order of its events); calls for different tables may run at once.  An
        ``OSError`` must leave nothing of the call behind: the server pauses (holding
        every later effect) and calls again with the same events until it works.  Any
        other exception stops the server from sending anything more.
        """

    def log(self, event: str, fields: Mapping[str, Any]) -> None: ...

    def table_changed(self, nameplate: int) -> None: ...

    def game_finished(self, nameplate: int, game_id: str) -> None: ...


class _SocketOutbox:
    """A websocket connection's frames, written at once (``outbox.DirectOutbox``).

    A close starts the closing handshake in a task; nothing is written after it.
    """

    def __init__(self, websocket: ServerConnection, direct: DirectOutbox) -> None:
        self.websocket = websocket
        self.direct = direct
        self.closing: asyncio.Task[None] | None = None

    def put(self, item: str | _Closing) -> bool:
        if self.closing is not None:
            return True
        if isinstance(item, _Closing):
            self.closing = asyncio.get_running_loop().create_task(
                self.websocket.close(item.code, item.reason)
            )
            return True
        return self.direct.write([item.encode()])

    def put_frames(self, frames: Sequence[str]) -> None:
        if self.closing is None:
            self.direct.write([frame.encode() for frame in frames])


PersistFunction = Callable[[int, Sequence[bytes]], None]


def _first_persist(effects: Sequence[HostEffect]) -> int:
    return next(
        (index for index, effect in enumerate(effects) if isinstance(effect, Persist)),
        len(effects),
    )


class _DurableOrder:
    """Carries out effects in order, each :class:`Persist` a barrier, with group commit.

    An effect runs at once unless a Persist is ahead of it that is not on disk
    yet; then it waits in ``_held`` (FIFO) behind it.  One commit task hands the
    Persists to the disk threads: all those waiting, grouped by table (one
    write and one sync per table, the tables at once), and when their syncs
    return, releases the held effects up to the next Persist not yet written.
    Whatever arrived meanwhile forms the next group.  So the whole order of the
    session's effects is kept, and an event is on disk before any later Send.
    """

    def __init__(
        self,
        persist: PersistFunction,
        run: Callable[[Sequence[HostEffect]], None],
        failed: Callable[[str], None],
        *,
        log: Callable[[str, Mapping[str, Any]], None],
        disk_threads: int,
        inline: bool = False,
    ) -> None:
        self._inline = inline
        self._draining = False
        self._persist = persist
        self._run = run
        self._failed = failed
        self._trouble = DiskTrouble(log, "persist")
        self._stopping = False
        self._stop = asyncio.Event()
        self._disk = ThreadPoolExecutor(disk_threads, thread_name_prefix="domicile-log")
        self._held: deque[HostEffect] = deque()
        self._unwritten: list[Persist] = []
        self._commit: asyncio.Task[None] | None = None
        self._idle = asyncio.Event()
        self._idle.set()
        self.failure: str | None = None
        self.commits = 0
        """How many group commits have completed (each one sync per table it touched)."""

    def carry_out(self, effects: Sequence[HostEffect]) -> None:
        if self.failure is not None:
            # Nothing the session says now can be trusted to be on disk: only log it.
            self._run([effect for effect in effects if isinstance(effect, Log)])
            return
        if self._inline:
            self._held.extend(effects)
            self._drain_inline()
            return
        # Effects run at once up to the first Persist, unless earlier ones still wait.
        ready = 0 if self._held else _first_persist(effects)
        # Hold the rest first: an effect the ready ones cause (a hook that applies
        # more) then queues behind them, as it came after them.
        for effect in effects[ready:]:
            self._held.append(effect)
            if isinstance(effect, Persist):
                self._unwritten.append(effect)
        if self._unwritten and self._commit is None:
            self._idle.clear()
            self._commit = asyncio.create_task(self._commit_all())
        if ready:
            self._run(effects[:ready])

    def _drain_inline(self) -> None:
        """Carry out the held effects in order, each Persist on the loop (an effect that
        a hook applies meanwhile queues behind the rest, as it came after them)."""
        if self._draining:
            return
        self._draining = True
        try:
            while self._held and self.failure is None:
                run: list[HostEffect] = []
                while self._held and not isinstance(self._held[0], Persist):
                    run.append(self._held.popleft())
                if run:
                    self._run(run)
                    continue
                persist = self._held.popleft()
                assert isinstance(persist, Persist)
                try:
                    self._persist(persist.nameplate, persist.lines)
                except Exception as exc:
                    self.failure = f"cannot write an event log: {exc}"
                    self._held.clear()
                    self._failed(self.failure)
                else:
                    self.commits += 1
        finally:
            self._draining = False

    async def drained(self) -> None:
        """Return once every Persist so far is on disk and its effects are carried out."""
        await self._idle.wait()

    def close(self) -> None:
        self._disk.shutdown(wait=False)

    async def _commit_all(self) -> None:
        try:
            while self._unwritten and self.failure is None:
                group, self._unwritten = self._unwritten, []
                if await self._write(group):
                    self.commits += 1
                    self._release(len(group))
        finally:
            self._commit = None
            self._idle.set()

    async def _write(self, group: Sequence[Persist]) -> bool:
        """Persist ``group`` (one call per table, the tables at once); False if it failed.

        A table whose write raises ``OSError`` (a full disk, an I/O error, no descriptor
        left) is written again after a pause (``disk_trouble.py``) until it works, the
        others' done: every held effect waits meanwhile, so the tables pause and nothing
        is lost.  Anything else, or a write still failing once the server stops, fails.
        """
        by_table: dict[int, list[bytes]] = {}
        for persist in group:
            by_table.setdefault(persist.nameplate, []).extend(persist.lines)
        tables = len(by_table)
        while True:
            problems = await self._write_tables(by_table)
            if not problems:
                self._trouble.recovered({"tables": tables})
                return True
            defects = [p for p in problems.values() if not isinstance(p, OSError)]
            nameplate, problem = next(iter(problems.items()))
            if self._stopping or defects:
                problem = defects[0] if defects else problem
                break
            by_table = {nameplate: by_table[nameplate] for nameplate in problems}
            delay = self._trouble.failed(problem, {"table": nameplate, "tables": sorted(problems)})
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(delay):  # not wait_for: see clock.LoopClock.wait
                    await self._stop.wait()
        self.failure = f"cannot write an event log: {problem}"
        self._held.clear()
        self._unwritten.clear()
        self._failed(self.failure)
        return False

    async def _write_tables(self, by_table: Mapping[int, list[bytes]]) -> dict[int, BaseException]:
        """Each table's events to the disk threads at once; the tables whose write failed.

        The loop is woken once, by the last write to finish: a wake-up (and a future)
        per table cost the loop as much as the rest of handing the writes over.
        """
        loop = asyncio.get_running_loop()
        group = _WriteGroup(loop, len(by_table))
        try:
            for nameplate, lines in by_table.items():
                self._disk.submit(group.write, self._persist, nameplate, lines)
        except RuntimeError as exc:  # the disk threads are gone: the server has closed
            return dict.fromkeys(by_table, exc)
        failed = await group.done
        return {nameplate: failed[nameplate] for nameplate in by_table if nameplate in failed}

    def stop_retrying(self) -> None:
        """The server is closing: a write that fails once more now fails for good."""
        self._stopping = True
        self._stop.set()

    def _release(self, persisted: int) -> None:
        """Run the held effects up to the first Persist after the ``persisted`` first ones."""
        released: list[HostEffect] = []
        while self._held:
            effect = self._held[0]
            if isinstance(effect, Persist):
                if persisted == 0:
                    break
                persisted -= 1
            else:
                released.append(effect)
            self._held.popleft()
        try:
            self._run(released)
        except Exception:
            # As websockets does for a handler that raises: say so and carry on, so
            # later events still reach the disk and their players.
            _logger.exception("carrying out the host's effects failed")


class _WriteGroup:
    """The tables of one group commit, written in the disk threads: :attr:`done` (on the
    loop) holds the failed tables' exceptions once the last of ``count`` writes returns."""

    def __init__(self, loop: asyncio.AbstractEventLoop, count: int) -> None:
        self._loop = loop
        self._left = count
        self._lock = threading.Lock()
        self._failed: dict[int, BaseException] = {}
        self.done: asyncio.Future[dict[int, BaseException]] = loop.create_future()
        if count == 0:
            self.done.set_result(self._failed)

    def write(self, persist: PersistFunction, nameplate: int, lines: Sequence[bytes]) -> None:
        """Runs in a disk thread: write one table's lines, and wake the loop if it is the last."""
        problem: BaseException | None = None
        try:
            persist(nameplate, lines)
        except BaseException as exc:  # handed to the loop, as an executor future would
            problem = exc
        with self._lock:
            if problem is not None:
                self._failed[nameplate] = problem
            self._left -= 1
            last = self._left == 0
        if last:
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits
                self._loop.call_soon_threadsafe(self._finish)

    def _finish(self) -> None:
        if not self.done.done():  # its waiter may have been cancelled
            self.done.set_result(self._failed)


class HostServer:
    """Serves one :class:`HostSession` over websockets and local links."""

    def __init__(
        self,
        session: HostSession,
        hooks: HostHooks,
        *,
        clock: Clock | None = None,
        outbox: OutboxLimits | None = None,
        persist_inline: bool = False,
    ) -> None:
        """``clock``: the time the session's deadlines fall due on (the loop's by default).
        ``persist_inline``: ``hooks.persist`` is called on the event loop, in the effects'
        order, instead of in disk threads (a host keeping its logs in memory: no thread
        hop, so the same session input always gives the same order of effects)."""
        self.session = session
        self.hooks = hooks
        self.outbox_limits = outbox or OutboxLimits()
        self.clock: Clock = clock or LoopClock()
        self._clock = self.clock.now
        self._ids = itertools.count(1)
        self._outboxes: dict[ConnectionId, _Outbox] = {}
        self._server: Server | None = None
        self._accept_errors: AcceptErrors | None = None
        self._memory: MemoryRelease | None = None
        self._timer: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._tasks: set[asyncio.Task[Any]] = set()
        # A disk thread per table (up to a limit): the tables of a group commit sync at once.
        self._order = _DurableOrder(
            hooks.persist,
            self._run,
            self._persist_failed,
            log=hooks.log,
            disk_threads=max(1, min(DISK_THREADS, len(session.rooms))),
            inline=persist_inline,
        )

    # ------------------------------------------------------------- lifecycle

    async def listen(self, host: str, port: int, context: ssl.SSLContext) -> int:
        """Start accepting TLS websocket connections; returns the port (useful with 0).

        The session says at accept which connections may open (:meth:`HostSession.admits`):
        the listening socket resets the others before asyncio sees them, so they cost no
        TLS handshake, no transport and no websocket.
        """
        gate = _AcceptGate(self.session, self._clock, self.hooks.log)
        self._server = await serve(
            self._handle,
            sock=_gated_listener(host, port, gate),
            max_size=MAX_FRAME,
            max_queue=32,
            compression=None,  # no decompression bombs; frames are small anyway
            open_timeout=10,
            ping_interval=10,
            ping_timeout=20,
            close_timeout=2,
            server_header=None,
            # TLS is this factory's own layer (``_LeanTLS``), not ``ssl=context``.
            create_connection=_tls_connections(context, handshake_timeout=10, shutdown_timeout=2),
        )
        loop = asyncio.get_running_loop()
        self._memory = MemoryRelease(loop)
        self._accept_errors = AcceptErrors(self.hooks.log, loop.time, loop.get_exception_handler())
        loop.set_exception_handler(self._accept_errors)
        self.keep_time()
        sockets = list(self._server.sockets)
        return int(sockets[0].getsockname()[1])

    def keep_time(self) -> None:
        """Let the session's deadlines fall due on the clock (:meth:`listen` does; a server
        of local links alone calls it itself)."""
        if self._timer is None:
            self._timer = asyncio.create_task(self._run_timer())

    async def close(self) -> None:
        """Say goodbye to every connection, then stop listening."""
        self.apply(self.session.shutdown())
        self._order.stop_retrying()  # a disk that still fails does not hold the close up
        await self._order.drained()
        # Give the transports a moment to flush the goodbye frames.
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
        if self._memory is not None:
            self._memory.close()
        if self._accept_errors is not None:
            loop = asyncio.get_running_loop()
            if loop.get_exception_handler() is self._accept_errors:
                loop.set_exception_handler(self._accept_errors.previous)
        # What the last connections' goodbyes persisted, before the disk threads go.
        await self._order.drained()
        self._order.close()

    # ------------------------------------------------------------- effects

    def apply(self, effects: Sequence[HostEffect]) -> None:
        """Carry out ``effects`` in order; an effect after a Persist waits until it is on disk."""
        self._order.carry_out(effects)
        self._wake.set()

    async def drained(self) -> None:
        """Return once every event persisted so far is on disk and its sends are queued."""
        await self._order.drained()

    @property
    def group_commits(self) -> int:
        """How many group commits of the event logs have completed."""
        return self._order.commits

    def _persist_failed(self, reason: str) -> None:
        self.hooks.log("persist-failed", {"reason": reason, "note": "nothing more is sent"})

    def _run(self, effects: Sequence[HostEffect]) -> None:
        """Carry out effects that no unsynced Persist is ahead of (never a Persist itself).

        The frames of a run of Sends go out per connection, each connection's in one
        write (after a group commit, a table's seats get several events at once); they
        are out before any other effect runs, so every connection still gets its frames
        in the session's order, before a Close or whatever a hook does.
        """
        # A broadcast is one message object in many Sends: encode it once.  The
        # ``effects`` hold every message alive, so their ids stay unique meanwhile.
        frames: dict[int, str] = {}
        due: dict[ConnectionId, list[str]] = {}
        for effect in effects:
            if isinstance(effect, Send):
                frame = frames.get(id(effect.message))
                if frame is None:
                    frame = frames[id(effect.message)] = text(effect.message)
                due.setdefault(effect.connection, []).append(frame)
                continue
            if due:
                self._send(due)
            match effect:
                case Close(connection, code, reason):
                    outbox = self._outboxes.get(connection)
                    if outbox is not None:
                        outbox.put(_Closing(code, reason))
                case Persist():
                    raise AssertionError("a Persist goes to the disk threads, never runs here")
                case Log(event, fields):
                    self.hooks.log(event, fields)
                case TableChanged(nameplate):
                    self.hooks.table_changed(nameplate)
                case GameFinished(nameplate, game_id):
                    self.hooks.game_finished(nameplate, game_id)
        if due:
            self._send(due)

    def _send(self, due: dict[ConnectionId, list[str]]) -> None:
        """Each connection's frames to its outbox (a connection gone meanwhile gets none)."""
        for connection, frames in due.items():
            outbox = self._outboxes.get(connection)
            if outbox is not None:
                outbox.put_frames(frames)
        due.clear()

    def _stuck(
        self,
        connection: ConnectionId,
        websocket: ServerConnection,
        direct: DirectOutbox,
        reason: str,
    ) -> None:
        """A client that does not read (``DirectOutbox`` says so once): log it and drop it.

        No closing handshake: it would not read that either.
        """
        self.hooks.log(
            "stuck",
            {
                "connection": connection,
                "reason": reason,
                "queued_bytes": direct.queued_bytes,
                "peak_bytes": direct.peak_bytes,
            },
        )
        websocket.transport.abort()

    async def _run_timer(self) -> None:
        while True:
            deadline = self.session.next_deadline()
            self._wake.clear()
            await self.clock.wait(self._wake, deadline)
            try:
                self.apply(self.session.tick(self._clock()))
            except Exception as exc:
                # The session contains a table's failure to that table; should anything
                # still escape, the clock of every other table must keep running.
                _logger.exception("the host's clock tick failed")
                self.hooks.log("host-error", {"doing": "tick", "error": repr(exc)})
                await asyncio.sleep(1.0)  # a tick that keeps failing must not spin a core

    # ------------------------------------------------------------- websockets

    async def _handle(self, websocket: ServerConnection) -> None:
        connection = next(self._ids)
        direct = DirectOutbox(
            websocket,
            self.outbox_limits,
            lambda reason: self._stuck(connection, websocket, direct, reason),
        )
        outbox = _SocketOutbox(websocket, direct)
        self._outboxes[connection] = outbox
        if isinstance(websocket, WatchedConnection):
            websocket.after_read = direct.check
        bound_socket(websocket.transport, self.outbox_limits.socket_buffer)
        remote = _format_remote(websocket.remote_address)
        proven = False
        try:
            self.apply(self.session.connect(connection, remote, self._clock()))
            async for frame in websocket:
                if outbox.closing is not None or direct.over:
                    break
                self._feed(connection, frame)
                if not proven and self.session.authenticated(connection):
                    proven = True
                    _widen_tls_reads(websocket.transport)
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
            direct.close()
            if self._memory is not None:
                self._memory.closed()
            if isinstance(websocket, WatchedConnection):
                websocket.after_read = None  # no cycle left through the outbox
            self.apply(self.session.disconnect(connection, self._clock()))
            if outbox.closing is None and websocket.protocol.state is State.OPEN:
                outbox.put(_Closing(1000, "bye"))
            if outbox.closing is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(outbox.closing, 2)
                outbox.closing.cancel()

    def _feed(self, connection: ConnectionId, frame: str | bytes) -> None:
        now = self._clock()
        try:
            message = decode_client(frame)
        except WireError as error:
            self.apply(self.session.reject_frame(connection, error, now))
            return
        self.apply(self.session.receive(connection, message, now))

    # ------------------------------------------------------------- local links

    def attach_local(self, remote: str = "local") -> LocalLink:
        """A connection from inside this process (a hosted bot), frames as text like a socket."""
        connection = next(self._ids)
        link = LocalLink(self, connection)
        self._outboxes[connection] = link
        self.apply(self.session.connect(connection, remote, self._clock(), counted=False))
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


class _AcceptGate:
    """Asks the session whether a connection just accepted may open; the refused ones are
    logged as one ``refused-at-accept`` line a second at most, counting those folded into
    it (a flood refused at hundreds a second must not become hundreds of lines)."""

    def __init__(
        self,
        session: HostSession,
        clock: Callable[[], float],
        log: Callable[[str, Mapping[str, Any]], None],
    ) -> None:
        self._session = session
        self._clock = clock
        self._log = log
        self._logged_at: float | None = None
        self._folded = 0

    def __call__(self, address: Any) -> bool:
        remote = _format_remote(address)
        now = self._clock()
        if self._session.admits(remote, now):
            return True
        self._folded += 1
        if self._logged_at is None or now - self._logged_at >= 1.0:
            self._log(
                "refused-at-accept",
                {"remote": remote, "refused": self._folded, "reason": "over its connection rate"},
            )
            self._logged_at, self._folded = now, 0
        return False


class _GatedListener(socket.socket):
    """A listening socket whose ``accept`` returns only the connections ``admits`` lets in.

    asyncio's loop calls ``accept`` on the socket it serves; a refused connection is reset
    here (``SO_LINGER`` 0: no ``TIME_WAIT`` kept for it) before a byte of it is read, so
    its TLS handshake never starts.
    """

    admits: Callable[[Any], bool]

    def accept(self) -> tuple[socket.socket, Any]:
        for _ in range(REFUSED_PER_TURN):
            connection, address = super().accept()  # BlockingIOError: none left
            if self.admits(address):
                return connection, address
            with contextlib.suppress(OSError):
                connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            connection.close()
        raise BlockingIOError("refused enough for one turn of the loop")


def _gated_listener(host: str, port: int, admits: Callable[[Any], bool]) -> _GatedListener:
    """A socket listening on ``host:port`` (the first address ``host`` names), gated."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    listener = _GatedListener(family, kind, proto)
    listener.admits = admits
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(address)
        listener.listen(ACCEPT_BACKLOG)
    except BaseException:
        listener.close()
        raise
    return listener


ExceptionHandler = Callable[[asyncio.AbstractEventLoop, dict[str, Any]], object]
ACCEPT_FAILED: Final = "socket.accept() out of system resource"


class AcceptErrors:
    """The event loop's exception handler while the server listens: failed ``accept()`` calls
    (out of descriptors, say) become one ``accept-failed`` log line a second at most,
    counting the attempts folded into it, instead of a traceback each; anything else goes
    to the handler that was there before (or the loop's default)."""

    def __init__(
        self,
        log: Callable[[str, Mapping[str, Any]], None],
        clock: Callable[[], float],
        previous: ExceptionHandler | None,
    ) -> None:
        self.log = log
        self.clock = clock
        self.previous = previous
        self._logged_at: float | None = None
        self._folded = 0

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if not str(context.get("message", "")).startswith(ACCEPT_FAILED):
            if self.previous is not None:
                self.previous(loop, context)
            else:
                loop.default_exception_handler(context)
            return
        self._folded += 1
        now = self.clock()
        if self._logged_at is None or now - self._logged_at >= 1.0:
            reason = str(context.get("exception") or context.get("message"))
            self.log("accept-failed", {"reason": reason, "attempts": self._folded})
            self._logged_at, self._folded = now, 0


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

    def put_frames(self, frames: Sequence[str]) -> None:
        for frame in frames:
            self.put(frame)

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


class _LeanTLS(sslproto.SSLProtocol):
    """asyncio's own TLS layer (``loop.create_server(ssl=...)`` makes the same one), with a
    read buffer of :data:`TLS_UNPROVEN_CHUNK` from the start instead of 256 KiB, that
    leaves no reference cycle once its socket is closed, handshake done or not.

    A connection that goes before its handshake is done never reaches the websocket
    (:class:`WatchedConnection` breaks the cycle of those that did): its socket's transport
    stayed in a cycle until the next thaw of the collector, one for each such connection.
    """

    max_size = TLS_UNPROVEN_CHUNK
    _socket_transport: asyncio.BaseTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._socket_transport = transport
        super().connection_made(transport)

    def connection_lost(self, exc: BaseException | None) -> None:
        super().connection_lost(exc)
        transport, self._socket_transport = self._socket_transport, None
        if transport is not None:
            # The socket's transport lets go of its socket just after this returns.
            asyncio.get_running_loop().call_soon(break_transport_cycle, transport)


def _tls_connections(
    context: ssl.SSLContext, *, handshake_timeout: int, shutdown_timeout: int
) -> Any:
    """websockets' ``create_connection`` for a server listening without ``ssl=``: each
    connection wrapped in a :class:`_LeanTLS` layer, which asyncio drives on the socket and
    which hands the websocket its decrypted stream once the TLS handshake is done."""

    def create(protocol: ServerProtocol, server: Server, **options: Any) -> _LeanTLS:
        connection = WatchedConnection(protocol, server, **options)
        return _LeanTLS(
            asyncio.get_running_loop(),
            connection,
            context,
            None,  # type: ignore[arg-type]  # no waiter: websockets' handler is told instead
            server_side=True,
            ssl_handshake_timeout=handshake_timeout,
            ssl_shutdown_timeout=shutdown_timeout,
        )

    return create


def _widen_tls_reads(transport: asyncio.BaseTransport) -> None:
    """Give the TLS layer of ``transport`` (a connection that proved itself) a read buffer
    of :data:`TLS_READ_CHUNK` (the private buffer of CPython's ``SSLProtocol``, 3.11+; any
    other transport is left as it is)."""
    protocol = getattr(transport, "_ssl_protocol", None)
    if protocol is None or not isinstance(getattr(protocol, "_ssl_buffer", None), bytearray):
        return
    protocol.max_size = TLS_READ_CHUNK
    protocol._ssl_buffer = bytearray(TLS_READ_CHUNK)
    protocol._ssl_buffer_view = memoryview(protocol._ssl_buffer)


def _format_remote(address: Any) -> str:
    if isinstance(address, tuple) and len(address) >= 2:
        host, port = address[0], address[1]
        return f"[{host}]:{port}" if ":" in str(host) else f"{host}:{port}"
    return str(address)
