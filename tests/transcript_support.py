"""Builders for transcript tests: games played through the real protocol, with every key at hand.

Self-play derives every key from its seed, so a test can play an honest
game, then change any event and sign it again as a cheating host or Ghost
would (``protocol_tools.forge``).  :class:`Game` plays step by step
on the real :class:`GameTable`, so a scenario can let a Ghost lie through the
table where the table cannot tell (a false "wrong", a card not in its hand).
A small synthetic card set keeps games short and makes the dream deck run
out, so reshuffles happen.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from domicile_p2p.canonical import encode
from domicile_p2p.fairness.commit import CULPRIT_SLOT, column_slot, ghost_key, slot_openings
from domicile_p2p.fairness.deal import deal_secrets
from domicile_p2p.fairness.seeds import SelfplaySeeds
from domicile_p2p.rules import (
    GHOST,
    MIN_DREAM_CARDS,
    Action,
    Difficulty,
    GameState,
    Lock,
    Phase,
    Place,
    Policy,
    Secrets,
    SecretSetup,
    Stage,
    View,
    apply,
    new_game,
    view,
)
from domicile_p2p.transcript import (
    Event,
    GameTable,
    GhostAgent,
    InvestigatorAgent,
    Replica,
    SignedAction,
    Violation,
    make_genesis,
)
from domicile_p2p.transcript.files import encode_transcript
from domicile_p2p.transcript.ledger import Ledger, Step
from domicile_p2p.transcript.moves import to_event
from domicile_p2p.transcript.schema import (
    CardLists,
    CulpritSeanceBody,
    Opening,
    SeanceBody,
    VerdictBody,
)
from domicile_p2p.transcript.selfplay import PlainPolicy, Seating, play_game
from protocol_tools.forge import Entry, entries_of, seal

CARDS = CardLists(
    tuple(f"char-{i:02d}" for i in range(1, 13)),
    tuple(f"loc-{i:02d}" for i in range(1, 13)),
    tuple(f"item-{i:02d}" for i in range(1, 13)),
    tuple(f"dream-{i:02d}" for i in range(1, MIN_DREAM_CARDS + 1)),
)
PACK_ID = "synthetic"
PACK_HASH = hashlib.sha256(encode([list(CARDS.character), list(CARDS.dream)])).hexdigest()


def seating(seed: int, investigators: int) -> Seating:
    return Seating.from_seeds(SelfplaySeeds.from_number(seed), investigators)


@functools.cache
def honest_game(
    seed: int, investigators: int = 2, difficulty: Difficulty = Difficulty.EASY
) -> tuple[Event, ...]:
    """A whole game of :class:`PlainPolicy` bots (cached: events are immutable)."""
    seeds = SelfplaySeeds.from_number(seed)
    result = play_game(
        seeds=seeds,
        seating=Seating.from_seeds(seeds, investigators),
        difficulty=difficulty,
        cards=CARDS,
        pack_id=PACK_ID,
        pack_hash=PACK_HASH,
        policies=[PlainPolicy(s, seeds.bot_seed(s)) for s in range(investigators + 1)],
    )
    return result.events


def transcript(events: Sequence[Event]) -> bytes:
    return encode_transcript(events)


def reseal(entries: Sequence[Entry], seed: int, investigators: int) -> list[Event]:
    """Sign ``entries`` again with the keys of the game of ``seed``."""
    keys = seating(seed, investigators)
    return seal(entries, host=keys.host, seats=keys.identities)


def forge(
    seed: int,
    investigators: int,
    change: Callable[[list[Entry]], list[Entry]],
    difficulty: Difficulty = Difficulty.EASY,
) -> list[Event]:
    """The honest game of ``seed`` with ``change`` applied to its entries, re-signed."""
    entries = entries_of(honest_game(seed, investigators, difficulty))
    return reseal(change(entries), seed, investigators)


def index_of(events: Sequence[Event] | Sequence[Entry], match: Callable[[object], bool]) -> int:
    return next(i for i, e in enumerate(events) if match(e))


# --------------------------------------------------------------------------- step by step


class Oracle:
    """An investigator who knows the answers and is right only on the days it is told to be.

    In Stage One it places its true card on ``right_days`` and another card
    of the category otherwise; in Stage Two the group accuses the true
    culprit on ``right_days`` (or ``accuse`` when given) and another
    Character otherwise.
    """

    def __init__(
        self,
        seat: int,
        secrets: Secrets,
        right_days: frozenset[int],
        accuse: str | None = None,
    ) -> None:
        self.seat = seat
        self.secrets = secrets
        self.right_days = right_days
        self.accuse = accuse

    def act(self, view: View) -> Action | None:
        state = view.state
        me = state.investigator(self.seat)
        if me.locked or state.phase in (Phase.SEANCE, Phase.ENDED):
            return None
        if state.stage is Stage.CULPRIT:
            if state.phase is not Phase.INVESTIGATION:
                return None
            target = self._accusation(state)
        else:
            seeking = me.seeking
            if seeking is None or not me.served:
                return None
            truth = self.secrets.column(self.seat).card(seeking)
            if state.day in self.right_days:
                target = truth
            else:
                target = next(c for c in state.tableau.cards(seeking) if c != truth)
        return Lock(self.seat) if me.marker == target else Place(self.seat, target)

    def _accusation(self, state: GameState) -> str:
        truth = self.secrets.column(self.secrets.culprit).character
        if self.accuse is not None:
            return self.accuse
        if state.day in self.right_days:
            return truth
        return next(inv.found[0] for inv in state.investigators if inv.found[0] != truth)


@dataclass
class Game:
    """A game on the real table, played a step at a time, with every key at hand."""

    seed: int
    investigators: int = 2
    difficulty: Difficulty = Difficulty.EASY
    ghost_seed: bytes | None = None
    timer: int | None = None
    game_table: GameTable = field(init=False)
    replica: Replica = field(init=False)
    ghost: GhostAgent = field(init=False)
    agents: list[InvestigatorAgent] = field(init=False)

    def __post_init__(self) -> None:
        seeds = SelfplaySeeds.from_number(self.seed)
        self.keys = Seating.from_seeds(seeds, self.investigators)
        self.seeds = seeds
        genesis = make_genesis(
            game_id=seeds.game_id,
            host=self.keys.host.public_key,
            difficulty=self.difficulty.value,
            seats=[
                (n, i.public_key)
                for n, i in zip(self.keys.names, self.keys.identities, strict=True)
            ],
            pack_id=PACK_ID,
            pack_hash=PACK_HASH,
            cards=CARDS,
            timer=self.timer,
        )
        self.game_table = GameTable.open(self.keys.host, genesis)
        self.replica = Replica(self.game_table.events[0])
        self.ghost = GhostAgent(
            self.keys.identities[GHOST], self.replica, self.ghost_seed or seeds.ghost_seed
        )
        self.agents = [
            InvestigatorAgent(self.keys.identities[s], s, self.replica, seeds.entropy(s))
            for s in range(1, self.investigators + 1)
        ]

    @property
    def events(self) -> tuple[Event, ...]:
        return self.game_table.events

    @property
    def state(self) -> GameState:
        state = self.replica.state
        assert state is not None
        return state

    def send(self, action: SignedAction) -> tuple[Event, ...]:
        events = self.game_table.submit(action)
        for event in events:
            self.replica.receive(event)
        return events

    def time_up(self) -> Event:
        """The host calls time (its sand-glass ran out); every peer receives the statement."""
        event = self.game_table.time_up()
        self.replica.receive(event)
        return event

    def setup(self, slot_commits: Callable[[Game], SignedAction] | None = None) -> Game:
        """The whole setup; ``slot_commits`` replaces the Ghost's honest slot commitments."""
        self.send(self.ghost.commit())
        for agent in self.agents:
            self.send(agent.commit_entropy())
        for agent in self.agents:
            self.send(agent.reveal_entropy())
        key = ghost_key(self.ghost.seed, self.ledger.joint_seed or b"")
        tableau = self.ledger.tableau
        assert tableau is not None
        setup = deal_secrets(key, self.replica.config, tableau)
        self.openings = slot_openings(key, setup)
        start = new_game(self.replica.config, tableau, setup)
        assert start.secrets is not None
        self.secrets = start.secrets
        self.send(slot_commits(self) if slot_commits else self.ghost.commit_slots())
        return self

    @property
    def ledger(self) -> Ledger:
        return self.replica.ledger

    def agent(self, seat: int) -> InvestigatorAgent | GhostAgent:
        return self.ghost if seat == GHOST else self.agents[seat - 1]

    def play(
        self,
        policies: Sequence[Policy],
        until: Callable[[Game], bool] = lambda game: False,
        ghost: GhostActor | None = None,
    ) -> Game:
        """Let the Ghost, then each investigator, move until ``until`` holds or the game is over."""
        ghost = ghost or HonestGhost(PlainPolicy(GHOST, self.seed))
        moved = True
        while moved and self.replica.step is Step.PLAY and not until(self):
            moved = False
            for seat in range(self.investigators + 1):
                if self.replica.step is not Step.PLAY or until(self):
                    break
                if seat == GHOST:
                    signed = ghost(self)
                else:
                    action = policies[seat - 1].act(self.agents[seat - 1].view())
                    signed = None if action is None else self.agents[seat - 1].sign_move(action)
                if signed is not None:
                    self.send(signed)
                    moved = True
        return self

    def oracles(self, right_days: frozenset[int], accuse: str | None = None) -> list[Oracle]:
        return [
            Oracle(s, self.secrets, right_days, accuse) for s in range(1, self.investigators + 1)
        ]

    def opening(self, slot: str) -> Opening:
        found = self.openings[slot]
        return Opening(found.salt.hex(), found.card)

    def finish(self) -> tuple[Event, ...]:
        """The Ghost reveals its seed (the game must be over); what the reveal proves is kept."""
        try:
            self.send(self.ghost.reveal())
        except Violation as proof:
            self.proof = proof
        return self.events


