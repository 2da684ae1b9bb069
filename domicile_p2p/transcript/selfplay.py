"""A whole game in one process, every action through the real protocol.

:func:`play_game` seats a policy (a bot) in every seat and plays the game
exactly as on the network, minus the network: every action is signed by
its seat's agent, ordered and signed by a :class:`~domicile_p2p.transcript.table.GameTable`,
and checked by a separate :class:`~domicile_p2p.transcript.replica.Replica`
that the agents read the game from.  The Ghost's policy sees the Ghost's
secret view; investigators see the public one.

Every random value comes from a :class:`~domicile_p2p.fairness.seeds.SelfplaySeeds`,
so a seed replays the same game and the same transcript, byte for byte.

:class:`PlainPolicy` is a deliberately simple player for the protocol's
test vectors and tests, independent of the real bots (``domicile_p2p.bots``),
so that the vectors do not change when the bots get smarter.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from domicile_p2p.fairness.derive import ByteStream
from domicile_p2p.fairness.seeds import HOST, SelfplaySeeds
from domicile_p2p.identity import Identity
from domicile_p2p.rules import (
    GHOST,
    GROUP_GIVE_SIZE,
    Action,
    Category,
    Difficulty,
    GameState,
    Give,
    GroupGive,
    Lock,
    Phase,
    Place,
    Policy,
    Refresh,
    RuleError,
    Stage,
    View,
    apply,
    true_seance,
)
from domicile_p2p.transcript.agents import GhostAgent, InvestigatorAgent, SeatAgent
from domicile_p2p.transcript.codec import Event, SignedAction
from domicile_p2p.transcript.errors import Rejected, TranscriptError
from domicile_p2p.transcript.ledger import Step
from domicile_p2p.transcript.replica import Replica
from domicile_p2p.transcript.schema import CardLists, GenesisBody
from domicile_p2p.transcript.table import GameTable, make_genesis

MAX_ACTIONS: Final = 20_000
"""More moves than any real game needs: past it the policies are going round in circles."""


class SelfplayError(TranscriptError):
    """A policy made the game impossible to finish (stuck, looping, or an illegal move)."""


@dataclass(frozen=True, slots=True)
class Seating:
    """Who plays: the host's key and, per seat (the Ghost first), a name and a key."""

    host: Identity
    names: tuple[str, ...]
    identities: tuple[Identity, ...]

    @classmethod
    def from_seeds(cls, seeds: SelfplaySeeds, investigators: int) -> Seating:
        """Every key derived from the seed (a reproducible transcript)."""
        return cls(
            host=Identity.from_private_bytes(seeds.identity(HOST)),
            names=default_names(investigators),
            identities=tuple(
                Identity.from_private_bytes(seeds.identity(seat))
                for seat in range(investigators + 1)
            ),
        )


def default_names(investigators: int) -> tuple[str, ...]:
    return ("The Ghost", *(f"Bot {seat}" for seat in range(1, investigators + 1)))


@dataclass(frozen=True, slots=True)
class SelfplayResult:
    events: tuple[Event, ...]
    replica: Replica

    @property
    def final(self) -> GameState:
        state = self.replica.state
        assert state is not None
        return state


