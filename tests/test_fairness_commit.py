"""The setup's hashes and commitments: framing, domain separation, binding to game and seat."""

from __future__ import annotations

import hashlib
import hmac
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domicile_p2p.fairness.commit import (
    CULPRIT_SLOT,
    ENTROPY_COMMIT_DOMAIN,
    GHOST_COMMIT_DOMAIN,
    GHOST_KEY_DOMAIN,
    JOINT_SEED_DOMAIN,
    SLOT_COMMIT_DOMAIN,
    CommitmentError,
    SlotOpening,
    column_slot,
    entropy_commitment,
    frame,
    ghost_commitment,
    ghost_key,
    joint_seed,
    same_digest,
    slot_cards,
    slot_commitment,
    slot_names,
    slot_openings,
    slot_salt,
    tagged_hash,
    u32,
)
from domicile_p2p.fairness.deal import deal_secrets, deal_tableau
from domicile_p2p.fairness.derive import stream_bytes
from domicile_p2p.rules import Category, Difficulty, TableConfig

GAME = bytes(range(16))
SEED = bytes([7]) * 32


def test_a_frame_is_length_prefixed_big_endian() -> None:
    assert frame("ab", b"xyz", b"") == (
        b"\x00\x00\x00\x02ab" + b"\x00\x00\x00\x03xyz" + b"\x00\x00\x00\x00"
    )
    assert tagged_hash("ab", b"xyz") == hashlib.sha256(frame("ab", b"xyz")).digest()


@given(st.lists(st.binary(max_size=8), max_size=4), st.lists(st.binary(max_size=8), max_size=4))
def test_frames_of_different_field_lists_differ(left: list[bytes], right: list[bytes]) -> None:
    if left != right:
        assert frame("d", *left) != frame("d", *right)


def test_domains_separate_equal_fields() -> None:
    domains = {
        GHOST_COMMIT_DOMAIN,
        ENTROPY_COMMIT_DOMAIN,
        JOINT_SEED_DOMAIN,
        GHOST_KEY_DOMAIN,
        SLOT_COMMIT_DOMAIN,
    }
    assert len({tagged_hash(domain, SEED) for domain in domains}) == len(domains)
    assert all(domain.startswith("domicile-p2p/v1/") for domain in domains)


def test_u32_refuses_what_does_not_fit() -> None:
    assert u32(2**32 - 1) == b"\xff" * 4
    for bad in (-1, 2**32):
        with pytest.raises(CommitmentError):
            u32(bad)


def test_the_ghost_commitment_is_the_documented_hash() -> None:
    expected = hashlib.sha256(
        struct.pack(">I", len(GHOST_COMMIT_DOMAIN))
        + GHOST_COMMIT_DOMAIN.encode()
        + struct.pack(">I", 32)
        + SEED
    ).digest()
    assert ghost_commitment(SEED) == expected


def test_an_entropy_commitment_binds_the_game_and_the_seat() -> None:
    entropy = bytes(32)
    base = entropy_commitment(GAME, 1, entropy)
    assert base != entropy_commitment(GAME, 2, entropy)
    assert base != entropy_commitment(bytes(16), 1, entropy)
    assert base != entropy_commitment(GAME, 1, bytes([1]) + bytes(31))


def test_the_joint_seed_depends_on_every_input_and_their_order() -> None:
    commit = ghost_commitment(SEED)
    one, two = bytes([1]) * 32, bytes([2]) * 32
    seeds = {
        joint_seed(GAME, commit, [one, two]),
        joint_seed(GAME, commit, [two, one]),
        joint_seed(GAME, commit, [one]),
        joint_seed(GAME, ghost_commitment(bytes(32)), [one, two]),
        joint_seed(bytes(16), commit, [one, two]),
    }
    assert len(seeds) == 5


