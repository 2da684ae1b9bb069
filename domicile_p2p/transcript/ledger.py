"""The public record of a game, folded event by event: every check a peer can make.

A :class:`Ledger` is a frozen value; :meth:`Ledger.advance` returns the next
one or raises a :class:`~domicile_p2p.transcript.errors.Fault`.  It checks
what an event *means* (setup order, commitments, the deal, the rules, the
openings, the reveal); who signed it and where it sits in the chain is the
business of :mod:`~domicile_p2p.transcript.chain`, which runs first.

The protocol's steps, in order (``Step``)::

    COMMITMENTS       the Ghost commits to its seed, each investigator to its entropy (any order)
    REVEALS           every commitment is in: each investigator reveals its entropy
    DEAL              (the host's next event must be the deal: J and the tableau)
    SLOT_COMMITMENTS  the Ghost publishes its salted slot commitments
    PLAY              the game, move by move, through the rules engine
    GAME_OVER         (the host's next event must be game-over: the outcome and the day)
    REVEAL            the Ghost reveals its seed; everyone replays the game with the secrets
    FINISHED          nothing more may follow

Chat is accepted from the deal until the reveal.  The host may abort at any
step before the end (``ABORTED``); after an abort only the Ghost's reveal
may follow, which lets everyone check what was played so far.

What each step accepts, from whom, and what it waits for is one table,
:data:`STEPS` (its theory of operation is above it); the host, every peer's
replica, the agents, the network's sessions, self-play and ``verify`` ask the
ledger (:meth:`Ledger.accepts`, :meth:`Ledger.owed`, :attr:`Ledger.over`)
instead of knowing the steps themselves.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from itertools import pairwise
from operator import attrgetter
from types import MappingProxyType
from typing import Any, Final

from domicile_p2p.fairness.commit import (
    CULPRIT_SLOT,
    SlotOpening,
    column_slot,
    entropy_commitment,
    joint_seed,
    same_digest,
)
from domicile_p2p.fairness.deal import deal_tableau
from domicile_p2p.identity import BadPublicKey, PublicKey
from domicile_p2p.rules import (
    CATEGORY_ORDER,
    GHOST,
    MAX_INVESTIGATORS,
    MIN_DREAM_CARDS,
    RULE_VERSIONS,
    Action,
    Category,
    Chat,
    Difficulty,
    GameState,
    Outcome,
    Phase,
    RuleError,
    Tableau,
    TableConfig,
    TimeUp,
    new_game,
)
from domicile_p2p.rules.records import Record, field_names
from domicile_p2p.rules.records import set_field as _set
from domicile_p2p.transcript import reveal
from domicile_p2p.transcript.codec import Event
from domicile_p2p.transcript.errors import HOST, Check, Fault, party
from domicile_p2p.transcript.moves import PLAY_KINDS, to_rules
from domicile_p2p.transcript.names import name_problem
from domicile_p2p.transcript.schema import (
    GHOST_KINDS,
    INVESTIGATOR_KINDS,
    AbortBody,
    CulpritSeanceBody,
    DealBody,
    EntropyCommitBody,
    EntropyRevealBody,
    GameOverBody,
    GenesisBody,
    GhostCommitBody,
    Kind,
    Opening,
    RevealBody,
    SeanceBody,
    SlotCommitsBody,
    TableauBody,
    TimeUpBody,
)


class Step(StrEnum):
    """Where the protocol stands (see the module docstring)."""

    COMMITMENTS = "commitments"
    REVEALS = "reveals"
    DEAL = "deal"
    SLOT_COMMITMENTS = "slot-commitments"
    PLAY = "play"
    GAME_OVER = "game-over"
    REVEAL = "reveal"
    FINISHED = "finished"
    ABORTED = "aborted"


# --------------------------------------------------------------------------- the steps, as data
#
# Theory of operation
# -------------------
# The protocol is a small state machine, written the way h11 writes HTTP's
# (``_state.py``): :class:`Step` is where it stands, and :data:`STEPS` says, for
# each step, who may send what there and what the step waits for.  Nothing
# else in the code base knows the steps: the fold below refuses what a step
# does not accept ("event order"), and everyone else asks the ledger.
#
#   ghost, investigators  the kinds each may send at this step (an investigator's
#                         chat from the deal until the reveal; the Ghost never chats)
#   host                  the statements the host may make: the deal and game-over
#                         exactly when due, an abort at any step that waits for players
#   owed                  what the step waits for before the protocol can move on;
#                         PLAY owes nothing (whose move it is, is the rules engine's)
#   final                 no play follows this step (the end, or an abort)
#
# Three facts of the record refine the table, and only these three:
#
# - each setup action, and the reveal, is sent once per seat: a kind a seat has
#   already sent (:meth:`Ledger.sent`) is neither accepted nor owed again;
# - the Ghost reveals only a seed it committed to (an abort during the
#   commitments may come before the Ghost's);
# - the reveal is *owed* only once a move was played.  Before the first move no
#   secret was used: the seed proves nothing, so nobody waits for it after an
#   abort (a Ghost that stalled the setup itself would otherwise keep every
#   player waiting for a reveal that will not come).  The Ghost *may* still
#   reveal then (SPEC.md section 11: "after an abort only the Ghost's reveal may
#   follow, once, if the Ghost has committed").
#
# The game is :attr:`~Ledger.over` when its step is final and nobody owes
# anything: then nothing more will happen at the table.


class StepRule(Record):
    """What one step accepts, from whom, and what it waits for (see the comment above)."""

    ghost: frozenset[Kind]
    investigators: frozenset[Kind]
    host: frozenset[Kind]
    owed: frozenset[Kind]
    final: bool
    _owed_by: tuple[tuple[Kind, ...], ...]
    """What the Ghost, an investigator and the host may owe here (asked once per event)."""

    __slots__ = ("_owed_by", "final", "ghost", "host", "investigators", "owed")
    __match_args__ = ("ghost", "investigators", "host", "owed", "final")
    __record_fields__ = ("ghost", "investigators", "host", "owed", "final", "_owed_by")
    __record_hidden__ = frozenset(("_owed_by",))

    def __init__(
        self,
        ghost: frozenset[Kind] = frozenset(),
        investigators: frozenset[Kind] = frozenset(),
        host: frozenset[Kind] = frozenset(),
        owed: frozenset[Kind] = frozenset(),
        final: bool = False,
    ) -> None:
        _set(self, "ghost", ghost)
        _set(self, "investigators", investigators)
        _set(self, "host", host)
        _set(self, "owed", owed)
        _set(self, "final", final)
        self.__post_init__()

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__qualname__}("
            f"ghost={self.ghost!r}, "
            f"investigators={self.investigators!r}, "
            f"host={self.host!r}, "
            f"owed={self.owed!r}, "
            f"final={self.final!r})"
        )

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return (self.ghost, self.investigators, self.host, self.owed, self.final) == (
                other.ghost,
                other.investigators,
                other.host,
                other.owed,
                other.final,
            )
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.ghost, self.investigators, self.host, self.owed, self.final))

    def __post_init__(self) -> None:
        owed_by = tuple(
            tuple(sorted(self.owed & kinds))
            for kinds in (self.ghost, self.investigators, self.host)
        )
        object.__setattr__(self, "_owed_by", owed_by)

    def kinds(self, seat: int | None) -> frozenset[Kind]:
        """What ``seat`` (``None``: the host) may send at this step."""
        if seat is None:
            return self.host
        return self.ghost if seat == GHOST else self.investigators

    def may_owe(self, seat: int | None) -> tuple[Kind, ...]:
        """The kinds of :attr:`owed` that ``seat`` (``None``: the host) sends."""
        return self._owed_by[2 if seat is None else 0 if seat == GHOST else 1]


GHOST_MOVES: Final = PLAY_KINDS & GHOST_KINDS
INVESTIGATOR_MOVES: Final = PLAY_KINDS & INVESTIGATOR_KINDS
_CHAT: Final = frozenset({Kind.CHAT})
_ABORT: Final = frozenset({Kind.ABORT})

STEPS: Final[Mapping[Step, StepRule]] = MappingProxyType(
    {
        Step.COMMITMENTS: StepRule(
            ghost=frozenset({Kind.GHOST_COMMIT}),
            investigators=frozenset({Kind.ENTROPY_COMMIT}),
            host=_ABORT,
            owed=frozenset({Kind.GHOST_COMMIT, Kind.ENTROPY_COMMIT}),
        ),
        Step.REVEALS: StepRule(
            investigators=frozenset({Kind.ENTROPY_REVEAL}),
            host=_ABORT,
            owed=frozenset({Kind.ENTROPY_REVEAL}),
        ),
        Step.DEAL: StepRule(host=frozenset({Kind.DEAL}), owed=frozenset({Kind.DEAL})),
        Step.SLOT_COMMITMENTS: StepRule(
            ghost=frozenset({Kind.SLOT_COMMITS}),
            investigators=_CHAT,
            host=_ABORT,
            owed=frozenset({Kind.SLOT_COMMITS}),
        ),
        Step.PLAY: StepRule(
            ghost=GHOST_MOVES,
            investigators=INVESTIGATOR_MOVES,
            host=_ABORT | {Kind.TIME_UP},  # the rules engine says when time may run out
        ),
        Step.GAME_OVER: StepRule(
            host=frozenset({Kind.GAME_OVER}), owed=frozenset({Kind.GAME_OVER})
        ),
        Step.REVEAL: StepRule(
            ghost=frozenset({Kind.REVEAL}),
            investigators=_CHAT,
            host=_ABORT,
            owed=frozenset({Kind.REVEAL}),
        ),
        Step.FINISHED: StepRule(final=True),
        Step.ABORTED: StepRule(
            ghost=frozenset({Kind.REVEAL}), owed=frozenset({Kind.REVEAL}), final=True
        ),
    }
)
"""The protocol's steps as data (see the theory of operation above)."""

