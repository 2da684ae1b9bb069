"""The transcript's wire schema: every event kind and its body, as msgspec Structs.

These classes are the single source of the format: they validate what
arrives (exact fields, types, ranges and hex spellings; unknown or missing
fields are errors), and ``protocol/schema/*.schema.json`` is generated from
them (``make vectors``: ``tools/protocol_tools/schema_export.py``).

Every field is required and there are no defaults, so a value has exactly
one JSON spelling: bytes are lower-case hex, optional values are an explicit
``null``.  ``protocol/SPEC.md`` describes each kind in words.
"""

# No ``from __future__ import annotations`` here: msgspec reads these classes' annotations
# at the first conversion, and string annotations made it compile and evaluate each one
# there (60 ``compile`` calls, about a third of `domicile verify`'s first pass).

from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any, Final, Literal

import msgspec

from domicile_p2p.canonical import MAX_SAFE_INTEGER, whole_string
from domicile_p2p.rules import (
    LAST_DAY,
    MAX_CHAT_LENGTH,
    MAX_INVESTIGATORS,
    MAX_NAME_LENGTH,
    MAX_TIMER,
    MIN_TIMER,
    Difficulty,
)
from domicile_p2p.rules.model import PROTOCOL_VERSION as PROTOCOL_VERSION

# PROTOCOL_VERSION, the version a new genesis names, is the rules' own (``rules.model``).
# Version 2 changed the refresh rule (the new hand is drawn before the old one is
# discarded); version 3 refuses a refresh that cannot draw a whole new hand and makes
# Stage Two's group give exactly three cards.  The domain strings still carry ``v1``: they
# name the hashing and derivation scheme, which has not changed.

MAX_REASON_LENGTH: Final = 500


Hex32 = Annotated[
    str,
    msgspec.Meta(pattern=whole_string("[0-9a-f]{64}"), description="32 bytes as lower-case hex"),
]
GameId = Annotated[
    str,
    msgspec.Meta(
        pattern=whole_string("[0-9a-f]{32}"), description="16 random bytes as lower-case hex"
    ),
]
PublicKeyHex = Annotated[
    str,
    msgspec.Meta(
        pattern=whole_string("[0-9a-f]{64}"), description="an Ed25519 public key, lower-case hex"
    ),
]
SignatureHex = Annotated[
    str,
    msgspec.Meta(
        pattern=whole_string("[0-9a-f]{128}"), description="an Ed25519 signature, lower-case hex"
    ),
]
CardId = Annotated[
    str,
    msgspec.Meta(
        pattern=whole_string("[a-z0-9][a-z0-9-]{0,39}"), description="a card id of the pack"
    ),
]
PackId = Annotated[str, msgspec.Meta(pattern=whole_string("[a-z0-9][a-z0-9-]{0,39}"))]
Seat = Annotated[
    int, msgspec.Meta(ge=0, le=MAX_INVESTIGATORS, description="0 is the Ghost, 1-6 investigators")
]
InvestigatorSeat = Annotated[int, msgspec.Meta(ge=1, le=MAX_INVESTIGATORS)]
Sequence = Annotated[int, msgspec.Meta(ge=0, le=MAX_SAFE_INTEGER)]
Counter = Annotated[
    int,
    msgspec.Meta(ge=1, le=MAX_SAFE_INTEGER, description="the seat's own action count, from 1"),
]
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_NAME_LENGTH)]
ChatText = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_CHAT_LENGTH)]
Reason = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_REASON_LENGTH)]
Day = Annotated[int, msgspec.Meta(ge=1, le=LAST_DAY)]
TimerSeconds = Annotated[
    int,
    msgspec.Meta(
        ge=MIN_TIMER,
        le=MAX_TIMER,
        description="seconds of the investigation's sand-glass",
    ),
]
if TYPE_CHECKING:
    DifficultyName = str  # a Literal built at run time is beyond the type checker
else:
    # The rules' difficulty names, as a Literal so the schema spells them out as values.
    DifficultyName = Literal[tuple(difficulty.value for difficulty in Difficulty)]
HostKindName = Literal["genesis", "deal", "game-over", "abort", "time-up"]
PlayerKindName = Literal[
    "ghost-commit",
    "entropy-commit",
    "entropy-reveal",
    "slot-commits",
    "give",
    "group-give",
    "refresh",
    "place",
    "lock",
    "unlock",
    "chat",
    "seance",
    "culprit-seance",
    "reveal",
]


