"""What a transcript records of the card pack: its id, content hash and card ids.

The genesis names the pack's id and content hash (``domicile_p2p.packs``)
and lists every card id, so the cryptographic checks need only the
transcript; the pack itself is needed to show the cards, and ``verify``
checks that the pack at hand is the one the game was played with.

This module reads a pack by its shape (``id``, ``content_hash`` and the card
tuples) so that the transcript layer does not depend on the pack loader;
the built-in pack's identity comes from its record (``packs.record``), and
the loader is imported only when the record does not hold.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Protocol

from domicile_p2p.packs.record import recorded_default
from domicile_p2p.rules.records import FACTORY, Record
from domicile_p2p.rules.records import set_field as _set
from domicile_p2p.transcript.schema import CardLists


class _Card(Protocol):
    @property
    def id(self) -> str: ...


class _NamedCard(_Card, Protocol):
    @property
    def name(self) -> str: ...


class PackLike(Protocol):
    """The parts of ``domicile_p2p.packs.Pack`` a transcript refers to."""

    @property
    def id(self) -> str: ...
    @property
    def content_hash(self) -> str: ...
    @property
    def characters(self) -> Sequence[_NamedCard]: ...
    @property
    def locations(self) -> Sequence[_Card]: ...
    @property
    def items(self) -> Sequence[_Card]: ...
    @property
    def dreams(self) -> Sequence[_Card]: ...


def card_lists(pack: PackLike) -> CardLists:
    """Every card id of ``pack``, per category, sorted (as the genesis lists them)."""

    def ids(cards: Sequence[_Card]) -> tuple[str, ...]:
        return tuple(sorted(card.id for card in cards))

    return CardLists(ids(pack.characters), ids(pack.locations), ids(pack.items), ids(pack.dreams))


class PackIdentity(Record):
    """A pack as a transcript names it (and its characters' names, to say who did it)."""

    id: str
    hash: str
    cards: CardLists
    character_names: Mapping[str, str]
    """Each character card's name by its id (``{}``: not known; the verifier says the
    culprit's card id then).  Words for people, not part of what is checked."""

    __slots__ = ("cards", "character_names", "hash", "id")
    __match_args__ = ("id", "hash", "cards", "character_names")
    __record_fields__ = ("id", "hash", "cards", "character_names")
    __record_uncompared__ = frozenset(("character_names",))
    __record_factories__: ClassVar[dict[str, Any]] = {"character_names": dict}

    def __init__(
        self,
        id: str,
        hash: str,
        cards: CardLists,
        character_names: Mapping[str, str] = FACTORY,
    ) -> None:
        _set(self, "id", id)
        _set(self, "hash", hash)
        _set(self, "cards", cards)
        _set(self, "character_names", {} if character_names is FACTORY else character_names)

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__qualname__}("
            f"id={self.id!r}, "
            f"hash={self.hash!r}, "
            f"cards={self.cards!r}, "
            f"character_names={self.character_names!r})"
        )

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return (self.id, self.hash, self.cards) == (other.id, other.hash, other.cards)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.id, self.hash, self.cards))

    @classmethod
    def of(cls, pack: PackLike) -> PackIdentity:
        names = {card.id: card.name for card in pack.characters}
        return cls(pack.id, pack.content_hash, card_lists(pack), names)

    def character_name(self, card: str) -> str:
        """The name of character card ``card``, or its id when the name is not known."""
        return self.character_names.get(card, card)

    @classmethod
    def builtin(cls) -> PackIdentity:
        """The built-in pack's identity: from its record while that holds, else loaded."""
        recorded = recorded_default()
        if recorded is None:
            from domicile_p2p.packs import load_default_pack  # the pack was edited: load it

            return cls.of(load_default_pack())
        cards = recorded.cards
        lists = CardLists(cards["character"], cards["location"], cards["item"], cards["dream"])
        return cls(recorded.id, recorded.content_hash, lists, recorded.character_names)
