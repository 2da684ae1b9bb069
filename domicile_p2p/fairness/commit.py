"""Commitments and keys of the setup protocol (``protocol/SPEC.md``, "Commitments").

Every hash in the protocol is SHA-256 over a *frame*: a domain string and a
list of byte fields, each preceded by its length as a 4-byte big-endian
integer::

    frame(domain, f1, ..., fn) = u32be(len(domain)) || domain || u32be(len(f1)) || f1 || ...
    H(domain, f1, ..., fn)     = SHA-256(frame(domain, f1, ..., fn))

The length prefixes make the frame injective (no two field lists share a
frame), and the domain keeps every use of the hash apart, so a value hashed
for one purpose can never be passed off as another.  Integers enter a frame
as their 4-byte big-endian encoding; strings as their UTF-8 bytes.

The setup, in protocol order (``g`` is the Ghost's 256-bit seed):

- ``ghost_commit = H("domicile-p2p/v1/ghost-commit", g)``, published first;
- each investigator ``s`` commits ``H("domicile-p2p/v1/entropy-commit",
  game_id, u32be(s), e_s)`` to 32 bytes of entropy ``e_s``, and reveals
  ``e_s`` only when every commitment is in;
- the joint seed ``J = H("domicile-p2p/v1/joint-seed", game_id, ghost_commit,
  e_1, ..., e_K)`` (seat order) deals the public tableau;
- the Ghost's key ``K = HMAC-SHA256(g, frame("domicile-p2p/v1/ghost-key", J))``
  deals the secrets (``deal.deal_secrets``);
- per slot (``column/<seat>/<category>`` and ``culprit``) a salt, the first
  32 bytes of ``stream(K, "domicile-p2p/v1/salt/" + slot)``, and the salted
  commitment ``H("domicile-p2p/v1/slot-commit", game_id, slot, salt, card)``.

A bare hash of a card id could be inverted by trying the few dozen ids; the
256-bit salt is what makes a slot commitment hiding, and SHA-256's collision
resistance what makes it binding.
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections.abc import Sequence
from typing import Any, Final

from domicile_p2p.fairness.deal import label
from domicile_p2p.fairness.derive import stream_bytes
from domicile_p2p.rules import CATEGORY_ORDER, Category, SecretSetup
from domicile_p2p.rules.records import Record
from domicile_p2p.rules.records import set_field as _set

GAME_ID_BYTES: Final = 16
SEED_BYTES: Final = 32
ENTROPY_BYTES: Final = 32
SALT_BYTES: Final = 32
DIGEST_BYTES: Final = 32

GHOST_COMMIT_DOMAIN: Final = "domicile-p2p/v1/ghost-commit"
ENTROPY_COMMIT_DOMAIN: Final = "domicile-p2p/v1/entropy-commit"
JOINT_SEED_DOMAIN: Final = "domicile-p2p/v1/joint-seed"
GHOST_KEY_DOMAIN: Final = "domicile-p2p/v1/ghost-key"
SLOT_COMMIT_DOMAIN: Final = "domicile-p2p/v1/slot-commit"

CULPRIT_SLOT: Final = "culprit"
"""The slot of the culprit: it holds the culprit column's Character card id,
which is exactly what Stage Two's correct verdict must show."""


class CommitmentError(ValueError):
    """A commitment input of the wrong size or shape (the caller's bug)."""


_pack_u32: Final = struct.Struct(">I").pack


def u32(value: int) -> bytes:
    """``value`` as 4 bytes, big-endian."""
    if not 0 <= value < 2**32:
        raise CommitmentError(f"{value} does not fit in 32 bits")
    return _pack_u32(value)


def length_prefixed(*fields: bytes) -> bytes:
    """``u32be(len(f1)) || f1 || ... || u32be(len(fn)) || fn``."""
    # Every event is framed three times (host signature, action signature, chain link):
    # one list and one join, no generator and no call per field.
    parts: list[bytes] = []
    for field in fields:
        size = len(field)
        if size >= 2**32:
            raise CommitmentError(f"{size} does not fit in 32 bits")
        parts += (_pack_u32(size), field)
    return b"".join(parts)


def frame(domain: str, *fields: bytes) -> bytes:
    """The length-prefixed encoding of ``domain`` and ``fields`` (see the module docstring)."""
    return length_prefixed(domain.encode("ascii"), *fields)


def tagged_hash(domain: str, *fields: bytes) -> bytes:
    """``H(domain, fields...)``: SHA-256 of the frame."""
    return hashlib.sha256(frame(domain, *fields)).digest()


def same_digest(left: bytes, right: bytes) -> bool:
    """Compare two digests in constant time (no timing hint about a secret-derived value)."""
    return hmac.compare_digest(left, right)


def _require(value: bytes, size: int, what: str) -> None:
    if len(value) != size:
        raise CommitmentError(f"{what} must be {size} bytes, got {len(value)}")


