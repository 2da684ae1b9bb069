"""One self-play game: deal it from a seed, let a bot play every seat, report the result.

Keys (so any game of a simulation can be replayed by hand)::

    joint seed  J = SHA-256("domicile-p2p/sim/<seed>/joint")
    ghost key   K = SHA-256("domicile-p2p/sim/<seed>/ghost")
    bot seed of seat s = first 8 bytes, big-endian, of SHA-256("domicile-p2p/sim/<seed>/bot/<s>")

The tableau and the secrets are then dealt by ``domicile_p2p.fairness.deal``
exactly as at a real table; only the way ``J`` and ``K`` come about differs
(no commitments: nobody here needs convincing).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from domicile_p2p.bots import DEFAULT_READERS, GhostBot, Listener, Policy, Readers, make_policy
from domicile_p2p.bots.naming import DreamNames, dream_names, wrong_named_cards
from domicile_p2p.fairness.deal import deal_secrets, deal_tableau
from domicile_p2p.packs import Pack
from domicile_p2p.rules import (
    GHOST,
    GHOST_ACTIONS,
    MOVES,
    Action,
    Category,
    Chat,
    Difficulty,
    GameState,
    Give,
    Outcome,
    Place,
    Stage,
    TableConfig,
    View,
    apply,
    new_game,
    public,
    view,
)

STAGE_TWO_FAILURE: Final = "stage two: wrong culprit"
STAGE_ONE_TOO_LATE: Final = "stage one: solved only on day 7"

PolicyFactory = Callable[[int, Pack, int], Policy]


class Deadlock(RuntimeError):
    """No seat can act although the game is not over: a bug in the bots or the engine."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """How one self-play game went."""

    seed: int
    outcome: Outcome
    rounds: int
    """Days used: the day of the last séance."""
    reached_stage_two: bool
    failure: str | None
    """For a loss, where the game was lost; ``None`` for a win."""
    ghost_gives: int = 0
    """Stage One gives the Ghost made."""
    wrong_named_gives: int = 0
    """Of those, the gives with a dream whose text names a wrong card of the category sought."""
    group_gives: int = 0
    """Stage Two gives the Ghost bot made."""
    group_gives_splittable: int = 0
    """Of those, the gives whose hand held one dream for each slot of the culprit's group."""
    group_gives_split: int = 0
    """Of the splittable ones, the gives that were so split."""

    @property
    def won(self) -> bool:
        return self.outcome is Outcome.WON


