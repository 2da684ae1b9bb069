"""``new_game``, ``apply`` and ``legal_actions``: the rules of RULES.md as pure functions.

``apply(state, action)`` returns the next state or raises a
:class:`~domicile_p2p.rules.errors.RuleError` and changes nothing.  It runs
the same checks with or without the Ghost's secrets; with them it also
checks what only the Ghost can know (the hand, the truth of a verdict).
The order of phases lives in ``phases.py``; this module moves the pieces.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from itertools import combinations

from domicile_p2p.rules import errors
from domicile_p2p.rules.actions import (
    GHOST_ACTIONS,
    Action,
    Chat,
    CulpritSeance,
    Give,
    GroupGive,
    Lock,
    Place,
    Refresh,
    Seance,
    Unlock,
)
from domicile_p2p.rules.model import (
    CATEGORY_ORDER,
    EMPTY_TABLEAU,
    GHOST,
    GROUP_GIVE_SIZE,
    HAND_SIZE,
    LAST_DAY,
    MAX_CHAT_LENGTH,
    MAX_INVESTIGATORS,
    Category,
    GameState,
    Investigator,
    Outcome,
    Phase,
    Secrets,
    SecretSetup,
    Stage,
    Tableau,
    TableConfig,
    Verdict,
)
from domicile_p2p.rules.phases import MOVES, PHASE_DESCRIPTIONS, Trigger, follow

# --------------------------------------------------------------------------- setup


def new_game(config: TableConfig, tableau: Tableau, secret: SecretSetup | None = None) -> GameState:
    """Day 1 of a game dealt from setup values that come from outside (the fairness layer).

    With ``secret=None`` the result is the public state every peer replays.
    """
    _check_config(config, tableau)
    size = min(HAND_SIZE, len(config.dream_cards))
    state = GameState(
        config=config,
        tableau=tableau,
        investigators=tuple(Investigator() for _ in config.seats),
        hand_size=size,
        deck_size=len(config.dream_cards) - size,
    )
    if secret is None:
        return state
    _check_secret(config, tableau, secret)
    secrets = Secrets(
        columns=secret.columns,
        culprit=secret.culprit,
        hand=secret.deck[:size],
        deck=secret.deck[size:],
        discard=(),
        reshuffle=secret.reshuffle,
    )
    return replace(state, secrets=secrets)


def _check_config(config: TableConfig, tableau: Tableau) -> None:
    if not 1 <= config.investigators <= MAX_INVESTIGATORS:
        raise errors.SetupError(
            f"a table has 1 to {MAX_INVESTIGATORS} investigators, not {config.investigators}"
        )
    if len(set(config.dream_cards)) != len(config.dream_cards):
        raise errors.SetupError("the dream cards have a repeated id")
    size = config.rules.tableau_size(config.investigators)
    for category in CATEGORY_ORDER:
        cards = tableau.cards(category)
        if len(cards) != size:
            raise errors.SetupError(
                f"{config.difficulty.label} with {config.investigators} investigators deals "
                f"{size} {category.label} cards, not {len(cards)}"
            )
    if len(set(tableau.all_cards)) != len(tableau.all_cards):
        raise errors.SetupError("the Clue Tableau has a repeated card")


def _check_secret(config: TableConfig, tableau: Tableau, secret: SecretSetup) -> None:
    if len(secret.columns) != config.investigators:
        raise errors.SetupError("there must be one column per investigator")
    for category in CATEGORY_ORDER:
        chosen = [column.card(category) for column in secret.columns]
        if len(set(chosen)) != len(chosen):
            raise errors.SetupError(f"two columns share a {category.label} card")
        if not set(chosen) <= set(tableau.cards(category)):
            raise errors.SetupError(f"a column's {category.label} card is not on the tableau")
    if secret.culprit not in config.seats:
        raise errors.SetupError(f"the culprit column {secret.culprit} is not an investigator's")
    if sorted(secret.deck) != sorted(config.dream_cards):
        raise errors.SetupError("the dream deck is not a permutation of the pack's dream cards")


# --------------------------------------------------------------------------- apply


def apply(state: GameState, action: Action) -> GameState:
    """The state after ``action``, or a :class:`RuleError` naming the rule it breaks."""
    if isinstance(action, Chat):
        return _chat(state, action)
    if state.phase is Phase.ENDED:
        raise errors.GameOver(f"the game is over ({state.outcome}); only chat is possible")
    if isinstance(action, GHOST_ACTIONS):
        if action.by != GHOST:
            raise errors.GhostOnly(f"only the Ghost may {_describe(action)}")
    else:
        _check_investigator(state, action.by)
    if type(action) not in MOVES[(state.stage, state.phase)]:
        raise errors.WrongPhase(
            f"no one may {_describe(action)} now: {PHASE_DESCRIPTIONS[(state.stage, state.phase)]}"
        )
    match action:
        case Give():
            return _give(state, action)
        case GroupGive():
            return _group_give(state, action)
        case Refresh():
            return _refresh(state)
        case Place():
            return _place(state, action)
        case Lock():
            return _lock(state, action)
        case Unlock():
            return _unlock(state, action)
        case Seance():
            return _seance(state, action)
        case CulpritSeance():
            return _culprit_seance(state, action)
    raise AssertionError(f"unhandled action {action!r}")  # pragma: no cover


def _describe(action: Action) -> str:
    match action:
        case Give() | GroupGive():
            return "give dream cards"
        case Refresh():
            return "refresh the hand"
        case Place():
            return "move a marker"
        case Lock():
            return "lock a marker"
        case Unlock():
            return "unlock a marker"
        case Seance() | CulpritSeance():
            return "announce the séance"
        case Chat():
            return "chat"


def _check_investigator(state: GameState, seat: int) -> None:
    if seat == GHOST:
        raise errors.InvestigatorOnly("the Ghost has no marker")
    if seat not in state.config.seats:
        raise errors.UnknownSeat(f"there is no investigator in seat {seat}")


def _chat(state: GameState, action: Chat) -> GameState:
    if action.by == GHOST:
        raise errors.GhostMayNotSpeak("the Ghost may never speak")
    _check_investigator(state, action.by)
    if not action.text.strip():
        raise errors.BadChat("a chat message cannot be empty")
    if len(action.text) > MAX_CHAT_LENGTH:
        raise errors.BadChat(f"a chat message has at most {MAX_CHAT_LENGTH} characters")
    return state


def _with_investigator(state: GameState, seat: int, **changes: object) -> GameState:
    investigators = list(state.investigators)
    investigators[seat - 1] = replace(investigators[seat - 1], **changes)  # type: ignore[arg-type]
    return replace(state, investigators=tuple(investigators))


# --- the Ghost's hand ---------------------------------------------------------


def _check_cards_in_hand(state: GameState, cards: tuple[str, ...]) -> None:
    if len(set(cards)) != len(cards):
        raise errors.BadGive("a dream card can be given only once")
    known = set(state.config.dream_cards)
    in_play = state.dreams_in_play
    for card in cards:
        if card not in known:
            raise errors.NotInHand(f"{card} is not a dream card of this game")
        if card in in_play:
            raise errors.NotInHand(f"{card} is already face up on the table")
        if state.secrets is not None and card not in state.secrets.hand:
            raise errors.NotInHand(f"{card} is not in the Ghost's hand")
    if len(cards) > state.hand_size:
        raise errors.BadGive(f"the Ghost holds only {state.hand_size} dream cards")


def _take_from_hand(state: GameState, cards: tuple[str, ...]) -> GameState:
    state = replace(state, hand_size=state.hand_size - len(cards))
    if state.secrets is not None:
        hand = tuple(c for c in state.secrets.hand if c not in cards)
        state = replace(state, secrets=replace(state.secrets, hand=hand))
    return state


def _discard(state: GameState, cards: tuple[str, ...]) -> GameState:
    state = replace(state, discard_size=state.discard_size + len(cards))
    if state.secrets is not None:
        state = replace(
            state, secrets=replace(state.secrets, discard=state.secrets.discard + cards)
        )
    return state


def _draw_up(state: GameState) -> GameState:
    """Draw back up to seven, reshuffling the discard pile whenever the deck runs out."""
    while state.hand_size < HAND_SIZE:
        if state.deck_size == 0:
            if state.discard_size == 0:
                return state  # both empty: the hand stays short
            state = _reshuffle(state)
        take = min(HAND_SIZE - state.hand_size, state.deck_size)
        state = replace(state, hand_size=state.hand_size + take, deck_size=state.deck_size - take)
        if state.secrets is not None:
            secrets = state.secrets
            state = replace(
                state,
                secrets=replace(
                    secrets, hand=secrets.hand + secrets.deck[:take], deck=secrets.deck[take:]
                ),
            )
    return state


def _reshuffle(state: GameState) -> GameState:
    if state.secrets is not None:
        secrets = state.secrets
        deck = secrets.reshuffle(state.reshuffles, tuple(sorted(secrets.discard)))
        if sorted(deck) != sorted(secrets.discard):
            raise errors.SetupError("the reshuffle did not return a permutation of the discard")
        state = replace(state, secrets=replace(secrets, deck=deck, discard=()))
    return replace(
        state,
        deck_size=state.discard_size,
        discard_size=0,
        reshuffles=state.reshuffles + 1,
    )


# --- the Ghost's moves ---------------------------------------------------------


def _give(state: GameState, action: Give) -> GameState:
    if action.to == GHOST or action.to not in state.config.seats:
        raise errors.UnknownSeat(f"there is no investigator in seat {action.to}")
    name = state.config.name(action.to)
    investigator = state.investigator(action.to)
    if investigator.done:
        raise errors.NotActive(f"{name} has found all three cards and needs no more dreams")
    if investigator.served:
        raise errors.AlreadyServed(f"{name} has already received dreams today")
    if not action.cards and state.hand_size > 0:
        raise errors.BadGive("a give has at least one dream card")
    _check_cards_in_hand(state, action.cards)
    state = _take_from_hand(state, action.cards)
    state = _with_investigator(
        state, action.to, dreams=investigator.dreams + action.cards, served=True
    )
    state = _draw_up(state)
    if all(state.investigator(seat).served for seat in state.active_seats):
        state = _advance(state, Trigger.ALL_SERVED)
    return state


def _group_give(state: GameState, action: GroupGive) -> GameState:
    required = min(GROUP_GIVE_SIZE, state.hand_size)
    if len(action.cards) != required:
        raise errors.BadGive(
            f"the group receives exactly {_count(required, 'dream card')}, not {len(action.cards)}"
        )
    _check_cards_in_hand(state, action.cards)
    state = _take_from_hand(state, action.cards)
    state = replace(state, group_dreams=state.group_dreams + action.cards)
    return _advance(_draw_up(state), Trigger.ALL_SERVED)


def _refresh(state: GameState) -> GameState:
    refusal = _refresh_refusal(state)
    if refusal is not None:
        raise errors.RefreshLimit(refusal)
    # The public state knows only how many cards the hand held, so it counts
    # them into the discard pile by number; the secret state moves the cards.
    state = replace(state, hand_size=0, discard_size=state.discard_size + state.hand_size)
    if state.secrets is not None:
        secrets = state.secrets
        state = replace(
            state, secrets=replace(secrets, hand=(), discard=secrets.discard + secrets.hand)
        )
    state = replace(
        state,
        refreshes_this_round=state.refreshes_this_round + 1,
        refreshes_used=state.refreshes_used + 1,
    )
    return _draw_up(state)


def _seance(state: GameState, action: Seance) -> GameState:
    judged = [verdict.seat for verdict in action.verdicts]
    if sorted(judged) != sorted(set(judged)) or set(judged) != set(state.active_seats):
        raise errors.BadVerdict(
            "the séance must judge every active investigator exactly once "
            f"(seats {list(state.active_seats)}, not {judged})"
        )
    ordered = tuple(sorted(action.verdicts, key=lambda verdict: verdict.seat))
    for verdict in ordered:
        investigator = state.investigator(verdict.seat)
        marker, seeking = investigator.marker, investigator.seeking
        assert marker is not None and seeking is not None  # every active marker is locked
        if state.secrets is not None:
            truth = state.secrets.column(verdict.seat).card(seeking) == marker
            if verdict.correct != truth:
                raise errors.FalseVerdict(
                    f"the Ghost called {state.config.name(verdict.seat)}'s {seeking.label} "
                    f"{'correct' if verdict.correct else 'wrong'}, but it is "
                    f"{'correct' if truth else 'wrong'}"
                )
        if verdict.correct:
            if marker not in state.tableau.all_cards:
                raise errors.BadVerdict(
                    f"{marker} cannot be found twice: it has already left the tableau"
                )
            state = _discard(state, investigator.dreams)
            state = _with_investigator(
                state, verdict.seat, found=(*investigator.found, marker), dreams=()
            )
            state = replace(state, tableau=state.tableau.without(marker))
    state = replace(state, last_seance=ordered)
    return _end_round(state, solved=all(inv.done for inv in state.investigators))


def _culprit_seance(state: GameState, action: CulpritSeance) -> GameState:
    accused = state.investigators[0].marker
    if state.secrets is not None:
        culprit = state.secrets.column(state.secrets.culprit).character
        if action.correct != (accused == culprit):
            raise errors.FalseVerdict(
                f"the Ghost called the accusation {'correct' if action.correct else 'wrong'}, "
                f"but it is {'wrong' if action.correct else 'correct'}"
            )
    verdicts = tuple(Verdict(seat, action.correct) for seat in state.config.seats)
    state = replace(state, last_seance=verdicts)
    if action.correct:
        position = follow(state.stage, state.phase, Trigger.CULPRIT_NAMED)
        return replace(state, stage=position[0], phase=position[1], outcome=Outcome.WON)
    return _end_round(state, solved=False)


def _end_round(state: GameState, *, solved: bool) -> GameState:
    investigators = tuple(
        replace(inv, marker=None, locked=False, served=False) for inv in state.investigators
    )
    # Drawing up here as well as after each give matters only when the hand ran dry
    # with both piles empty: a séance may have refilled the discard pile since.
    state = _draw_up(replace(state, investigators=investigators, refreshes_this_round=0))
    if state.day == LAST_DAY:
        stage, phase = follow(state.stage, state.phase, Trigger.CALENDAR_OUT)
        return replace(state, stage=stage, phase=phase, outcome=Outcome.LOST)
    trigger = Trigger.PLOT_SOLVED if solved else Trigger.NEXT_DAY
    stage, phase = follow(state.stage, state.phase, trigger)
    if stage is Stage.CULPRIT and state.stage is Stage.PLOT:
        state = replace(state, tableau=EMPTY_TABLEAU)
    return replace(state, stage=stage, phase=phase, day=state.day + 1)


def _advance(state: GameState, trigger: Trigger) -> GameState:
    stage, phase = follow(state.stage, state.phase, trigger)
    return replace(state, stage=stage, phase=phase)


# --- the investigators' moves ----------------------------------------------------


def _place(state: GameState, action: Place) -> GameState:
    name = state.config.name(action.by)
    investigator = state.investigator(action.by)
    if investigator.locked:
        raise errors.MarkerLocked(f"{name}'s marker is locked; unlock it first")
    if state.stage is Stage.CULPRIT:
        characters = [inv.found[0] for inv in state.investigators]
        if action.card not in characters:
            raise errors.NotOnTableau(
                f"in Stage Two {name} must accuse a Character of the grouped tableau"
            )
        return _with_investigator(state, action.by, marker=action.card)
    if investigator.done:
        raise errors.NotActive(f"{name} has found all three cards and waits for the others")
    if not investigator.served:
        raise errors.NotServedYet(f"{name} has no dreams yet today; wait for the Ghost")
    category = state.tableau.category_of(action.card)
    if category is None:
        raise errors.NotOnTableau(f"{action.card} is not on the Clue Tableau")
    seeking = investigator.seeking
    assert seeking is not None
    if category is not seeking:
        raise errors.WrongCategory(_category_message(name, seeking, category))
    return _with_investigator(state, action.by, marker=action.card)


def _category_message(name: str, seeking: Category, category: Category) -> str:
    if CATEGORY_ORDER.index(category) > CATEGORY_ORDER.index(seeking):
        return f"{name} must find {_a(seeking)} before {_a(category)}"
    return f"{name} has already found {_a(category)}; now {name} seeks {_a(seeking)}"


def _count(number: int, noun: str) -> str:
    plural = noun + ("es" if noun.endswith("sh") else "s")
    return f"{number} {noun if number == 1 else plural}"


def _a(category: Category) -> str:
    return f"an {category.label}" if category is Category.ITEM else f"a {category.label}"


def _lock(state: GameState, action: Lock) -> GameState:
    name = state.config.name(action.by)
    investigator = state.investigator(action.by)
    if state.stage is Stage.PLOT and investigator.done:
        raise errors.NotActive(f"{name} has found all three cards and waits for the others")
    if investigator.marker is None:
        raise errors.MarkerNotPlaced(f"{name} must place the marker before locking it")
    if investigator.locked:
        raise errors.MarkerLocked(f"{name}'s marker is already locked")
    state = _with_investigator(state, action.by, locked=True)
    if state.phase is Phase.INVESTIGATION:
        active = [state.investigator(seat) for seat in state.active_seats]
        if state.stage is Stage.PLOT and all(inv.locked for inv in active):
            state = _advance(state, Trigger.ALL_LOCKED)
        elif (
            state.stage is Stage.CULPRIT
            and all(inv.locked for inv in active)
            and len({inv.marker for inv in active}) == 1
        ):
            state = _advance(state, Trigger.UNANIMOUS)
    return state


def _unlock(state: GameState, action: Unlock) -> GameState:
    if not state.investigator(action.by).locked:
        raise errors.MarkerNotLocked(f"{state.config.name(action.by)}'s marker is not locked")
    return _with_investigator(state, action.by, locked=False)


# --------------------------------------------------------------------------- legal_actions


def legal_actions(state: GameState) -> list[Action]:
    """Every legal action except chat, in a fixed order.

    The Ghost's moves need the Ghost's secrets (its hand and the truth of a
    verdict); on a public state only the investigators' moves are listed.
    """
    return list(_candidates(state))


def _candidates(state: GameState) -> Iterator[Action]:
    if state.phase is Phase.ENDED:
        return
    moves = MOVES[(state.stage, state.phase)]
    secrets = state.secrets
    if secrets is not None:
        if Refresh in moves and _refresh_refusal(state) is None:
            yield Refresh()
        if Give in moves:
            for seat in state.active_seats:
                if not state.investigator(seat).served:
                    yield from (Give(seat, cards) for cards in _subsets(secrets.hand))
        if GroupGive in moves:
            count = min(GROUP_GIVE_SIZE, len(secrets.hand))
            yield from (GroupGive(cards) for cards in combinations(secrets.hand, count))
        if Seance in moves:
            yield Seance(tuple(_true_verdict(state, secrets, seat) for seat in state.active_seats))
        if CulpritSeance in moves:
            culprit = secrets.column(secrets.culprit).character
            yield CulpritSeance(state.investigators[0].marker == culprit)
    if Place in moves:
        for seat in state.active_seats:
            investigator = state.investigator(seat)
            if investigator.locked or not (investigator.served or state.stage is Stage.CULPRIT):
                continue
            for card in _marker_targets(state, investigator):
                yield Place(seat, card)
            if investigator.marker is not None:
                yield Lock(seat)
    if Unlock in moves:
        for seat in state.active_seats:
            if state.investigator(seat).locked:
                yield Unlock(seat)


def _subsets(hand: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
    if not hand:
        yield ()
    for size in range(1, len(hand) + 1):
        yield from combinations(hand, size)


def _marker_targets(state: GameState, investigator: Investigator) -> tuple[str, ...]:
    if state.stage is Stage.CULPRIT:
        return tuple(inv.found[0] for inv in state.investigators)
    seeking = investigator.seeking
    return state.tableau.cards(seeking) if seeking is not None else ()


def _true_verdict(state: GameState, secrets: Secrets, seat: int) -> Verdict:
    investigator = state.investigator(seat)
    seeking = investigator.seeking
    assert seeking is not None
    return Verdict(seat, secrets.column(seat).card(seeking) == investigator.marker)


def _refresh_refusal(state: GameState) -> str | None:
    """Why the difficulty forbids a refresh now, or ``None`` when it allows one."""
    rules = state.config.rules
    level = state.config.difficulty.label
    if rules.refreshes_per_game == 0 or rules.refreshes_per_round == 0:
        return f"{level} allows no refreshes"
    if state.refreshes_this_round >= rules.refreshes_per_round:
        return f"{level} allows at most {_count(rules.refreshes_per_round, 'refresh')} per round"
    if rules.refreshes_per_game is not None and state.refreshes_used >= rules.refreshes_per_game:
        return f"{level} allows at most {_count(rules.refreshes_per_game, 'refresh')} per game"
    return None
