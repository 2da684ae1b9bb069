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
_PACK_COUNTER = struct.Struct(">Q").pack


class DerivationError(ValueError):
    """A derivation asked for something impossible (a caller's bug)."""


class ByteStream:
    """HMAC-SHA256 in counter mode over ``key`` and a domain ``label``.

    The keyed state after the label (``hmac.new(key, prefix, sha256)``) is made
    once per stream and each block continues a copy of it with its counter:
    the same bytes as a fresh HMAC per block, without re-keying it every time
    (a shuffle of the dream deck needs 17 blocks).  HMAC itself is always the
    standard library's, never assembled from pads here.
    """

    __slots__ = ("_buffer", "_counter", "_keyed", "_offset")

    def __init__(self, key: bytes, label: str) -> None:
        if len(key) != KEY_BYTES:
            raise DerivationError(f"key must be {KEY_BYTES} bytes, got {len(key)}")
        if not label.isascii():
            raise DerivationError(f"label must be ASCII, got {label!r}")
        encoded = label.encode("ascii")
        self._keyed = hmac.new(key, struct.pack(">I", len(encoded)) + encoded, hashlib.sha256)
        self._counter = 0
        self._buffer = b""
        self._offset = 0

    def _blocks(self, count: int) -> bytes:
        """The next ``count`` blocks of the stream, joined."""
        blocks = []
        pack_counter = _PACK_COUNTER
        for counter in range(self._counter, self._counter + count):
            block = self._keyed.copy()
            block.update(pack_counter(counter))
            blocks.append(block.digest())
        self._counter += count
        return b"".join(blocks)

    def read(self, count: int) -> bytes:
        """The next ``count`` bytes of the stream."""
        start = self._offset
        missing = count - (len(self._buffer) - start)
        if missing > 0:
            # Keep only the unread tail, then make every block this read needs at once.
            self._buffer = self._buffer[start:] + self._blocks(-(-missing // _BLOCK_BYTES))
            start = 0
        self._offset = start + count
        return self._buffer[start : start + count]

    def _words(self, count: int) -> tuple[int, ...]:
        """The next ``count`` 4-byte big-endian words of the stream."""
        return struct.unpack(f">{count}I", self.read(4 * count))

    def below(self, bound: int) -> int:
        """A uniformly distributed integer in ``[0, bound)``, ``1 <= bound <= 2**32``."""
        if not 1 <= bound <= _U32_RANGE:
            raise DerivationError(f"bound {bound} is outside 1..2**32")
        limit = _U32_RANGE - (_U32_RANGE % bound)
        while True:
            value = int.from_bytes(self.read(4), "big")
            if value < limit:
                return value % bound

    def shuffle(self, items: Sequence[T]) -> tuple[T, ...]:
        """A uniformly random permutation of ``items`` (Fisher-Yates, last index first).

        Each swap draws exactly as ``below(index + 1)`` would, but the words
        are read a batch at a time: one per swap still to make, which is
        exactly what the swaps consume unless a word is rejected, so the
        stream is left where one draw at a time would leave it.
        """
        result = list(items)
        index = len(result) - 1
        while index > 0:
            words = self._words(index)
            if max(words) < _U32_RANGE - (index + 1):
                # Every bound here is at most index + 1, and ``below(bound)`` rejects only
                # words of at least 2**32 - (2**32 mod bound) > 2**32 - bound: no word of
                # this batch is rejected, so each is its swap's draw as it stands.
                for bound, value in zip(range(index + 1, 1, -1), words, strict=True):
                    partner = value % bound
                    result[bound - 1], result[partner] = result[partner], result[bound - 1]
                break
            for value in words:  # some word may be rejected (rare): the rule, draw by draw
                bound = index + 1
                if value < _U32_RANGE - (_U32_RANGE % bound):
                    partner = value % bound
                    result[index], result[partner] = result[partner], result[index]
                    index -= 1
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
