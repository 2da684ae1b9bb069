"""``new_game``, ``apply`` and ``legal_actions``: the rules of RULES.md as pure functions.

``apply(state, action)`` returns the next state or raises a
:class:`~domicile_p2p.rules.errors.RuleError` and changes nothing.  It runs
the same checks with or without the Ghost's secrets; with them it also
checks what only the Ghost can know (the hand, the truth of a verdict).
The order of phases lives in ``phases.py``; this module moves the pieces.
"""

from __future__ import annotations

from collections.abc import Iterator
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
from domicile_p2p.rules.visibility import GhostKnowledge

# --------------------------------------------------------------------------- setup


def new_game(config: TableConfig, tableau: Tableau, secret: SecretSetup | None = None) -> GameState:
    """Day 1 of a game dealt from setup values that come from outside (the fairness layer).

    With ``secret=None`` the result is the public state every peer replays.
    """
    _check_config(config, tableau)
    size = min(HAND_SIZE, len(config.dream_cards))
    secrets = None
    if secret is not None:
        _check_secret(config, tableau, secret)
        secrets = Secrets(
            columns=secret.columns,
            culprit=secret.culprit,
            hand=secret.deck[:size],
            deck=secret.deck[size:],
            discard=(),
            reshuffle=secret.reshuffle,
        )
    return GameState(
        config=config,
        tableau=tableau,
        investigators=tuple(Investigator() for _ in config.seats),
        hand_size=size,
        deck_size=len(config.dream_cards) - size,
        secrets=secrets,
    )


def _check_config(config: TableConfig, tableau: Tableau) -> None:
    if not 1 <= config.investigators <= MAX_INVESTIGATORS:
        raise errors.SetupError(
            f"a table has 1 to {MAX_INVESTIGATORS} investigators, not {config.investigators}"
        )
    if len(config.dream_card_set) != len(config.dream_cards):
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
    # The pack's ids are distinct (``_check_config``), so a deck of as many cards holding
    # each of them is a permutation of them.
    if len(secret.deck) != len(config.dream_cards) or set(secret.deck) != config.dream_card_set:
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


class _Draft:
    """One action's changes, gathered on a mutable copy and frozen into the next state once.

    A ``GameState`` has sixteen fields, so each copy of it costs microseconds, and an
    action changes it in several steps (take the given cards, draw back up, advance the
    phase).  The steps change this draft instead, and :meth:`freeze` builds one new
    state.  The Ghost's piles (``hand``, ``deck``, ``discard``) are kept here only when
    the state has its secrets (``secret``); a public state tracks them as counts.
    Validation reads the state before the action, so an error changes nothing.
    """

    __slots__ = (
        "before",
        "day",
        "deck",
        "deck_size",
        "discard",
        "discard_size",
        "group_dreams",
        "hand",
        "hand_size",
        "investigators",
        "last_seance",
        "outcome",
        "phase",
        "refreshes_this_round",
        "refreshes_used",
        "reshuffles",
        "secret",
        "stage",
        "tableau",
    )

    def __init__(self, state: GameState) -> None:
        self.before = state
        self.tableau = state.tableau
        self.investigators = list(state.investigators)
        self.day = state.day
        self.stage = state.stage
        self.phase = state.phase
        self.group_dreams = state.group_dreams
        self.refreshes_this_round = state.refreshes_this_round
        self.refreshes_used = state.refreshes_used
        self.hand_size = state.hand_size
        self.deck_size = state.deck_size
        self.discard_size = state.discard_size
        self.reshuffles = state.reshuffles
        self.last_seance = state.last_seance
        self.outcome = state.outcome
        secrets = state.secrets
        self.secret = secrets is not None
        self.hand: tuple[str, ...] = () if secrets is None else secrets.hand
        self.deck: tuple[str, ...] = () if secrets is None else secrets.deck
        self.discard: tuple[str, ...] = () if secrets is None else secrets.discard

    def investigator(self, seat: int) -> Investigator:
        return self.investigators[seat - 1]

    def change_investigator(self, seat: int, investigator: Investigator) -> None:
        self.investigators[seat - 1] = investigator

    def advance(self, trigger: Trigger) -> None:
        self.stage, self.phase = follow(self.stage, self.phase, trigger)

    def freeze(self) -> GameState:
        before = self.before
        secrets = before.secrets
        if secrets is not None and (
            self.hand is not secrets.hand
            or self.deck is not secrets.deck
            or self.discard is not secrets.discard
        ):
            secrets = Secrets(
                secrets.columns,
                secrets.culprit,
                self.hand,
                self.deck,
                self.discard,
                secrets.reshuffle,
            )
        return GameState(
            config=before.config,
            tableau=self.tableau,
            investigators=tuple(self.investigators),
            day=self.day,
            stage=self.stage,
            phase=self.phase,
            group_dreams=self.group_dreams,
            refreshes_this_round=self.refreshes_this_round,
            refreshes_used=self.refreshes_used,
            hand_size=self.hand_size,
            deck_size=self.deck_size,
            discard_size=self.discard_size,
            reshuffles=self.reshuffles,
            last_seance=self.last_seance,
            outcome=self.outcome,
            secrets=secrets,
        )


