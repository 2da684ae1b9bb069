"""mDNS adverts and discovery, on 127.0.0.1 only."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from live_support import domicile, environment, network_bot

from domicile_p2p.net.adapters.discovery import (
    BadAdvert,
    DiscoveredTable,
    TableAdvert,
    discover,
    instance_label,
    unique,
)
from domicile_p2p.net.adapters.host import HostConfig, start_host
from domicile_p2p.net.join.codes import parse_code
from domicile_p2p.net.wire import Role, TableState

LOOPBACK = "127.0.0.1"


def advert(fingerprint: str, free: int = 3, state: TableState = TableState.LOBBY) -> TableAdvert:
    return TableAdvert(
        name="Friday night",
        nameplate=4,
        fingerprint=fingerprint,
        seats_free=free,
        seats_total=4,
        difficulty="normal",
        state=state,
    )


def test_txt_round_trips_and_junk_is_refused() -> None:
    original = advert("a" * 64)
    assert TableAdvert.from_txt(original.txt()) == original
    many = TableAdvert.from_txt({**original.txt(), "table": "123"})
    assert many.nameplate == 123, "a host with many tables numbers them past 9"
    for key, value in [
        ("fp", "zz"),
        ("free", "-1"),
        ("table", "0"),
        ("table", "10000"),
        ("state", "sleeping"),
        ("v", "x"),
    ]:
        with pytest.raises(BadAdvert):
            TableAdvert.from_txt({**original.txt(), key: value})
    with pytest.raises(BadAdvert, match="no 'name'"):
        TableAdvert.from_txt({k: v for k, v in original.txt().items() if k != "name"})


def test_a_spoofed_advert_copying_a_tables_fingerprint_cannot_hide_it() -> None:
    """An attacker on the LAN announces the real table's fingerprint and number from its
    own address, first: the real table is still listed (the code's PAKE decides)."""
    real_fp = "c" * 64
    spoof = DiscoveredTable("Friday night-2", "127.0.0.66", 47470, advert(real_fp, free=4))
    real = DiscoveredTable("Friday night", LOOPBACK, 47470, advert(real_fp, free=1))
    echo = DiscoveredTable("Friday night", LOOPBACK, 47470, advert(real_fp, free=1))
    listed = unique([spoof, real, echo])
    assert listed == [spoof, real], "both addresses listed, the same advert heard twice once"
    assert unique([real, spoof]) == [real, spoof]
    other_port = DiscoveredTable("Friday night", LOOPBACK, 47471, advert(real_fp))
    assert len(unique([real, other_port])) == 2


def test_an_advert_counts_the_bot_seats_a_person_may_take() -> None:
    with_bots = TableAdvert.from_txt({**advert("d" * 64, free=0).txt(), "bots": "3"})
    assert (with_bots.seats_free, with_bots.bot_seats) == (0, 3)
    older_host = {k: v for k, v in advert("d" * 64).txt().items() if k != "bots"}
    assert TableAdvert.from_txt(older_host).bot_seats == 0
    with pytest.raises(BadAdvert):
        TableAdvert.from_txt({**advert("d" * 64).txt(), "bots": "9"})


def test_instance_labels_are_dns_safe() -> None:
    assert instance_label("a.b  c") == "a b c"
    assert instance_label("   ") == "table"
    assert len(instance_label("é" * 100).encode()) <= 63
    assert instance_label("é" * 100, " [abcdef01-1]").endswith(" [abcdef01-1]")
    assert len(instance_label("é" * 100, " [abcdef01-1]").encode()) <= 63


LOOKS = 120
"""Looks for tables before a test counts as hung.  One look listens for a fixed window,
and on a loaded machine an answer can come after it: the next look hears it.  Each look
is short, so a test waits only as long as the machine needs (a single look failed under
load: one of two hosts answered after the window, issue 21)."""

Listed = dict[int, Any]
"""What one look heard: each table by its port (an entry of ``discover --json``, or the
seats free of an in-process look)."""


async def looking(look: Callable[[], Awaitable[Listed]], heard: Callable[[Listed], bool]) -> Listed:
    """Look for tables until what is heard satisfies ``heard``; what the last look heard."""
    for _ in range(LOOKS):
        listed = await look()
        if heard(listed):
            return listed
    raise AssertionError(f"after {LOOKS} looks the tables heard were still {listed}")


async def discover_command() -> Listed:
    """One look by the ``domicile discover --json`` command, as a person runs it."""
    process = await asyncio.create_subprocess_exec(
        *domicile("discover", "--json", "--timeout", "1.5", "--interface", LOOPBACK),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=environment(),
    )
    out, err = await process.communicate()
    assert process.returncode == 0, err
    return {entry["port"]: entry for entry in map(json.loads, out.decode().splitlines())}


async def discover_in_process() -> Listed:
    """One look in this process, each table by its seats free."""
    tables = await discover(timeout=1.0, interface=LOOPBACK)
    return {table.port: table.advert.seats_free for table in tables}


@pytest.mark.slow
async def test_hosts_advertise_their_tables_and_discover_finds_and_updates_them(
    tmp_path: Path,
) -> None:
    records: list[dict] = []

    def log(event: str, fields: dict) -> None:
        records.append({"event": event, **fields})

    options = {"interface": LOOPBACK, "port": 0, "name": "Friday", "investigators": 1}
    first = await start_host(HostConfig(data_dir=tmp_path / "a", **options), log)
    second = await start_host(HostConfig(data_dir=tmp_path / "b", **options), log)
    try:
        while len(advertised := [r for r in records if r["event"] == "advertised"]) < 2:
            await asyncio.sleep(0.05)
        instances = sorted(record["instance"] for record in advertised)
        assert all(instance.startswith("Friday [") for instance in instances)
        assert instances[0] != instances[1], "two hosts never share an instance name"
        listed = await looking(
            discover_command, lambda listed: {first.port, second.port} <= set(listed)
        )
        one = listed[first.port]
        assert one["name"] == "Friday" and one["address"] == LOOPBACK
        assert one["fingerprint"] == first.certificate.fingerprint_hex
        assert (one["seats_free"], one["seats_total"], one["state"]) == (2, 2, "lobby")
        assert listed[second.port]["fingerprint"] == second.certificate.fingerprint_hex
        [table] = first.tables()
        bot = network_bot(tmp_path / "p", one["url"], parse_code(table.code), role=Role.GHOST)
        joining = asyncio.create_task(bot.client.run())
        while not bot.session.seated:
            await asyncio.sleep(0.01)
        await looking(discover_in_process, lambda listed: listed.get(first.port) == 1)
        joining.cancel()
    finally:
        await second.close()
        await first.close()
    await looking(discover_in_process, lambda listed: not {first.port, second.port} & set(listed))
