"""Memory that closed connections gave back is handed to the system, not kept by the heap.

A thousand idle TLS connections take about 80 MB of the host (their TLS and websocket
buffers, most of them allocated by ``malloc`` outside Python's own arenas).  When they
close, the memory is freed, but glibc keeps freed pages inside its heap unless they sit
at its very top: the host's resident memory stays at its peak for good (measured: 51 MB
before a wave of 1,000, 132 MB after it had closed), and a host that once met a flood
looks to the operator (and to the OOM killer) as if it still held it.

So after connections close, the host asks glibc to return its free pages
(``malloc_trim(0)``): once :data:`CLOSES` connections have closed since the last time, at
most every :data:`EVERY` seconds, and once more :data:`EVERY` seconds after the last close
of a burst.  A trim walks the free lists only (milliseconds); a host that sees a few
closes a minute never trims.  Where there is no glibc it does nothing.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import sys
from collections.abc import Callable
from typing import Final

CLOSES: Final = 64
"""Connections closed since the last trim before another one is worth it."""
EVERY: Final = 5.0
"""Seconds between two trims at least."""


def _glibc_trim() -> Callable[[], object] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):  # not glibc (musl has no malloc_trim)
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return lambda: trim(0)


class MemoryRelease:
    """Counts closed connections and trims the heap after enough of them (see above)."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        trim: Callable[[], object] | None = None,
        *,
        closes: int = CLOSES,
        every: float = EVERY,
    ) -> None:
        self._loop = loop
        self._trim = trim if trim is not None else _glibc_trim()
        self._closes = closes
        self._every = every
        self._closed = 0
        self._last = -every
        self._later: asyncio.TimerHandle | None = None
        self.trims = 0

    def closed(self) -> None:
        """A connection has closed."""
        if self._trim is None:
            return
        self._closed += 1
        if self._closed < self._closes:
            return
        wait = self._last + self._every - self._loop.time()
        if wait <= 0:
            self._release()
        elif self._later is None:
            self._later = self._loop.call_later(wait, self._release)

    def _release(self) -> None:
        if self._later is not None:
            self._later.cancel()
            self._later = None
        if self._trim is None or self._closed == 0:
            return
        self._trim()
        self.trims += 1
        self._closed = 0
        self._last = self._loop.time()

    def close(self) -> None:
        if self._later is not None:
            self._later.cancel()
            self._later = None
