"""The game as data: seats, difficulty, cards on the table, and the state.

Everything here is frozen.  A :class:`GameState` has two levels of
knowledge: the public part every peer can check as events arrive, and an
optional :class:`Secrets` part that only the Ghost's process (and, after the
reveal, every verifier) holds.  The engine runs the same code on both; with
``secrets=None`` it tracks the Ghost's hand, deck and discard pile as counts.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum, StrEnum
from typing import Any, Final

from domicile_p2p.rules.records import Record
from domicile_p2p.rules.records import set_field as _set

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


class DifficultyRules(Record):
    """One row of RULES.md's difficulty table."""

    extra_tableau_cards: int
    refreshes_per_round: int
    refreshes_per_game: int | None

    __slots__ = ("extra_tableau_cards", "refreshes_per_game", "refreshes_per_round")
    __match_args__ = ("extra_tableau_cards", "refreshes_per_round", "refreshes_per_game")
    __record_fields__ = ("extra_tableau_cards", "refreshes_per_round", "refreshes_per_game")

    def __init__(
        self, extra_tableau_cards: int, refreshes_per_round: int, refreshes_per_game: int | None
    ) -> None:
        _set(self, "extra_tableau_cards", extra_tableau_cards)
        _set(self, "refreshes_per_round", refreshes_per_round)
        _set(self, "refreshes_per_game", refreshes_per_game)

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__qualname__}("
            f"extra_tableau_cards={self.extra_tableau_cards!r}, "
            f"refreshes_per_round={self.refreshes_per_round!r}, "
            f"refreshes_per_game={self.refreshes_per_game!r})"
        )

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return (
                self.extra_tableau_cards,
                self.refreshes_per_round,
                self.refreshes_per_game,
            ) == (other.extra_tableau_cards, other.refreshes_per_round, other.refreshes_per_game)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.extra_tableau_cards, self.refreshes_per_round, self.refreshes_per_game))

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


class TableConfig(Record):
    """What is fixed for the whole game and known to everyone."""

    difficulty: Difficulty
    investigator_names: tuple[str, ...]
    dream_cards: tuple[str, ...]
    ghost_name: str
    timer: int | None
    """Seconds of the investigation's sand-glass, or ``None`` (no time limit).  The
    engine keeps no clock: the host says when time is up (:class:`TimeUp`)."""
    protocol: int
    """The protocol version whose rules the table plays (one of :data:`RULE_VERSIONS`):
    version 2 refreshes while a single card can be drawn and gives the group
    ``min(3, hand)`` dream cards; version 3 refreshes only into a full new hand, gives
    the group exactly 3 and needs :data:`MIN_DREAM_CARDS`."""
    dream_card_set: frozenset[str]
    """``dream_cards`` as a set, built once: every give checks its cards against it."""

    __slots__ = (
        "difficulty",
        "dream_card_set",
        "dream_cards",
        "ghost_name",
        "investigator_names",
        "protocol",
        "timer",
    )
    __match_args__ = (
        "difficulty",
        "investigator_names",
        "dream_cards",
        "ghost_name",
        "timer",
        "protocol",
    )
    __record_fields__ = (
        "difficulty",
        "investigator_names",
        "dream_cards",
        "ghost_name",
        "timer",
        "protocol",
        "dream_card_set",
    )
    __record_hidden__ = frozenset(("dream_card_set",))

    def __init__(
        self,
        difficulty: Difficulty,
        investigator_names: tuple[str, ...],
        dream_cards: tuple[str, ...],
        ghost_name: str = "The Ghost",
        timer: int | None = None,
        protocol: int = PROTOCOL_VERSION,
    ) -> None:
        _set(self, "difficulty", difficulty)
        _set(self, "investigator_names", investigator_names)
        _set(self, "dream_cards", dream_cards)
        _set(self, "ghost_name", ghost_name)
        _set(self, "timer", timer)
        _set(self, "protocol", protocol)
        self.__post_init__()

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__qualname__}("
            f"difficulty={self.difficulty!r}, "
            f"investigator_names={self.investigator_names!r}, "
            f"dream_cards={self.dream_cards!r}, "
            f"ghost_name={self.ghost_name!r}, "
            f"timer={self.timer!r}, "
            f"protocol={self.protocol!r})"
        )

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return (
                self.difficulty,
                self.investigator_names,
                self.dream_cards,
                self.ghost_name,
                self.timer,
                self.protocol,
            ) == (
                other.difficulty,
                other.investigator_names,
                other.dream_cards,
                other.ghost_name,
                other.timer,
                other.protocol,
            )
        return NotImplemented

    def __hash__(self) -> int:
        return hash(
            (
                self.difficulty,
                self.investigator_names,
                self.dream_cards,
                self.ghost_name,
                self.timer,
                self.protocol,
            )
        )

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


