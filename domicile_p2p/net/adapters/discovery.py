"""Finding tables on the LAN with mDNS / DNS-SD (zeroconf), and announcing them.

One service instance of ``_domicile._tcp.local.`` per table.  Its TXT record
(:class:`TableAdvert`) says what a lobby list needs: protocol version, table
name, the host's certificate fingerprint, the table's nameplate, seats free
and total, difficulty and state.  An advert is a *hint*, never trust (mDNS
is unauthenticated by design): anybody on the LAN can announce anything, and
what protects a player is the join PAKE and the pinned fingerprint.

Two hosts announcing the same table name get distinct instance names
(zeroconf's conflict resolution renames the second, ``Friday-2``), so a
client lists both.  Tests bind zeroconf to ``127.0.0.1`` only; a real host
or client binds the interface it was given, or every IPv4 interface.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from zeroconf import InterfaceChoice, IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from domicile_p2p.net.join.codes import MAX_TABLES
from domicile_p2p.net.wire import PROTOCOL, TableState

SERVICE_TYPE: Final = "_domicile._tcp.local."
_RESOLVE_MS: Final = 1500
"""How long to wait for a table's records after listening (they are usually cached)."""
_MAX_INSTANCE_BYTES: Final = 63


class BadAdvert(ValueError):
    """A TXT record that is not a valid table advert (someone else's service, or junk)."""


def instance_label(name: str, suffix: str = "") -> str:
    """A table name as a DNS-SD instance label: no dots, at most 63 bytes of UTF-8.

    ``suffix`` is kept whole; the name is shortened to make room for it.
    """
    label = " ".join(name.replace(".", " ").split()) or "table"
    while len((label + suffix).encode("utf-8")) > _MAX_INSTANCE_BYTES:
        label = label[:-1]
    return label + suffix


def instance_name(advert: TableAdvert) -> str:
    """A table's instance label, unique by construction: the name, the host and the table.

    Two hosts (or two tables of one host) never claim the same instance, so the
    advert needs no conflict probing, which costs about 1.2 s before a table
    is visible (RFC 6762 section 8.1).  The probe would not stop a spoofer
    anyway: a spoofer announces after us, and a spoofed copy is kept apart by
    its address (:func:`unique`) and can never be joined without the code.
    """
    return instance_label(advert.name, f" [{advert.fingerprint[:8]}-{advert.nameplate}]")


@dataclass(frozen=True, slots=True)
class TableAdvert:
    """What one table tells the LAN about itself."""

    name: str
    nameplate: int
    fingerprint: str
    seats_free: int
    seats_total: int
    difficulty: str
    state: TableState
    protocol: int = PROTOCOL
    bot_seats: int = 0
    """Seats bots hold (or are kept for) that a person who joins may take, in the lobby."""

    def txt(self) -> dict[str, str]:
        return {
            "v": str(self.protocol),
            "name": self.name,
            "fp": self.fingerprint,
            "table": str(self.nameplate),
            "free": str(self.seats_free),
            "seats": str(self.seats_total),
            "difficulty": self.difficulty,
            "state": self.state.value,
            "bots": str(self.bot_seats),
        }

    @classmethod
    def from_txt(cls, properties: Mapping[str, str | None]) -> TableAdvert:
        def field(key: str) -> str:
            value = properties.get(key)
            if value is None:
                raise BadAdvert(f"TXT record has no {key!r}")
            return value

        def number(key: str, low: int, high: int) -> int:
            text = field(key)
            if not text.isdigit() or not low <= int(text) <= high:
                raise BadAdvert(f"TXT {key}={text!r} is not a number from {low} to {high}")
            return int(text)

        fingerprint = field("fp")
        if len(fingerprint) != 64 or any(c not in "0123456789abcdef" for c in fingerprint):
            raise BadAdvert("TXT fp is not a SHA-256 fingerprint in hex")
        try:
            state = TableState(field("state"))
        except ValueError:
            raise BadAdvert(f"TXT state={field('state')!r} is unknown") from None
        return cls(
            name=field("name"),
            nameplate=number("table", 1, MAX_TABLES),
            fingerprint=fingerprint,
            seats_free=number("free", 0, 7),
            seats_total=number("seats", 2, 7),
            difficulty=field("difficulty"),
            state=state,
            protocol=number("v", 0, 1_000_000),
            # Optional: an older host does not say.
            bot_seats=number("bots", 0, 7) if properties.get("bots") is not None else 0,
        )


@dataclass(frozen=True, slots=True)
class DiscoveredTable:
    """A table found on the LAN: its advert and where to connect."""

    instance: str
    address: str
    port: int
    advert: TableAdvert

    @property
    def url(self) -> str:
        host = f"[{self.address}]" if ":" in self.address else self.address
        return f"wss://{host}:{self.port}"

    def as_json(self) -> dict[str, Any]:
        advert = self.advert
        return {
            "name": advert.name,
            "instance": self.instance,
            "address": self.address,
            "port": self.port,
            "url": self.url,
            "table": advert.nameplate,
            "fingerprint": advert.fingerprint,
            "seats_free": advert.seats_free,
            "seats_total": advert.seats_total,
            "bot_seats": advert.bot_seats,
            "difficulty": advert.difficulty,
            "state": advert.state.value,
            "protocol": advert.protocol,
        }


def _interfaces(interface: str | None) -> list[str] | InterfaceChoice:
    return InterfaceChoice.All if interface is None else [interface]