def test_the_ghost_key_is_hmac_of_the_seed_over_the_framed_joint_seed() -> None:
    joint = bytes([9]) * 32
    expected = hmac.new(SEED, frame(GHOST_KEY_DOMAIN, joint), hashlib.sha256).digest()
    assert ghost_key(SEED, joint) == expected
    assert ghost_key(SEED, joint) != ghost_key(bytes(32), joint)


@pytest.mark.parametrize(
    ("call", "args"),
    [
        (ghost_commitment, (bytes(31),)),
        (entropy_commitment, (bytes(15), 1, bytes(32))),
        (entropy_commitment, (GAME, 1, bytes(33))),
        (joint_seed, (GAME, bytes(31), [])),
        (joint_seed, (GAME, bytes(32), [bytes(5)])),
        (ghost_key, (bytes(32), bytes(31))),
        (slot_commitment, (GAME, "culprit", bytes(31), "char-01")),
    ],
)
def test_wrong_sizes_are_refused(call: object, args: tuple[object, ...]) -> None:
    with pytest.raises(CommitmentError):
        call(*args)  # type: ignore[operator]


def test_slot_names_are_in_protocol_order() -> None:
    assert slot_names(2) == (
        "column/1/character",
        "column/1/location",
        "column/1/item",
        "column/2/character",
        "column/2/location",
        "column/2/item",
        CULPRIT_SLOT,
    )
    assert column_slot(3, Category.ITEM) == "column/3/item"


def test_salts_are_the_derivation_stream_and_differ_per_slot() -> None:
    key = bytes([5]) * 32
    salts = {slot_salt(key, slot) for slot in slot_names(6)}
    assert len(salts) == 19
    assert slot_salt(key, "culprit") == stream_bytes(key, "domicile-p2p/v1/salt/culprit", 32)


def test_a_slot_commitment_binds_game_slot_salt_and_card() -> None:
    salt = bytes([3]) * 32
    base = slot_commitment(GAME, "column/1/item", salt, "item-01")
    assert base != slot_commitment(bytes(16), "column/1/item", salt, "item-01")
    assert base != slot_commitment(GAME, "column/2/item", salt, "item-01")
    assert base != slot_commitment(GAME, "column/1/item", bytes(32), "item-01")
    assert base != slot_commitment(GAME, "column/1/item", salt, "item-02")
    opening = SlotOpening("column/1/item", salt, "item-01")
    assert opening.opens(GAME, base)
    assert not SlotOpening("column/1/item", salt, "item-02").opens(GAME, base)


def _setup() -> tuple[bytes, object]:
    cards = {
        Category.CHARACTER: [f"char-{i}" for i in range(10)],
        Category.LOCATION: [f"loc-{i}" for i in range(10)],
        Category.ITEM: [f"item-{i}" for i in range(10)],
    }
    config = TableConfig(Difficulty.NORMAL, ("A", "B", "C"), tuple(f"d{i}" for i in range(20)))
    tableau = deal_tableau(bytes(32), cards, 7)
    key = bytes([1]) * 32
    return key, deal_secrets(key, config, tableau)


def test_the_slots_hold_the_columns_and_the_culprits_character() -> None:
    key, setup = _setup()
    cards = slot_cards(setup)  # type: ignore[arg-type]
    assert list(cards) == list(slot_names(3))
    for seat, column in enumerate(setup.columns, start=1):  # type: ignore[attr-defined]
        assert cards[f"column/{seat}/location"] == column.location
    culprit = setup.columns[setup.culprit - 1]  # type: ignore[attr-defined]
    assert cards[CULPRIT_SLOT] == culprit.character
    openings = slot_openings(key, setup)  # type: ignore[arg-type]
    assert openings[CULPRIT_SLOT].salt == slot_salt(key, CULPRIT_SLOT)


def test_digests_compare_in_constant_time_and_correctly() -> None:
    assert same_digest(b"a" * 32, b"a" * 32)
    assert not same_digest(b"a" * 32, b"b" * 32)
