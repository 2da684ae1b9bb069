"""The Ghost bot: chooses dream cards that point at the answer and away from the rest.

It predicts how the receiving investigator will read a give with the
investigators' own model (``reading.py`` over ``readers.py``: by default a
person's reading of the dream's words against the cards' names and
descriptions): a give is as good as the *margin* it leaves, the
investigator's score of the right card minus the best score of any other card
they have not yet ruled out, counting the dreams they already hold.  One card is given when one
card is clear; more when a single card is ambiguous (each extra card costs
a little, so it is added only for a real gain).

The Ghost serves the investigator it can help most first (the hand is
drawn back up after each give, so the others get fresh cards).  It
refreshes its hand, when the rules allow (``rules.refresh_refusal``: the
difficulty's limits, and something to draw), once no investigator left to
serve can be given a clear pointer; when only the game's last refresh is
left, it keeps it for a hand whose best give would point at a wrong card.

In Stage Two it seeks one dream for the culprit's Character, one for its
Location and one for its Item, each reading as that card more than as the
other groups' card of the same kind; among such splits it gives the three
that make the culprit's group stand out most, and a hand that holds no such
split is refreshed whenever the difficulty allows.

Séance verdicts are always the truth, read from its own columns.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import accumulate, combinations, permutations
from math import nextafter
from operator import add, getitem, itemgetter
from typing import Any, Final

from domicile_p2p.bots.errors import BotMisuse
from domicile_p2p.bots.memory import SeanceMemory
from domicile_p2p.bots.naming import DreamNames, dream_names
from domicile_p2p.bots.readers import DEFAULT_READERS, Fits, Readers, fits
from domicile_p2p.bots.reading import card_scores, group_scores
from domicile_p2p.packs import Pack
from domicile_p2p.rules import (
    CATEGORY_ORDER,
    GHOST,
    GROUP_GIVE_SIZE,
    Action,
    GameState,
    GhostKnowledge,
    Give,
    GroupGive,
    Phase,
    Refresh,
    Stage,
    View,
    refresh_refusal,
    true_seance,
)

MAX_GIVE: Final = 3
"""The most dream cards the bot gives one investigator at once."""

EXTRA_CARD_COST: Final = 0.75
"""Margin an extra card must add to be worth giving (more cards blur the picture)."""

REFRESH_BELOW: Final = 1
"""With refreshes to spare, a hand whose best give leaves a margin below this
(a tie or worse) is worth refreshing."""

SCARCE_REFRESH_BELOW: Final = 0
"""With the game's last refreshes, only a hand whose best give points the wrong way is."""

SCARCE_REFRESHES: Final = 1
"""A game with at most this many refreshes left counts them as scarce."""


_Partial = list[Any]
"""A give being grown: ``[hand position of its last card, parent, target's score, rivals'
scores, margin bound]`` (its cards are the parent's and the last).  Either its exact scores
(the target's and each rival's) are known, or only an upper bound of its margin, the
scores (``None`` then) being summed from the parent's when first needed (:func:`_scores`).
A list, not an object, and no tuple of its cards: a search grows hundreds of them."""

_LAST, _PARENT, _TARGET, _RIVALS, _MARGIN_BOUND = range(5)


def _scores(
    partial: _Partial, to_target: Sequence[float], to_others: Sequence[Sequence[float]]
) -> tuple[float, list[float]]:
    """The target's score and each rival's score with the give's cards."""
    if partial[_TARGET] is None or partial[_RIVALS] is None:
        # only the empty give has no parent, and it is exact
        target, rivals = _scores(partial[_PARENT], to_target, to_others)
        last = partial[_LAST]
        partial[_TARGET] = target + to_target[last]
        partial[_RIVALS] = list(map(add, rivals, to_others[last]))
    return partial[_TARGET], partial[_RIVALS]


def _positions(partial: _Partial) -> list[int]:
    """The hand positions of a give's cards, in hand order."""
    positions: list[int] = []
    while partial[_PARENT] is not None:
        positions.append(partial[_LAST])
        partial = partial[_PARENT]
    return positions[::-1]


_CardRead = tuple[float, tuple[float, ...], float]
"""What a dream card adds to the score of the card sought, of each rival, and to the margin
at most."""


