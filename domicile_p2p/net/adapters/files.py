"""Small, durable file writes for the host's and the clients' data dirs.

A crash (or ``kill -9``) at any moment must leave either the old file or the
new one, never half of each: files are written to a temporary name, synced,
and renamed over the old one, and the directory is synced so the rename
itself survives a power cut.  Secrets (keys, the Ghost's seed) are created
``0600`` from the first byte, never chmod-ed afterwards.  The host's event
logs are append-only instead (:class:`AppendLog`): lines are added and
synced, and a torn last line left by a crash is cut off when read back.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
import weakref
from collections.abc import Iterable
from pathlib import Path

from domicile_p2p.net.adapters.key_files import sync_directory

PRIVATE = 0o600
PUBLIC = 0o644


class NotAFile(Exception):
    """A path the data dir keeps a file at is something else: a directory, a FIFO, a
    device or a socket (opening a FIFO would block until someone writes to it)."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def _regular(mode: int, path: Path) -> None:
    if not stat.S_ISREG(mode):
        raise NotAFile(f"{path} is {_kind(mode)}, not a file")


def check_file(path: Path) -> None:
    """:class:`NotAFile` when ``path`` exists and is not a regular file (following a
    symbolic link); a missing file is fine.  Never opens it, so never blocks."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return
    _regular(mode, path)


def write_atomic(path: Path, data: bytes, *, private: bool = False) -> None:
    """Replace ``path`` with ``data`` atomically and durably."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE if private else PUBLIC)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()
        raise
    sync_directory(path.parent)


class AppendLog:
    """An append-only log kept open: :meth:`write` lines, then :meth:`sync` them to disk.

    The host keeps one per table for the whole run, so an event costs one
    ``write`` and its share of one ``fdatasync`` instead of an ``open``, an
    ``fsync`` and a ``close``.  ``fdatasync`` is enough: an append changes the
    file's size, which it flushes along with the data (it skips only times).
    Not thread-safe: one thread at a time per log (the host's server never
    writes one table's log from two threads at once).
    """

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        check_file(path)
        created = not path.exists()
        self.path = path
        # O_NONBLOCK: should a FIFO take the file's place after the check, the open fails
        # (ENXIO) instead of waiting for a reader; on a regular file it changes nothing.
        self._fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NONBLOCK, PUBLIC)
        try:
            _regular(os.fstat(self._fd).st_mode, path)
        except NotAFile:
            os.close(self._fd)
            raise
        # A log that is dropped without close() must not keep its descriptor.
        self._closer = weakref.finalize(self, os.close, self._fd)
        self._synced = os.fstat(self._fd).st_size
        """Bytes known to be on disk: where a failed :meth:`append` is cut back to."""
        self._torn = False
        if created:
            # The new file's name must survive a power cut as well as its lines.
            sync_directory(path.parent)

    def write(self, lines: Iterable[bytes]) -> None:
        """Append ``lines`` (each without its newline); on disk only after :meth:`sync`."""
        view = memoryview(b"".join(line + b"\n" for line in lines))
        while view:
            written = os.write(self._fd, view)
            view = view[written:]

    def sync(self) -> None:
        """Return once everything written so far is on disk."""
        os.fdatasync(self._fd)

    def append(self, lines: Iterable[bytes]) -> None:
        """Write ``lines`` and sync them, all or nothing: after a failure (a full disk, an
        I/O error) the file is cut back to what was synced before, now or at the next
        call, so the same lines can be appended again without a duplicate."""
        if self._torn:
            os.ftruncate(self._fd, self._synced)
            self._torn = False
        self._torn = True
        try:
            self.write(lines)
            self.sync()
        except OSError:
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, self._synced)
                self._torn = False
            raise
        self._synced = os.fstat(self._fd).st_size
        self._torn = False

    def close(self) -> None:
        self._closer()

    @property
    def closed(self) -> bool:
        return not self._closer.alive


def append_durably(path: Path, lines: Iterable[bytes]) -> None:
    """Append ``lines`` to ``path`` and sync before returning (one-off; a host keeps an
    :class:`AppendLog` open instead)."""
    log = AppendLog(path)
    try:
        log.write(lines)
        log.sync()
    finally:
        log.close()


def read_lines(path: Path) -> list[bytes]:
    """The complete lines of an append-only log, cutting off a torn last line.

    A crash in the middle of a write (:class:`AppendLog`) can leave a last line
    without its newline.  It was never acknowledged to anyone (its sync did
    not return), so it is dropped, and cut from the file so the next append
    starts on a clean line.
    """
    try:
        # Never blocks: a FIFO opened for reading with O_NONBLOCK returns at once, and is
        # refused before anything is read from it.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        return []
    try:
        _regular(os.fstat(fd).st_mode, path)
    except NotAFile:
        os.close(fd)
        raise
    with os.fdopen(fd, "rb") as handle:
        data = handle.read()
    complete = data.rfind(b"\n") + 1
    if complete != len(data):
        with open(path, "r+b") as handle:
            handle.truncate(complete)
            os.fsync(handle.fileno())
    return [line for line in data[:complete].split(b"\n") if line]
