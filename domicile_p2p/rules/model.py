"""The game as data: seats, difficulty, cards on the table, and the state.

Everything here is frozen.  A :class:`GameState` has two levels of
knowledge: the public part every peer can check as events arrive, and an
optional :class:`Secrets` part that only the Ghost's process (and, after the
reveal, every verifier) holds.  The engine runs the same code on both; with
``secrets=None`` it tracks the Ghost's hand, deck and discard pile as counts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from typing import Final

GHOST: Final = 0
"""The Ghost's seat.  Investigators sit in seats ``1..K``."""

TABLE_HOST: Final = -1
"""Who makes the host's own moves (the sand-glass running out): no seat, the host."""

HAND_SIZE: Final = 7
LAST_DAY: Final = 7
MAX_INVESTIGATORS: Final = 6
GROUP_GIVE_SIZE: Final = 3
MAX_CHAT_LENGTH: Final = 500
MAX_NAME_LENGTH: Final = 40
"""A player's, the Ghost's or a table's name, in characters: the names the table's
config holds, as the transcript's genesis and the network's lobby carry them."""
PROTOCOL_VERSION: Final = 3
"""The protocol version whose rules this engine plays by default (docs/RULES.md: a changed
rule is a new protocol version).  The genesis of every transcript names its version."""
RULE_VERSIONS: Final = (2, 3)
"""The protocol versions whose rules the engine can replay: version 2's games still verify
under version 2's refresh and group-give rules."""
FIRST_STAGE_TWO_DAY: Final = 4
"""Stage Two starts at the earliest on day 4: each investigator finds one card a day."""
MIN_DREAM_CARDS: Final = HAND_SIZE + GROUP_GIVE_SIZE * (LAST_DAY - FIRST_STAGE_TWO_DAY)
"""The fewest dream cards a table plays with (protocol 3): the Ghost's hand of 7 plus the
9 dream cards of three wrong accusations, so that the Ghost holds 7 cards at every Stage
Two group give (Stage One's dreams are all discarded by then: each investigator's last
séance was correct)."""
MIN_TIMER: Final = 10
MAX_TIMER: Final = 3600
"""The bounds of a table's sand-glass (``GameConfig.timer``), in seconds."""


class Difficulty(StrEnum):
    EASY = "easy"
    NORMAL = "normal"
    DIFFICULT = "difficult"
    VERY_DIFFICULT = "very-difficult"

    @property
    def label(self) -> str:
        return self.value.replace("-", " ").capitalize()


@dataclass(frozen=True, slots=True)
class DifficultyRules:
    """One row of RULES.md's difficulty table."""

    extra_tableau_cards: int
    refreshes_per_round: int
    refreshes_per_game: int | None

    def tableau_size(self, investigators: int) -> int:
        return investigators + self.extra_tableau_cards


DIFFICULTY_RULES: Final[dict[Difficulty, DifficultyRules]] = {
    Difficulty.EASY: DifficultyRules(3, refreshes_per_round=1, refreshes_per_game=None),
    Difficulty.NORMAL: DifficultyRules(4, refreshes_per_round=1, refreshes_per_game=3),
    Difficulty.DIFFICULT: DifficultyRules(5, refreshes_per_round=1, refreshes_per_game=1),
    Difficulty.VERY_DIFFICULT: DifficultyRules(6, refreshes_per_round=0, refreshes_per_game=0),
}


class Category(StrEnum):
    CHARACTER = "character"
    LOCATION = "location"
    ITEM = "item"

    @property
    def label(self) -> str:
        return self.value.capitalize()


CATEGORY_ORDER: Final = (Category.CHARACTER, Category.LOCATION, Category.ITEM)


class Stage(IntEnum):
    PLOT = 1
    CULPRIT = 2


class Phase(StrEnum):
    DREAMS = "dreams"
    INVESTIGATION = "investigation"
    SEANCE = "seance"
    ENDED = "ended"


class Outcome(StrEnum):
    WON = "won"
    LOST = "lost"


@dataclass(frozen=True, slots=True)
class TableConfig:
    """What is fixed for the whole game and known to everyone."""

    difficulty: Difficulty
    investigator_names: tuple[str, ...]
    dream_cards: tuple[str, ...]
    ghost_name: str = "The Ghost"
    timer: int | None = None
    """Seconds of the investigation's sand-glass, or ``None`` (no time limit).  The
    engine keeps no clock: the host says when time is up (:class:`TimeUp`)."""
    protocol: int = PROTOCOL_VERSION
    """The protocol version whose rules the table plays (one of :data:`RULE_VERSIONS`):
    version 2 refreshes while a single card can be drawn and gives the group
    ``min(3, hand)`` dream cards; version 3 refreshes only into a full new hand, gives
    the group exactly 3 and needs :data:`MIN_DREAM_CARDS`."""
    dream_card_set: frozenset[str] = field(init=False, repr=False, compare=False)
    """``dream_cards`` as a set, built once: every give checks its cards against it."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "dream_card_set", frozenset(self.dream_cards))

    @property
    def investigators(self) -> int:
        return len(self.investigator_names)

    @property
    def seats(self) -> range:
        """The investigators' seats."""
        return range(1, self.investigators + 1)

    @property
    def rules(self) -> DifficultyRules:
        return DIFFICULTY_RULES[self.difficulty]

    def name(self, seat: int) -> str:
        if seat == GHOST:
            return self.ghost_name
        return self.investigator_names[seat - 1]


