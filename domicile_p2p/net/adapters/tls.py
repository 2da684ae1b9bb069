"""TLS 1.3 for the table: the host's self-signed certificate and both sides' contexts.

The host's identity is the SHA-256 fingerprint of its certificate (DER), not
a name a CA vouches for: a LAN party has no CA, and a server elsewhere need
not have a domain.  So:

- the host creates an ECDSA P-256 key and a self-signed certificate once and
  keeps them in its data dir (the key ``0600``), so the fingerprint survives
  restarts and ``--resume``;
- the client does not validate the chain (``CERT_NONE``, no host name check)
  but reads the certificate the server presented and compares its fingerprint
  with the one it pinned at the first join, or proves it in the join PAKE
  (``join/pake.py``) on first contact;
- both sides speak TLS 1.3 and nothing else.
"""

from __future__ import annotations

import datetime
import hashlib
import ssl
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from domicile_p2p.net.adapters.files import write_atomic
from domicile_p2p.net.join.words import phrase

KEY_FILE: Final = "tls-key.pem"
CERT_FILE: Final = "tls-cert.pem"
FINGERPRINT_BYTES: Final = 32
_VALIDITY: Final = datetime.timedelta(days=100 * 365)
"""Nobody checks expiry (the pin is the trust), but a certificate must have one."""


def fingerprint(certificate_der: bytes) -> bytes:
    """The host's identity: SHA-256 of its certificate in DER."""
    return hashlib.sha256(certificate_der).digest()


@dataclass(frozen=True, slots=True)
class HostCertificate:
    """Where the host's certificate and key live, and the fingerprint they give."""

    cert_path: Path
    key_path: Path
    der: bytes

    @property
    def fingerprint(self) -> bytes:
        return fingerprint(self.der)

    @property
    def fingerprint_hex(self) -> str:
        return self.fingerprint.hex()

    @property
    def phrase(self) -> str:
        """The fingerprint as six words, for people to compare across screens."""
        return phrase(self.fingerprint)


def load_or_create_certificate(
    directory: Path, common_name: str = "domicile host"
) -> HostCertificate:
    """The certificate kept in ``directory``, created on first use."""
    cert_path = directory / CERT_FILE
    key_path = directory / KEY_FILE
    if not (cert_path.exists() and key_path.exists()):
        key = ec.generate_private_key(ec.SECP256R1())
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])
        now = datetime.datetime.now(datetime.UTC)
        certificate = (
            x509.CertificateBuilder()
            .subject_name(name)
            .issuer_name(name)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + _VALIDITY)
            .sign(key, hashes.SHA256())
        )
        key_pem = key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        # The key first: a crash between the two writes leaves no certificate,
        # so the next start makes a fresh pair instead of a mismatched one.
        write_atomic(key_path, key_pem, private=True)
        write_atomic(cert_path, certificate.public_bytes(serialization.Encoding.PEM))
    der = x509.load_pem_x509_certificate(cert_path.read_bytes()).public_bytes(
        serialization.Encoding.DER
    )
    return HostCertificate(cert_path, key_path, der)


def _tls13_only(context: ssl.SSLContext) -> ssl.SSLContext:
    context.minimum_version = ssl.TLSVersion.TLSv1_3
    context.maximum_version = ssl.TLSVersion.TLSv1_3
    return context


def server_context(certificate: HostCertificate) -> ssl.SSLContext:
    context = _tls13_only(ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER))
    context.load_cert_chain(certificate.cert_path, certificate.key_path)
    return context


def client_context() -> ssl.SSLContext:
    """A context that accepts any certificate: the caller must check :func:`peer_fingerprint`."""
    context = _tls13_only(ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT))
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def peer_fingerprint(ssl_object: ssl.SSLObject | ssl.SSLSocket | None) -> bytes:
    """The fingerprint of the certificate the other side presented on this connection."""
    if ssl_object is None:
        raise ValueError("the connection is not TLS")
    der = ssl_object.getpeercert(binary_form=True)
    if not der:
        raise ValueError("the server presented no certificate")
    return fingerprint(der)