class InProcessTable:
    """A table, its verifying replica and every seat's agent, all in this process.

    The protocol exactly as on the network, minus the network: every action
    is signed by its seat's agent, ordered by the :class:`GameTable` and checked
    by the :class:`Replica` the agents read the game from.  Used by
    :func:`play_game` and by the terminal client's offline table.
    """

    def __init__(
        self,
        *,
        host: Identity,
        genesis: GenesisBody,
        identities: Sequence[Identity],
        ghost_seed: bytes | None = None,
        entropy: Callable[[int], bytes | None] = lambda _seat: None,
    ) -> None:
        self.game_table = GameTable.open(host, genesis)
        self.replica = Replica(self.game_table.events[0])
        self.ghost = GhostAgent(identities[GHOST], self.replica, ghost_seed)
        self.investigators = tuple(
            InvestigatorAgent(identities[seat], seat, self.replica, entropy(seat))
            for seat in range(1, len(identities))
        )

    @property
    def agents(self) -> tuple[SeatAgent, ...]:
        """Every seat's agent, the Ghost's first."""
        return (self.ghost, *self.investigators)

    def submit(self, action: SignedAction) -> tuple[Event, ...]:
        """Order ``action`` (or :class:`Rejected`) and check the new events on the replica."""
        events = self.game_table.submit(action)
        for event in events:
            self.replica.receive(event)
        return events

    def time_up(self) -> Event:
        """The host calls time on the investigation (see :meth:`GameTable.time_up`)."""
        event = self.game_table.time_up()
        self.replica.receive(event)
        return event

    def set_up(self) -> list[Event]:
        """Commitments, reveals, the deal and the slot commitments: the game can begin.

        Each round asks every seat, the Ghost first, for what the protocol owes
        (the ledger's step table), until nobody owes anything: the game is on.
        """
        events: list[Event] = []
        while self.replica.awaiting():
            for agent in self.agents:
                owed = agent.owed()
                if owed is not None:
                    events += self.submit(owed)
        return events


def play_game(
    *,
    seeds: SelfplaySeeds,
    seating: Seating,
    difficulty: Difficulty,
    cards: CardLists,
    pack_id: str,
    pack_hash: str,
    policies: Sequence[Policy],
    on_event: Callable[[Event], None] | None = None,
    timer: int | None = None,
    time_runs_out: Callable[[GameState], bool] | None = None,
) -> SelfplayResult:
    """Play a whole game; ``policies[seat]`` plays ``seat`` (the Ghost is seat 0).

    With a ``timer``, ``time_runs_out(state)`` stands in for the host's clock: asked
    before each move of an investigation, when it says so the host calls time.
    """
    genesis = make_genesis(
        game_id=seeds.game_id,
        host=seating.host.public_key,
        difficulty=difficulty.value,
        seats=[
            (name, i.public_key) for name, i in zip(seating.names, seating.identities, strict=True)
        ],
        pack_id=pack_id,
        pack_hash=pack_hash,
        cards=cards,
        timer=timer,
    )
    local = InProcessTable(
        host=seating.host,
        genesis=genesis,
        identities=seating.identities,
        ghost_seed=seeds.ghost_seed,
        entropy=seeds.entropy,
    )
    report = on_event if on_event is not None else (lambda _event: None)
    report(local.game_table.events[0])

    def send(action: SignedAction) -> None:
        try:
            events = local.submit(action)
        except Rejected as exc:
            raise SelfplayError(f"the table refused a bot's action: {exc}") from exc
        for event in events:
            report(event)

    try:
        setup = local.set_up()
    except Rejected as exc:
        raise SelfplayError(f"the table refused the setup: {exc}") from exc
    for event in setup:
        report(event)

    def host_clock() -> None:
        state = local.replica.state
        if (
            time_runs_out is not None
            and state is not None
            and state.phase is Phase.INVESTIGATION
            and time_runs_out(state)
        ):
            report(local.time_up())

    _play(local.replica, local.ghost, local.agents, policies, send, host_clock)
    send(local.ghost.reveal())
    return SelfplayResult(local.game_table.events, local.replica)