_GHOST_COMMIT: Final = Kind.GHOST_COMMIT
_ENTROPY_COMMIT: Final = Kind.ENTROPY_COMMIT
_ENTROPY_REVEAL: Final = Kind.ENTROPY_REVEAL
_REVEAL: Final = Kind.REVEAL
_ONCE: Final = frozenset({_GHOST_COMMIT, _ENTROPY_COMMIT, _ENTROPY_REVEAL, _REVEAL})
"""The actions each seat sends once (the fold asks about them on every event: read once here)."""

SETUP_STEPS: Final = frozenset({Step.COMMITMENTS, Step.REVEALS, Step.DEAL, Step.SLOT_COMMITMENTS})
"""The steps before the game is played."""

DEADLINE_STEPS: Final = SETUP_STEPS | {Step.REVEAL}
"""The steps the network gives a deadline: a seat owes its protocol step (a commitment, a
reveal of entropy, the slot commitments, or the Ghost's seed after the game), and a seat
that never takes it would hold the table forever."""


# --------------------------------------------------------------------------- genesis


class TableSetup(Record):
    """What the genesis event fixes for the whole game."""

    genesis: GenesisBody
    game_id: bytes
    config: TableConfig
    cards: Mapping[Category, tuple[str, ...]]
    host_key: PublicKey
    seat_keys: tuple[PublicKey, ...]

    __slots__ = ("cards", "config", "game_id", "genesis", "host_key", "seat_keys")
    __match_args__ = ("genesis", "game_id", "config", "cards", "host_key", "seat_keys")
    __record_fields__ = ("genesis", "game_id", "config", "cards", "host_key", "seat_keys")

    def __init__(
        self,
        genesis: GenesisBody,
        game_id: bytes,
        config: TableConfig,
        cards: Mapping[Category, tuple[str, ...]],
        host_key: PublicKey,
        seat_keys: tuple[PublicKey, ...],
    ) -> None:
        _set(self, "genesis", genesis)
        _set(self, "game_id", game_id)
        _set(self, "config", config)
        _set(self, "cards", cards)
        _set(self, "host_key", host_key)
        _set(self, "seat_keys", seat_keys)

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__qualname__}("
            f"genesis={self.genesis!r}, "
            f"game_id={self.game_id!r}, "
            f"config={self.config!r}, "
            f"cards={self.cards!r}, "
            f"host_key={self.host_key!r}, "
            f"seat_keys={self.seat_keys!r})"
        )

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return (
                self.genesis,
                self.game_id,
                self.config,
                self.cards,
                self.host_key,
                self.seat_keys,
            ) == (
                other.genesis,
                other.game_id,
                other.config,
                other.cards,
                other.host_key,
                other.seat_keys,
            )
        return NotImplemented

    def __hash__(self) -> int:
        return hash(
            (self.genesis, self.game_id, self.config, self.cards, self.host_key, self.seat_keys)
        )

    @property
    def investigators(self) -> int:
        return self.config.investigators

    @property
    def seats(self) -> range:
        """Every seat, the Ghost's (0) included."""
        return range(self.config.investigators + 1)

    def describe(self, seat: int) -> str:
        """``"seat 2 (Bea)"`` or ``"the Ghost (Mara)"``, for messages."""
        name = self.config.name(seat)
        return f"the Ghost ({name})" if seat == GHOST else f"seat {seat} ({name})"