class Tableau(Record):
    """The Clue Tableau of Stage One: the cards still on the table, per category."""

    character: tuple[str, ...]
    location: tuple[str, ...]
    item: tuple[str, ...]

    __slots__ = ("character", "item", "location")
    __match_args__ = ("character", "location", "item")
    __record_fields__ = ("character", "location", "item")

    def __init__(
        self, character: tuple[str, ...], location: tuple[str, ...], item: tuple[str, ...]
    ) -> None:
        _set(self, "character", character)
        _set(self, "location", location)
        _set(self, "item", item)

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__qualname__}("
            f"character={self.character!r}, "
            f"location={self.location!r}, "
            f"item={self.item!r})"
        )

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return (self.character, self.location, self.item) == (
                other.character,
                other.location,
                other.item,
            )
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.character, self.location, self.item))

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


class Column(Record):
    """One investigator's secret answer: a Character, a Location and an Item."""

    character: str
    location: str
    item: str

    __slots__ = ("character", "item", "location")
    __match_args__ = ("character", "location", "item")
    __record_fields__ = ("character", "location", "item")

    def __init__(self, character: str, location: str, item: str) -> None:
        _set(self, "character", character)
        _set(self, "location", location)
        _set(self, "item", item)

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__qualname__}("
            f"character={self.character!r}, "
            f"location={self.location!r}, "
            f"item={self.item!r})"
        )

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return (self.character, self.location, self.item) == (
                other.character,
                other.location,
                other.item,
            )
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.character, self.location, self.item))

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


class SecretSetup(Record):
    """The Ghost's secret setup values, derived outside the engine."""

    columns: tuple[Column, ...]
    culprit: int
    deck: tuple[str, ...]
    reshuffle: Reshuffle

    __slots__ = ("columns", "culprit", "deck", "reshuffle")
    __match_args__ = ("columns", "culprit", "deck", "reshuffle")
    __record_fields__ = ("columns", "culprit", "deck", "reshuffle")

    def __init__(
        self, columns: tuple[Column, ...], culprit: int, deck: tuple[str, ...], reshuffle: Reshuffle
    ) -> None:
        _set(self, "columns", columns)
        _set(self, "culprit", culprit)
        _set(self, "deck", deck)
        _set(self, "reshuffle", reshuffle)

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__qualname__}("
            f"columns={self.columns!r}, "
            f"culprit={self.culprit!r}, "
            f"deck={self.deck!r}, "
            f"reshuffle={self.reshuffle!r})"
        )

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return (self.columns, self.culprit, self.deck, self.reshuffle) == (
                other.columns,
                other.culprit,
                other.deck,
                other.reshuffle,
            )
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.columns, self.culprit, self.deck, self.reshuffle))


