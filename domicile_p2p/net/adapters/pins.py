"""Pinned host fingerprints, kept in the client's data dir, keyed by address.

What a pin allows is decided in :mod:`domicile_p2p.net.join.pins`; this
module only keeps the pins, in one small file written atomically.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from domicile_p2p import canonical
from domicile_p2p.net.adapters.files import write_atomic
from domicile_p2p.net.join.pins import matches_pin

PINS_FILE: Final = "pins.json"


class PinStore:
    """``address -> fingerprint``; ``address`` is ``HOST:PORT`` as the client dialled it."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def in_data_dir(cls, data_dir: Path) -> PinStore:
        return cls(data_dir / PINS_FILE)

    def _load(self) -> dict[str, str]:
        try:
            raw = canonical.decode(self.path.read_bytes())
        except FileNotFoundError:
            return {}
        except canonical.CanonicalError:
            # A damaged pin file must not silently un-pin every host: refuse loudly.
            raise ValueError(f"{self.path} is damaged; fix or remove it") from None
        if not isinstance(raw, dict) or not all(isinstance(v, str) for v in raw.values()):
            raise ValueError(f"{self.path} is not a pin file")
        return {str(key): str(value) for key, value in raw.items()}

    def get(self, address: str) -> bytes | None:
        value = self._load().get(address)
        return None if value is None else bytes.fromhex(value)

    def pin(self, address: str, fingerprint: bytes) -> None:
        pins = self._load()
        pins[address] = fingerprint.hex()
        write_atomic(self.path, canonical.encode(pins))

    def forget(self, address: str) -> None:
        pins = self._load()
        if pins.pop(address, None) is not None:
            write_atomic(self.path, canonical.encode(pins))

    def check(self, address: str, seen: bytes) -> bool:
        """True when ``address`` is pinned to ``seen``; False when it is not pinned yet.

        Raises :class:`~domicile_p2p.net.errors.HostIdentityChanged` when it is pinned
        to something else.
        """
        return matches_pin(address, self.get(address), seen)