def _genesis_fault(reason: str) -> Fault:
    return Fault(Check.GENESIS, HOST, reason)


def read_genesis(event: Event) -> TableSetup:
    """The table an event 0 describes, or a :class:`Fault` of the genesis check."""
    if event.kind is not Kind.GENESIS or not isinstance(event.body, GenesisBody):
        raise _genesis_fault(f"event 0 must be the genesis, not {event.kind.value}")
    body = event.body
    if body.protocol not in RULE_VERSIONS:
        raise _genesis_fault(
            f"protocol version {body.protocol} is not supported (this program verifies "
            f"versions {', '.join(map(str, RULE_VERSIONS))})"
        )
    seats = body.seats
    investigators = len(seats) - 1
    if not 1 <= investigators <= MAX_INVESTIGATORS:
        raise _genesis_fault(
            f"a table has the Ghost and 1 to {MAX_INVESTIGATORS} investigators, "
            f"not {len(seats)} seats"
        )
    for index, entry in enumerate(seats):
        if entry.seat != index:
            raise _genesis_fault(f"seat entry {index} names seat {entry.seat}; seats go 0, 1, 2...")
        problem = name_problem(entry.name)
        if problem is not None:
            raise _genesis_fault(f"the name of seat {index} {problem}")
    try:
        host_key = PublicKey.from_hex(body.host)
        seat_keys = tuple(PublicKey.from_hex(entry.key) for entry in seats)
    except BadPublicKey as exc:
        raise _genesis_fault(f"a key is not an Ed25519 public key: {exc}") from None
    if len(set(seat_keys)) != len(seat_keys):
        raise _genesis_fault("two seats have the same identity key: one player may hold one seat")
    cards = {
        Category.CHARACTER: body.cards.character,
        Category.LOCATION: body.cards.location,
        Category.ITEM: body.cards.item,
    }
    lists = {**{c.value: ids for c, ids in cards.items()}, "dream": body.cards.dream}
    for name, ids in lists.items():
        if any(left >= right for left, right in pairwise(ids)):
            raise _genesis_fault(f"the {name} card ids must be sorted and distinct")
    every_id = [card for ids in lists.values() for card in ids]
    if len(set(every_id)) != len(every_id):
        raise _genesis_fault("a card id appears in two categories")
    if not body.cards.dream:
        raise _genesis_fault("the pack has no dream cards")
    if body.protocol >= 3 and len(body.cards.dream) < MIN_DREAM_CARDS:
        raise _genesis_fault(
            f"a table needs at least {MIN_DREAM_CARDS} dream cards, but the pack has "
            f"{len(body.cards.dream)}"
        )
    config = TableConfig(
        difficulty=Difficulty(body.difficulty),
        investigator_names=tuple(entry.name for entry in seats[1:]),
        dream_cards=body.cards.dream,
        ghost_name=seats[0].name,
        timer=body.timer,
        protocol=body.protocol,
    )
    size = config.rules.tableau_size(investigators)
    for category, ids in cards.items():
        if len(ids) < size:
            raise _genesis_fault(
                f"{config.difficulty.label} with {investigators} investigators deals {size} "
                f"{category.label} cards, but the pack has {len(ids)}"
            )
    return TableSetup(
        genesis=body,
        game_id=bytes.fromhex(body.game),
        config=config,
        cards=MappingProxyType(cards),
        host_key=host_key,
        seat_keys=seat_keys,
    )


