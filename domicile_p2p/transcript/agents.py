"""A player's side of the protocol: its key, its counter, and (for the Ghost) its secrets.

An agent reads the game from a :class:`~domicile_p2p.transcript.replica.Replica`
that its owner feeds with the host's events (several agents may share one
replica, as self-play does); it never changes the replica.  It turns what
its player decides into :class:`~domicile_p2p.transcript.codec.SignedAction`\\ s
for the host, and refuses (:class:`~domicile_p2p.rules.RuleError` or
:class:`~domicile_p2p.transcript.errors.AgentMisuse`) to sign what the
rules or the protocol do not allow now, so an honest client never sends an
action the table would reject.

Counters: an agent signs action ``n + 1`` after the seat's last accepted
action ``n``, and keeps counting if it signs several before the host has
answered.  After a :class:`~domicile_p2p.transcript.errors.Rejected`, call
:meth:`SeatAgent.resync` so the next action reuses the refused counter.

Persistence: an investigator's entropy and the Ghost's seed must survive a
crash between the commitment and the reveal.  Store
:attr:`InvestigatorAgent.entropy` / :attr:`GhostAgent.seed` (``0600``, see
``net/adapters/key_files.write_private_file``) and rebuild the agent with ``restore``
from the saved value and the events so far.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from domicile_p2p.fairness.commit import (
    CULPRIT_SLOT,
    ENTROPY_BYTES,
    SEED_BYTES,
    SlotOpening,
    column_slot,
    entropy_commitment,
    ghost_commitment,
    ghost_key,
    slot_openings,
)
from domicile_p2p.fairness.deal import deal_secrets
from domicile_p2p.identity import Identity
from domicile_p2p.rules import (
    GHOST,
    Action,
    Chat,
    CulpritSeance,
    GameState,
    Seance,
    SecretSetup,
    View,
    apply,
    new_game,
    true_seance,
    view,
)
from domicile_p2p.transcript.codec import Event, SignedAction
from domicile_p2p.transcript.errors import AgentMisuse
from domicile_p2p.transcript.ledger import STEPS
from domicile_p2p.transcript.moves import to_event
from domicile_p2p.transcript.replica import Record, Replica
from domicile_p2p.transcript.schema import (
    Body,
    ColumnCommits,
    CulpritSeanceBody,
    EntropyCommitBody,
    EntropyRevealBody,
    GhostCommitBody,
    Kind,
    Opening,
    RevealBody,
    SeanceBody,
    SlotCommitsBody,
    VerdictBody,
)


class SeatAgent:
    """Signs the actions of one seat."""

    def __init__(self, identity: Identity, seat: int, replica: Record) -> None:
        if seat not in replica.table_setup.seats:
            raise AgentMisuse(f"there is no seat {seat} at this table")
        if replica.table_setup.seat_keys[seat] != identity.public_key:
            raise AgentMisuse(f"seat {seat} belongs to another identity key")
        self.identity = identity
        self.seat = seat
        self.replica = replica
        self._signed = replica.last_counter(seat)

    @property
    def next_counter(self) -> int:
        return max(self._signed, self.replica.last_counter(self.seat)) + 1

    def resync(self) -> None:
        """Forget actions signed but not accepted (after the host rejected one)."""
        self._signed = self.replica.last_counter(self.seat)

    def sign(self, kind: Kind, body: Body) -> SignedAction:
        """Sign any action of this seat with the next counter (no checks: see ``act``)."""
        action = SignedAction.create(
            self.identity,
            game=self.replica.game_id,
            seat=self.seat,
            counter=self.next_counter,
            kind=kind,
            body=body,
        )
        self._signed = action.counter
        return action

    def view(self) -> View:
        """What this seat may see now (the Ghost's agent adds its secrets)."""
        state = self.replica.state
        if state is None:
            raise AgentMisuse("the tableau has not been dealt yet")
        return view(state, self.seat)

    def _check_step(self, kind: Kind) -> GameState:
        """The public state, if this step accepts ``kind`` from someone (the ledger's table).

        Whether this seat may make that move is the rules engine's to say (a
        :class:`~domicile_p2p.rules.RuleError`, as a peer would see it).
        """
        ledger = self.replica.ledger
        step, state = ledger.step, ledger.state
        rule = STEPS[step]
        if kind not in rule.ghost | rule.investigators:
            if kind is Kind.CHAT:
                raise AgentMisuse(f"no move is possible now ({step.value})")
            raise AgentMisuse(f"the game is not being played ({step.value})")
        assert state is not None  # every step that accepts a move comes after the deal
        return state

    def chat(self, text: str) -> SignedAction:
        return self.sign_move(Chat(self.seat, text))

    def sign_move(self, action: Action) -> SignedAction:
        """Sign a move of the game, after checking it against the rules."""
        if action.by != self.seat:
            raise AgentMisuse(f"seat {self.seat} cannot sign a move of seat {action.by}")
        kind, body = to_event(action)
        apply(self._check_step(kind), action)  # raises the RuleError a peer would see
        return self.sign(kind, body)

    def owed(self) -> SignedAction | None:
        """The protocol step this seat owes now (a commitment, a reveal), signed; else ``None``."""
        kind = self.replica.ledger.owed(self.seat)
        return None if kind is None else self._protocol_step(kind)

    def _protocol_step(self, kind: Kind) -> SignedAction:
        raise AgentMisuse(f"seat {self.seat} does not send {kind.value}")


class InvestigatorAgent(SeatAgent):
    """An investigator: commits to entropy, reveals it, then plays."""

    def __init__(
        self, identity: Identity, seat: int, replica: Record, entropy: bytes | None = None
    ) -> None:
        if seat == GHOST:
            raise AgentMisuse("seat 0 is the Ghost's: use GhostAgent")
        super().__init__(identity, seat, replica)
        self.entropy = secrets.token_bytes(ENTROPY_BYTES) if entropy is None else entropy
        if len(self.entropy) != ENTROPY_BYTES:
            raise AgentMisuse(f"an investigator's entropy is {ENTROPY_BYTES} bytes")

    @classmethod
    def restore(
        cls, identity: Identity, seat: int, entropy: bytes, events: Iterable[Event]
    ) -> InvestigatorAgent:
        """The agent of a client that comes back: its saved entropy, the events so far."""
        return cls(identity, seat, Replica.from_events(events), entropy)

    @property
    def commitment(self) -> bytes:
        return entropy_commitment(self.replica.table_setup.game_id, self.seat, self.entropy)

    def _protocol_step(self, kind: Kind) -> SignedAction:
        if kind is Kind.ENTROPY_COMMIT:
            return self.commit_entropy()
        if kind is Kind.ENTROPY_REVEAL:
            return self.reveal_entropy()
        return super()._protocol_step(kind)

    def commit_entropy(self) -> SignedAction:
        """The commitment to this seat's entropy: its first action."""
        ledger = self.replica.ledger
        if not ledger.accepts(Kind.ENTROPY_COMMIT, self.seat):
            if ledger.sent(Kind.ENTROPY_COMMIT, self.seat):
                raise AgentMisuse(f"seat {self.seat} has already committed")
            raise AgentMisuse("the commitments are over")
        return self.sign(Kind.ENTROPY_COMMIT, EntropyCommitBody(self.commitment.hex()))

    def reveal_entropy(self) -> SignedAction:
        """Reveal the entropy; only once every commitment is in (else the last could steer)."""
        ledger = self.replica.ledger
        if not ledger.accepts(Kind.ENTROPY_REVEAL, self.seat):
            if Kind.ENTROPY_REVEAL in STEPS[ledger.step].investigators:
                raise AgentMisuse(f"seat {self.seat} has already revealed its entropy")
            raise AgentMisuse("entropy is revealed only once every commitment is in")
        published = self.replica.ledger.entropy_commits[self.seat - 1]
        if published != self.commitment:
            raise AgentMisuse("the commitment on record is not this entropy's (a lost entropy?)")
        return self.sign(Kind.ENTROPY_REVEAL, EntropyRevealBody(self.entropy.hex()))


class GhostAgent(SeatAgent):
    """The Ghost: holds the seed ``g``, and with it every secret of the game.

    ``state`` is the full game state with the secrets (columns, culprit,
    deck, hand), for the Ghost's own screen and bot; it is kept up to date
    from the replica's moves.  Nothing secret ever leaves this object except
    through an opening of a correct verdict or the final :meth:`reveal`.
    """

    def __init__(self, identity: Identity, replica: Record, seed: bytes | None = None) -> None:
        super().__init__(identity, GHOST, replica)
        self.seed = secrets.token_bytes(SEED_BYTES) if seed is None else seed
        if len(self.seed) != SEED_BYTES:
            raise AgentMisuse(f"the Ghost's seed is {SEED_BYTES} bytes")
        self._setup: SecretSetup | None = None
        self._secret: GameState | None = None
        self._applied = 0
        self._openings: dict[str, SlotOpening] | None = None

    @classmethod
    def restore(cls, identity: Identity, seed: bytes, events: Iterable[Event]) -> GhostAgent:
        """The Ghost of a client that comes back: its saved seed, the events so far."""
        return cls(identity, Replica.from_events(events), seed)

    @property
    def commitment(self) -> bytes:
        return ghost_commitment(self.seed)

    # ----------------------------------------------------------------- setup

    def _protocol_step(self, kind: Kind) -> SignedAction:
        if kind is Kind.GHOST_COMMIT:
            return self.commit()
        if kind is Kind.SLOT_COMMITS:
            return self.commit_slots()
        if kind is Kind.REVEAL:
            return self.reveal()
        return super()._protocol_step(kind)

    def commit(self) -> SignedAction:
        """The commitment to the seed: the Ghost's first action."""
        if not self.replica.ledger.accepts(Kind.GHOST_COMMIT, GHOST):
            raise AgentMisuse("the Ghost commits once, before any reveal")
        return self.sign(Kind.GHOST_COMMIT, GhostCommitBody(self.commitment.hex()))

    def commit_slots(self) -> SignedAction:
        """The salted commitment of every slot, right after the deal."""
        if not self.replica.ledger.accepts(Kind.SLOT_COMMITS, GHOST):
            raise AgentMisuse("the slot commitments come right after the deal")
        self._check_seed()
        game_id = self.replica.table_setup.game_id
        commits = {slot: o.commitment(game_id).hex() for slot, o in self._slot_openings().items()}
        columns = tuple(
            ColumnCommits(
                seat,
                commits[f"column/{seat}/character"],
                commits[f"column/{seat}/location"],
                commits[f"column/{seat}/item"],
            )
            for seat in self.replica.config.seats
        )
        return self.sign(Kind.SLOT_COMMITS, SlotCommitsBody(columns, commits[CULPRIT_SLOT]))

    def _check_seed(self) -> None:
        published = self.replica.ledger.ghost_commit
        if published is not None and published != self.commitment:
            raise AgentMisuse("the Ghost's commitment on record is not this seed's (a lost seed?)")

    def _key(self) -> bytes:
        joint = self.replica.ledger.joint_seed
        if joint is None:
            raise AgentMisuse("the secrets exist only once the tableau is dealt")
        return ghost_key(self.seed, joint)

    def _secret_setup(self) -> SecretSetup:
        """The secrets dealt from the seed and the tableau (once: openings and state share them)."""
        if self._setup is None:
            tableau = self.replica.ledger.tableau
            if tableau is None:
                raise AgentMisuse("the secrets exist only once the tableau is dealt")
            self._setup = deal_secrets(self._key(), self.replica.config, tableau)
        return self._setup

    def _slot_openings(self) -> dict[str, SlotOpening]:
        if self._openings is None:
            self._openings = slot_openings(self._key(), self._secret_setup())
        return self._openings

    # ----------------------------------------------------------------- the secret state

    @property
    def state(self) -> GameState:
        """The game with the Ghost's secrets, up to the replica's last event."""
        ledger = self.replica.ledger
        if self._secret is None:
            setup = self._secret_setup()
            assert ledger.tableau is not None  # the setup was dealt from it
            self._secret = new_game(self.replica.config, ledger.tableau, setup)
        for _, action in ledger.moves[self._applied :]:
            self._secret = apply(self._secret, action)
        self._applied = len(ledger.moves)
        return self._secret

    def view(self) -> View:
        """The Ghost's view: the public state plus its columns, culprit and hand."""
        return view(self.state, GHOST)

    # ----------------------------------------------------------------- play

    def sign_move(self, action: Action) -> SignedAction:
        """Sign one of the Ghost's moves; a séance's correct verdicts get their openings.

        Raises the :class:`~domicile_p2p.rules.RuleError` the move breaks,
        including :class:`~domicile_p2p.rules.FalseVerdict` for a verdict that
        contradicts the columns: an honest Ghost cannot sign one.
        """
        if action.by != GHOST:
            raise AgentMisuse("the Ghost signs only its own moves")
        self._check_step(to_event(action)[0])
        before = self.state
        apply(before, action)
        if isinstance(action, Seance):
            return self.sign(Kind.SEANCE, self._seance_body(before, action))
        if isinstance(action, CulpritSeance):
            opening = self._opening(CULPRIT_SLOT) if action.correct else None
            return self.sign(Kind.CULPRIT_SEANCE, CulpritSeanceBody(action.correct, opening))
        return self.sign(*to_event(action))

    def seance(self) -> SignedAction:
        """The true verdicts of this séance (Stage One or Stage Two), signed."""
        state = self.state
        assert state.secrets is not None
        return self.sign_move(true_seance(state, state.secrets))

    def _seance_body(self, before: GameState, action: Seance) -> SeanceBody:
        verdicts = []
        for verdict in sorted(action.verdicts, key=lambda v: v.seat):
            opening = None
            if verdict.correct:
                seeking = before.investigator(verdict.seat).seeking
                assert seeking is not None
                opening = self._opening(column_slot(verdict.seat, seeking))
            verdicts.append(VerdictBody(verdict.seat, verdict.correct, opening))
        return SeanceBody(tuple(verdicts))

    def _opening(self, slot: str) -> Opening:
        found = self._slot_openings()[slot]
        return Opening(found.salt.hex(), found.card)

    # ----------------------------------------------------------------- the end

    def reveal(self) -> SignedAction:
        """The seed, once the game is over (or aborted): everyone can now check everything."""
        if not self.replica.ledger.accepts(Kind.REVEAL, GHOST):
            raise AgentMisuse("the Ghost reveals its seed only when the game is over or aborted")
        self._check_seed()
        return self.sign(Kind.REVEAL, RevealBody(self.seed.hex()))