class _Reading:
    """How the Ghost reads one investigator's question: the card they must find, the rival
    cards still open to them, what the dreams they hold already say, and what each dream
    card of the hand would add.

    The hand is drawn back up between gives and keeps most of its cards, and a waiting
    investigator's question stays the same all day (and often for days: what a card adds
    does not depend on the dreams held), so each card is read once per question (``read``,
    kept by the bot per card sought and rivals).
    """

    __slots__ = ("_fits", "_others", "_read", "_rivals_of", "_target", "key", "start")

    def __init__(
        self,
        table: Fits,
        target: str,
        others: tuple[str, ...],
        held: tuple[str, ...],
        read: dict[str, _CardRead],
    ) -> None:
        self.key = (target, others, held)
        self._fits = table.fits
        self._target = target
        self._others = others
        # A card's row read at every rival in one C call (a tuple, even of one rival).
        getter = itemgetter(*others)
        self._rivals_of: Callable[[dict[str, float]], tuple[float, ...]] = (
            getter if len(others) > 1 else lambda row: (getter(row),)
        )
        # What each card read so far adds (see ``cards``): to the target, to each rival,
        # and to the margin at most.
        self._read = read
        self.start = (
            card_scores(table, held, (target,))[0],
            card_scores(table, held, others),
        )
        """The target's score and each rival's with the dreams held."""

    def cards(
        self, hand: Sequence[str]
    ) -> tuple[tuple[float, ...], tuple[tuple[float, ...], ...], tuple[float, ...]]:
        """What each card of ``hand`` adds to the target's score, to each rival's, and the
        most it can add to the margin (the first minus the least of the second)."""
        read = self._read
        entries = [read.get(card) or self._read_card(card) for card in hand]
        to_target, to_others, gain = zip(*entries, strict=True)
        return to_target, to_others, gain

    def _read_card(self, card: str) -> _CardRead:
        row = self._fits[card]
        adds = row[self._target]
        rivals = self._rivals_of(row)
        entry = self._read[card] = (adds, rivals, adds - min(rivals))
        return entry


@dataclass(frozen=True, slots=True)
class GroupGiveNote:
    """One Stage Two give: could the hand split three dreams one per slot (each pointing
    by motif to the culprit's card of that slot more than to any rival group's), and did
    the give?"""

    allowed: bool
    split: bool


@dataclass(frozen=True, slots=True)
class Plan:
    """A candidate give and how well it points."""

    cards: tuple[str, ...]
    margin: float
    value: float