class Body(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Base of every event body."""


class Kind(StrEnum):
    """Every event kind.  The host states five; players sign the rest."""

    GENESIS = "genesis"
    DEAL = "deal"
    GAME_OVER = "game-over"
    ABORT = "abort"
    TIME_UP = "time-up"
    GHOST_COMMIT = "ghost-commit"
    ENTROPY_COMMIT = "entropy-commit"
    ENTROPY_REVEAL = "entropy-reveal"
    SLOT_COMMITS = "slot-commits"
    GIVE = "give"
    GROUP_GIVE = "group-give"
    REFRESH = "refresh"
    PLACE = "place"
    LOCK = "lock"
    UNLOCK = "unlock"
    CHAT = "chat"
    SEANCE = "seance"
    CULPRIT_SEANCE = "culprit-seance"
    REVEAL = "reveal"


# --------------------------------------------------------------------- host statements


class SeatEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One seat of the table: its number, the player's name and identity key."""

    seat: Seat
    name: Name
    key: PublicKeyHex


class PackRef(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The card pack: its id and its content hash (``domicile_p2p.packs``)."""

    id: PackId
    hash: Hex32


class CardLists(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Every card id of the pack, per category, each list sorted by code point."""

    character: tuple[CardId, ...]
    location: tuple[CardId, ...]
    item: tuple[CardId, ...]
    dream: tuple[CardId, ...]


class GenesisBody(Body, frozen=True):
    """Event 0, by the host: the table, the seats' keys, the pack and the game id."""

    protocol: Annotated[
        int, msgspec.Meta(description="the protocol version: 3, or 2 for a game protocol 2 played")
    ]
    game: GameId
    host: PublicKeyHex
    difficulty: DifficultyName
    seats: tuple[SeatEntry, ...]
    pack: PackRef
    cards: CardLists
    timer: TimerSeconds | None


class TableauBody(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The Clue Tableau: the dealt card ids per category, in deal order."""

    character: tuple[CardId, ...]
    location: tuple[CardId, ...]
    item: tuple[CardId, ...]


class DealBody(Body, frozen=True):
    """By the host, right after the last entropy reveal: the joint seed and the tableau."""

    joint_seed: Hex32
    tableau: TableauBody


class GameOverBody(Body, frozen=True):
    """By the host, right after the action that ended the game."""

    outcome: Literal["won", "lost"]
    day: Day


class AbortBody(Body, frozen=True):
    """By the host: the game stops here, naming the seats it waited for in vain."""

    reason: Reason
    seats: tuple[Seat, ...]


class TimeUpBody(Body, frozen=True):
    """By the host, when the investigation's sand-glass ran out: the seats whose placed
    markers it locked, and the active seats with no marker (no guess today), each sorted."""

    locked: tuple[InvestigatorSeat, ...]
    no_guess: tuple[InvestigatorSeat, ...]


# --------------------------------------------------------------------- setup actions


class GhostCommitBody(Body, frozen=True):
    """The Ghost's commitment to its seed."""

    commit: Hex32


class EntropyCommitBody(Body, frozen=True):
    """An investigator's commitment to its 32 bytes of entropy."""

    commit: Hex32


class EntropyRevealBody(Body, frozen=True):
    """An investigator's entropy, once every commitment is in."""

    entropy: Hex32


class ColumnCommits(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The salted commitments to one investigator's column."""

    seat: InvestigatorSeat
    character: Hex32
    location: Hex32
    item: Hex32


class SlotCommitsBody(Body, frozen=True):
    """The Ghost's salted commitments: every column (in seat order) and the culprit."""

    columns: tuple[ColumnCommits, ...]
    culprit: Hex32


# --------------------------------------------------------------------- play actions


class GiveBody(Body, frozen=True):
    """Stage One: dream cards from the Ghost's hand to one investigator."""

    to: InvestigatorSeat
    cards: tuple[CardId, ...]


class GroupGiveBody(Body, frozen=True):
    """Stage Two: exactly three dream cards from the Ghost's hand to the whole group (protocol 2:
    ``min(3, hand)``)."""

    cards: tuple[CardId, ...]


class RefreshBody(Body, frozen=True):
    """The Ghost draws seven new dream cards, then discards its old hand (refused unless the deck
    and the discard pile hold seven between them; protocol 2: at least one)."""


class PlaceBody(Body, frozen=True):
    """An investigator puts (or moves) its marker on a card."""

    card: CardId


class LockBody(Body, frozen=True):
    """An investigator locks its marker: decided."""


class UnlockBody(Body, frozen=True):
    """An investigator unlocks its marker to reconsider."""


class ChatBody(Body, frozen=True):
    """Table talk, by investigators only."""

    text: ChatText


class Opening(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What opens a slot commitment: its salt and its card."""

    salt: Hex32
    card: CardId


class VerdictBody(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One verdict: a correct one carries the opening of the slot it found, a wrong one ``null``."""

    seat: InvestigatorSeat
    correct: bool
    opening: Opening | None


class SeanceBody(Body, frozen=True):
    """Stage One's séance: one verdict per active investigator, in seat order."""

    verdicts: tuple[VerdictBody, ...]


class CulpritSeanceBody(Body, frozen=True):
    """Stage Two's séance: a correct verdict opens the culprit slot."""

    correct: bool
    opening: Opening | None


class RevealBody(Body, frozen=True):
    """The Ghost's seed, after the game ended (or was aborted)."""

    seed: Hex32


BODY_TYPES: Final[dict[Kind, type[Body]]] = {
    Kind.GENESIS: GenesisBody,
    Kind.DEAL: DealBody,
    Kind.GAME_OVER: GameOverBody,
    Kind.ABORT: AbortBody,
    Kind.TIME_UP: TimeUpBody,
    Kind.GHOST_COMMIT: GhostCommitBody,
    Kind.ENTROPY_COMMIT: EntropyCommitBody,
    Kind.ENTROPY_REVEAL: EntropyRevealBody,
    Kind.SLOT_COMMITS: SlotCommitsBody,
    Kind.GIVE: GiveBody,
    Kind.GROUP_GIVE: GroupGiveBody,
    Kind.REFRESH: RefreshBody,
    Kind.PLACE: PlaceBody,
    Kind.LOCK: LockBody,
    Kind.UNLOCK: UnlockBody,
    Kind.CHAT: ChatBody,
    Kind.SEANCE: SeanceBody,
    Kind.CULPRIT_SEANCE: CulpritSeanceBody,
    Kind.REVEAL: RevealBody,
}

HOST_KINDS: Final = frozenset({Kind.GENESIS, Kind.DEAL, Kind.GAME_OVER, Kind.ABORT, Kind.TIME_UP})
"""Statements of the host: signed by the host alone."""

GHOST_KINDS: Final = frozenset(
    {
        Kind.GHOST_COMMIT,
        Kind.SLOT_COMMITS,
        Kind.GIVE,
        Kind.GROUP_GIVE,
        Kind.REFRESH,
        Kind.SEANCE,
        Kind.CULPRIT_SEANCE,
        Kind.REVEAL,
    }
)
"""Actions only the Ghost (seat 0) signs."""

INVESTIGATOR_KINDS: Final = frozenset(
    {Kind.ENTROPY_COMMIT, Kind.ENTROPY_REVEAL, Kind.PLACE, Kind.LOCK, Kind.UNLOCK, Kind.CHAT}
)
"""Actions only investigators (seats 1-6) sign."""

PLAYER_KINDS: Final = GHOST_KINDS | INVESTIGATOR_KINDS


# --------------------------------------------------------------------- envelopes


class SignedActionRecord(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What a player sends the host: an action signed with the seat's identity key."""

    game: GameId
    seat: Seat
    counter: Counter
    kind: PlayerKindName
    body: dict[str, Any]
    sig: SignatureHex


class HostEventRecord(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A transcript line holding a statement of the host (genesis, deal, game-over, abort,
    time-up)."""

    seq: Sequence
    prev: Hex32
    kind: HostKindName
    body: dict[str, Any]
    host_sig: SignatureHex


class ActionEventRecord(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A transcript line holding a player's signed action, ordered and signed by the host."""

    seq: Sequence
    prev: Hex32
    kind: PlayerKindName
    body: dict[str, Any]
    seat: Seat
    counter: Counter
    sig: SignatureHex
    host_sig: SignatureHex