# --- the Ghost's hand ---------------------------------------------------------


def _check_cards_in_hand(state: GameState, cards: tuple[str, ...]) -> None:
    if len(set(cards)) != len(cards):
        raise errors.BadGive("a dream card can be given only once")
    known = state.config.dream_card_set
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


def _take_from_hand(draft: _Draft, cards: tuple[str, ...]) -> None:
    draft.hand_size -= len(cards)
    if draft.secret:
        draft.hand = tuple(c for c in draft.hand if c not in cards)


def _discard(draft: _Draft, cards: tuple[str, ...]) -> None:
    draft.discard_size += len(cards)
    if draft.secret:
        draft.discard += cards


def _draw_up(draft: _Draft) -> None:
    """Draw back up to seven, reshuffling the discard pile whenever the deck runs out."""
    while draft.hand_size < HAND_SIZE:
        if draft.deck_size == 0:
            if draft.discard_size == 0:
                return  # both empty: the hand stays short
            _reshuffle(draft)
        take = min(HAND_SIZE - draft.hand_size, draft.deck_size)
        draft.hand_size += take
        draft.deck_size -= take
        if draft.secret:
            draft.hand += draft.deck[:take]
            draft.deck = draft.deck[take:]


def _reshuffle(draft: _Draft) -> None:
    secrets = draft.before.secrets
    if secrets is not None:
        deck = secrets.reshuffle(draft.reshuffles, tuple(sorted(draft.discard)))
        if sorted(deck) != sorted(draft.discard):
            raise errors.SetupError("the reshuffle did not return a permutation of the discard")
        draft.deck, draft.discard = deck, ()
    draft.deck_size, draft.discard_size = draft.discard_size, 0
    draft.reshuffles += 1


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
    draft = _Draft(state)
    _take_from_hand(draft, action.cards)
    draft.change_investigator(action.to, _served(investigator, action.cards))
    _draw_up(draft)
    if all(draft.investigator(seat).served for seat in state.active_seats):
        draft.advance(Trigger.ALL_SERVED)
    return draft.freeze()


def _group_give(state: GameState, action: GroupGive) -> GameState:
    required = min(GROUP_GIVE_SIZE, state.hand_size)
    if len(action.cards) != required:
        raise errors.BadGive(
            f"the group receives exactly {_count(required, 'dream card')}, not {len(action.cards)}"
        )
    _check_cards_in_hand(state, action.cards)
    draft = _Draft(state)
    _take_from_hand(draft, action.cards)
    draft.group_dreams += action.cards
    _draw_up(draft)
    draft.advance(Trigger.ALL_SERVED)
    return draft.freeze()


def _refresh(state: GameState) -> GameState:
    refusal = _refresh_refusal(state)
    if refusal is not None:
        raise errors.RefreshLimit(refusal)
    if not _can_draw(state):
        raise errors.NothingToDraw(
            "the Ghost cannot refresh: the deck and the discard pile are both empty"
        )
    # The new hand is drawn before the old one is discarded, so a refresh never draws
    # back the cards it threw away.  The public state knows only how many cards the
    # hand held, so it counts them into the discard pile by number; the secret state
    # moves the cards.
    draft = _Draft(state)
    old_hand, old_size = draft.hand, draft.hand_size
    draft.hand, draft.hand_size = (), 0
    _draw_up(draft)
    draft.discard_size += old_size
    if draft.secret:
        draft.discard += old_hand
    draft.refreshes_this_round += 1
    draft.refreshes_used += 1
    return draft.freeze()


def _seance(state: GameState, action: Seance) -> GameState:
    judged = [verdict.seat for verdict in action.verdicts]
    if sorted(judged) != sorted(set(judged)) or set(judged) != set(state.active_seats):
        raise errors.BadVerdict(
            "the séance must judge every active investigator exactly once "
            f"(seats {list(state.active_seats)}, not {judged})"
        )
    ordered = tuple(sorted(action.verdicts, key=lambda verdict: verdict.seat))
    draft = _Draft(state)
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
            # The tableau of this séance so far: two markers on one card cannot both be right.
            if marker not in draft.tableau.all_cards:
                raise errors.BadVerdict(
                    f"{marker} cannot be found twice: it has already left the tableau"
                )
            _discard(draft, investigator.dreams)
            draft.change_investigator(verdict.seat, _found(investigator, marker))
            draft.tableau = draft.tableau.without(marker)
    draft.last_seance = ordered
    _end_round(draft, solved=all(inv.done for inv in draft.investigators))
    return draft.freeze()


def _culprit_seance(state: GameState, action: CulpritSeance) -> GameState:
    accused = state.investigators[0].marker
    if state.secrets is not None:
        culprit = state.secrets.column(state.secrets.culprit).character
        if action.correct != (accused == culprit):
            raise errors.FalseVerdict(
                f"the Ghost called the accusation {'correct' if action.correct else 'wrong'}, "
                f"but it is {'wrong' if action.correct else 'correct'}"
            )
    draft = _Draft(state)
    draft.last_seance = tuple(Verdict(seat, action.correct) for seat in state.config.seats)
    if action.correct:
        draft.advance(Trigger.CULPRIT_NAMED)
        draft.outcome = Outcome.WON
    else:
        _end_round(draft, solved=False)
    return draft.freeze()