class Secrets(Record):
    """What only the Ghost knows during play."""

    columns: tuple[Column, ...]
    culprit: int
    hand: tuple[str, ...]
    deck: tuple[str, ...]
    discard: tuple[str, ...]
    reshuffle: Reshuffle

    __slots__ = ("columns", "culprit", "deck", "discard", "hand", "reshuffle")
    __match_args__ = ("columns", "culprit", "hand", "deck", "discard", "reshuffle")
    __record_fields__ = ("columns", "culprit", "hand", "deck", "discard", "reshuffle")
    __record_hidden__ = frozenset(("reshuffle",))

    def __init__(
        self,
        columns: tuple[Column, ...],
        culprit: int,
        hand: tuple[str, ...],
        deck: tuple[str, ...],
        discard: tuple[str, ...],
        reshuffle: Reshuffle,
    ) -> None:
        _set(self, "columns", columns)
        _set(self, "culprit", culprit)
        _set(self, "hand", hand)
        _set(self, "deck", deck)
        _set(self, "discard", discard)
        _set(self, "reshuffle", reshuffle)

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__qualname__}("
            f"columns={self.columns!r}, "
            f"culprit={self.culprit!r}, "
            f"hand={self.hand!r}, "
            f"deck={self.deck!r}, "
            f"discard={self.discard!r})"
        )

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return (self.columns, self.culprit, self.hand, self.deck, self.discard) == (
                other.columns,
                other.culprit,
                other.hand,
                other.deck,
                other.discard,
            )
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.columns, self.culprit, self.hand, self.deck, self.discard))

    def column(self, seat: int) -> Column:
        return self.columns[seat - 1]


class Investigator(Record):
    """One investigator's public situation."""

    found: tuple[str, ...]
    dreams: tuple[str, ...]
    marker: str | None
    locked: bool
    served: bool

    __slots__ = ("dreams", "found", "locked", "marker", "served")
    __match_args__ = ("found", "dreams", "marker", "locked", "served")
    __record_fields__ = ("found", "dreams", "marker", "locked", "served")

    def __init__(
        self,
        found: tuple[str, ...] = (),
        dreams: tuple[str, ...] = (),
        marker: str | None = None,
        locked: bool = False,
        served: bool = False,
    ) -> None:
        _set(self, "found", found)
        _set(self, "dreams", dreams)
        _set(self, "marker", marker)
        _set(self, "locked", locked)
        _set(self, "served", served)

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__qualname__}("
            f"found={self.found!r}, "
            f"dreams={self.dreams!r}, "
            f"marker={self.marker!r}, "
            f"locked={self.locked!r}, "
            f"served={self.served!r})"
        )

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return (self.found, self.dreams, self.marker, self.locked, self.served) == (
                other.found,
                other.dreams,
                other.marker,
                other.locked,
                other.served,
            )
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.found, self.dreams, self.marker, self.locked, self.served))

    @property
    def done(self) -> bool:
        """Holds all three of their cards (no longer active in Stage One)."""
        return len(self.found) == len(CATEGORY_ORDER)

    @property
    def seeking(self) -> Category | None:
        """The category this investigator must find next."""
        return None if self.done else CATEGORY_ORDER[len(self.found)]


class Verdict(Record):
    """The séance's judgement of one investigator's marker."""

    seat: int
    correct: bool

    __slots__ = ("correct", "seat")
    __match_args__ = ("seat", "correct")
    __record_fields__ = ("seat", "correct")

    def __init__(self, seat: int, correct: bool) -> None:
        _set(self, "seat", seat)
        _set(self, "correct", correct)

    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}(seat={self.seat!r}, correct={self.correct!r})"

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return (self.seat, self.correct) == (other.seat, other.correct)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.seat, self.correct))


