"""Rate limits and durable files: pure pieces the host is built from."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from domicile_p2p.net.adapters.files import append_durably, read_lines, write_atomic
from domicile_p2p.net.sessions.limits import (
    MAX_TRACKED_ADDRESSES,
    ConnectionRate,
    FailureLimiter,
    TokenBucket,
)


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


def test_connection_rate_allows_a_burst_per_address_then_the_average_rate() -> None:
    rate = ConnectionRate(rate=4.0, burst=3.0)
    assert [rate.admit("10.0.0.9", 0.0) for _ in range(4)] == [True, True, True, False]
    assert rate.admit("10.0.0.8", 0.0), "another address has its own burst"
    assert not rate.admit("10.0.0.9", 0.2), "refused attempts earn nothing"
    assert rate.admit("10.0.0.9", 0.25)
    assert not rate.admit("10.0.0.9", 0.25)
    assert [rate.admit("10.0.0.9", 10.0) for _ in range(4)] == [True, True, True, False]


def test_connection_rate_forgets_refilled_addresses_first_and_stays_bounded() -> None:
    rate = ConnectionRate(rate=1.0, burst=2.0, max_tracked=3)
    assert rate.admit("flooder", 0.0) and rate.admit("flooder", 0.0)
    assert not rate.admit("flooder", 0.5)
    assert rate.admit("a", 0.5) and rate.admit("b", 0.5)
    assert rate.admit("c", 0.6), "at the bound, a new address is still admitted"
    assert rate.tracked == 3
    assert not rate.admit("flooder", 0.7), "the flooder's empty bucket was not the one dropped"
    for index in range(100):
        rate.admit(f"spray-{index}", 50.0 + index)
    assert rate.tracked <= 3


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