class _SeatSearch:
    """The search for the best give to one seat: the first seen of equals among the gives
    of up to ``max_give`` cards of ``hand``, grown one card at a time in hand order.

    ``bound`` is the most any give's value can be, known before searching (``inf`` when no
    rival card is left: any card will do, ``card``, the best matching one).
    """

    __slots__ = (
        "_card",
        "_extra_card_cost",
        "_gain",
        "_last_size",
        "_start",
        "_to_others",
        "_to_target",
        "bound",
        "hand",
        "seat",
    )

    def __init__(
        self,
        seat: int,
        hand: list[str],
        reading: _Reading | None,
        max_give: int,
        extra_card_cost: float,
        card: str | None = None,
    ) -> None:
        self.seat = seat
        self.hand = hand
        self._card = card
        self._extra_card_cost = extra_card_cost
        if reading is None:
            self.bound = float("inf")
            return
        self._to_target, self._to_others, gain = reading.cards(hand)
        # A card can raise a give's margin by at most what it adds to the target minus the
        # least it adds to any rival.  A give whose bound cannot beat the best value so far
        # would not replace it (only a strictly greater value does), so its rivals are not
        # summed; a give is only scored exactly when its bound might beat the best.
        self._gain = gain
        self._start = reading.start
        start_target, start_rivals = reading.start
        start_margin = start_target - max(start_rivals)
        self._last_size = min(max_give, len(hand))
        # So no give of ``size`` cards can beat the margin so far plus the ``size`` best
        # gains.
        top_gains = sorted(gain, reverse=True)[: self._last_size]
        self.bound = max(
            [
                start_margin + gains - extra_card_cost * size
                for size, gains in enumerate(accumulate(top_gains))
            ]
        )

    def best(self, better_than: float) -> Plan | None:
        """The best give (the first seen of equals), or ``None`` when no give's value beats
        ``better_than``."""
        if self._card is not None:
            if better_than == float("inf"):
                return None
            return Plan((self._card,), float("inf"), float("inf"))
        if self.bound <= better_than:  # nothing to search
            return None
        hand, gain = self.hand, self._gain
        to_target, to_others = self._to_target, self._to_others
        start_target, start_rivals = self._start
        start_margin = start_target - max(start_rivals)
        last_size = self._last_size
        extra_card_cost = self._extra_card_cost
        best_gain_from = [*_running_max_from_end(gain), float("-inf")]
        count = len(hand)
        root: _Partial = [-1, None, start_target, start_rivals, start_margin]
        # Grow the gives one card at a time (in hand order, so each set is seen once, in the
        # same order as always: ties go to the first best seen).
        layer = [root]
        # The best give so far: its parent and its last card's position (a Plan at the end).
        best: tuple[_Partial, int] | None = None
        best_margin = best_value = better_than
        for size in range(1, last_size):
            cost = extra_card_cost * (size - 1)
            # A give is kept for growing only if one more card might still beat the best so
            # far: before the last size, the test the last layer makes (below) with the best
            # as it stands now (the best only rises).
            last_cost = cost + extra_card_cost
            checked_before_last = size + 1 == last_size
            grown: list[_Partial] = []
            for partial in layer:
                margin_bound = partial[_MARGIN_BOUND]
                parent: tuple[float, list[float]] | None = None  # its scores, when needed
                for position in range(partial[_LAST] + 1, count):
                    bound = margin_bound + gain[position]
                    score: float | None = None  # with ``rivals``, summed only when needed
                    rivals: list[float] | None = None
                    if bound - cost > best_value:
                        if parent is None:
                            parent = _scores(partial, to_target, to_others)
                        target_score, rival_scores = parent
                        score = target_score + to_target[position]
                        rivals = list(map(add, rival_scores, to_others[position]))
                        margin = score - max(rivals)
                        value = margin - cost
                        if value > best_value:
                            best = (partial, position)
                            best_margin = margin
                            best_value = value
                        bound = margin
                    if checked_before_last and (
                        bound + best_gain_from[position + 1] - last_cost <= best_value
                    ):
                        continue
                    grown.append([position, partial, score, rivals, bound])
            layer = grown
        # The last size: scored only, not grown (so its rivals' scores are not kept).
        cost = extra_card_cost * (last_size - 1)
        for partial in layer:
            margin_bound = partial[_MARGIN_BOUND]
            first = partial[_LAST] + 1
            if margin_bound + best_gain_from[first] - cost <= best_value:
                continue
            parent = None
            for position in range(first, count):
                if margin_bound + gain[position] - cost > best_value:
                    if parent is None:
                        parent = _scores(partial, to_target, to_others)
                    target_score, rival_scores = parent
                    score = target_score + to_target[position]
                    margin = score - max(map(add, rival_scores, to_others[position]))
                    value = margin - cost
                    if value > best_value:
                        best = (partial, position)
                        best_margin = margin
                        best_value = value
        if best is None:
            return None
        partial, position = best
        cards = tuple(hand[i] for i in (*_positions(partial), position))
        return Plan(cards, best_margin, best_value)


def _highest_bound_first(search: _SeatSearch) -> float:
    return -search.bound