def ghost_commitment(seed: bytes) -> bytes:
    """``H("domicile-p2p/v1/ghost-commit", g)``: published before anything random is public."""
    _require(seed, SEED_BYTES, "the Ghost's seed")
    return tagged_hash(GHOST_COMMIT_DOMAIN, seed)


def entropy_commitment(game_id: bytes, seat: int, entropy: bytes) -> bytes:
    """An investigator's commitment to its entropy, bound to the game and the seat.

    Binding the seat stops an investigator from copying another's commitment
    (and later its reveal) to cancel or mirror someone else's contribution.
    """
    _require(game_id, GAME_ID_BYTES, "the game id")
    _require(entropy, ENTROPY_BYTES, "an investigator's entropy")
    return tagged_hash(ENTROPY_COMMIT_DOMAIN, game_id, u32(seat), entropy)


def joint_seed(game_id: bytes, ghost_commit: bytes, entropies: Sequence[bytes]) -> bytes:
    """``J``: the game id, the Ghost's commitment and each investigator's entropy, in seat order."""
    _require(game_id, GAME_ID_BYTES, "the game id")
    _require(ghost_commit, DIGEST_BYTES, "the Ghost's commitment")
    for entropy in entropies:
        _require(entropy, ENTROPY_BYTES, "an investigator's entropy")
    return tagged_hash(JOINT_SEED_DOMAIN, game_id, ghost_commit, *entropies)


def ghost_key(seed: bytes, joint: bytes) -> bytes:
    """``K = HMAC-SHA256(g, frame("domicile-p2p/v1/ghost-key", J))``: the key of every secret.

    The Ghost fixed ``g`` before ``J`` existed, and nobody but the Ghost
    knows ``g``: so nobody, the Ghost included, could choose the secrets.
    """
    _require(seed, SEED_BYTES, "the Ghost's seed")
    _require(joint, DIGEST_BYTES, "the joint seed")
    return hmac.new(seed, frame(GHOST_KEY_DOMAIN, joint), hashlib.sha256).digest()


def column_slot(seat: int, category: Category) -> str:
    """The slot of one investigator's secret card: ``column/<seat>/<category>``."""
    return f"column/{seat}/{category.value}"


def slot_names(investigators: int) -> tuple[str, ...]:
    """Every slot of a table in protocol order: seat by seat, category by category, culprit last."""
    columns = [
        column_slot(seat, category)
        for seat in range(1, investigators + 1)
        for category in CATEGORY_ORDER
    ]
    return (*columns, CULPRIT_SLOT)


def slot_salt(key: bytes, slot: str) -> bytes:
    """The salt of ``slot``: the first 32 bytes of ``stream(K, "domicile-p2p/v1/salt/" + slot)``."""
    return stream_bytes(key, label("salt", slot), SALT_BYTES)


def slot_commitment(game_id: bytes, slot: str, salt: bytes, card: str) -> bytes:
    """``H("domicile-p2p/v1/slot-commit", game_id, slot, salt, card)``."""
    _require(game_id, GAME_ID_BYTES, "the game id")
    _require(salt, SALT_BYTES, "a salt")
    return tagged_hash(
        SLOT_COMMIT_DOMAIN, game_id, slot.encode("ascii"), salt, card.encode("utf-8")
    )


class SlotOpening(Record):
    """What opens one slot commitment: the salt and the card."""

    slot: str
    salt: bytes
    card: str

    __slots__ = ("card", "salt", "slot")
    __match_args__ = ("slot", "salt", "card")
    __record_fields__ = ("slot", "salt", "card")

    def __init__(self, slot: str, salt: bytes, card: str) -> None:
        _set(self, "slot", slot)
        _set(self, "salt", salt)
        _set(self, "card", card)

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__qualname__}("
            f"slot={self.slot!r}, "
            f"salt={self.salt!r}, "
            f"card={self.card!r})"
        )

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return (self.slot, self.salt, self.card) == (other.slot, other.salt, other.card)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.slot, self.salt, self.card))

    def commitment(self, game_id: bytes) -> bytes:
        return slot_commitment(game_id, self.slot, self.salt, self.card)

    def opens(self, game_id: bytes, commitment: bytes) -> bool:
        """True when this opening matches ``commitment``."""
        return same_digest(self.commitment(game_id), commitment)


def slot_cards(setup: SecretSetup) -> dict[str, str]:
    """The card behind every slot of a secret setup, in protocol order."""
    cards = {
        column_slot(seat, category): column.card(category)
        for seat, column in enumerate(setup.columns, start=1)
        for category in CATEGORY_ORDER
    }
    cards[CULPRIT_SLOT] = setup.columns[setup.culprit - 1].character
    return cards


def slot_openings(key: bytes, setup: SecretSetup) -> dict[str, SlotOpening]:
    """Every slot's opening for the secrets dealt from ``key``, in protocol order."""
    return {
        slot: SlotOpening(slot, slot_salt(key, slot), card)
        for slot, card in slot_cards(setup).items()
    }