GhostActor = Callable[[Game], SignedAction | None]


class HonestGhost:
    """The Ghost's policy through its agent, which refuses to sign anything untrue."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy

    def __call__(self, game: Game) -> SignedAction | None:
        action = self.policy.act(game.ghost.view())
        return None if action is None else game.ghost.sign_move(action)


class CheatingGhost:
    """The Ghost playing from its own, possibly doctored, secret state, signing without checks.

    It keeps its secret state by applying every move of the transcript, so
    after :meth:`slip` (a card that was not in its hand is treated as if it
    were) the rest of the game goes on consistently, and nothing but the
    final reveal can show the slip.
    """

    def __init__(self, game: Game, policy: Policy) -> None:
        tableau = game.ledger.tableau
        assert tableau is not None
        self.state = new_game(game.replica.config, tableau, _setup_of(game))
        self.applied = 0
        self.policy = policy

    def sync(self, game: Game) -> None:
        for _, action in game.ledger.moves[self.applied :]:
            self.state = apply(self.state, action)
        self.applied = len(game.ledger.moves)

    def __call__(self, game: Game) -> SignedAction | None:
        self.sync(game)
        action = self.policy.act(view(self.state, GHOST))
        return None if action is None else self.sign(game, action)

    def sign(self, game: Game, action: Action) -> SignedAction:
        """Sign ``action``; correct verdicts get the true openings."""
        kind, body = to_event(action)
        if isinstance(body, SeanceBody):
            verdicts = []
            for v in body.verdicts:
                seeking = self.state.investigator(v.seat).seeking
                assert seeking is not None
                opening = game.opening(column_slot(v.seat, seeking)) if v.correct else None
                verdicts.append(VerdictBody(v.seat, v.correct, opening))
            body = SeanceBody(tuple(verdicts))
        elif isinstance(body, CulpritSeanceBody) and body.correct:
            body = CulpritSeanceBody(True, game.opening(CULPRIT_SLOT))
        return game.ghost.sign(kind, body)

    def slip(self, game: Game, card: str) -> None:
        """Pretend ``card`` (from the deck) is in the hand, in place of the hand's first card."""
        self.sync(game)
        secrets = self.state.secrets
        assert secrets is not None and card in secrets.deck
        swapped = secrets.hand[0]
        hand = (card, *secrets.hand[1:])
        deck = tuple(swapped if c == card else c for c in secrets.deck)
        self.state = replace(self.state, secrets=replace(secrets, hand=hand, deck=deck))


def _setup_of(game: Game) -> SecretSetup:
    tableau = game.ledger.tableau
    assert tableau is not None and game.ledger.joint_seed is not None
    key = ghost_key(game.ghost.seed, game.ledger.joint_seed)
    return deal_secrets(key, game.replica.config, tableau)


def seance_phase(game: Game) -> bool:
    return game.state.phase is Phase.SEANCE


def culprit_truth(game: Game) -> bool:
    state = game.state
    return state.investigators[0].marker == game.secrets.column(game.secrets.culprit).character