# --------------------------------------------------------------------------- the ledger


class OpenedSlot(Record):
    """A slot commitment opened during play by a correct verdict."""

    seq: int
    slot: str
    salt: bytes
    card: str

    __slots__ = ("card", "salt", "seq", "slot")
    __match_args__ = ("seq", "slot", "salt", "card")
    __record_fields__ = ("seq", "slot", "salt", "card")

    def __init__(self, seq: int, slot: str, salt: bytes, card: str) -> None:
        _set(self, "seq", seq)
        _set(self, "slot", slot)
        _set(self, "salt", salt)
        _set(self, "card", card)

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__qualname__}("
            f"seq={self.seq!r}, "
            f"slot={self.slot!r}, "
            f"salt={self.salt!r}, "
            f"card={self.card!r})"
        )

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return (self.seq, self.slot, self.salt, self.card) == (
                other.seq,
                other.slot,
                other.salt,
                other.card,
            )
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.seq, self.slot, self.salt, self.card))


class Ledger(Record):
    """Everything the events so far prove, and where the protocol stands."""

    table_setup: TableSetup
    step: Step
    ghost_commit: bytes | None
    entropy_commits: tuple[bytes | None, ...]
    entropies: tuple[bytes | None, ...]
    joint_seed: bytes | None
    tableau: Tableau | None
    slot_commits: Mapping[str, bytes] | None
    slot_commits_seq: int | None
    state: GameState | None
    """The public game state (``None`` until the deal)."""
    moves: tuple[tuple[int, Action], ...]
    """Every move of the game with its event's ``seq``: what the reveal replays."""
    openings: tuple[OpenedSlot, ...]
    game_over_seq: int | None
    abort: AbortBody | None
    abort_seq: int | None
    seed: bytes | None
    """The Ghost's seed, once revealed."""
    replay: GameState | None
    """The game replayed with the Ghost's secrets, once the seed is revealed."""
    cheat: Fault | None
    """What the revealed seed proves the Ghost did (``None``: nothing, or no reveal yet)."""
    foresight: reveal.Foresight | None
    """The game played with the Ghost's secrets as it goes, when a verifier read the seed
    ahead (``verify`` holds the whole transcript; see :mod:`reveal`): the reveal then need
    not replay it.  ``None`` for a live peer, which learns the seed at the end."""

    __slots__ = (
        "abort",
        "abort_seq",
        "cheat",
        "entropies",
        "entropy_commits",
        "foresight",
        "game_over_seq",
        "ghost_commit",
        "joint_seed",
        "moves",
        "openings",
        "replay",
        "seed",
        "slot_commits",
        "slot_commits_seq",
        "state",
        "step",
        "table_setup",
        "tableau",
    )
    __match_args__ = (
        "table_setup",
        "step",
        "ghost_commit",
        "entropy_commits",
        "entropies",
        "joint_seed",
        "tableau",
        "slot_commits",
        "slot_commits_seq",
        "state",
        "moves",
        "openings",
        "game_over_seq",
        "abort",
        "abort_seq",
        "seed",
        "replay",
        "cheat",
        "foresight",
    )
    __record_fields__ = (
        "table_setup",
        "step",
        "ghost_commit",
        "entropy_commits",
        "entropies",
        "joint_seed",
        "tableau",
        "slot_commits",
        "slot_commits_seq",
        "state",
        "moves",
        "openings",
        "game_over_seq",
        "abort",
        "abort_seq",
        "seed",
        "replay",
        "cheat",
        "foresight",
    )

    def __init__(
        self,
        table_setup: TableSetup,
        step: Step = Step.COMMITMENTS,
        ghost_commit: bytes | None = None,
        entropy_commits: tuple[bytes | None, ...] = (),
        entropies: tuple[bytes | None, ...] = (),
        joint_seed: bytes | None = None,
        tableau: Tableau | None = None,
        slot_commits: Mapping[str, bytes] | None = None,
        slot_commits_seq: int | None = None,
        state: GameState | None = None,
        moves: tuple[tuple[int, Action], ...] = (),
        openings: tuple[OpenedSlot, ...] = (),
        game_over_seq: int | None = None,
        abort: AbortBody | None = None,
        abort_seq: int | None = None,
        seed: bytes | None = None,
        replay: GameState | None = None,
        cheat: Fault | None = None,
        foresight: reveal.Foresight | None = None,
    ) -> None:
        _set(self, "table_setup", table_setup)
        _set(self, "step", step)
        _set(self, "ghost_commit", ghost_commit)
        _set(self, "entropy_commits", entropy_commits)
        _set(self, "entropies", entropies)
        _set(self, "joint_seed", joint_seed)
        _set(self, "tableau", tableau)
        _set(self, "slot_commits", slot_commits)
        _set(self, "slot_commits_seq", slot_commits_seq)
        _set(self, "state", state)
        _set(self, "moves", moves)
        _set(self, "openings", openings)
        _set(self, "game_over_seq", game_over_seq)
        _set(self, "abort", abort)
        _set(self, "abort_seq", abort_seq)
        _set(self, "seed", seed)
        _set(self, "replay", replay)
        _set(self, "cheat", cheat)
        _set(self, "foresight", foresight)

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__qualname__}("
            f"table_setup={self.table_setup!r}, "
            f"step={self.step!r}, "
            f"ghost_commit={self.ghost_commit!r}, "
            f"entropy_commits={self.entropy_commits!r}, "
            f"entropies={self.entropies!r}, "
            f"joint_seed={self.joint_seed!r}, "
            f"tableau={self.tableau!r}, "
            f"slot_commits={self.slot_commits!r}, "
            f"slot_commits_seq={self.slot_commits_seq!r}, "
            f"state={self.state!r}, "
            f"moves={self.moves!r}, "
            f"openings={self.openings!r}, "
            f"game_over_seq={self.game_over_seq!r}, "
            f"abort={self.abort!r}, "
            f"abort_seq={self.abort_seq!r}, "
            f"seed={self.seed!r}, "
            f"replay={self.replay!r}, "
            f"cheat={self.cheat!r}, "
            f"foresight={self.foresight!r})"
        )

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return (
                self.table_setup,
                self.step,
                self.ghost_commit,
                self.entropy_commits,
                self.entropies,
                self.joint_seed,
                self.tableau,
                self.slot_commits,
                self.slot_commits_seq,
                self.state,
                self.moves,
                self.openings,
                self.game_over_seq,
                self.abort,
                self.abort_seq,
                self.seed,
                self.replay,
                self.cheat,
                self.foresight,
            ) == (
                other.table_setup,
                other.step,
                other.ghost_commit,
                other.entropy_commits,
                other.entropies,
                other.joint_seed,
                other.tableau,
                other.slot_commits,
                other.slot_commits_seq,
                other.state,
                other.moves,
                other.openings,
                other.game_over_seq,
                other.abort,
                other.abort_seq,
                other.seed,
                other.replay,
                other.cheat,
                other.foresight,
            )
        return NotImplemented

    def __hash__(self) -> int:
        return hash(
            (
                self.table_setup,
                self.step,
                self.ghost_commit,
                self.entropy_commits,
                self.entropies,
                self.joint_seed,
                self.tableau,
                self.slot_commits,
                self.slot_commits_seq,
                self.state,
                self.moves,
                self.openings,
                self.game_over_seq,
                self.abort,
                self.abort_seq,
                self.seed,
                self.replay,
                self.cheat,
                self.foresight,
            )
        )

    def _with(self, **changes: Any) -> Ledger:
        """This ledger with ``changes`` (field name -> value): ``dataclasses.replace``, at
        two thirds of its cost (see :data:`_LEDGER_FIELDS`)."""
        values = list(_ledger_values(self))
        for name, value in changes.items():
            values[_LEDGER_POSITIONS[name]] = value
        return Ledger(*values)

    @classmethod
    def start(cls, table_setup: TableSetup, *, foreseen_seed: bytes | None = None) -> Ledger:
        nobody = (None,) * table_setup.investigators
        foresight = None if foreseen_seed is None else reveal.Foresight(foreseen_seed)
        return cls(table_setup, entropy_commits=nobody, entropies=nobody, foresight=foresight)

    # ----------------------------------------------------------------- queries

    def sent(self, kind: Kind, seat: int) -> bool:
        """``seat`` has already sent ``kind``, one of the actions sent once per seat."""
        if kind not in _ONCE:
            return False
        if kind is _GHOST_COMMIT:
            return self.ghost_commit is not None
        if kind is _ENTROPY_COMMIT:
            return self.entropy_commits[seat - 1] is not None
        if kind is _ENTROPY_REVEAL:
            return self.entropies[seat - 1] is not None
        return self.seed is not None  # the reveal

    def accepts(self, kind: Kind, seat: int | None) -> bool:
        """Whether ``seat`` (``None``: the host) may send ``kind`` now (:data:`STEPS`)."""
        if kind not in STEPS[self.step].kinds(seat):
            return False
        if kind not in _ONCE:  # a move, chat or a host statement: the table alone decides
            return True
        if seat is not None and self.sent(kind, seat):
            return False
        return kind is not _REVEAL or self.ghost_commit is not None

    def owed(self, seat: int | None) -> Kind | None:
        """What the protocol waits for from ``seat`` (``None``: the host) now, if anything."""
        for kind in STEPS[self.step].may_owe(seat):
            if self.accepts(kind, seat) and (kind is not _REVEAL or self.played):
                return kind
        return None

    def awaiting(self) -> tuple[int, ...]:
        """The seats whose setup step (or reveal) the protocol is waiting for, in seat order."""
        return tuple(seat for seat in self.table_setup.seats if self.owed(seat) is not None)

    @property
    def host_statement_due(self) -> Kind | None:
        """The statement the host must make next (the deal or game-over), if any."""
        return self.owed(None)

    @property
    def over(self) -> bool:
        """Nothing more will happen at this table: the seed is revealed, or the abort is final."""
        return STEPS[self.step].final and not self.awaiting()

    @property
    def ended(self) -> bool:
        """The game is over for the table: finished, or aborted.  After an abort of a game
        that was played the Ghost's reveal may still come (:attr:`over` waits for it);
        nobody else owes anything, and nobody has to wait for it."""
        return STEPS[self.step].final

    @property
    def played(self) -> bool:
        """At least one move of the game (chat aside) has been made."""
        return any(not isinstance(action, Chat) for _, action in self.moves)

    def expected_deal(self) -> DealBody:
        """The deal the host must publish now (only in the ``DEAL`` step)."""
        joint, tableau = self._deal()
        return DealBody(joint.hex(), TableauBody(tableau.character, tableau.location, tableau.item))

    def expected_game_over(self) -> GameOverBody:
        """The game-over statement the host must publish now (only in ``GAME_OVER``)."""
        assert self.state is not None and self.state.outcome is not None
        return GameOverBody(self.state.outcome.value, self.state.day)

    def _deal(self) -> tuple[bytes, Tableau]:
        assert self.ghost_commit is not None
        entropies = [e for e in self.entropies if e is not None]
        assert len(entropies) == self.table_setup.investigators
        joint = joint_seed(self.table_setup.game_id, self.ghost_commit, entropies)
        size = self.table_setup.config.rules.tableau_size(self.table_setup.investigators)
        return joint, deal_tableau(joint, dict(self.table_setup.cards), size)

    # ----------------------------------------------------------------- the fold

    def advance(self, event: Event) -> Ledger:
        """The ledger after ``event`` (already authenticated), or a :class:`Fault`."""
        due = self.host_statement_due
        if due is not None and event.kind is not due:
            raise Fault(
                Check.EVENT_ORDER,
                HOST,
                f"the host had to publish the {due.value} now, not a {event.kind.value}",
            )
        if event.seat is None:
            return self._host_statement(event)
        return self._player_action(event, event.seat)

    def _host_statement(self, event: Event) -> Ledger:
        body = event.body
        if not self.accepts(event.kind, None):
            raise self._order(self._refusal(event.kind, None))
        match body:
            case DealBody():
                return self._check_deal(body)
            case GameOverBody():
                return self._check_game_over(event.seq, body)
            case AbortBody():
                return self._check_abort(event.seq, body)
            case TimeUpBody():
                return self._time_up(event.seq, body)
        raise AssertionError(f"{event.kind.value} is a host statement STEPS never accepts")

    def _player_action(self, event: Event, seat: int) -> Ledger:
        kind = event.kind
        who = party(seat)
        if kind in GHOST_KINDS and seat != GHOST:
            raise Fault(Check.EVENT_ORDER, who, f"only the Ghost may send {kind.value}")
        if kind in INVESTIGATOR_KINDS and seat == GHOST:
            raise Fault(Check.EVENT_ORDER, who, f"the Ghost may not send {kind.value}")
        if not self.accepts(kind, seat):
            raise self._order(self._refusal(kind, seat))
        body = event.body
        match body:
            case GhostCommitBody():
                return self._ghost_commit(body)
            case EntropyCommitBody():
                return self._entropy_commit(seat, body)
            case EntropyRevealBody():
                return self._entropy_reveal(seat, body)
            case SlotCommitsBody():
                return self._slot_commits(event.seq, body)
            case RevealBody():
                return self._reveal(event.seq, body)
        assert kind in PLAY_KINDS
        return self._move(event, seat)

    # ----------------------------------------------------------------- setup

    def _order(self, reason: str) -> Fault:
        return Fault(Check.EVENT_ORDER, HOST, reason)

    def _refusal(self, kind: Kind, seat: int | None) -> str:
        """Why :meth:`accepts` refuses ``kind`` from ``seat`` now, for the event-order fault."""
        step = self.step
        match kind:
            case Kind.DEAL | Kind.GAME_OVER:
                return f"a {kind.value} statement is not due now ({step.value})"
            case Kind.ABORT:
                return f"the host cannot abort now ({step.value})"
            case Kind.GENESIS:
                return f"a second {kind.value} statement"
            case Kind.GHOST_COMMIT:
                return "the Ghost commits to its seed once, before any reveal"
            case Kind.ENTROPY_COMMIT:
                return f"seat {seat} commits to its entropy once, before any reveal"
            case Kind.ENTROPY_REVEAL if step is Step.COMMITMENTS:
                return f"seat {seat} revealed its entropy before every commitment was in"
            case Kind.ENTROPY_REVEAL if step is Step.REVEALS:
                return f"seat {seat} revealed its entropy twice"
            case Kind.ENTROPY_REVEAL:
                return f"seat {seat} revealed its entropy after the deal"
            case Kind.SLOT_COMMITS:
                return "the Ghost publishes its slot commitments once, right after the deal"
            case Kind.REVEAL if self.seed is None:
                return "the Ghost reveals its seed once, when the game is over or aborted"
            case Kind.REVEAL:
                return "the Ghost revealed its seed twice"
        when = "the game has not started" if step in SETUP_STEPS else "the game is over"
        if kind is Kind.TIME_UP:
            return f"time cannot run out now: {when}"
        return f"{kind.value} is not possible now: {when}"

    def _ghost_commit(self, body: GhostCommitBody) -> Ledger:
        return self._after_commitment(self._with(ghost_commit=bytes.fromhex(body.commit)))

    def _entropy_commit(self, seat: int, body: EntropyCommitBody) -> Ledger:
        commits = list(self.entropy_commits)
        commits[seat - 1] = bytes.fromhex(body.commit)
        return self._after_commitment(self._with(entropy_commits=tuple(commits)))

    @staticmethod
    def _after_commitment(ledger: Ledger) -> Ledger:
        if ledger.ghost_commit is not None and all(ledger.entropy_commits):
            return ledger._with(step=Step.REVEALS)
        return ledger

    def _entropy_reveal(self, seat: int, body: EntropyRevealBody) -> Ledger:
        entropy = bytes.fromhex(body.entropy)
        commit = self.entropy_commits[seat - 1]
        assert commit is not None
        if not same_digest(entropy_commitment(self.table_setup.game_id, seat, entropy), commit):
            raise Fault(
                Check.ENTROPY,
                party(seat),
                f"the entropy {self.table_setup.describe(seat)} revealed does not open "
                "its commitment",
            )
        entropies = list(self.entropies)
        entropies[seat - 1] = entropy
        ledger = self._with(entropies=tuple(entropies))
        if all(ledger.entropies):
            ledger = ledger._with(step=Step.DEAL)
        return ledger

    def _check_deal(self, body: DealBody) -> Ledger:
        joint, tableau = self._deal()
        if body.joint_seed != joint.hex():
            raise Fault(
                Check.DEAL,
                HOST,
                f"the deal names the joint seed {body.joint_seed[:16]}…, but the commitments "
                f"and entropies give {joint.hex()[:16]}…",
            )
        published = Tableau(body.tableau.character, body.tableau.location, body.tableau.item)
        if published != tableau:
            raise Fault(Check.DEAL, HOST, "the tableau is not the one the joint seed deals")
        state = new_game(self.table_setup.config, tableau)
        foresight = self.foresight
        if foresight is not None:
            assert self.ghost_commit is not None
            foresight = foresight.dealt(self.ghost_commit, joint, self.table_setup.config, tableau)
        return self._with(
            step=Step.SLOT_COMMITMENTS,
            joint_seed=joint,
            tableau=tableau,
            state=state,
            foresight=foresight,
        )

    def _slot_commits(self, seq: int, body: SlotCommitsBody) -> Ledger:
        seats = [column.seat for column in body.columns]
        if seats != list(self.table_setup.config.seats):
            raise Fault(
                Check.EVENT_ORDER,
                party(GHOST),
                f"the slot commitments must cover seats {list(self.table_setup.config.seats)} in "
                f"order, not {seats}",
            )
        commits: dict[str, bytes] = {}
        for column in body.columns:
            for category in CATEGORY_ORDER:
                commits[column_slot(column.seat, category)] = bytes.fromhex(
                    getattr(column, category.value)
                )
        commits[CULPRIT_SLOT] = bytes.fromhex(body.culprit)
        return self._with(
            step=Step.PLAY,
            slot_commits=MappingProxyType(commits),
            slot_commits_seq=seq,
        )

    # ----------------------------------------------------------------- play

    def _move(self, event: Event, seat: int) -> Ledger:
        kind = event.kind
        action = to_rules(kind, event.body, seat)
        state = self.state
        assert state is not None
        try:
            after, foresight = reveal.play(self.foresight, state, action, event.seq)
        except RuleError as exc:
            raise Fault(Check.PUBLIC_RULES, party(seat), str(exc)) from None
        openings = self._check_openings(event, state)
        ledger = self._with(
            state=after,
            moves=(*self.moves, (event.seq, action)),
            openings=self.openings + openings,
            foresight=foresight,
        )
        if after.phase is Phase.ENDED and self.step is Step.PLAY:
            ledger = ledger._with(step=Step.GAME_OVER)
        return ledger

    def _time_up(self, seq: int, body: TimeUpBody) -> Ledger:
        """The host's sand-glass ran out: the rules engine locks and records, like a move."""
        state = self.state
        assert state is not None
        action = TimeUp(body.locked, body.no_guess)
        try:
            after, foresight = reveal.play(self.foresight, state, action, seq)
        except RuleError as exc:
            raise Fault(Check.PUBLIC_RULES, HOST, str(exc)) from None
        return self._with(state=after, moves=(*self.moves, (seq, action)), foresight=foresight)

    def _check_openings(self, event: Event, before: GameState) -> tuple[OpenedSlot, ...]:
        body = event.body
        if isinstance(body, SeanceBody):
            seats = [verdict.seat for verdict in body.verdicts]
            if seats != sorted(seats):
                raise Fault(Check.PUBLIC_RULES, party(GHOST), "verdicts are listed in seat order")
            opened: list[OpenedSlot] = []
            for verdict in body.verdicts:
                investigator = before.investigator(verdict.seat)
                seeking, marker = investigator.seeking, investigator.marker
                assert seeking is not None  # the engine checked
                slot = column_slot(verdict.seat, seeking)
                what = f"{self.table_setup.describe(verdict.seat)}'s {seeking.label}"
                found = self._opening(
                    event.seq, slot, what, verdict.correct, verdict.opening, marker
                )
                if found is not None:
                    opened.append(found)
            return tuple(opened)
        if isinstance(body, CulpritSeanceBody):
            accused = before.accusation  # None only when called wrong (the engine checked)
            found = self._opening(
                event.seq, CULPRIT_SLOT, "the accusation", body.correct, body.opening, accused
            )
            return () if found is None else (found,)
        return ()

    def _opening(
        self,
        seq: int,
        slot: str,
        what: str,
        correct: bool,
        opening: Opening | None,
        marker: str | None,
    ) -> OpenedSlot | None:
        ghost = party(GHOST)
        if not correct:
            if opening is not None:
                raise Fault(Check.OPENINGS, ghost, f"{what} is called wrong but carries an opening")
            return None
        if opening is None:
            raise Fault(Check.OPENINGS, ghost, f"{what} is called correct without an opening")
        assert marker is not None  # the engine refuses a "correct" guess that was never made
        if opening.card != marker:
            raise Fault(
                Check.OPENINGS,
                ghost,
                f"{what} ({marker}) is called correct, but the opening shows {opening.card}",
            )
        assert self.slot_commits is not None
        candidate = SlotOpening(slot, bytes.fromhex(opening.salt), opening.card)
        if not candidate.opens(self.table_setup.game_id, self.slot_commits[slot]):
            raise Fault(
                Check.OPENINGS,
                ghost,
                f"{what} is called correct, but the opening does not match the commitment "
                f"to {slot}",
            )
        return OpenedSlot(seq, slot, candidate.salt, candidate.card)

    def _check_game_over(self, seq: int, body: GameOverBody) -> Ledger:
        expected = self.expected_game_over()
        if body != expected:
            raise Fault(
                Check.GAME_OVER,
                HOST,
                f"the host announced the game {body.outcome} on day {body.day}, but the moves "
                f"make it {expected.outcome} on day {expected.day}",
            )
        return self._with(step=Step.REVEAL, game_over_seq=seq)

    def _check_abort(self, seq: int, body: AbortBody) -> Ledger:
        if list(body.seats) != sorted(set(body.seats)) or not set(body.seats) <= set(
            self.table_setup.seats
        ):
            raise self._order(f"the abort names seats {list(body.seats)} that are not this table's")
        return self._with(step=Step.ABORTED, abort=body, abort_seq=seq)

    # ----------------------------------------------------------------- the reveal

    def _reveal(self, seq: int, body: RevealBody) -> Ledger:
        seed = bytes.fromhex(body.seed)
        reveal.check_seed(self, seed)
        step = Step.FINISHED if self.step is Step.REVEAL else Step.ABORTED
        try:
            final = reveal.replay(self, seq, seed)
        except Fault as cheat:
            return self._with(step=step, seed=seed, cheat=cheat)
        return self._with(step=step, seed=seed, replay=final)

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (``None`` while it goes on, or if it never started)."""
        return None if self.state is None else self.state.outcome


# The fold copies the ledger once per event (~19 fields): one C-level read of every field
# and one constructor call, instead of ``dataclasses.replace``'s loop over the fields.
_LEDGER_FIELDS: Final = field_names(Ledger)
_LEDGER_POSITIONS: Final = {name: position for position, name in enumerate(_LEDGER_FIELDS)}
_ledger_values: Final = attrgetter(*_LEDGER_FIELDS)
assert Ledger.__match_args__ == _LEDGER_FIELDS  # so the values fit ``__init__``'s order
