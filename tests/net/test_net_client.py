"""The client's reconnect loop: network failures are retried (bounded), the rest never."""

from __future__ import annotations

from pathlib import Path

import pytest
from net_support import make_peer

from domicile_p2p.net.adapters.client import Backoff, Dialed, PeerClient
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
    with pytest.raises(Unreachable, match="gave up after 3 attempts: connection refused"):
        await client.run()
    assert attempts == 4  # the first try and three more


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