def _digest(seed: int, *parts: object) -> bytes:
    text = "/".join(["domicile-p2p/sim", str(seed), *(str(part) for part in parts)])
    return hashlib.sha256(text.encode("ascii")).digest()


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` for the game of ``seed``."""
    return int.from_bytes(_digest(seed, "bot", seat)[:8], "big")


@dataclass(frozen=True, slots=True)
class _Table:
    """What every game at one table shares: the pack it was built from, config, cards."""

    pack: Pack
    config: TableConfig
    tableau_size: int
    cards: dict[Category, tuple[str, ...]]


# A simulation deals thousands of games at one table: its config (with the set of the
# pack's dream ids) and card lists are built once.  Keyed by the pack's identity (hashing
# a pack would read every card); the entry keeps its pack alive so the id stays its own.
_TABLES: dict[tuple[int, int, Difficulty], _Table] = {}


def _table(pack: Pack, investigators: int, difficulty: Difficulty) -> _Table:
    key = (id(pack), investigators, difficulty)
    table = _TABLES.get(key)
    if table is None or table.pack is not pack:
        config = TableConfig(
            difficulty=difficulty,
            investigator_names=tuple(
                f"Investigator {seat}" for seat in range(1, investigators + 1)
            ),
            dream_cards=tuple(dream.id for dream in pack.dreams),
        )
        size = config.rules.tableau_size(investigators)
        pack.check_table(investigators, size)
        cards = {
            category: tuple(card.id for card in pack.category(category.value))
            for category in Category
        }
        table = _TABLES[key] = _Table(pack, config, size, cards)
    return table


def deal(pack: Pack, investigators: int, difficulty: Difficulty, seed: int) -> GameState:
    """The full state (with the Ghost's secrets) of day 1 of the game of ``seed``."""
    table = _table(pack, investigators, difficulty)
    config = table.config
    tableau = deal_tableau(_digest(seed, "joint"), table.cards, table.tableau_size)
    secret = deal_secrets(_digest(seed, "ghost"), config, tableau)
    return new_game(config, tableau, secret)


_GHOST_MOVES_AT: Final = {
    position: any(kind in moves for kind in GHOST_ACTIONS) for position, moves in MOVES.items()
}
_MARKER_MOVES_AT: Final = {position: Place in moves for position, moves in MOVES.items()}


def may_act(state: GameState, seat: int) -> bool:
    """Whether ``seat`` has a move (chat aside) in the current phase.

    The Ghost moves in the dreams and séance phases; an investigator moves
    a marker in the dreams (Stage One) and investigation phases, and in
    Stage One only while still seeking a card and once served that day.
    Asking anyone else for an action would only get ``None`` back.
    """
    position = (state.stage, state.phase)
    if seat == GHOST:
        return _GHOST_MOVES_AT[position]
    if not _MARKER_MOVES_AT[position]:
        return False
    if state.stage is Stage.CULPRIT:
        return True
    investigator = state.investigator(seat)
    return investigator.served and not investigator.done


def play(state: GameState, policies: Sequence[Policy]) -> GameState:
    """Let ``policies[seat]`` play ``seat`` until the game ends; the final state.

    Each pass asks the Ghost, then every investigator in seat order, for an
    action on their own view and applies it at once; a seat with no move in
    the phase it is reached in (:func:`may_act`) is passed over.  A pass in
    which nobody acts means the game can never end: :class:`Deadlock`.

    Every line of chat is heard at once by every policy that listens (a
    :class:`~domicile_p2p.bots.Listener`: the bot investigators).

    A seat passed over would have answered ``None``; what the bots remember
    (the séance guesses they have seen locked) they also see when next
    asked: the Ghost is asked at every séance with every marker locked, and
    an investigator notes its own guess when it locks.
    """
    seats = range(len(policies))
    listeners = [policy for policy in policies if isinstance(policy, Listener)]
    # Of ``state``: built once, shared by every seat's view (the Ghost's too).
    public_state: GameState | None = public(state)
    for seat in seats:
        view(state, seat, public_state)  # an unknown seat is refused before anyone plays
    while state.outcome is None:
        acted = False
        for seat in seats:
            if not may_act(state, seat):
                continue
            if public_state is None:
                public_state = public(state)
            action = policies[seat].act(view(state, seat, public_state))
            if action is not None:
                before = state
                state = apply(state, action)
                if state is not before:  # a line of chat changes nothing the views show
                    public_state = None
                acted = True
                if isinstance(action, Chat):
                    for listener in listeners:
                        listener.hear(action.by, action.text, state.day)
                if state.outcome is not None:
                    break
        if not acted:
            raise Deadlock(
                f"no seat can act on day {state.day} ({state.stage.name}, {state.phase.value})"
            )
    return state


class _WatchedGhost:
    """The Ghost's policy, its Stage One gives checked against the dreams' words."""

    def __init__(self, policy: Policy, names: DreamNames) -> None:
        self.policy = policy
        self._names = names
        self.gives = 0
        self.wrong_named = 0

    def act(self, view: View) -> Action | None:
        action = self.policy.act(view)
        if isinstance(action, Give):
            self.gives += 1
            self.wrong_named += bool(wrong_named_cards(self._names, view, action))
        return action


def run_game(
    pack: Pack,
    investigators: int,
    difficulty: Difficulty,
    seed: int,
    policy: PolicyFactory | None = None,
    readers: Readers = DEFAULT_READERS,
) -> GameResult:
    """Deal the game of ``seed`` and let bots play every seat (``policy``'s, or the
    project's bots reading dreams with ``readers``)."""
    state = deal(pack, investigators, difficulty, seed)
    seats = (GHOST, *state.config.seats)
    if policy is None:
        policies = [make_policy(seat, pack, bot_seed(seed, seat), readers) for seat in seats]
    else:
        policies = [policy(seat, pack, bot_seed(seed, seat)) for seat in seats]
    ghost = _WatchedGhost(policies[GHOST], dream_names(pack))
    final = play(state, [ghost, *policies[1:]])
    assert final.outcome is not None
    notes = ghost.policy.group_gives if isinstance(ghost.policy, GhostBot) else []
    return GameResult(
        seed=seed,
        outcome=final.outcome,
        rounds=final.day,
        reached_stage_two=final.stage is Stage.CULPRIT,
        failure=failure_point(final),
        ghost_gives=ghost.gives,
        wrong_named_gives=ghost.wrong_named,
        group_gives=len(notes),
        group_gives_splittable=sum(note.allowed for note in notes),
        group_gives_split=sum(note.allowed and note.split for note in notes),
    )


def failure_point(final: GameState) -> str | None:
    """Where a lost game was lost: the unsolved investigators, or the wrong culprit."""
    if final.outcome is not Outcome.LOST:
        return None
    if final.stage is Stage.CULPRIT:
        return STAGE_TWO_FAILURE
    unsolved = sum(1 for investigator in final.investigators if not investigator.done)
    if unsolved == 0:
        return STAGE_ONE_TOO_LATE
    return f"stage one: {unsolved} investigator{'s' if unsolved != 1 else ''} unsolved"
