"""Who may connect, and whose join gets its PAKE when: the host's admission, sans I/O.

Theory of operation
-------------------
:class:`Admission` holds every count the host keeps per remote address and in
total, and decides from them; :class:`~domicile_p2p.net.sessions.host.HostSession`
asks it and turns each answer into effects (a ``Welcome``, a PAKE reply, a
fatal ``rate-limited``).  It knows connections only by their id and remote
address, never their phase or their messages.

- *Connections.*  :meth:`Admission.admits` is asked at accept (the connection
  rate per address); :meth:`Admission.open` counts a network connection and
  says whether it fits (``max_per_address``, ``max_connections``: over the
  host's cap the oldest connection not yet seated gives way, which the host
  chooses); :meth:`Admission.close` counts it out.
- *Joins.*  A join (or watch) waits its turn in one queue (:meth:`Admission.queue`,
  at most ``pending_joins`` per address counting those between their PAKE reply
  and its confirmation, at most ``join_queue`` in all).  :meth:`Admission.turns`
  hands out the turns, oldest first, within two budgets: per address the wrong
  codes in the window plus the replies not yet confirmed stay under
  ``join_failures`` (each reply is one guess of the code); for the whole host the
  ``join_rate`` bucket (a PAKE reply costs CPU).  An address over its failures is
  refused (:meth:`Admission.retry_after`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from enum import Enum

from domicile_p2p.net.sessions.effects import ConnectionId
from domicile_p2p.net.sessions.limits import (
    ConnectionRate,
    FailureLimiter,
    HostLimits,
    TokenBucket,
)


class Opening(Enum):
    """Whether a network connection fits under the host's caps."""

    FITS = "fits"
    ADDRESS_FULL = "address-full"  # its address has ``max_per_address`` open already
    HOST_FULL = "host-full"  # the host is over ``max_connections``: someone gives way


def address_of(remote: str) -> str:
    """Rate limits are per address, not per (address, port)."""
    if remote.startswith("["):
        return remote[1 : remote.find("]")]
    host, _, port = remote.rpartition(":")
    return host if host and port.isdigit() and host.count(":") == 0 else remote


class Admission:
    """The host's connection caps and join budgets (see the module docstring)."""

    def __init__(self, limits: HostLimits) -> None:
        self.limits = limits
        self._failures = FailureLimiter(limits.join_failures, limits.join_window)
        self._pending: dict[str, int] = {}
        """address -> joins between their PAKE reply and its confirmation (each one a guess)."""
        self._queued: dict[str, int] = {}
        """address -> joins waiting their turn."""
        self._join_queue: deque[ConnectionId] = deque()
        """Joins waiting their turn, oldest first (connections gone since are skipped)."""
        self._join_bucket = TokenBucket(limits.join_rate, limits.join_burst)
        self._open_per_address: dict[str, int] = {}
        """address -> its network connections open now."""
        self._open_counted = 0
        """Network connections open now (``max_connections``)."""
        self._connection_rate = ConnectionRate(limits.connection_rate, limits.max_per_address)

    # ------------------------------------------------------------- connections

    def admits(self, remote: str, now: float) -> bool:
        """Whether a network connection from ``remote`` may open now (``connection_rate``)."""
        return self._connection_rate.admit(address_of(remote), now)

    def open(self, remote: str) -> Opening:
        """Count a network connection from ``remote`` (counted even if it does not fit:
        :meth:`close` counts it out when it is gone)."""
        address = address_of(remote)
        already = self._open_per_address.get(address, 0)
        self._open_per_address[address] = already + 1
        self._open_counted += 1
        if already >= self.limits.max_per_address:
            return Opening.ADDRESS_FULL
        if self._open_counted > self.limits.max_connections:
            return Opening.HOST_FULL
        return Opening.FITS

    def close(self, remote: str) -> None:
        """A network connection from ``remote`` is gone."""
        self._open_counted -= 1
        _count_down(self._open_per_address, address_of(remote))

    # ------------------------------------------------------------- joins

    def retry_after(self, remote: str, now: float) -> float | None:
        """Seconds until ``remote``'s address may try a code again (``None``: now)."""
        return self._failures.retry_after(address_of(remote), now)

    def record_failure(self, remote: str, now: float) -> int:
        """A wrong code (or bad proof) from ``remote``: its failures in the window now."""
        return self._failures.record_failure(address_of(remote), now)

    def queue(self, connection: ConnectionId, remote: str) -> str | None:
        """Queue ``connection``'s join for its turn, or say why it may not wait."""
        address = address_of(remote)
        if (
            self._pending.get(address, 0) + self._queued.get(address, 0)
            >= self.limits.pending_joins
        ):
            return "too many joins at once from your address"
        if len(self._join_queue) >= self.limits.join_queue:
            return "the host is busy with joins; try again in a minute"
        self._queued[address] = self._queued.get(address, 0) + 1
        self._join_queue.append(connection)
        return None

    def unqueue(self, remote: str) -> None:
        """A queued join from ``remote`` waits no more (its turn came, or it is gone)."""
        _count_down(self._queued, address_of(remote))

    def turns(
        self, now: float, queued_from: Callable[[ConnectionId], str | None]
    ) -> Iterator[tuple[ConnectionId, bool]]:
        """The waiting joins whose turn is now, oldest first: ``(connection, True)`` gets
        its PAKE, ``(connection, False)`` is from an address now over its failures (refuse
        it).  ``queued_from`` gives a connection's remote while it still waits (``None``:
        gone, or refused, since it queued).  The caller acts on each before the next is
        decided (a PAKE counts against its address) and runs the iterator to its end."""
        waiting: deque[ConnectionId] = deque()
        queue = self._join_queue
        while queue:
            connection = queue.popleft()
            remote = queued_from(connection)
            if remote is None:
                continue
            address = address_of(remote)
            if self._failures.retry_after(address, now) is not None:
                yield connection, False
                continue
            guesses = self._failures.recent(address, now) + self._pending.get(address, 0)
            if guesses >= self.limits.join_failures:
                waiting.append(connection)
                continue
            if not self._join_bucket.allow(now):
                waiting.append(connection)
                break
            yield connection, True
        waiting.extend(queue)
        self._join_queue = waiting

    def turns_resume_at(self) -> float | None:
        """When the host's join bucket lets a waiting join through (``None``: none waits,
        or it is not the bucket that holds them)."""
        return self._join_bucket.ready_at() if self._join_queue else None

    def guessing(self, remote: str) -> None:
        """``remote`` got a PAKE reply: one guess until it confirms or fails."""
        address = address_of(remote)
        self._pending[address] = self._pending.get(address, 0) + 1

    def guessed(self, remote: str, now: float, *, failed: bool) -> int | None:
        """``remote`` is past its PAKE; a failure is counted (its count returned)."""
        _count_down(self._pending, address_of(remote))
        return self.record_failure(remote, now) if failed else None


def _count_down(counts: dict[str, int], address: str) -> None:
    """One less for ``address``; an address at zero leaves the table (it stays small)."""
    left = counts.get(address, 0) - 1
    if left > 0:
        counts[address] = left
    else:
        counts.pop(address, None)
