"""The card pack's value types and its one error type.

Everything here is immutable: a loaded :class:`Pack` is shared by the host,
the bots, the clients and the verifier, and nobody may change it under the
others (its :attr:`Pack.content_hash` names it in every transcript).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from domicile_p2p.rules.model import MIN_DREAM_CARDS

CATEGORIES: tuple[str, str, str] = ("character", "location", "item")
"""The investigator card categories, in the order an investigator solves them."""

GHOST_HAND = 7
"""Dream cards in the Ghost's hand (RULES.md, setup step 4)."""

FIRST_GIVE = 3
"""Dream cards :meth:`Pack.check_table` budgets for each investigator's first give."""


class PackError(Exception):
    """A card pack that cannot be used, naming the file, the card and the problem.

    ``path`` is the file (or, for problems of the whole pack, the directory),
    ``card`` the card's id (``#3`` for the third card of a file when it has no
    usable id) or ``None``, and ``problem`` says what is wrong in words.
    """

    path: Path
    card: str | None
    problem: str

    def __init__(self, path: Path | str, card: str | None, problem: str) -> None:
        super().__init__(path, card, problem)
        self.path = Path(path)
        self.card = card
        self.problem = problem

    def __str__(self) -> str:
        where = str(self.path) if self.card is None else f"{self.path}, card {self.card}"
        return f"{where}: {self.problem}"


@dataclass(frozen=True, slots=True)
class LintWarning:
    """Something the pack linter found: the pack still loads and plays, but reads badly.

    ``path`` is the file, ``card`` the card's id or ``None``, ``motif`` the
    motif concerned (warnings about the vocabulary) or ``None``, ``rule`` the
    rule's code (listed in :mod:`domicile_p2p.packs.lint`) and ``message``
    what is wrong and how to fix it, in words.
    """

    path: Path
    card: str | None
    motif: str | None
    rule: str
    message: str

    def __str__(self) -> str:
        if self.card is not None:
            where = f"{self.path}, card {self.card}"
        elif self.motif is not None:
            where = f"{self.path}, motif {self.motif}"
        else:
            where = str(self.path)
        return f"{where}: {self.message} [{self.rule}]"


@dataclass(frozen=True, slots=True)
class InvestigatorCard:
    """A Character, Location or Item card: on the Clue Tableau and in the Ghost's columns."""

    id: str
    category: str
    name: str
    description: str
    motifs: frozenset[str]
    names: tuple[str, ...] = ()
    """The card's short names for the pack linter (the ``names`` field); empty: its head noun."""


@dataclass(frozen=True, slots=True)
class DreamCard:
    """A dream the Ghost can give: surreal imagery that shows its motifs."""

    id: str
    text: str
    motifs: frozenset[str]


@dataclass(frozen=True, slots=True)
class Pack:
    """A validated card pack. Build one with :func:`domicile_p2p.packs.load_pack`.

    Card tuples are in file order. ``content_hash`` is the lower-case hex
    SHA-256 of the pack's canonical encoding (see the package docstring) and
    is what a transcript names; ``source`` is the directory the pack was
    loaded from and takes no part in equality.
    """

    id: str
    name: str
    version: int
    description: str
    motifs: frozenset[str]
    characters: tuple[InvestigatorCard, ...]
    locations: tuple[InvestigatorCard, ...]
    items: tuple[InvestigatorCard, ...]
    dreams: tuple[DreamCard, ...]
    content_hash: str
    source: Path = field(compare=False)
    lint_warnings: tuple[LintWarning, ...] = field(default=(), compare=False)
    """What :func:`domicile_p2p.packs.lint.lint_pack` found when the pack was loaded."""
    _investigator_index: Mapping[str, InvestigatorCard] = field(
        init=False, repr=False, compare=False
    )
    _dream_index: Mapping[str, DreamCard] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        investigators = {c.id: c for c in self.investigator_cards}
        dreams = {d.id: d for d in self.dreams}
        object.__setattr__(self, "_investigator_index", MappingProxyType(investigators))
        object.__setattr__(self, "_dream_index", MappingProxyType(dreams))

    @property
    def investigator_cards(self) -> tuple[InvestigatorCard, ...]:
        """Every investigator card: characters, then locations, then items."""
        return (*self.characters, *self.locations, *self.items)

    def category(self, name: str) -> tuple[InvestigatorCard, ...]:
        """The cards of one category (``"character"``, ``"location"`` or ``"item"``)."""
        if name == "character":
            return self.characters
        if name == "location":
            return self.locations
        if name == "item":
            return self.items
        raise KeyError(f"unknown card category {name!r}; expected one of {', '.join(CATEGORIES)}")

    def investigator_card(self, card_id: str) -> InvestigatorCard:
        """The investigator card with this id, or :class:`KeyError`."""
        try:
            return self._investigator_index[card_id]
        except KeyError:
            raise KeyError(
                f"pack {self.id!r} has no investigator card with id {card_id!r}"
            ) from None

    def dream(self, card_id: str) -> DreamCard:
        """The dream card with this id, or :class:`KeyError`."""
        try:
            return self._dream_index[card_id]
        except KeyError:
            raise KeyError(f"pack {self.id!r} has no dream card with id {card_id!r}") from None

    def card(self, card_id: str) -> InvestigatorCard | DreamCard:
        """Any card by id (ids are unique across the whole pack), or :class:`KeyError`."""
        found = self._investigator_index.get(card_id) or self._dream_index.get(card_id)
        if found is None:
            raise KeyError(f"pack {self.id!r} has no card with id {card_id!r}")
        return found

    def check_table(self, investigators: int, tableau_per_category: int) -> None:
        """Raise :class:`PackError` unless this pack has enough cards for the table.

        Each category must fill a tableau of ``tableau_per_category`` cards, and
        the dream deck must cover the Ghost's hand plus a first give of
        :data:`FIRST_GIVE` cards to every investigator, and never hold fewer than the
        rules' :data:`~domicile_p2p.rules.MIN_DREAM_CARDS` (the Ghost holds 7 cards at
        every Stage Two group give).
        """
        if investigators < 1:
            raise ValueError(f"a table needs at least one investigator, not {investigators}")
        if tableau_per_category < investigators:
            raise ValueError(
                f"a tableau of {tableau_per_category} cards per category cannot give "
                f"{investigators} investigators a card each"
            )
        for name in CATEGORIES:
            have = len(self.category(name))
            if have < tableau_per_category:
                raise PackError(
                    self.source,
                    None,
                    f"a tableau of {tableau_per_category} cards per category needs "
                    f"{tableau_per_category} {name} cards, but the pack has only {have}",
                )
        needed = max(GHOST_HAND + FIRST_GIVE * investigators, MIN_DREAM_CARDS)
        if len(self.dreams) < needed:
            raise PackError(
                self.source,
                None,
                f"a table of {investigators} investigators needs at least {needed} dream cards "
                f"(a hand of {GHOST_HAND} and a first give of {FIRST_GIVE} each, and never "
                f"fewer than {MIN_DREAM_CARDS}), but the pack has only {len(self.dreams)}",
            )
