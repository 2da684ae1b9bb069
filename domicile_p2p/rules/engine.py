"""``new_game``, ``apply`` and ``legal_actions``: the rules of RULES.md as pure functions.

``apply(state, action)`` returns the next state or raises a
:class:`~domicile_p2p.rules.errors.RuleError` and changes nothing.  It runs
the same checks with or without the Ghost's secrets; with them it also
checks what only the Ghost can know (the hand, the truth of a verdict).
Each handler checks its action against the state before it and moves cards and
markers on one :class:`~domicile_p2p.rules.draft.Draft`; then
:func:`~domicile_p2p.rules.phases.settle` follows the phase triggers that hold
(the order of phases, the round's end and the outcome live in ``phases.py``),
and the draft is frozen into the next state: one state copy per action.
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
    TimeUp,
    Unlock,
)
from domicile_p2p.rules.draft import Draft
from domicile_p2p.rules.model import (
    CATEGORY_ORDER,
    GHOST,
    GROUP_GIVE_SIZE,
    HAND_SIZE,
    MAX_CHAT_LENGTH,
    MAX_INVESTIGATORS,
    MIN_DREAM_CARDS,
    RULE_VERSIONS,
    Category,
    GameState,
    Investigator,
    Phase,
    Secrets,
    SecretSetup,
    Stage,
    Tableau,
    TableConfig,
    Verdict,
)
from domicile_p2p.rules.phases import MOVES, PHASE_DESCRIPTIONS, settle
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
    if config.protocol not in RULE_VERSIONS:
        raise errors.SetupError(
            f"these rules are those of protocol versions {list(RULE_VERSIONS)}, "
            f"not {config.protocol}"
        )
    if not 1 <= config.investigators <= MAX_INVESTIGATORS:
        raise errors.SetupError(
            f"a table has 1 to {MAX_INVESTIGATORS} investigators, not {config.investigators}"
        )
    if len(config.dream_card_set) != len(config.dream_cards):
        raise errors.SetupError("the dream cards have a repeated id")
    if config.protocol >= 3 and len(config.dream_cards) < MIN_DREAM_CARDS:
        raise errors.SetupError(
            f"a table needs at least {MIN_DREAM_CARDS} dream cards (a hand of {HAND_SIZE} and "
            f"three wrong accusations' {GROUP_GIVE_SIZE} each), not {len(config.dream_cards)}"
        )
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
    if isinstance(action, TimeUp):
        if state.config.timer is None:
            raise errors.NoSandGlass("this table plays without a sand-glass: time cannot run out")
    elif isinstance(action, GHOST_ACTIONS):
        if action.by != GHOST:
            raise errors.GhostOnly(f"only the Ghost may {_describe(action)}")
    else:
        _check_investigator(state, action.by)
    if type(action) not in MOVES[(state.stage, state.phase)]:
        raise errors.WrongPhase(
            f"no one may {_describe(action)} now: {PHASE_DESCRIPTIONS[(state.stage, state.phase)]}"
        )
    draft = Draft(state, action)
    match action:
        case Place():
            _place(state, action, draft)
        case Lock():
            _lock(state, action, draft)
        case Unlock():
            _unlock(state, action, draft)
        case Give():
            _give(state, action, draft)
        case GroupGive():
            _group_give(state, action, draft)
        case Refresh():
            _refresh(state, draft)
        case Seance():
            _seance(state, action, draft)
        case CulpritSeance():
            _culprit_seance(state, action, draft)
        case TimeUp():
            _time_up(state, action, draft)
        case _:  # pragma: no cover
            raise AssertionError(f"unhandled action {action!r}")
    settle(draft)
    return draft.freeze()


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
        case TimeUp():
            return "call time"
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


# --- the Ghost's moves ---------------------------------------------------------


def _give(state: GameState, action: Give, draft: Draft) -> None:
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
    draft.take_from_hand(action.cards)
    draft.change_investigator(action.to, _served(investigator, action.cards))
    draft.draw_up()


def _group_give(state: GameState, action: GroupGive, draft: Draft) -> None:
    required = group_give_size(state)
    if len(action.cards) != required:
        raise errors.BadGive(
            f"the group receives exactly {_count(required, 'dream card')}, not {len(action.cards)}"
        )
    _check_cards_in_hand(state, action.cards)
    draft.take_from_hand(action.cards)
    draft.group_dreams += action.cards
    draft.draw_up()


def _refresh(state: GameState, draft: Draft) -> None:
    refusal = refresh_refusal(state)
    if refusal is not None:
        raise refusal
    draft.replace_hand()
    draft.refreshes_this_round += 1
    draft.refreshes_used += 1


def _seance(state: GameState, action: Seance, draft: Draft) -> None:
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
        assert seeking is not None  # every judged investigator still seeks a card
        if marker is None:  # the sand-glass ran out before this seat placed a marker
            if verdict.correct:
                raise errors.BadVerdict(
                    f"{state.config.name(verdict.seat)} made no guess today: the séance "
                    "must call it wrong"
                )
            continue
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
            draft.discard_cards(investigator.dreams)
            draft.change_investigator(verdict.seat, _found(investigator, marker))
            draft.tableau = draft.tableau.without(marker)
    draft.last_seance = ordered


def _culprit_seance(state: GameState, action: CulpritSeance, draft: Draft) -> None:
    accused = state.accusation
    if accused is None and action.correct:
        raise errors.BadVerdict(
            "the sand-glass ran out before the group agreed on one Character: the séance "
            "must call the accusation wrong"
        )
    if state.secrets is not None:
        culprit = state.secrets.column(state.secrets.culprit).character
        if action.correct != (accused == culprit):
            raise errors.FalseVerdict(
                f"the Ghost called the accusation {'correct' if action.correct else 'wrong'}, "
                f"but it is {'wrong' if action.correct else 'correct'}"
            )
    draft.last_seance = tuple(Verdict(seat, action.correct) for seat in state.config.seats)


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


def _place(state: GameState, action: Place, draft: Draft) -> None:
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
        draft.change_investigator(action.by, _with_marker(investigator, action.card))
        return
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
    draft.change_investigator(action.by, _with_marker(investigator, action.card))


def _category_message(name: str, seeking: Category, category: Category) -> str:
    if CATEGORY_ORDER.index(category) > CATEGORY_ORDER.index(seeking):
        return f"{name} must find {_a(seeking)} before {_a(category)}"
    return f"{name} has already found {_a(category)}; now {name} seeks {_a(seeking)}"


def _count(number: int, noun: str) -> str:
    plural = noun + ("es" if noun.endswith("sh") else "s")
    return f"{number} {noun if number == 1 else plural}"


def _a(category: Category) -> str:
    return f"an {category.label}" if category is Category.ITEM else f"a {category.label}"


def _lock(state: GameState, action: Lock, draft: Draft) -> None:
    name = state.config.name(action.by)
    investigator = state.investigator(action.by)
    if state.stage is Stage.PLOT and investigator.done:
        raise errors.NotActive(f"{name} has found all three cards and waits for the others")
    if investigator.marker is None:
        raise errors.MarkerNotPlaced(f"{name} must place the marker before locking it")
    if investigator.locked:
        raise errors.MarkerLocked(f"{name}'s marker is already locked")
    draft.change_investigator(action.by, _with_lock(investigator, True))


def time_up(state: GameState) -> TimeUp:
    """The time-up the state implies: the active seats whose marker is placed but not
    locked, and those with no marker, each in seat order (the host's statement)."""
    active = [(seat, state.investigator(seat)) for seat in state.active_seats]
    return TimeUp(
        locked=tuple(seat for seat, inv in active if inv.marker is not None and not inv.locked),
        no_guess=tuple(seat for seat, inv in active if inv.marker is None),
    )


def _time_up(state: GameState, action: TimeUp, draft: Draft) -> None:
    due = time_up(state)
    if (action.locked, action.no_guess) != (due.locked, due.no_guess):
        raise errors.BadTimeUp(
            f"time's up must lock the placed markers of seats {list(due.locked)} and record "
            f"no guess for seats {list(due.no_guess)}, not {list(action.locked)} and "
            f"{list(action.no_guess)}"
        )
    for seat in due.locked:
        draft.change_investigator(seat, _with_lock(state.investigator(seat), True))
    draft.no_guess = due.no_guess


def _unlock(state: GameState, action: Unlock, draft: Draft) -> None:
    investigator = state.investigator(action.by)
    if not investigator.locked:
        raise errors.MarkerNotLocked(f"{state.config.name(action.by)}'s marker is not locked")
    draft.change_investigator(action.by, _with_lock(investigator, False))


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
        if Refresh in moves and refresh_refusal(state) is None:
            yield Refresh()
        if Give in moves:
            for seat in state.active_seats:
                if not state.investigator(seat).served:
                    yield from (Give(seat, cards) for cards in _subsets(secrets.hand))
        if GroupGive in moves:
            count = group_give_size(state)
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
        return CulpritSeance(state.accusation == culprit)
    verdicts = []
    for seat in state.active_seats:
        investigator = state.investigator(seat)
        seeking = investigator.seeking
        assert seeking is not None  # every active investigator still seeks a card
        verdicts.append(Verdict(seat, ghost.column(seat).card(seeking) == investigator.marker))
    return Seance(tuple(verdicts))


def refresh_refusal(state: GameState) -> errors.RefreshLimit | errors.NothingToDraw | None:
    """Why the Ghost may not refresh now, as the error :func:`apply` raises; ``None`` when a
    refresh is legal.  Bots and ``legal_actions`` ask this one function."""
    rules = state.config.rules
    level = state.config.difficulty.label
    if rules.refreshes_per_game == 0 or rules.refreshes_per_round == 0:
        return errors.RefreshLimit(f"{level} allows no refreshes")
    in_game, this_round = _refreshes_left(state)
    if this_round == 0:
        return errors.RefreshLimit(
            f"{level} allows at most {_count(rules.refreshes_per_round, 'refresh')} per round"
        )
    if in_game == 0:
        assert rules.refreshes_per_game is not None
        return errors.RefreshLimit(
            f"{level} allows at most {_count(rules.refreshes_per_game, 'refresh')} per game"
        )
    drawable = state.deck_size + state.discard_size
    if state.config.protocol >= 3:
        # The new hand is drawn before the old one is discarded: only a deck and discard
        # pile of a whole hand between them give the Ghost seven cards to choose from.
        if drawable < HAND_SIZE:
            return errors.NothingToDraw(
                f"the Ghost cannot refresh: the deck and the discard pile hold "
                f"{_count(drawable, 'dream card')}, fewer than a new hand of {HAND_SIZE}"
            )
    elif drawable == 0:
        return errors.NothingToDraw(
            "the Ghost cannot refresh: the deck and the discard pile are both empty"
        )
    return None


def refreshes_left(state: GameState) -> tuple[int | None, int]:
    """The refreshes the difficulty still allows: in the game (``None``: no limit) and now
    (this round, within the game's).  Public: every seat may count them (RULES.md)."""
    in_game, this_round = _refreshes_left(state)
    return in_game, this_round if in_game is None else min(this_round, in_game)


def _refreshes_left(state: GameState) -> tuple[int | None, int]:
    rules = state.config.rules
    this_round = max(rules.refreshes_per_round - state.refreshes_this_round, 0)
    if rules.refreshes_per_game is None:
        return None, this_round
    return max(rules.refreshes_per_game - state.refreshes_used, 0), this_round


def group_give_size(state: GameState) -> int:
    """How many dream cards Stage Two's group give holds: exactly 3 (protocol 2: as many of
    the 3 as the hand holds).  From protocol 3 on the pack's size (:data:`MIN_DREAM_CARDS`)
    keeps the hand at 7 at every group give, so three are always there to give."""
    if state.config.protocol >= 3:
        return GROUP_GIVE_SIZE
    return min(GROUP_GIVE_SIZE, state.hand_size)