class GameState(Record):
    config: TableConfig
    tableau: Tableau
    investigators: tuple[Investigator, ...]
    day: int
    stage: Stage
    phase: Phase
    group_dreams: tuple[str, ...]
    refreshes_this_round: int
    refreshes_used: int
    hand_size: int
    deck_size: int
    discard_size: int
    reshuffles: int
    last_seance: tuple[Verdict, ...]
    outcome: Outcome | None
    secrets: Secrets | None
    no_guess: tuple[int, ...]
    """Seats the sand-glass ran out on before they placed a marker, this round: each
    made no guess, which the séance must judge wrong."""

    __slots__ = (
        "config",
        "day",
        "deck_size",
        "discard_size",
        "group_dreams",
        "hand_size",
        "investigators",
        "last_seance",
        "no_guess",
        "outcome",
        "phase",
        "refreshes_this_round",
        "refreshes_used",
        "reshuffles",
        "secrets",
        "stage",
        "tableau",
    )
    __match_args__ = (
        "config",
        "tableau",
        "investigators",
        "day",
        "stage",
        "phase",
        "group_dreams",
        "refreshes_this_round",
        "refreshes_used",
        "hand_size",
        "deck_size",
        "discard_size",
        "reshuffles",
        "last_seance",
        "outcome",
        "secrets",
        "no_guess",
    )
    __record_fields__ = (
        "config",
        "tableau",
        "investigators",
        "day",
        "stage",
        "phase",
        "group_dreams",
        "refreshes_this_round",
        "refreshes_used",
        "hand_size",
        "deck_size",
        "discard_size",
        "reshuffles",
        "last_seance",
        "outcome",
        "secrets",
        "no_guess",
    )

    def __init__(
        self,
        config: TableConfig,
        tableau: Tableau,
        investigators: tuple[Investigator, ...],
        day: int = 1,
        stage: Stage = Stage.PLOT,
        phase: Phase = Phase.DREAMS,
        group_dreams: tuple[str, ...] = (),
        refreshes_this_round: int = 0,
        refreshes_used: int = 0,
        hand_size: int = 0,
        deck_size: int = 0,
        discard_size: int = 0,
        reshuffles: int = 0,
        last_seance: tuple[Verdict, ...] = (),
        outcome: Outcome | None = None,
        secrets: Secrets | None = None,
        no_guess: tuple[int, ...] = (),
    ) -> None:
        _set(self, "config", config)
        _set(self, "tableau", tableau)
        _set(self, "investigators", investigators)
        _set(self, "day", day)
        _set(self, "stage", stage)
        _set(self, "phase", phase)
        _set(self, "group_dreams", group_dreams)
        _set(self, "refreshes_this_round", refreshes_this_round)
        _set(self, "refreshes_used", refreshes_used)
        _set(self, "hand_size", hand_size)
        _set(self, "deck_size", deck_size)
        _set(self, "discard_size", discard_size)
        _set(self, "reshuffles", reshuffles)
        _set(self, "last_seance", last_seance)
        _set(self, "outcome", outcome)
        _set(self, "secrets", secrets)
        _set(self, "no_guess", no_guess)

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__qualname__}("
            f"config={self.config!r}, "
            f"tableau={self.tableau!r}, "
            f"investigators={self.investigators!r}, "
            f"day={self.day!r}, "
            f"stage={self.stage!r}, "
            f"phase={self.phase!r}, "
            f"group_dreams={self.group_dreams!r}, "
            f"refreshes_this_round={self.refreshes_this_round!r}, "
            f"refreshes_used={self.refreshes_used!r}, "
            f"hand_size={self.hand_size!r}, "
            f"deck_size={self.deck_size!r}, "
            f"discard_size={self.discard_size!r}, "
            f"reshuffles={self.reshuffles!r}, "
            f"last_seance={self.last_seance!r}, "
            f"outcome={self.outcome!r}, "
            f"secrets={self.secrets!r}, "
            f"no_guess={self.no_guess!r})"
        )

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return (
                self.config,
                self.tableau,
                self.investigators,
                self.day,
                self.stage,
                self.phase,
                self.group_dreams,
                self.refreshes_this_round,
                self.refreshes_used,
                self.hand_size,
                self.deck_size,
                self.discard_size,
                self.reshuffles,
                self.last_seance,
                self.outcome,
                self.secrets,
                self.no_guess,
            ) == (
                other.config,
                other.tableau,
                other.investigators,
                other.day,
                other.stage,
                other.phase,
                other.group_dreams,
                other.refreshes_this_round,
                other.refreshes_used,
                other.hand_size,
                other.deck_size,
                other.discard_size,
                other.reshuffles,
                other.last_seance,
                other.outcome,
                other.secrets,
                other.no_guess,
            )
        return NotImplemented

    def __hash__(self) -> int:
        return hash(
            (
                self.config,
                self.tableau,
                self.investigators,
                self.day,
                self.stage,
                self.phase,
                self.group_dreams,
                self.refreshes_this_round,
                self.refreshes_used,
                self.hand_size,
                self.deck_size,
                self.discard_size,
                self.reshuffles,
                self.last_seance,
                self.outcome,
                self.secrets,
                self.no_guess,
            )
        )

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
