"""Rate limits, as pure state machines over a ``now`` the caller passes in.

- :class:`TokenBucket`: how fast one connection may send (a flood is cut off).
- :class:`FailureLimiter`: how many wrong join codes one remote address may
  try; after that it is refused until the window has passed, so guessing a
  16-bit code online takes longer than any game night.
- :class:`ConnectionRate`: how fast one remote address may open connections;
  the adapter asks it at accept, so an address reconnecting as fast as it can
  is refused before its TLS handshake costs the host anything.
- :class:`HostLimits`: every bound of one host, the numbers the host's parts
  (``admission.py``, ``chat.py``, ``host.py``) are built with.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Final

from domicile_p2p.net.sessions.guards.setup import DEFAULT_SETUP_TIMEOUT


@dataclass(slots=True)
class TokenBucket:
    """``rate`` messages per second on average, bursts of up to ``burst``."""

    rate: float
    burst: float
    tokens: float = field(default=-1.0)
    updated: float | None = None

    def __post_init__(self) -> None:
        if self.tokens < 0:
            self.tokens = self.burst

    def ready_at(self, cost: float = 1.0) -> float | None:
        """When ``cost`` tokens will be there (``None``: they are now, or nothing was spent)."""
        if self.tokens >= cost or self.updated is None:
            return None
        return self.updated + (cost - self.tokens) / self.rate

    def allow(self, now: float, cost: float = 1.0) -> bool:
        if self.updated is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens < cost:
            return False
        self.tokens -= cost
        return True


MAX_TRACKED_ADDRESSES: Final = 4096
"""Bound the limiter's memory when someone sprays attempts from many addresses."""


class FailureLimiter:
    """At most ``limit`` failures per address in any ``window`` seconds."""

    def __init__(self, limit: int = 5, window: float = 60.0) -> None:
        self.limit = limit
        self.window = window
        self._failures: dict[str, deque[float]] = {}

    def _recent(self, address: str, now: float) -> deque[float]:
        failures = self._failures.get(address)
        if failures is None:
            return deque()
        while failures and failures[0] <= now - self.window:
            failures.popleft()
        if not failures:
            del self._failures[address]
        return failures

    @property
    def tracked(self) -> int:
        """How many addresses have failures on record."""
        return len(self._failures)

    def recent(self, address: str, now: float) -> int:
        """How many failures ``address`` has in the window now."""
        return len(self._recent(address, now))

    def retry_after(self, address: str, now: float) -> float | None:
        """Seconds until ``address`` may try again, or ``None`` if it may try now."""
        failures = self._recent(address, now)
        if len(failures) < self.limit:
            return None
        return failures[0] + self.window - now

    def record_failure(self, address: str, now: float) -> int:
        """Count one failure; returns how many ``address`` has in the window now."""
        failures = self._recent(address, now)
        if address not in self._failures:
            if len(self._failures) >= MAX_TRACKED_ADDRESSES:
                oldest = min(self._failures, key=lambda key: self._failures[key][-1])
                del self._failures[oldest]
            self._failures[address] = failures
        failures.append(now)
        return len(failures)


class ConnectionRate:
    """At most ``rate`` new connections a second per address on average, ``burst`` at once.

    One :class:`TokenBucket` per address.  A bucket that has refilled is the same as no
    bucket, so at ``max_tracked`` addresses the refilled ones are forgotten, or else the
    fullest one: spraying from many addresses bounds the memory, and what forgetting a
    bucket gives back to its address (a fresh burst) is as little as it can be.
    """

    def __init__(self, rate: float, burst: float, max_tracked: int = MAX_TRACKED_ADDRESSES) -> None:
        if rate <= 0 or burst < 1 or max_tracked < 1:
            raise ValueError("a connection rate needs rate > 0, burst >= 1 and max_tracked >= 1")
        self.rate = rate
        self.burst = burst
        self.max_tracked = max_tracked
        self._buckets: dict[str, TokenBucket] = {}

    @property
    def tracked(self) -> int:
        """How many addresses have a bucket now."""
        return len(self._buckets)

    def admit(self, address: str, now: float) -> bool:
        """Whether ``address`` may open one more connection at ``now`` (counted if so)."""
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) >= self.max_tracked:
                self._forget(now)
            bucket = self._buckets[address] = TokenBucket(self.rate, self.burst)
        return bucket.allow(now)

    def _forget(self, now: float) -> None:
        """Make room for one address: drop every refilled bucket, or else the fullest."""
        tokens = {
            address: self.burst
            if bucket.updated is None
            else bucket.tokens + (now - bucket.updated) * self.rate
            for address, bucket in self._buckets.items()
        }
        refilled = [address for address, held in tokens.items() if held >= self.burst]
        for address in refilled or [max(tokens, key=tokens.__getitem__)]:
            del self._buckets[address]


@dataclass(frozen=True, slots=True)
class HostLimits:
    handshake_timeout: float = 20.0
    """Seconds a connection may take to sit down before it is closed."""
    message_rate: float = 20.0
    message_burst: float = 60.0
    fetch_cost: float = 5.0
    max_bad_frames: int = 5
    """Refused messages (of any kind: junk, out of place, refused actions) a connection may
    send with no accepted action between them; one more closes it."""
    chat_rate: float = 0.5
    chat_burst: float = 5.0
    """Chats per second one seat may send on average, and in a burst."""
    chat_characters: int = 20_000
    """Characters (code points) of chat one seat may send in one game."""
    join_failures: int = 5
    join_window: float = 60.0
    """Wrong codes (or bad proofs) per remote address per window."""
    pending_joins: int = 8
    """Joins one remote address may have at once: waiting their turn or between the PAKE
    reply and its confirmation.  Of these at most ``join_failures`` minus the address's
    failures in the window get a PAKE reply (each reply is one guess of the code); the
    others wait until one is confirmed."""
    join_rate: float = 20.0
    join_burst: float = 40.0
    """PAKE replies per second the whole host computes, on average and in a burst.  One
    costs 8 to 16 ms of CPU (``SECURITY.md``), so joins take at most about a third of one
    core; the joins over it wait their turn (within the handshake timeout)."""
    join_queue: int = 256
    """Joins the whole host keeps waiting for their turn; one more is refused (``rate-limited``)."""
    max_connections: int = 768
    """Network connections open at once (in-process ones are not counted: they hold no file
    descriptor).  Over it the oldest connection not yet seated gives way; with none, the new
    one is refused.  ``domicile host`` sizes it to the process's descriptor limit."""
    max_per_address: int = 64
    """Network connections one remote address may have open at once; one more is refused."""
    connection_rate: float = 32.0
    """New network connections one remote address may open per second on average, in
    bursts of up to ``max_per_address``.  The adapter asks at accept
    (:meth:`HostSession.admits`): one more is closed before its TLS handshake, so an
    address reconnecting as fast as it can costs the host an accept and a close each
    time, not a handshake."""
    setup_timeout: float = DEFAULT_SETUP_TIMEOUT
    """Seconds a setup step may take before the game is aborted, naming who held it up."""
    max_spectators: int = 16
    """Spectators one table takes at once; one more is refused (``spectators-full``)."""
    ready_timeout: float = 120.0
    """Seconds a person's seat may stay not ready in the lobby of a table's next game
    before it is freed (the lobby says so to everyone; the owner may start sooner)."""
