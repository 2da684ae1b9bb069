"""Ed25519 identity keys: who signed an action, who hosted a table.

The keys only: this module opens no file.  Every player machine keeps its key
in its data dir as an unencrypted PKCS#8 PEM file (:meth:`Identity.to_pem`,
:meth:`Identity.from_pem`); ``net/adapters/key_files.py`` reads and writes it.

Public keys travel as 32 bytes of lower-case hex.  Signing and verifying
are ``cryptography``'s Ed25519 (RFC 8032); nothing here is hand-rolled.
"""

from __future__ import annotations

from typing import Any, Final

from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

# Checking signatures (``domicile verify``) needs no PEM: cryptography's serialization is
# imported by the methods that read and write one, when first called.

PRIVATE_KEY_BYTES: Final = 32
PUBLIC_KEY_BYTES: Final = 32
SIGNATURE_BYTES: Final = 64


class IdentityError(Exception):
    """The identity key cannot be used: unreadable, corrupt, or readable by others.

    The message says which file and what to do; it never contains key material.
    """


class BadPublicKey(ValueError):
    """Bytes that are not an Ed25519 public key (32 bytes, a valid curve point)."""


def _prime_order_point(raw: bytes) -> bool:
    """``raw`` decodes as RFC 8032 5.1.3 says (``y < p``, a point of the curve) to a point of
    order exactly L, the prime order of the base point: libsodium's
    ``crypto_core_ed25519_is_valid_point``, which refuses non-canonical encodings, points of
    small order (the identity included) and points with a small-order component."""
    return bool(_libsodium().crypto_core_ed25519_is_valid_point(raw))


def _libsodium() -> Any:
    """PyNaCl's libsodium (its cffi module), initialised once as PyNaCl initialises it.

    ``nacl.bindings`` would do the same, but importing it loads every one of PyNaCl's
    15 binding modules (~13 million instructions of a ``domicile verify`` start, which
    needs this one function); the call is libsodium's own, nothing of the check is ours.
    """
    from nacl._sodium import ffi, lib

    # The tag PyNaCl's own `sodium_init` uses, so that libsodium is initialised once
    # whichever of the two comes first.
    if ffi.init_once(lib.sodium_init, "libsodium") == -1:
        raise RuntimeError("libsodium could not be initialised")
    if not lib.PYNACL_HAS_CRYPTO_CORE_ED25519:
        raise RuntimeError("this libsodium is a minimal build, without Ed25519 point checks")
    return lib


class PublicKey:
    """An Ed25519 public key that verifies signatures: a point of the prime-order subgroup
    (see :func:`_prime_order_point`; protocol/SPEC.md §7)."""

    __slots__ = ("_key", "raw")

    def __init__(self, raw: bytes) -> None:
        if len(raw) != PUBLIC_KEY_BYTES:
            raise BadPublicKey(f"an Ed25519 public key is {PUBLIC_KEY_BYTES} bytes, not {len(raw)}")
        if not _prime_order_point(raw):
            raise BadPublicKey(
                "not a valid Ed25519 public key: it does not decode (RFC 8032 5.1.3) to a "
                "point of the prime-order subgroup (small-order and mixed-order keys are refused)"
            )
        try:
            self._key = Ed25519PublicKey.from_public_bytes(raw)
        except (ValueError, UnsupportedAlgorithm) as exc:
            raise BadPublicKey("not a valid Ed25519 public key") from exc
        self.raw = raw

    @classmethod
    def from_hex(cls, text: str) -> PublicKey:
        try:
            raw = bytes.fromhex(text)
        except ValueError as exc:
            raise BadPublicKey("a public key is 64 hex digits") from exc
        return cls(raw)

    @property
    def hex(self) -> str:
        return self.raw.hex()

    def verifies(self, signature: bytes, message: bytes) -> bool:
        """True when ``signature`` is this key's Ed25519 signature of ``message``."""
        if len(signature) != SIGNATURE_BYTES:
            return False
        try:
            self._key.verify(signature, message)
        except InvalidSignature:
            return False
        return True

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PublicKey) and other.raw == self.raw

    def __hash__(self) -> int:
        return hash(self.raw)

    def __repr__(self) -> str:
        return f"PublicKey({self.hex[:16]}…)"


class Identity:
    """An Ed25519 private key: signs the actions (or events) of one player (or host)."""

    __slots__ = ("_key", "public_key")

    def __init__(self, key: Ed25519PrivateKey) -> None:
        self._key = key
        self.public_key = PublicKey(key.public_key().public_bytes_raw())

    @classmethod
    def generate(cls) -> Identity:
        """A fresh key from the operating system's random number generator."""
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_private_bytes(cls, raw: bytes) -> Identity:
        """The key whose 32-byte RFC 8032 private key is ``raw`` (self-play derives these)."""
        if len(raw) != PRIVATE_KEY_BYTES:
            raise ValueError(f"an Ed25519 private key is {PRIVATE_KEY_BYTES} bytes, not {len(raw)}")
        return cls(Ed25519PrivateKey.from_private_bytes(raw))

    @property
    def public_hex(self) -> str:
        return self.public_key.hex

    def sign(self, message: bytes) -> bytes:
        """The 64-byte Ed25519 signature of ``message``."""
        return self._key.sign(message)

    def to_pem(self) -> bytes:
        from cryptography.hazmat.primitives import serialization

        return self._key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )

    @classmethod
    def from_pem(cls, data: bytes, *, source: str = "the key") -> Identity:
        from cryptography.hazmat.primitives import serialization

        try:
            key = serialization.load_pem_private_key(data, password=None)
        except (ValueError, TypeError, UnsupportedAlgorithm) as exc:
            raise IdentityError(
                f"{source} is not a readable private key (corrupt or not PEM); "
                "move it away to create a new identity"
            ) from exc
        if not isinstance(key, Ed25519PrivateKey):
            raise IdentityError(f"{source} is not an Ed25519 key")
        return cls(key)

    def __repr__(self) -> str:
        return f"Identity({self.public_hex[:16]}…)"
