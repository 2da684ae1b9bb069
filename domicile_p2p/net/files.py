"""Small, durable file writes for the host's and the clients' data dirs.

A crash (or ``kill -9``) at any moment must leave either the old file or the
new one, never half of each: files are written to a temporary name, synced,
and renamed over the old one, and the directory is synced so the rename
itself survives a power cut.  Secrets (keys, the Ghost's seed) are created
``0600`` from the first byte, never chmod-ed afterwards.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterable
from pathlib import Path

PRIVATE = 0o600
PUBLIC = 0o644


def sync_directory(directory: Path) -> None:
    """Make a rename or a new file in ``directory`` durable (a no-op where unsupported)."""
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


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


def append_durably(path: Path, lines: Iterable[bytes]) -> None:
    """Append ``lines`` to ``path`` and fsync before returning (the host's event log)."""
    data = b"".join(line + b"\n" for line in lines)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, PUBLIC)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
    finally:
        os.close(fd)


def read_lines(path: Path) -> list[bytes]:
    """The complete lines of an append-only log, cutting off a torn last line.

    A crash in the middle of :func:`append_durably` can leave a last line
    without its newline.  It was never acknowledged to anyone (the fsync did
    not return), so it is dropped, and cut from the file so the next append
    starts on a clean line.
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    complete = data.rfind(b"\n") + 1
    if complete != len(data):
        with open(path, "r+b") as handle:
            handle.truncate(complete)
            os.fsync(handle.fileno())
    return [line for line in data[:complete].split(b"\n") if line]
