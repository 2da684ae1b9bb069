"""``domicile discover`` prints what anyone on the LAN announces, inert: an advert
whose table name carries an escape sequence and a bidi override (no code needed)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess

import pytest
from live_support import LOOPBACK, domicile, environment
from pty_support import ATTACK, ATTACK_BYTES
from zeroconf import IPVersion
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from domicile_p2p.net.adapters.discovery import SERVICE_TYPE, TableAdvert
from domicile_p2p.net.wire import TableState

pytestmark = pytest.mark.slow


async def test_discover_prints_an_adverts_name_inert() -> None:
    advert = TableAdvert(f"Friday {ATTACK}", 3, "d" * 64, 2, 2, "normal", TableState.LOBBY)
    responder = AsyncZeroconf(interfaces=[LOOPBACK], ip_version=IPVersion.V4Only)
    spoof = AsyncServiceInfo(
        SERVICE_TYPE,
        f"inert-{os.getpid()}.{SERVICE_TYPE}",  # this run's own instance
        port=9,
        properties=dict(advert.txt()),
        server=f"inert-{os.getpid()}.local.",
        parsed_addresses=[LOOPBACK],
    )
    await (await responder.async_register_service(spoof, allow_name_change=True))
    try:
        for _ in range(3):  # mDNS on a busy machine: give the answer three chances
            listing = await asyncio.to_thread(
                subprocess.run,
                domicile("discover", "--timeout", "2", "--interface", LOOPBACK),
                capture_output=True,
                env=environment(),
                timeout=60,
            )
            if b"Friday \\x1b]0;pwned\\x07" in listing.stdout:
                break  # this test's advert (another run's table called Friday is not)
        for _ in range(3):  # the same three chances for the JSON lines
            as_json = await asyncio.to_thread(
                subprocess.run,
                domicile("discover", "--json", "--timeout", "2", "--interface", LOOPBACK),
                capture_output=True,
                env=environment(),
                timeout=60,
            )
            if f"Friday {ATTACK}" in [
                json.loads(line)["name"] for line in as_json.stdout.splitlines()
            ]:
                break  # this test's advert, not only another run's tables called Friday
    finally:
        await responder.async_unregister_service(spoof)
        await responder.async_close()
    assert b"Friday \\x1b]0;pwned\\x07" in listing.stdout
    for sequence in ATTACK_BYTES:
        assert sequence not in listing.stdout + listing.stderr + as_json.stdout
    names = [json.loads(line)["name"] for line in as_json.stdout.splitlines()]
    assert f"Friday {ATTACK}" in names, "the JSON lines keep the name, escaped"
