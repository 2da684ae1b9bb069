"""TLS certificates, pins and the join PAKE: who is who on the network."""

from __future__ import annotations

import os
import secrets
import ssl
import stat
from pathlib import Path

import pytest
from cryptography import x509

from domicile_p2p.net.adapters.pins import PinStore
from domicile_p2p.net.adapters.tls import (
    client_context,
    fingerprint,
    load_or_create_certificate,
    server_context,
)
from domicile_p2p.net.errors import HostIdentityChanged, HostMisbehaved, WireError, WrongCode
from domicile_p2p.net.join.codes import JoinCode
from domicile_p2p.net.join.pake import Binding, ClientPake, host_reply
from domicile_p2p.net.join.words import phrase

CODE = JoinCode(7, "raven", "lantern")


def test_certificate_is_created_once_and_keeps_its_fingerprint(tmp_path: Path) -> None:
    first = load_or_create_certificate(tmp_path)
    again = load_or_create_certificate(tmp_path)
    assert first.fingerprint == again.fingerprint
    assert len(first.fingerprint) == 32
    assert first.phrase == phrase(first.fingerprint)
    assert stat.S_IMODE(os.stat(first.key_path).st_mode) == 0o600
    parsed = x509.load_der_x509_certificate(first.der)
    assert fingerprint(first.der) == bytes(parsed.fingerprint(parsed.signature_hash_algorithm))
    other = load_or_create_certificate(tmp_path / "other")
    assert other.fingerprint != first.fingerprint


def test_contexts_speak_tls_1_3_only_and_the_client_checks_by_fingerprint(tmp_path: Path) -> None:
    server = server_context(load_or_create_certificate(tmp_path))
    client = client_context()
    for context in (server, client):
        assert context.minimum_version is ssl.TLSVersion.TLSv1_3
        assert context.maximum_version is ssl.TLSVersion.TLSv1_3
    assert client.verify_mode is ssl.CERT_NONE and not client.check_hostname


def test_pins_are_per_address_and_a_changed_certificate_is_refused(tmp_path: Path) -> None:
    pins = PinStore.in_data_dir(tmp_path)
    one, two = secrets.token_bytes(32), secrets.token_bytes(32)
    assert pins.check("10.0.0.1:4000", one) is False
    pins.pin("10.0.0.1:4000", one)
    assert PinStore.in_data_dir(tmp_path).check("10.0.0.1:4000", one) is True
    with pytest.raises(HostIdentityChanged, match=r"host identity changed at 10\.0\.0\.1:4000"):
        pins.check("10.0.0.1:4000", two)
    assert pins.check("10.0.0.1:4001", two) is False
    pins.forget("10.0.0.1:4000")
    assert pins.get("10.0.0.1:4000") is None


def test_a_damaged_pin_file_is_an_error_not_an_empty_store(tmp_path: Path) -> None:
    (tmp_path / "pins.json").write_bytes(b"{not json")
    with pytest.raises(ValueError, match="damaged"):
        PinStore.in_data_dir(tmp_path).get("x:1")


def _binding(fingerprint: bytes, player: bytes, nonce: bytes) -> Binding:
    return Binding(nameplate=7, host_fingerprint=fingerprint, player_key=player, nonce=nonce)


def test_pake_with_the_right_code_confirms_both_ways() -> None:
    host_fp, player, nonce = (secrets.token_bytes(32) for _ in range(3))
    client = ClientPake(CODE, _binding(host_fp, player, nonce))
    reply = host_reply(CODE, _binding(host_fp, player, nonce), client.message)
    client_mac = client.finish(reply.message, reply.mac)
    assert reply.client_confirmed(client_mac)


def test_pake_with_a_wrong_code_fails_on_the_client_with_wrong_code() -> None:
    host_fp, player, nonce = (secrets.token_bytes(32) for _ in range(3))
    client = ClientPake(JoinCode(7, "raven", "moss"), _binding(host_fp, player, nonce))
    reply = host_reply(CODE, _binding(host_fp, player, nonce), client.message)
    with pytest.raises(WrongCode, match="wrong table code"):
        client.finish(reply.message, reply.mac)
    # A client that lies about having checked gets nowhere either.
    assert not reply.client_confirmed(bytes(32))


@pytest.mark.parametrize("differs", ["fingerprint", "player", "nonce"])
def test_pake_confirmation_binds_certificate_player_and_challenge(differs: str) -> None:
    """A relay in the middle shows the client another certificate: both sides refuse."""
    host_fp, player, nonce = (secrets.token_bytes(32) for _ in range(3))
    seen = {
        "fingerprint": (secrets.token_bytes(32), player, nonce),
        "player": (host_fp, secrets.token_bytes(32), nonce),
        "nonce": (host_fp, player, secrets.token_bytes(32)),
    }[differs]
    client = ClientPake(CODE, _binding(*seen))
    reply = host_reply(CODE, _binding(host_fp, player, nonce), client.message)
    with pytest.raises(WrongCode):
        client.finish(reply.message, reply.mac)


def test_malformed_pake_messages_are_typed_errors_of_the_sender() -> None:
    binding = _binding(bytes(32), bytes(32), bytes(32))
    with pytest.raises(WireError, match="PAKE message is malformed"):
        host_reply(CODE, binding, b"A" + bytes(32))
    with pytest.raises(WireError, match="PAKE message is malformed"):
        host_reply(CODE, binding, b"A" + bytes(10))
    client = ClientPake(CODE, binding)
    with pytest.raises(HostMisbehaved):
        client.finish(b"\x00" * 33, bytes(32))
    reflected = ClientPake(CODE, binding)
    with pytest.raises(HostMisbehaved):
        reflected.finish(reflected.message, bytes(32))