def _end_round(draft: _Draft, *, solved: bool) -> None:
    # Markers come off the table and nobody has been served yet: only what was found
    # and the dreams still held carry over.
    draft.investigators = [
        Investigator(found=inv.found, dreams=inv.dreams) for inv in draft.investigators
    ]
    draft.refreshes_this_round = 0
    # Drawing up here as well as after each give matters only when the hand ran dry
    # with both piles empty: a séance may have refilled the discard pile since.
    _draw_up(draft)
    if draft.day == LAST_DAY:
        draft.advance(Trigger.CALENDAR_OUT)
        draft.outcome = Outcome.LOST
        return
    stage_before = draft.stage
    draft.advance(Trigger.PLOT_SOLVED if solved else Trigger.NEXT_DAY)
    if draft.stage is Stage.CULPRIT and stage_before is Stage.PLOT:
        draft.tableau = EMPTY_TABLEAU
    draft.day += 1


# --- the investigators' moves ----------------------------------------------------


# An investigator's changes, each one constructor call: ``dataclasses.replace`` reads
# every field by name and costs twice as much, and nearly every action makes one.


def _served(investigator: Investigator, cards: tuple[str, ...]) -> Investigator:
    return Investigator(
        found=investigator.found,
        dreams=investigator.dreams + cards,
        marker=investigator.marker,
        locked=investigator.locked,
        served=True,
    )


def _found(investigator: Investigator, card: str) -> Investigator:
    return Investigator(
        found=(*investigator.found, card),
        dreams=(),
        marker=investigator.marker,
        locked=investigator.locked,
        served=investigator.served,
    )


def _with_marker(investigator: Investigator, card: str) -> Investigator:
    return Investigator(
        found=investigator.found,
        dreams=investigator.dreams,
        marker=card,
        locked=investigator.locked,
        served=investigator.served,
    )


def _with_lock(investigator: Investigator, locked: bool) -> Investigator:
    return Investigator(
        found=investigator.found,
        dreams=investigator.dreams,
        marker=investigator.marker,
        locked=locked,
        served=investigator.served,
    )


def _with_investigator(state: GameState, seat: int, investigator: Investigator) -> GameState:
    draft = _Draft(state)
    draft.change_investigator(seat, investigator)
    return draft.freeze()


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
        return _with_investigator(state, action.by, _with_marker(investigator, action.card))
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
    return _with_investigator(state, action.by, _with_marker(investigator, action.card))


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
    draft = _Draft(state)
    draft.change_investigator(action.by, _with_lock(investigator, True))
    if state.phase is Phase.INVESTIGATION:
        active = [draft.investigator(seat) for seat in state.active_seats]
        if state.stage is Stage.PLOT and all(inv.locked for inv in active):
            draft.advance(Trigger.ALL_LOCKED)
        elif (
            state.stage is Stage.CULPRIT
            and all(inv.locked for inv in active)
            and len({inv.marker for inv in active}) == 1
        ):
            draft.advance(Trigger.UNANIMOUS)
    return draft.freeze()


def _unlock(state: GameState, action: Unlock) -> GameState:
    investigator = state.investigator(action.by)
    if not investigator.locked:
        raise errors.MarkerNotLocked(f"{state.config.name(action.by)}'s marker is not locked")
    return _with_investigator(state, action.by, _with_lock(investigator, False))


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
        if Refresh in moves and _refresh_refusal(state) is None and _can_draw(state):
            yield Refresh()
        if Give in moves:
            for seat in state.active_seats:
                if not state.investigator(seat).served:
                    yield from (Give(seat, cards) for cards in _subsets(secrets.hand))
        if GroupGive in moves:
            count = min(GROUP_GIVE_SIZE, len(secrets.hand))
            yield from (GroupGive(cards) for cards in combinations(secrets.hand, count))
        if Seance in moves or CulpritSeance in moves:
            yield true_seance(state, secrets)
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


def true_seance(state: GameState, ghost: Secrets | GhostKnowledge) -> Seance | CulpritSeance:
    """The séance due in ``state`` with the true verdicts, judged by the Ghost's columns.

    The only séance :func:`legal_actions` offers; an honest Ghost (bot or agent) plays it.
    """
    if state.stage is Stage.CULPRIT:
        culprit = ghost.column(ghost.culprit).character
        return CulpritSeance(state.investigators[0].marker == culprit)
    verdicts = []
    for seat in state.active_seats:
        investigator = state.investigator(seat)
        seeking = investigator.seeking
        assert seeking is not None  # every active investigator still seeks a card
        verdicts.append(Verdict(seat, ghost.column(seat).card(seeking) == investigator.marker))
    return Seance(tuple(verdicts))


def _can_draw(state: GameState) -> bool:
    """A refresh draws at least one card: the deck or the discard pile holds one."""
    return state.deck_size > 0 or state.discard_size > 0


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