def advertised_addresses(interface: str | None) -> list[str]:
    """The IPv4 addresses a host bound to ``interface`` (``None``: every one) is reachable at."""
    if interface is not None and interface not in ("0.0.0.0", ""):
        return [interface]
    from zeroconf import get_all_addresses  # type: ignore[attr-defined]

    found: list[str] = [a for a in get_all_addresses() if not a.startswith("127.")]
    return found or ["127.0.0.1"]


class Advertiser:
    """Announces tables on one interface (or all) and keeps their TXT records current."""

    def __init__(self, interface: str | None, server_name: str) -> None:
        self.interface = interface
        self.server = f"{server_name}.local."
        self._zeroconf: AsyncZeroconf | None = None
        self._infos: dict[int, AsyncServiceInfo] = {}
        self._adverts: dict[int, TableAdvert] = {}
        self._port = 0

    async def start(self, port: int) -> None:
        self._port = port
        self._zeroconf = AsyncZeroconf(
            interfaces=_interfaces(self.interface), ip_version=IPVersion.V4Only
        )

    def _info(self, advert: TableAdvert, instance: str) -> AsyncServiceInfo:
        return AsyncServiceInfo(
            SERVICE_TYPE,
            instance,
            port=self._port,
            properties=dict(advert.txt()),
            server=self.server,
            parsed_addresses=advertised_addresses(self.interface),
        )

    def published(self, nameplate: int) -> bool:
        return nameplate in self._infos

    async def publish(self, advert: TableAdvert) -> str:
        """Announce a table; returns its instance name."""
        if self._zeroconf is None:
            raise RuntimeError("Advertiser.start() first")
        info = self._info(advert, f"{instance_name(advert)}.{SERVICE_TYPE}")
        waiter = await self._zeroconf.async_register_service(
            info, allow_name_change=True, cooperating_responders=True
        )
        await waiter
        self._infos[advert.nameplate] = info
        self._adverts[advert.nameplate] = advert
        return info.name.removesuffix(f".{SERVICE_TYPE}")

    async def update(self, advert: TableAdvert) -> None:
        """Re-announce a table whose seats or state changed (no-op if nothing changed)."""
        current = self._infos.get(advert.nameplate)
        if self._zeroconf is None or current is None:
            return
        if self._adverts.get(advert.nameplate) == advert:
            return
        info = self._info(advert, current.name)
        self._infos[advert.nameplate] = info
        self._adverts[advert.nameplate] = advert
        await self._zeroconf.async_update_service(info)

    async def withdraw(self, nameplate: int) -> None:
        info = self._infos.pop(nameplate, None)
        self._adverts.pop(nameplate, None)
        if self._zeroconf is not None and info is not None:
            waiter = await self._zeroconf.async_unregister_service(info)
            await waiter

    async def close(self) -> None:
        """Withdraw every advert (goodbye packets) and stop."""
        if self._zeroconf is None:
            return
        for nameplate in list(self._infos):
            with contextlib.suppress(Exception):
                await self.withdraw(nameplate)
        await self._zeroconf.async_close()
        self._zeroconf = None


async def _resolve(zeroconf: Zeroconf, name: str, timeout_ms: int) -> DiscoveredTable | None:
    info = AsyncServiceInfo(SERVICE_TYPE, name)
    if not await info.async_request(zeroconf, timeout_ms):
        return None
    addresses = info.parsed_addresses(IPVersion.V4Only)
    if not addresses or info.port is None:
        return None
    try:
        advert = TableAdvert.from_txt(info.decoded_properties)
    except BadAdvert:
        return None
    return DiscoveredTable(name.removesuffix(f".{SERVICE_TYPE}"), addresses[0], info.port, advert)


async def discover(timeout: float = 3.0, interface: str | None = None) -> list[DiscoveredTable]:
    """Every valid table advert heard within ``timeout`` seconds, sorted by name.

    Names are collected while listening and resolved at the end, so each
    table is reported as its latest advert says (seats fill while we listen).
    """
    names: set[str] = set()
    async with AsyncZeroconf(
        interfaces=_interfaces(interface), ip_version=IPVersion.V4Only
    ) as zeroconf:

        def on_change(
            zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange
        ) -> None:
            if state_change is ServiceStateChange.Removed:
                names.discard(name)
            else:
                names.add(name)

        browser = AsyncServiceBrowser(zeroconf.zeroconf, SERVICE_TYPE, handlers=[on_change])
        try:
            await asyncio.sleep(timeout)
        finally:
            await browser.async_cancel()
        results = await asyncio.gather(
            *(_resolve(zeroconf.zeroconf, name, _RESOLVE_MS) for name in sorted(names)),
            return_exceptions=True,
        )
    tables = [result for result in results if isinstance(result, DiscoveredTable)]
    return sorted(tables, key=lambda table: (table.advert.name, table.instance))


def unique(tables: Iterable[DiscoveredTable]) -> list[DiscoveredTable]:
    """One entry per (fingerprint, nameplate, address, port): the same advert heard twice is
    listed once.

    The address is part of the key because an advert is never trusted: a spoofed one that
    copies a real table's fingerprint and nameplate must not hide the real table (whichever
    came first would win).  Both are listed; joining needs the code, whose PAKE binds the
    certificate actually reached, so the impostor's entry cannot seat anyone.
    """
    seen: dict[tuple[str, int, str, int], DiscoveredTable] = {}
    for table in tables:
        key = (table.advert.fingerprint, table.advert.nameplate, table.address, table.port)
        seen.setdefault(key, table)
    return list(seen.values())
