"""Identity keys: created once with private permissions, loaded after, refused when unsafe."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from domicile_p2p.identity import BadPublicKey, Identity, IdentityError, PublicKey
from domicile_p2p.net.adapters.key_files import (
    IDENTITY_FILE,
    default_data_dir,
    load_identity,
    load_or_create_identity,
    read_private_file,
    write_private_file,
)

posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")


def test_the_default_data_dir_is_the_platform_user_data_dir() -> None:
    assert default_data_dir().name == "domicile-p2p"


@posix_only
def test_the_key_is_created_once_with_private_permissions(tmp_path: Path) -> None:
    data = tmp_path / "nested" / "data"
    first = load_or_create_identity(data)
    key_file = data / IDENTITY_FILE
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    assert load_or_create_identity(data).public_key == first.public_key
    assert key_file.read_bytes().startswith(b"-----BEGIN PRIVATE KEY-----")
    assert [p.name for p in data.iterdir()] == [IDENTITY_FILE]  # no temporary left behind


def test_a_corrupt_key_file_is_a_clear_error(tmp_path: Path) -> None:
    write_private_file(tmp_path / IDENTITY_FILE, b"-----BEGIN PRIVATE KEY-----\ngarbage\n")
    with pytest.raises(IdentityError, match="not a readable private key"):
        load_or_create_identity(tmp_path)


def test_a_key_of_another_algorithm_is_refused(tmp_path: Path) -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ec import SECP256R1, generate_private_key

    pem = generate_private_key(SECP256R1()).private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    write_private_file(tmp_path / IDENTITY_FILE, pem)
    with pytest.raises(IdentityError, match="not an Ed25519 key"):
        load_or_create_identity(tmp_path)


@posix_only
def test_a_key_file_others_can_read_is_refused(tmp_path: Path) -> None:
    identity = load_or_create_identity(tmp_path)
    assert identity
    os.chmod(tmp_path / IDENTITY_FILE, 0o644)
    with pytest.raises(IdentityError, match="chmod 600"):
        load_or_create_identity(tmp_path)


def test_a_directory_in_place_of_the_key_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / IDENTITY_FILE).mkdir()
    with pytest.raises(IdentityError, match="directory"):
        load_or_create_identity(tmp_path)


def test_an_unwritable_data_dir_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_bytes(b"")
    with pytest.raises(IdentityError, match=r"cannot (read|write)"):
        load_or_create_identity(blocker / "data")
    with pytest.raises(IdentityError, match="cannot write"):
        write_private_file(blocker / "data" / "key", b"x")


def test_a_missing_file_is_reported_as_missing(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        load_identity(tmp_path / "nothing.pem")
    with pytest.raises(FileNotFoundError):
        read_private_file(tmp_path / "nothing")


def test_an_exclusive_write_keeps_the_first_file(tmp_path: Path) -> None:
    path = tmp_path / "secret"
    assert write_private_file(path, b"one", exclusive=True)
    assert not write_private_file(path, b"two", exclusive=True)
    assert path.read_bytes() == b"one"
    assert write_private_file(path, b"three")
    assert path.read_bytes() == b"three"


def test_keys_sign_and_verify() -> None:
    identity = Identity.from_private_bytes(bytes(range(32)))
    signature = identity.sign(b"message")
    key = PublicKey.from_hex(identity.public_hex)
    assert key.verifies(signature, b"message")
    assert not key.verifies(signature, b"messagf")
    assert not key.verifies(signature[:-1], b"message")
    assert not key.verifies(bytes(64), b"message")
    other = Identity.from_private_bytes(bytes(32))
    assert not other.public_key.verifies(signature, b"message")


def test_a_derived_key_is_the_rfc8032_key_of_its_seed() -> None:
    # RFC 8032, section 7.1, test 1.
    secret = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
    identity = Identity.from_private_bytes(secret)
    assert identity.public_hex == (
        "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
    )
    assert identity.sign(b"").hex() == (
        "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
        "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
    )
    assert Identity.from_pem(identity.to_pem()).public_key == identity.public_key


@pytest.mark.parametrize("text", ["", "00" * 31, "00" * 33, "zz" * 32])
def test_bad_public_keys_are_refused(text: str) -> None:
    with pytest.raises(BadPublicKey):
        PublicKey.from_hex(text)


def test_a_private_key_of_the_wrong_size_is_refused() -> None:
    with pytest.raises(ValueError):
        Identity.from_private_bytes(bytes(31))


def test_the_point_check_is_pynacls_own() -> None:
    # `PublicKey` calls libsodium through PyNaCl's cffi module (importing `nacl.bindings`
    # costs every `domicile verify` ~13 million instructions); its verdicts are those of
    # PyNaCl's binding, and it initialises libsodium itself in a process that never
    # imports the bindings.
    from nacl.bindings import crypto_core_ed25519_is_valid_point

    from protocol_tools.vectors import key_vectors

    keys = [case["key"] for case in key_vectors()["keys"]]
    assert len(keys) >= 8
    probe = (
        "import sys\n"
        "from domicile_p2p.identity import _prime_order_point\n"
        f"print([_prime_order_point(bytes.fromhex(k)) for k in {keys!r}])\n"
        "print('nacl.bindings' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    expected = [crypto_core_ed25519_is_valid_point(bytes.fromhex(key)) for key in keys]
    assert result.stdout.split("\n")[:2] == [str(expected), "False"]
    assert expected.count(True) == 1  # the one key of order L
