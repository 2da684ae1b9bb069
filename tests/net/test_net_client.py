"""The client's reconnect loop: network failures are retried (bounded), the rest never."""

from __future__ import annotations

import asyncio
import random
import socket
from pathlib import Path

import pytest
from net_support import make_peer

from domicile_p2p.net.adapters.client import (
    Backoff,
    Dialed,
    PeerClient,
    open_websocket,
    unreachable_reason,
)
from domicile_p2p.net.address import Address
from domicile_p2p.net.errors import BadAddress, HostIdentityChanged, Unreachable

FAST = Backoff(first=0.001, cap=0.002, attempts=5, first_attempts=3)


async def test_an_unreachable_host_is_retried_a_bounded_number_of_times(tmp_path: Path) -> None:
    attempts = 0

    async def dial() -> Dialed:
        nonlocal attempts
        attempts += 1
        raise Unreachable("connection refused")

    peer = make_peer(tmp_path)
    client = PeerClient(peer.session, dial, peer.secrets, backoff=FAST)
    with pytest.raises(Unreachable, match=r"^connection refused$"):  # said once, as it was
        await client.run()
    assert attempts == 4  # the first try and three more


async def test_a_dead_address_is_named_in_words(refused_port: int) -> None:
    port = refused_port
    address = Address("127.0.0.1", port)
    with pytest.raises(Unreachable) as raised:
        await open_websocket(address)
    assert str(raised.value) == f"nobody answers at 127.0.0.1:{port} — is the host running?"


@pytest.mark.parametrize(
    ("error", "words"),
    [
        (TimeoutError(), "no answer from 10.0.0.1:47470 within 10 s"),
        (socket.gaierror(-2, "Name or service not known"), "no computer is called '10.0.0.1'"),
        (OSError(101, "Network is unreachable"), "cannot reach 10.0.0.1:47470: network is"),
        (ConnectionResetError(104, "Connection reset by peer"), "hung up while the connection"),
    ],
)
def test_network_failures_are_said_without_errno(error: OSError, words: str) -> None:
    reason = unreachable_reason(Address("10.0.0.1", 47470), error)
    assert words in reason and "Errno" not in reason and "[" not in reason


async def test_a_changed_certificate_is_never_retried(tmp_path: Path) -> None:
    attempts = 0

    async def dial() -> Dialed:
        nonlocal attempts
        attempts += 1
        raise HostIdentityChanged("10.0.0.1:47470", "aa" * 32, "bb" * 32)

    peer = make_peer(tmp_path)
    client = PeerClient(peer.session, dial, peer.secrets, backoff=FAST)
    with pytest.raises(HostIdentityChanged, match=r"host identity changed at 10\.0\.0\.1:47470"):
        await client.run()
    assert attempts == 1


def test_backoff_doubles_up_to_its_cap() -> None:
    backoff = Backoff(first=0.25, cap=5.0)
    assert [backoff.delay(n) for n in range(1, 8)] == [0.25, 0.5, 1.0, 2.0, 4.0, 5.0, 5.0]
    # A wait that never gives up is still at the cap after hours (2.0 ** 1024 overflowed).
    assert backoff.delay(5000) == 5.0


def test_backoff_jitter_spreads_each_delay_below_its_bound() -> None:
    backoff = Backoff(first=0.25, cap=5.0, jitter=0.5)
    bounds = [backoff.delay(n) for n in range(1, 8)]
    assert [backoff.jittered(n, 0.0) for n in range(1, 8)] == [b / 2 for b in bounds]
    assert backoff.jittered(6, 0.5) == 3.75
    assert Backoff(jitter=0.0).jittered(3, 0.9) == Backoff().delay(3)
    # Two clients of a host that restarted, each with its own draws: not in lockstep.
    first, second = random.Random(1), random.Random(2)
    one = [backoff.jittered(n, first.random()) for n in range(1, 8)]
    other = [backoff.jittered(n, second.random()) for n in range(1, 8)]
    assert one != other
    for delays in (one, other):
        assert all(b / 2 <= d <= b for d, b in zip(delays, bounds, strict=True))


async def test_the_client_waits_the_jittered_delay_of_its_draws(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    peer = make_peer(tmp_path)
    slept: list[float] = []

    async def dial() -> Dialed:
        raise Unreachable("no host")

    async def sleep(delay: float) -> None:
        slept.append(delay)

    monkeypatch.setattr(asyncio, "sleep", sleep)
    draws = iter([0.0, 0.5, 0.99])
    backoff = Backoff(first=1.0, cap=8.0, first_attempts=3, jitter=0.5)
    client = PeerClient(peer.session, dial, peer.secrets, backoff=backoff, draw=lambda: next(draws))
    with pytest.raises(Unreachable):
        await client.run()
    assert slept == pytest.approx([0.5, 1.5, 3.98])  # 1, 2, 4 s less half of 1 - draw


@pytest.mark.parametrize(
    ("typed", "url", "pin_key"),
    [
        ("wss://192.168.1.20:4000", "wss://192.168.1.20:4000", "192.168.1.20:4000"),
        ("192.168.1.20", "wss://192.168.1.20:47470", "192.168.1.20:47470"),
        ("wss://[fe80::1]:4000/", "wss://[fe80::1]:4000", "[fe80::1]:4000"),
        ("host.example:99", "wss://host.example:99", "host.example:99"),
    ],
)
def test_addresses_are_read_as_people_type_them(typed: str, url: str, pin_key: str) -> None:
    address = Address.parse(typed)
    assert (address.url, address.pin_key) == (url, pin_key)


@pytest.mark.parametrize(
    "typed", ["ws://10.0.0.1:4000", "https://x", "wss://x:99999", "wss://x/path", "wss://"]
)
def test_bad_addresses_are_a_typed_error(typed: str) -> None:
    with pytest.raises(BadAddress):
        Address.parse(typed)
