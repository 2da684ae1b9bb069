"""When the host's own files cannot be written: wait, retry, say so briefly, lose nothing.

A full disk (ENOSPC), a failing one (EIO) or a descriptor table that a
connection flood has filled (EMFILE) must not end the evening: what could
not be written is kept in memory, nothing that depends on it is sent, and
the same write is tried again after a pause that doubles up to
:data:`RETRY_CAP` seconds.  The operator reads one line when it starts
(``<what>-paused``), one line every :data:`REPORT_EVERY` seconds while it
lasts at most, and one when it is over (``<what>-resumed``): a log that
does not grow with the length of the outage.

:class:`DescriptorReserve` keeps a few descriptors open so that the host's
occasional files (a finished game's transcript, a table's settings) can be
opened even when connections hold every other one.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final

from domicile_p2p.net.adapters.client import Backoff

RETRY_FIRST: Final = 0.05
"""Seconds before the first retry."""
RETRY_CAP: Final = 5.0
"""Seconds between retries at most."""
REPORT_EVERY: Final = 30.0
"""Seconds between two log lines about the same ongoing outage."""
RESERVED_DESCRIPTORS: Final = 4
"""Descriptors held back for the host's own files: a file and its directory, twice."""

Log = Callable[[str, Mapping[str, Any]], None]


class DiskTrouble:
    """One ongoing outage of one kind of write (``what``: ``persist``, ``archive``).

    Call :meth:`failed` after each failed attempt (it says how long to wait before the
    next) and :meth:`recovered` after the first that works.
    """

    def __init__(
        self,
        log: Log,
        what: str,
        *,
        clock: Callable[[], float] = time.monotonic,
        first: float = RETRY_FIRST,
        cap: float = RETRY_CAP,
        report_every: float = REPORT_EVERY,
    ) -> None:
        self._log = log
        self._what = what
        self._clock = clock
        self._backoff = Backoff(first=first, cap=cap, attempts=None)
        self._report_every = report_every
        self._since: float | None = None
        self._reported = 0.0
        self.attempts = 0
        """Failed attempts in the outage going on (0: none is)."""

    @property
    def ongoing(self) -> bool:
        return self._since is not None

    def failed(self, error: BaseException, fields: Mapping[str, Any]) -> float:
        """Note a failed attempt; the seconds to wait before the next one."""
        now = self._clock()
        self.attempts += 1
        reason = _reason(error)
        delay = self._backoff.delay(self.attempts)
        if self._since is None:
            self._since = self._reported = now
            self._log(
                f"{self._what}-paused",
                {**fields, "reason": reason, "note": "nothing is lost; retrying until it works"},
            )
        elif now - self._reported >= self._report_every:
            self._reported = now
            self._log(
                f"{self._what}-still-failing",
                {
                    **fields,
                    "reason": reason,
                    "attempts": self.attempts,
                    "seconds": round(now - self._since, 1),
                },
            )
        return delay

    def recovered(self, fields: Mapping[str, Any]) -> None:
        """The write went through: say so once, if there was an outage."""
        if self._since is None:
            return
        self._log(
            f"{self._what}-resumed",
            {
                **fields,
                "attempts": self.attempts,
                "seconds": round(self._clock() - self._since, 1),
            },
        )
        self._since = None
        self.attempts = 0


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return f"{error.strerror} (errno {error.errno})"
    return str(error) or type(error).__name__


class DescriptorReserve:
    """A few descriptors kept open (on ``/dev/null``) and given back for a moment when the
    host opens one of its own files, so that a flood that fills the descriptor table
    cannot stop it.

    Use it only on the event loop's thread: that is where connections are accepted, so
    nothing can take the freed numbers between :meth:`spent`'s release and the open in
    its body.  Afterwards the reserve is taken again (fully, unless the body kept files
    open or another thread took the numbers).
    """

    def __init__(self) -> None:
        self._count = 0
        self._held: list[int] = []

    def keep(self, count: int = RESERVED_DESCRIPTORS) -> None:
        """Hold ``count`` descriptors from now on (none until this is called)."""
        self._count = count
        self.refill()

    @property
    def held(self) -> int:
        return len(self._held)

    def refill(self) -> None:
        while len(self._held) < self._count:
            try:
                self._held.append(os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC))
            except OSError:
                return  # the table is full: the next refill takes what is free then

    @contextlib.contextmanager
    def spent(self) -> Iterator[None]:
        """Free the reserve for the body's files, then take it back."""
        self.release()
        try:
            yield
        finally:
            self.refill()

    def release(self) -> None:
        held, self._held = self._held, []
        for fd in held:
            with contextlib.suppress(OSError):
                os.close(fd)

    def close(self) -> None:
        self.release()
        self._count = 0
