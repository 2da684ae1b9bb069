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
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from itertools import pairwise
from types import MappingProxyType
from typing import Final

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
    new_game,
)
from domicile_p2p.transcript import reveal
from domicile_p2p.transcript.codec import Event
from domicile_p2p.transcript.errors import HOST, Check, Fault, party
from domicile_p2p.transcript.moves import PLAY_KINDS, to_rules
from domicile_p2p.transcript.schema import (
    GHOST_KINDS,
    INVESTIGATOR_KINDS,
    PROTOCOL_VERSION,
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


_BEFORE_PLAY: Final = frozenset({Step.COMMITMENTS, Step.REVEALS, Step.DEAL, Step.SLOT_COMMITMENTS})
_CHAT_STEPS: Final = frozenset({Step.SLOT_COMMITMENTS, Step.PLAY, Step.REVEAL})
_ABORTABLE: Final = frozenset(
    {Step.COMMITMENTS, Step.REVEALS, Step.SLOT_COMMITMENTS, Step.PLAY, Step.REVEAL}
)


# --------------------------------------------------------------------------- genesis


@dataclass(frozen=True, slots=True)
class TableSetup:
    """What the genesis event fixes for the whole game."""

    genesis: GenesisBody
    game_id: bytes
    config: TableConfig
    cards: Mapping[Category, tuple[str, ...]]
    host_key: PublicKey
    seat_keys: tuple[PublicKey, ...]

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


def _plain_name(name: str) -> bool:
    """A name is shown on every screen: no control characters, not blank."""
    return bool(name.strip()) and not any(unicodedata.category(c) == "Cc" for c in name)


def read_genesis(event: Event) -> TableSetup:
    """The table an event 0 describes, or a :class:`Fault` of the genesis check."""
    if event.kind is not Kind.GENESIS or not isinstance(event.body, GenesisBody):
        raise _genesis_fault(f"event 0 must be the genesis, not {event.kind.value}")
    body = event.body
    if body.protocol != PROTOCOL_VERSION:
        raise _genesis_fault(
            f"protocol version {body.protocol} is not supported (this program speaks "
            f"{PROTOCOL_VERSION})"
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
        if not _plain_name(entry.name):
            raise _genesis_fault(f"the name of seat {index} is blank or has control characters")
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
    config = TableConfig(
        difficulty=Difficulty(body.difficulty),
        investigator_names=tuple(entry.name for entry in seats[1:]),
        dream_cards=body.cards.dream,
        ghost_name=seats[0].name,
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


@dataclass(frozen=True, slots=True)
class OpenedSlot:
    """A slot commitment opened during play by a correct verdict."""

    seq: int
    slot: str
    salt: bytes
    card: str


@dataclass(frozen=True, slots=True)
class Ledger:
    """Everything the events so far prove, and where the protocol stands."""

    table: TableSetup
    step: Step = Step.COMMITMENTS
    ghost_commit: bytes | None = None
    entropy_commits: tuple[bytes | None, ...] = ()
    entropies: tuple[bytes | None, ...] = ()
    joint_seed: bytes | None = None
    tableau: Tableau | None = None
    slot_commits: Mapping[str, bytes] | None = None
    slot_commits_seq: int | None = None
    state: GameState | None = None
    """The public game state (``None`` until the deal)."""
    moves: tuple[tuple[int, Action], ...] = ()
    """Every move of the game with its event's ``seq``: what the reveal replays."""
    openings: tuple[OpenedSlot, ...] = ()
    game_over_seq: int | None = None
    abort: AbortBody | None = None
    abort_seq: int | None = None
    seed: bytes | None = None
    """The Ghost's seed, once revealed."""
    replay: GameState | None = None
    """The game replayed with the Ghost's secrets, once the seed is revealed."""
    cheat: Fault | None = None
    """What the revealed seed proves the Ghost did (``None``: nothing, or no reveal yet)."""
    foresight: reveal.Foresight | None = None
    """The game played with the Ghost's secrets as it goes, when a verifier read the seed
    ahead (``verify`` holds the whole transcript; see :mod:`reveal`): the reveal then need
    not replay it.  ``None`` for a live peer, which learns the seed at the end."""

    @classmethod
    def start(cls, table: TableSetup, *, foreseen_seed: bytes | None = None) -> Ledger:
        nobody = (None,) * table.investigators
        foresight = None if foreseen_seed is None else reveal.Foresight(foreseen_seed)
        return cls(table, entropy_commits=nobody, entropies=nobody, foresight=foresight)

    # ----------------------------------------------------------------- queries

    def awaiting(self) -> tuple[int, ...]:
        """The seats whose setup step (or reveal) the protocol is waiting for, in seat order."""
        match self.step:
            case Step.COMMITMENTS:
                ghost = (GHOST,) if self.ghost_commit is None else ()
                late = (s for s, c in enumerate(self.entropy_commits, start=1) if c is None)
                return (*ghost, *late)
            case Step.REVEALS:
                return tuple(s for s, e in enumerate(self.entropies, start=1) if e is None)
            case Step.SLOT_COMMITMENTS | Step.REVEAL:
                return (GHOST,)
            case Step.ABORTED if self.seed is None and self.ghost_commit is not None:
                return (GHOST,)
        return ()

    @property
    def host_statement_due(self) -> Kind | None:
        """The statement the host must make next (the deal or game-over), if any."""
        if self.step is Step.DEAL:
            return Kind.DEAL
        if self.step is Step.GAME_OVER:
            return Kind.GAME_OVER
        return None

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
        assert len(entropies) == self.table.investigators
        joint = joint_seed(self.table.game_id, self.ghost_commit, entropies)
        size = self.table.config.rules.tableau_size(self.table.investigators)
        return joint, deal_tableau(joint, dict(self.table.cards), size)

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
        if event.kind in (Kind.DEAL, Kind.GAME_OVER) and event.kind is not self.host_statement_due:
            raise self._order(f"a {event.kind.value} statement is not due now ({self.step.value})")
        match body:
            case DealBody():
                return self._check_deal(body)
            case GameOverBody():
                return self._check_game_over(event.seq, body)
            case AbortBody():
                return self._check_abort(event.seq, body)
        raise Fault(Check.EVENT_ORDER, HOST, f"a second {event.kind.value} statement")

    def _player_action(self, event: Event, seat: int) -> Ledger:
        kind = event.kind
        who = party(seat)
        if kind in GHOST_KINDS and seat != GHOST:
            raise Fault(Check.EVENT_ORDER, who, f"only the Ghost may send {kind.value}")
        if kind in INVESTIGATOR_KINDS and seat == GHOST:
            raise Fault(Check.EVENT_ORDER, who, f"the Ghost may not send {kind.value}")
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

    def _ghost_commit(self, body: GhostCommitBody) -> Ledger:
        if self.step is not Step.COMMITMENTS or self.ghost_commit is not None:
            raise self._order("the Ghost commits to its seed once, before any reveal")
        return self._after_commitment(replace(self, ghost_commit=bytes.fromhex(body.commit)))

    def _entropy_commit(self, seat: int, body: EntropyCommitBody) -> Ledger:
        if self.step is not Step.COMMITMENTS or self.entropy_commits[seat - 1] is not None:
            raise self._order(f"seat {seat} commits to its entropy once, before any reveal")
        commits = list(self.entropy_commits)
        commits[seat - 1] = bytes.fromhex(body.commit)
        return self._after_commitment(replace(self, entropy_commits=tuple(commits)))

    @staticmethod
    def _after_commitment(ledger: Ledger) -> Ledger:
        if ledger.ghost_commit is not None and all(ledger.entropy_commits):
            return replace(ledger, step=Step.REVEALS)
        return ledger

    def _entropy_reveal(self, seat: int, body: EntropyRevealBody) -> Ledger:
        if self.step is not Step.REVEALS:
            raise self._order(
                f"seat {seat} revealed its entropy before every commitment was in"
                if self.step is Step.COMMITMENTS
                else f"seat {seat} revealed its entropy after the deal"
            )
        if self.entropies[seat - 1] is not None:
            raise self._order(f"seat {seat} revealed its entropy twice")
        entropy = bytes.fromhex(body.entropy)
        commit = self.entropy_commits[seat - 1]
        assert commit is not None
        if not same_digest(entropy_commitment(self.table.game_id, seat, entropy), commit):
            raise Fault(
                Check.ENTROPY,
                party(seat),
                f"the entropy {self.table.describe(seat)} revealed does not open its commitment",
            )
        entropies = list(self.entropies)
        entropies[seat - 1] = entropy
        ledger = replace(self, entropies=tuple(entropies))
        if all(ledger.entropies):
            ledger = replace(ledger, step=Step.DEAL)
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
        state = new_game(self.table.config, tableau)
        foresight = self.foresight
        if foresight is not None:
            assert self.ghost_commit is not None
            foresight = foresight.dealt(self.ghost_commit, joint, self.table.config, tableau)
        return replace(
            self,
            step=Step.SLOT_COMMITMENTS,
            joint_seed=joint,
            tableau=tableau,
            state=state,
            foresight=foresight,
        )

    def _slot_commits(self, seq: int, body: SlotCommitsBody) -> Ledger:
        if self.step is not Step.SLOT_COMMITMENTS:
            raise self._order("the Ghost publishes its slot commitments once, right after the deal")
        seats = [column.seat for column in body.columns]
        if seats != list(self.table.config.seats):
            raise Fault(
                Check.EVENT_ORDER,
                party(GHOST),
                f"the slot commitments must cover seats {list(self.table.config.seats)} in "
                f"order, not {seats}",
            )
        commits: dict[str, bytes] = {}
        for column in body.columns:
            for category in CATEGORY_ORDER:
                commits[column_slot(column.seat, category)] = bytes.fromhex(
                    getattr(column, category.value)
                )
        commits[CULPRIT_SLOT] = bytes.fromhex(body.culprit)
        return replace(
            self,
            step=Step.PLAY,
            slot_commits=MappingProxyType(commits),
            slot_commits_seq=seq,
        )

    # ----------------------------------------------------------------- play

    def _move(self, event: Event, seat: int) -> Ledger:
        kind = event.kind
        action = to_rules(kind, event.body, seat)
        is_chat = kind is Kind.CHAT
        if not (self.step is Step.PLAY or (is_chat and self.step in _CHAT_STEPS)):
            raise self._order(
                f"{kind.value} is not possible now: "
                + ("the game has not started" if self.step in _BEFORE_PLAY else "the game is over")
            )
        state = self.state
        assert state is not None
        try:
            after, foresight = reveal.play(self.foresight, state, action, event.seq)
        except RuleError as exc:
            raise Fault(Check.PUBLIC_RULES, party(seat), str(exc)) from None
        openings = self._check_openings(event, state)
        ledger = replace(
            self,
            state=after,
            moves=(*self.moves, (event.seq, action)),
            openings=self.openings + openings,
            foresight=foresight,
        )
        if after.phase is Phase.ENDED and self.step is Step.PLAY:
            ledger = replace(ledger, step=Step.GAME_OVER)
        return ledger

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
                assert seeking is not None and marker is not None  # the engine checked
                slot = column_slot(verdict.seat, seeking)
                what = f"{self.table.describe(verdict.seat)}'s {seeking.label}"
                found = self._opening(
                    event.seq, slot, what, verdict.correct, verdict.opening, marker
                )
                if found is not None:
                    opened.append(found)
            return tuple(opened)
        if isinstance(body, CulpritSeanceBody):
            accused = before.investigators[0].marker
            assert accused is not None  # the engine checked the markers are unanimous
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
        marker: str,
    ) -> OpenedSlot | None:
        ghost = party(GHOST)
        if not correct:
            if opening is not None:
                raise Fault(Check.OPENINGS, ghost, f"{what} is called wrong but carries an opening")
            return None
        if opening is None:
            raise Fault(Check.OPENINGS, ghost, f"{what} is called correct without an opening")
        if opening.card != marker:
            raise Fault(
                Check.OPENINGS,
                ghost,
                f"{what} ({marker}) is called correct, but the opening shows {opening.card}",
            )
        assert self.slot_commits is not None
        candidate = SlotOpening(slot, bytes.fromhex(opening.salt), opening.card)
        if not candidate.opens(self.table.game_id, self.slot_commits[slot]):
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
        return replace(self, step=Step.REVEAL, game_over_seq=seq)

    def _check_abort(self, seq: int, body: AbortBody) -> Ledger:
        if self.step not in _ABORTABLE:
            raise self._order(f"the host cannot abort now ({self.step.value})")
        if list(body.seats) != sorted(set(body.seats)) or not set(body.seats) <= set(
            self.table.seats
        ):
            raise self._order(f"the abort names seats {list(body.seats)} that are not this table's")
        return replace(self, step=Step.ABORTED, abort=body, abort_seq=seq)

    # ----------------------------------------------------------------- the reveal

    def _reveal(self, seq: int, body: RevealBody) -> Ledger:
        if not (
            self.step is Step.REVEAL
            or (self.step is Step.ABORTED and self.seed is None and self.ghost_commit is not None)
        ):
            raise self._order(
                "the Ghost reveals its seed once, when the game is over or aborted"
                if self.seed is None
                else "the Ghost revealed its seed twice"
            )
        seed = bytes.fromhex(body.seed)
        reveal.check_seed(self, seed)
        step = Step.FINISHED if self.step is Step.REVEAL else Step.ABORTED
        try:
            final = reveal.replay(self, seq, seed)
        except Fault as cheat:
            return replace(self, step=step, seed=seed, cheat=cheat)
        return replace(self, step=step, seed=seed, replay=final)

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (``None`` while it goes on, or if it never started)."""
        return None if self.state is None else self.state.outcome