class GhostBot:
    """A policy for the Ghost's seat."""

    def __init__(
        self,
        pack: Pack,
        seed: int,
        *,
        readers: Readers = DEFAULT_READERS,
        max_give: int = MAX_GIVE,
        extra_card_cost: float = EXTRA_CARD_COST,
        refresh_below: float = REFRESH_BELOW,
        scarce_refresh_below: float = SCARCE_REFRESH_BELOW,
    ) -> None:
        self.seed = seed
        self.max_give = max_give
        self.extra_card_cost = extra_card_cost
        self.refresh_below = refresh_below
        self.scarce_refresh_below = scarce_refresh_below
        self._fits: Fits = fits(pack, readers)
        self._names: DreamNames = dream_names(pack)
        self._memory = SeanceMemory()
        self._order_key = hashlib.blake2b(f"{seed}/ghost/order".encode(), digest_size=32).digest()
        self._ranks: dict[str, bytes] = {}
        """Each dream card's place in this game's order of ties (see ``_in_tie_order``)."""
        self._readings: dict[int, _Reading] = {}
        """The latest reading of each seat's question."""
        self._card_reads: dict[tuple[str, tuple[str, ...]], dict[str, _CardRead]] = {}
        """What each dream card adds to a card sought and its rivals (see ``_Reading``)."""
        self.group_gives: list[GroupGiveNote] = []
        """Each Stage Two give made, and whether the hand allowed one dream per slot
        and the give was so split (for ``domicile simulate``'s report)."""

    def act(self, view: View) -> Action | None:
        if view.seat != GHOST:
            raise BotMisuse(f"the Ghost bot was shown the view of seat {view.seat}")
        if view.ghost is None:
            raise BotMisuse("the Ghost bot needs the Ghost's view (columns, culprit and hand)")
        state, ghost = view.state, view.ghost
        self._memory.observe(state)
        match (state.stage, state.phase):
            case (Stage.PLOT, Phase.DREAMS):
                return self._serve(state, ghost)
            case (Stage.PLOT, Phase.SEANCE) | (Stage.CULPRIT, Phase.SEANCE):
                return true_seance(state, ghost)
            case (Stage.CULPRIT, Phase.DREAMS):
                return self._group_give(state, ghost)
        return None

    def _refresh_threshold(self, state: GameState) -> float:
        """Refreshes that come back every round are spent freely; a game's last ones are kept."""
        budget = state.config.rules.refreshes_per_game
        if budget is not None and budget - state.refreshes_used <= SCARCE_REFRESHES:
            return self.scarce_refresh_below
        return self.refresh_below

    def _in_tie_order(self, hand: Sequence[str]) -> list[str]:
        """``hand`` in this game's order of ties: an order of the dream cards keyed by the
        bot's seed, so among equal gives none is favoured by its id or its place in the
        hand, and no generator is seeded before each give."""
        ranks = self._ranks
        for card in hand:
            if card not in ranks:
                ranks[card] = hashlib.blake2b(
                    card.encode(), key=self._order_key, digest_size=8
                ).digest()
        return sorted(hand, key=ranks.__getitem__)

    # --- Stage One -----------------------------------------------------------------

    def _serve(self, state: GameState, ghost: GhostKnowledge) -> Action | None:
        waiting = [s for s in state.active_seats if not state.investigator(s).served]
        if not waiting:
            return None
        if not ghost.hand:
            return Give(waiting[0], ())  # the deck and discard are spent: an empty give
        hand = self._in_tie_order(ghost.hand)  # ties go to no card in particular
        # Only the seat helped most is served (the first of equals, in seat order), so each
        # seat's search needs only gives better than the best plan of the seats before it.
        chosen = self._best_plan(state, ghost, waiting, hand, fair=True)
        if chosen is None:  # every card of the hand names a wrong card for every seat
            if refresh_refusal(state) is None:
                return Refresh()
            chosen = self._best_plan(state, ghost, waiting, hand, fair=False)
        assert chosen is not None  # any give of one card or more beats -inf
        seat, plan = chosen
        # Whether the rules allow a refresh is asked only of a hand worth refreshing.
        if plan.margin < self._refresh_threshold(state) and refresh_refusal(state) is None:
            return Refresh()
        return Give(seat, _in_hand_order(plan.cards, ghost.hand))

    def _best_plan(
        self,
        state: GameState,
        ghost: GhostKnowledge,
        waiting: Sequence[int],
        hand: list[str],
        *,
        fair: bool,
    ) -> tuple[int, Plan] | None:
        """The seat helped most and its give.  When ``fair``, a dream whose words name a
        wrong card of the category a seat seeks (it sends a person the wrong way, whatever
        its motifs say) is never given to that seat."""
        searches: list[_SeatSearch] = []
        for seat in waiting:
            usable = self._usable(state, ghost, seat, hand, fair=fair)
            if usable:
                searches.append(self._search(state, ghost, seat, usable))
        # The seat served is the one with the best give, the first in seat order of equals.
        # Searching the seats with the highest bound first finds a good give soonest, so
        # the others' searches, which only look for gives that beat it, end at their bound.
        # A seat before the best so far wins a tie with it, so it looks for gives at least
        # as good (the next float below is ``>=`` for the values of floats compared here).
        searches.sort(key=_highest_bound_first)
        chosen: tuple[int, Plan] | None = None
        for search in searches:
            if chosen is None:
                better_than = float("-inf")
            elif search.seat < chosen[0]:
                better_than = nextafter(chosen[1].value, float("-inf"))
            else:
                better_than = chosen[1].value
            plan = search.best(better_than)
            if plan is not None:
                chosen = (search.seat, plan)
        return chosen

    def _usable(
        self, state: GameState, ghost: GhostKnowledge, seat: int, hand: list[str], *, fair: bool
    ) -> list[str]:
        """The cards of ``hand`` that may go to ``seat``: all, or when ``fair`` those that
        name no wrong card of the category it seeks."""
        if not fair or self._names.named.keys().isdisjoint(hand):
            return hand  # (most dreams name no card at all)
        target = self._target(state, ghost, seat)
        seeking = state.investigator(seat).seeking
        assert seeking is not None  # only active investigators are served
        choices = state.tableau.cards(seeking)
        return [card for card in hand if not self._names.names_wrongly(card, target, choices)]

    @staticmethod
    def _target(state: GameState, ghost: GhostKnowledge, seat: int) -> str:
        """The card ``seat`` must find today."""
        seeking = state.investigator(seat).seeking
        assert seeking is not None  # only active investigators are served
        return ghost.column(seat).card(seeking)

    def _search(
        self, state: GameState, ghost: GhostKnowledge, seat: int, hand: list[str]
    ) -> _SeatSearch:
        """The search for the best give of ``hand`` to ``seat``, read and bounded."""
        investigator = state.investigator(seat)
        seeking = investigator.seeking
        assert seeking is not None  # only active investigators are served
        target = ghost.column(seat).card(seeking)
        ruled_out = self._memory.ruled_out(seat, seeking)
        others = [c for c in state.tableau.cards(seeking) if c != target and c not in ruled_out]
        if not others:  # nothing left to confuse it with: one card will do
            row = self._fits.fits
            card = max(hand, key=lambda h: row[h][target])
            return _SeatSearch(seat, hand, None, self.max_give, self.extra_card_cost, card)
        reading = self._reading(seat, target, tuple(others), investigator.dreams)
        return _SeatSearch(seat, hand, reading, self.max_give, self.extra_card_cost)

    def _reading(
        self, seat: int, target: str, others: tuple[str, ...], held: tuple[str, ...]
    ) -> _Reading:
        reading = self._readings.get(seat)
        if reading is None or reading.key != (target, others, held):
            read = self._card_reads.setdefault((target, others), {})
            reading = _Reading(self._fits, target, others, held, read)
            self._readings[seat] = reading
        return reading

    # --- Stage Two -----------------------------------------------------------------

    def _group_give(self, state: GameState, ghost: GhostKnowledge) -> Action:
        """Three dreams for the group: the culprit's group must stand out (see the module)."""
        size = min(GROUP_GIVE_SIZE, len(ghost.hand))
        hand = self._in_tie_order(ghost.hand)
        culprit = ghost.column(ghost.culprit)
        culprit_group = tuple(culprit.card(category) for category in CATEGORY_ORDER)
        accused = self._memory.accused_wrongly
        rivals = [
            group
            for group in state.grouped_tableau
            if group != culprit_group and group[0] not in accused
        ]
        # Both scores add up card by card, so each hand card is read once against every
        # group and slot, and each three-card choice only sums its cards' entries.
        groups = [culprit_group, *rivals]
        base = group_scores(self._fits, state.group_dreams, groups)
        card_fits = {card: group_scores(self._fits, (card,), groups) for card in hand}
        points = {card: self._slot_points(card, culprit_group, rivals) for card in hand}
        slot_orders = list(permutations(range(size)))
        # One dream for the culprit's Character, one for its Location, one for its Item,
        # whenever the hand allows: only then does the margin decide.
        if size == 3:
            # Each card's slots it points to, as three bits; a three-card choice splits when
            # the nine bits of its cards hold one of the six one-per-slot patterns.
            pointing_slots = {card: _positive_slots(points[card]) for card in hand}
            splittable = _splittable_threes()
            splits: dict[tuple[str, ...], bool] = {
                cards: splittable[
                    pointing_slots[cards[0]]
                    | pointing_slots[cards[1]] << 3
                    | pointing_slots[cards[2]] << 6
                ]
                for cards in combinations(hand, 3)
            }
        else:
            splits = {
                cards: splits_by_slot([points[card] for card in cards])
                for cards in combinations(hand, size)
            }
        allowed = any(splits.values())
        best_cards: tuple[str, ...] = ()
        best_key = (float("-inf"), float("-inf"))
        for cards, split in splits.items():
            if allowed and not split:
                continue
            scores = base
            for card in cards:
                scores = list(map(add, scores, card_fits[card]))
            margin = scores[0] - max(scores[1:], default=0)
            if margin < best_key[0]:
                continue  # how the cards point only decides between equal margins
            # The best way to lay the cards on the slots: each card on a slot of its own.
            if size == 3:
                pointing = best_laying_of_three(*(points[dream] for dream in cards))
            else:
                rows = [points[dream] for dream in cards]
                pointing = max(sum(map(getitem, rows, slots)) for slots in slot_orders)
            key = (float(margin), float(pointing))
            if key > best_key:
                best_key, best_cards = key, cards
        # A hand with no dream for one of the culprit's cards is refreshed whenever the
        # difficulty allows: the table reads a group by its three cards.
        weak = best_key[0] < self._refresh_threshold(state) or not allowed
        if weak and rivals and refresh_refusal(state) is None:
            return Refresh()
        self.group_gives.append(GroupGiveNote(allowed=allowed, split=splits[best_cards]))
        return GroupGive(_in_hand_order(best_cards, ghost.hand))

    def _slot_points(
        self, dream: str, culprit: Sequence[str], rivals: Sequence[Sequence[str]]
    ) -> list[float]:
        """For each slot (Character, Location, Item): how well ``dream`` placed there reads
        as the culprit's card, less the best it reads as a rival group's card of that slot."""
        row = self._fits.of(dream)
        return [
            row[culprit[slot]] - max((row[group[slot]] for group in rivals), default=0.0)
            for slot in range(len(culprit))
        ]


