"""Rate limits and durable files: pure pieces the host is built from."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from domicile_p2p.net.adapters.files import append_durably, read_lines, write_atomic
from domicile_p2p.net.sessions.limits import MAX_TRACKED_ADDRESSES, FailureLimiter, TokenBucket


def test_token_bucket_allows_bursts_then_the_average_rate() -> None:
    bucket = TokenBucket(rate=2.0, burst=3.0)
    assert [bucket.allow(0.0) for _ in range(4)] == [True, True, True, False]
    assert not bucket.allow(0.25)
    assert bucket.allow(0.5)
    assert bucket.allow(100.0, cost=3.0)
    assert not bucket.allow(100.0)


def test_failure_limiter_blocks_an_address_for_the_window_only() -> None:
    limiter = FailureLimiter(limit=3, window=60.0)
    for second in (0.0, 1.0, 2.0):
        assert limiter.retry_after("10.0.0.9", second) is None
        limiter.record_failure("10.0.0.9", second)
    assert limiter.retry_after("10.0.0.9", 3.0) == 57.0
    assert limiter.retry_after("10.0.0.8", 3.0) is None, "other addresses are not affected"
    assert limiter.retry_after("10.0.0.9", 60.5) is None, "the oldest failure has expired"


def test_failure_limiter_memory_is_bounded() -> None:
    limiter = FailureLimiter(limit=1, window=1000.0)
    for index in range(MAX_TRACKED_ADDRESSES + 10):
        limiter.record_failure(f"address-{index}", float(index))
    now = float(MAX_TRACKED_ADDRESSES + 10)
    assert limiter.tracked == MAX_TRACKED_ADDRESSES
    assert limiter.retry_after(f"address-{MAX_TRACKED_ADDRESSES + 9}", now) is not None
    assert limiter.retry_after("address-0", now) is None, "the oldest was forgotten"


def test_write_atomic_replaces_and_keeps_secrets_private(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "seed"
    write_atomic(path, b"one", private=True)
    write_atomic(path, b"two", private=True)
    assert path.read_bytes() == b"two"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert [p.name for p in path.parent.iterdir()] == ["seed"], "no temporary files left"


def test_a_torn_last_line_is_dropped_and_cut_so_appends_stay_clean(tmp_path: Path) -> None:
    log = tmp_path / "events.jsonl"
    append_durably(log, [b'{"seq":0}', b'{"seq":1}'])
    with open(log, "ab") as handle:
        handle.write(b'{"seq":2,"tor')  # the crash happened here
    assert read_lines(log) == [b'{"seq":0}', b'{"seq":1}']
    append_durably(log, [b'{"seq":2}'])
    assert read_lines(log) == [b'{"seq":0}', b'{"seq":1}', b'{"seq":2}']
    assert read_lines(tmp_path / "missing") == []