@dataclass(frozen=True, slots=True)
class Tableau:
    """The Clue Tableau of Stage One: the cards still on the table, per category."""

    character: tuple[str, ...]
    location: tuple[str, ...]
    item: tuple[str, ...]

    def cards(self, category: Category) -> tuple[str, ...]:
        match category:
            case Category.CHARACTER:
                return self.character
            case Category.LOCATION:
                return self.location
            case Category.ITEM:
                return self.item

    def category_of(self, card: str) -> Category | None:
        for category in CATEGORY_ORDER:
            if card in self.cards(category):
                return category
        return None

    def without(self, card: str) -> Tableau:
        return Tableau(
            tuple(c for c in self.character if c != card),
            tuple(c for c in self.location if c != card),
            tuple(c for c in self.item if c != card),
        )

    @property
    def all_cards(self) -> tuple[str, ...]:
        return self.character + self.location + self.item


EMPTY_TABLEAU: Final = Tableau((), (), ())


@dataclass(frozen=True, slots=True)
class Column:
    """One investigator's secret answer: a Character, a Location and an Item."""

    character: str
    location: str
    item: str

    def card(self, category: Category) -> str:
        match category:
            case Category.CHARACTER:
                return self.character
            case Category.LOCATION:
                return self.location
            case Category.ITEM:
                return self.item


Reshuffle = Callable[[int, tuple[str, ...]], tuple[str, ...]]
"""``reshuffle(n, cards)``: the new deck order, top first, for the ``n``-th
reshuffle (counting from 0) of the discard pile ``cards`` (sorted by id).
A pure function of its arguments, derived by the fairness layer."""


@dataclass(frozen=True, slots=True)
class SecretSetup:
    """The Ghost's secret setup values, derived outside the engine."""

    columns: tuple[Column, ...]
    culprit: int
    deck: tuple[str, ...]
    reshuffle: Reshuffle


@dataclass(frozen=True, slots=True)
class Secrets:
    """What only the Ghost knows during play."""

    columns: tuple[Column, ...]
    culprit: int
    hand: tuple[str, ...]
    deck: tuple[str, ...]
    discard: tuple[str, ...]
    reshuffle: Reshuffle = field(compare=False, repr=False)

    def column(self, seat: int) -> Column:
        return self.columns[seat - 1]


@dataclass(frozen=True, slots=True)
class Investigator:
    """One investigator's public situation."""

    found: tuple[str, ...] = ()
    dreams: tuple[str, ...] = ()
    marker: str | None = None
    locked: bool = False
    served: bool = False

    @property
    def done(self) -> bool:
        """Holds all three of their cards (no longer active in Stage One)."""
        return len(self.found) == len(CATEGORY_ORDER)

    @property
    def seeking(self) -> Category | None:
        """The category this investigator must find next."""
        return None if self.done else CATEGORY_ORDER[len(self.found)]


@dataclass(frozen=True, slots=True)
class Verdict:
    """The séance's judgement of one investigator's marker."""

    seat: int
    correct: bool


@dataclass(frozen=True, slots=True)
class GameState:
    config: TableConfig
    tableau: Tableau
    investigators: tuple[Investigator, ...]
    day: int = 1
    stage: Stage = Stage.PLOT
    phase: Phase = Phase.DREAMS
    group_dreams: tuple[str, ...] = ()
    refreshes_this_round: int = 0
    refreshes_used: int = 0
    hand_size: int = 0
    deck_size: int = 0
    discard_size: int = 0
    reshuffles: int = 0
    last_seance: tuple[Verdict, ...] = ()
    outcome: Outcome | None = None
    secrets: Secrets | None = None
    no_guess: tuple[int, ...] = ()
    """Seats the sand-glass ran out on before they placed a marker, this round: each
    made no guess, which the séance must judge wrong."""

    def investigator(self, seat: int) -> Investigator:
        return self.investigators[seat - 1]

    @property
    def active_seats(self) -> tuple[int, ...]:
        """Seats that take part in this round (Stage One: those still seeking a card)."""
        if self.stage is Stage.CULPRIT:
            return tuple(self.config.seats)
        return tuple(
            seat
            for seat, investigator in enumerate(self.investigators, start=1)
            if not investigator.done
        )

    @property
    def grouped_tableau(self) -> tuple[tuple[str, ...], ...]:
        """Stage Two's tableau: each investigator's three cards, grouped, in seat order."""
        return tuple(inv.found for inv in self.investigators)

    @property
    def accusation(self) -> str | None:
        """Stage Two: the Character every marker stands on (``None``: they differ, or one is
        missing)."""
        markers = {investigator.marker for investigator in self.investigators}
        return markers.pop() if len(markers) == 1 else None

    @property
    def dreams_in_play(self) -> frozenset[str]:
        """Dream cards face up on the table (with investigators or the group)."""
        held = [card for inv in self.investigators for card in inv.dreams]
        return frozenset(held).union(self.group_dreams)
