"""A documented deterministic byte stream, and unbiased choices drawn from it.

The stream (specified byte for byte in ``protocol/SPEC.md``):

    block(i) = HMAC-SHA256(key, u32be(len(label)) || label || u64be(i)),  i = 0, 1, 2, ...
    stream(key, label) = block(0) || block(1) || ...

``key`` is 32 bytes; ``label`` is an ASCII domain string such as
``domicile-p2p/v1/tableau/character`` that separates every use of one key.

Integers are drawn by rejection sampling so that every value is exactly
equally likely: ``below(n)`` reads 4 bytes as a big-endian ``x``, and
returns ``x mod n`` only when ``x < 2**32 - (2**32 mod n)``, otherwise reads
4 more.  Shuffles are Fisher-Yates from the last index down, each swap
partner drawn with ``below``.  Never ``random``, never a bare ``x % n``.
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

KEY_BYTES = 32
_BLOCK_BYTES = 32
_U32_RANGE = 2**32


class DerivationError(ValueError):
    """A derivation asked for something impossible (a caller's bug)."""


class ByteStream:
    """HMAC-SHA256 in counter mode over ``key`` and a domain ``label``."""

    __slots__ = ("_buffer", "_counter", "_key", "_prefix")

    def __init__(self, key: bytes, label: str) -> None:
        if len(key) != KEY_BYTES:
            raise DerivationError(f"key must be {KEY_BYTES} bytes, got {len(key)}")
        if not label.isascii():
            raise DerivationError(f"label must be ASCII, got {label!r}")
        encoded = label.encode("ascii")
        self._key = key
        self._prefix = struct.pack(">I", len(encoded)) + encoded
        self._counter = 0
        self._buffer = b""

    def read(self, count: int) -> bytes:
        """The next ``count`` bytes of the stream."""
        while len(self._buffer) < count:
            block = hmac.new(
                self._key, self._prefix + struct.pack(">Q", self._counter), hashlib.sha256
            ).digest()
            self._counter += 1
            self._buffer += block
        result, self._buffer = self._buffer[:count], self._buffer[count:]
        return result

    def below(self, bound: int) -> int:
        """A uniformly distributed integer in ``[0, bound)``, ``1 <= bound <= 2**32``."""
        if not 1 <= bound <= _U32_RANGE:
            raise DerivationError(f"bound {bound} is outside 1..2**32")
        limit = _U32_RANGE - (_U32_RANGE % bound)
        while True:
            (value,) = struct.unpack(">I", self.read(4))
            if value < limit:
                return int(value % bound)

    def shuffle(self, items: Sequence[T]) -> tuple[T, ...]:
        """A uniformly random permutation of ``items`` (Fisher-Yates, last index first)."""
        result = list(items)
        for index in range(len(result) - 1, 0, -1):
            partner = self.below(index + 1)
            result[index], result[partner] = result[partner], result[index]
        return tuple(result)


def stream_bytes(key: bytes, label: str, count: int) -> bytes:
    """The first ``count`` bytes of ``stream(key, label)``."""
    return ByteStream(key, label).read(count)


def shuffle(key: bytes, label: str, items: Sequence[T]) -> tuple[T, ...]:
    """Shuffle ``items`` with a fresh stream for ``label``."""
    return ByteStream(key, label).shuffle(items)


def choose(key: bytes, label: str, items: Sequence[T]) -> T:
    """One uniformly chosen element of ``items``."""
    if not items:
        raise DerivationError("cannot choose from an empty sequence")
    return items[ByteStream(key, label).below(len(items))]


def sample(key: bytes, label: str, items: Sequence[T], count: int) -> tuple[T, ...]:
    """``count`` distinct elements: the first ``count`` of a full shuffle."""
    if not 0 <= count <= len(items):
        raise DerivationError(f"cannot take {count} of {len(items)} items")
    return shuffle(key, label, items)[:count]
