"""Where a host is: ``wss://HOST:PORT``, as a person types it or discovery finds it."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

from domicile_p2p.net.errors import BadAddress

DEFAULT_PORT: Final = 47_470


@dataclass(frozen=True, slots=True)
class Address:
    host: str
    port: int

    @classmethod
    def parse(cls, text: str) -> Address:
        """``wss://host:port``, ``host:port`` or ``[v6]:port``; the port defaults to 47470."""
        raw = text.strip()
        if "://" not in raw:
            raw = "wss://" + raw
        try:
            parts = urlsplit(raw)
            port = parts.port
        except ValueError as exc:
            raise BadAddress(
                f"{text!r} is not an address like wss://192.168.1.20:47470 ({exc})"
            ) from None
        if parts.scheme != "wss":
            raise BadAddress(f"{text!r}: tables speak wss:// (websockets over TLS) only")
        if not parts.hostname or parts.path not in ("", "/") or parts.query or parts.username:
            raise BadAddress(f"{text!r} is not an address like wss://192.168.1.20:47470")
        return cls(parts.hostname, port if port is not None else DEFAULT_PORT)

    @property
    def _host_part(self) -> str:
        try:
            is_v6 = ipaddress.ip_address(self.host).version == 6
        except ValueError:
            is_v6 = False
        return f"[{self.host}]" if is_v6 else self.host

    @property
    def url(self) -> str:
        return f"wss://{self._host_part}:{self.port}"

    @property
    def pin_key(self) -> str:
        """How the pin store names this address: ``HOST:PORT``."""
        return f"{self._host_part}:{self.port}"

    def __str__(self) -> str:
        return self.url
