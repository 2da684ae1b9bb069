"""Many Ed25519 signatures checked at once: on worker threads and the caller's, in chunks.

``cryptography`` releases the GIL while it verifies a signature, so threads
check signatures in parallel; the Python around each call is short.  What
a worker cannot do is run while the caller's thread runs Python: it waits
for the GIL between two signatures.  So the caller starts the batch, does
its own work (``verify`` replays the game), then helps: it takes the chunks
no worker has taken yet and checks them itself.

The answer is one ``bool`` per signature, in the order given, whichever
thread checked it: callers that act on the first failure stay deterministic.
With ``workers=0`` no thread is started and :meth:`SignatureBatch.verdicts`
checks every signature on the caller's thread.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from types import TracebackType
from typing import Final

from domicile_p2p.identity import PublicKey

MAX_JOBS: Final = 8
"""More threads than this buy nothing for a transcript (a game is a few hundred signatures)."""

CHUNK: Final = 8
"""Signatures per claim: ~0.8 ms of work, so the threads finish within a chunk of each other."""

SignatureCheck = tuple[PublicKey, bytes, bytes]
"""(key, signature, message)."""


def default_jobs() -> int:
    """The CPUs this process may run on, at most :data:`MAX_JOBS`."""
    try:
        available = len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        available = os.cpu_count() or 1
    return max(1, min(available, MAX_JOBS))


class SignatureBatch:
    """Check ``checks`` with ``workers`` threads besides the caller's (a context manager)."""

    def __init__(self, checks: Sequence[SignatureCheck], *, workers: int) -> None:
        self._checks = checks
        self._chunks = range(0, len(checks), CHUNK)
        self._results: list[bool] = [False] * len(checks)
        self._next = 0
        self._claim = threading.Lock()
        self._stop = False
        self._errors: list[BaseException] = []
        # Plain threads, not concurrent.futures: its import alone costs ~7 ms of start-up.
        self._threads = [
            threading.Thread(target=self._work, name=f"signatures-{n}", daemon=True)
            for n in range(min(workers, len(self._chunks)))
        ]
        for thread in self._threads:
            thread.start()

    @property
    def parallel(self) -> bool:
        """Worker threads are checking signatures while the caller does something else."""
        return bool(self._threads)

    def verdicts(self) -> list[bool]:
        """Whether each signature verifies, in order (the caller's thread helps until done)."""
        self._drain()
        self._join()
        if self._errors:
            raise self._errors[0]
        return self._results

    def _work(self) -> None:
        try:
            self._drain()
        except BaseException as error:  # handed to the caller's thread by verdicts()
            self._errors.append(error)

    def _join(self) -> None:
        for thread in self._threads:
            thread.join()

    def _drain(self) -> None:
        while True:
            with self._claim:
                if self._stop or self._next >= len(self._chunks):
                    return
                start = self._chunks[self._next]
                self._next += 1
            results, checks = self._results, self._checks
            for index in range(start, min(start + CHUNK, len(checks))):
                key, signature, message = checks[index]
                results[index] = key.verifies(signature, message)

    def __enter__(self) -> SignatureBatch:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._stop = True  # when the caller gave up early, the workers stop at their next chunk
        self._join()