def best_laying_of_three(
    first: Sequence[float], second: Sequence[float], third: Sequence[float]
) -> float:
    """The most points three cards score laid each on a slot of its own (of three).

    The search over ``permutations(range(3))`` spelled out: a group give always has
    three cards, and this runs for every three-card choice of the hand."""
    return max(
        first[0] + second[1] + third[2],
        first[0] + second[2] + third[1],
        first[1] + second[0] + third[2],
        first[1] + second[2] + third[0],
        first[2] + second[0] + third[1],
        first[2] + second[1] + third[0],
    )


def splits_by_slot(rows: Sequence[Sequence[float]]) -> bool:
    """Whether the dreams of ``rows`` (each one's points per slot, see ``_slot_points``)
    can be laid one per slot, each pointing to the culprit's card of its slot."""
    return any(
        all(row[slot] > 0 for row, slot in zip(rows, slots, strict=True))
        for slots in permutations(range(len(rows[0]) if rows else 0), len(rows))
    )


def _positive_slots(points: Sequence[float]) -> int:
    """The slots (of three) a dream points to the culprit's card of, one bit each."""
    return (points[0] > 0) | (points[1] > 0) << 1 | (points[2] > 0) << 2


@cache
def _splittable_threes() -> tuple[bool, ...]:
    """For each nine bits (three cards' :func:`_positive_slots`, the first card lowest),
    whether :func:`splits_by_slot` holds for the three cards: built once, on the first
    group give (``splits_by_slot`` runs for every three-card choice of every hand)."""
    rows = [[bits >> slot & 1 for slot in range(3)] for bits in range(8)]
    return tuple(
        splits_by_slot([rows[bits & 7], rows[bits >> 3 & 7], rows[bits >> 6]])
        for bits in range(512)
    )


def _running_max_from_end(values: Sequence[float]) -> list[float]:
    """``result[i]`` is the largest of ``values[i:]``."""
    return list(accumulate(reversed(values), max))[::-1]


def _in_hand_order(cards: Sequence[str], hand: Sequence[str]) -> tuple[str, ...]:
    """The cards in the order the hand holds them, so one give has one spelling."""
    chosen = set(cards)
    return tuple(card for card in hand if card in chosen)