def _play(
    replica: Replica,
    ghost: GhostAgent,
    agents: Sequence[SeatAgent],
    policies: Sequence[Policy],
    send: Callable[[SignedAction], None],
    host_clock: Callable[[], None] = lambda: None,
) -> None:
    """Ask the Ghost, then each investigator, for a move, until the game is over.

    ``host_clock`` runs before each seat's turn: the host may call time then.
    """
    actions = 0
    while replica.step is Step.PLAY:
        acted = False
        for agent, policy in zip(agents, policies, strict=True):
            host_clock()
            if replica.step is not Step.PLAY:
                break
            seen = ghost.view() if agent is ghost else agent.view()
            action = policy.act(seen)
            if action is None:
                continue
            try:
                signed = agent.sign_move(action)
            except RuleError as exc:
                raise SelfplayError(f"the bot of seat {agent.seat} broke a rule: {exc}") from exc
            send(signed)
            acted = True
            actions += 1
        if not acted:
            state = replica.state
            assert state is not None
            raise SelfplayError(f"no seat can act on day {state.day} ({state.phase.value})")
        if actions > MAX_ACTIONS:
            raise SelfplayError(f"the bots made {actions} moves without finishing the game")


# --------------------------------------------------------------------------- a plain player


class PlainPolicy:
    """A simple, fully deterministic player of any seat (for vectors and tests).

    The Ghost gives one to three random cards of its hand (sometimes
    refreshing first, when allowed) and always tells the truth.  An
    investigator guesses uniformly among the cards of the category it seeks
    that have not yet been judged wrong for it, and locks at once; in Stage
    Two everyone accuses the same Character, one per day, in seat order.
    """

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self._stream = ByteStream(seed.to_bytes(32, "big"), f"domicile-p2p/v1/plain/{seat}")
        self._ruled_out: dict[Category, set[str]] = {category: set() for category in Category}
        self._last_guess: tuple[int, Category, str] | None = None

    def act(self, view: View) -> Action | None:
        state = view.state
        if view.seat == GHOST:
            return self._ghost(view)
        return self._investigator(state)

    # --- the Ghost ------------------------------------------------------------------

    def _ghost(self, view: View) -> Action | None:
        state, knowledge = view.state, view.ghost
        assert knowledge is not None
        if state.phase is Phase.SEANCE:
            return true_seance(state, knowledge)
        if state.phase is not Phase.DREAMS:
            return None
        if self._stream.below(3) == 0 and _allowed(state, Refresh()):
            return Refresh()
        hand = list(knowledge.hand)
        if state.stage is Stage.CULPRIT:
            return GroupGive(self._stream.shuffle(hand)[: min(GROUP_GIVE_SIZE, len(hand))])
        waiting = [s for s in state.active_seats if not state.investigator(s).served]
        if not waiting:
            return None
        count = min(len(hand), 1 + self._stream.below(3))
        return Give(waiting[0], self._stream.shuffle(hand)[:count])

    # --- an investigator ------------------------------------------------------------

    def _investigator(self, state: GameState) -> Action | None:
        me = state.investigator(self.seat)
        self._learn(state)
        if me.locked or state.phase is Phase.SEANCE or state.phase is Phase.ENDED:
            return None
        if state.stage is Stage.CULPRIT:
            if state.phase is not Phase.INVESTIGATION:
                return None
            characters = [inv.found[0] for inv in state.investigators]
            accused = characters[state.day % len(characters)]
            return Lock(self.seat) if me.marker == accused else Place(self.seat, accused)
        seeking = me.seeking
        if seeking is None or not me.served:
            return None
        if me.marker is not None:
            return Lock(self.seat)
        left = [c for c in state.tableau.cards(seeking) if c not in self._ruled_out[seeking]]
        choice = left[self._stream.below(len(left))]
        self._last_guess = (state.day, seeking, choice)
        return Place(self.seat, choice)

    def _learn(self, state: GameState) -> None:
        """A wrong verdict on yesterday's guess rules that card out."""
        if self._last_guess is None:
            return
        day, category, card = self._last_guess
        if state.day == day:
            return
        verdict = next((v for v in state.last_seance if v.seat == self.seat), None)
        if verdict is not None and not verdict.correct:
            self._ruled_out[category].add(card)
        self._last_guess = None


def _allowed(state: GameState, action: Action) -> bool:
    try:
        apply(state, action)
    except RuleError:
        return False
    return True
