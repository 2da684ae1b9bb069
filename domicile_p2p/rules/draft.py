"""``Draft``: one action's changes, gathered on a mutable copy and frozen into the next state once.

A ``GameState`` has seventeen fields, so each copy of it costs microseconds, and an
action changes it in several steps (take the given cards, draw back up, end the
round, move to the next phase).  The handlers of ``engine.py`` and the transitions
of ``phases.py`` change this draft instead, and :meth:`Draft.freeze` builds one new
state.  The Ghost's piles (``hand``, ``deck``, ``discard``) are kept here only when
the state has its secrets (``secret``); a public state tracks them as counts.

The draft has a slot for every field of :class:`GameState` (read from
``records.field_names``), and :meth:`Draft.freeze` reads them all back by name.  The
copy in ``__init__`` is spelled out: a loop over the fields costs about 1.5 us per
action (a sixth of an ``apply``).  A field it forgets is an unset slot, which
``freeze`` refuses with an ``AttributeError`` on the first action, never a silent
reset to the field's default (``tests/test_rules_draft.py`` checks every field).
"""

from __future__ import annotations

from operator import attrgetter
from typing import Final

from domicile_p2p.rules import errors
from domicile_p2p.rules.actions import Action
from domicile_p2p.rules.model import HAND_SIZE, GameState, Investigator, Secrets
from domicile_p2p.rules.records import field_names

STATE_FIELDS: Final = field_names(GameState)
"""The fields of :class:`GameState`, in the order of its constructor's arguments."""

# ``freeze`` builds the state from one C-level read of every slot, positionally.
_state_values: Final = attrgetter(*STATE_FIELDS)
assert GameState.__match_args__ == STATE_FIELDS  # so the values fit ``__init__``'s order
_INVESTIGATORS: Final = STATE_FIELDS.index("investigators")


class Draft:
    """The state of one action in the making: the state before it (``before``), the action
    (``action``, which the triggers of ``phases.py`` may read) and every field, mutable.

    ``investigators`` is a list while drafting (a tuple again in the state);
    ``secrets`` is rebuilt at :meth:`freeze` from the piles when they changed.
    Validation reads the state before the action, so an error (raised before
    :meth:`freeze`) changes nothing.
    """

    __slots__ = (*STATE_FIELDS, "action", "before", "deck", "discard", "hand", "secret")

    def __init__(self, state: GameState, action: Action) -> None:
        self.before = state
        self.action = action
        self.config = state.config
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
        self.no_guess = state.no_guess
        secrets = self.secrets = state.secrets
        self.secret = secrets is not None
        self.hand: tuple[str, ...] = () if secrets is None else secrets.hand
        self.deck: tuple[str, ...] = () if secrets is None else secrets.deck
        self.discard: tuple[str, ...] = () if secrets is None else secrets.discard

    # --- the investigators ------------------------------------------------------------

    def change_investigator(self, seat: int, investigator: Investigator) -> None:
        self.investigators[seat - 1] = investigator

    # --- the Ghost's piles ------------------------------------------------------------

    def take_from_hand(self, cards: tuple[str, ...]) -> None:
        self.hand_size -= len(cards)
        if self.secret:
            self.hand = tuple(card for card in self.hand if card not in cards)

    def discard_cards(self, cards: tuple[str, ...]) -> None:
        self.discard_size += len(cards)
        if self.secret:
            self.discard += cards

    def replace_hand(self) -> None:
        """A refresh: draw a new hand, then discard the old one.

        The new hand is drawn before the old one is discarded, so a refresh never draws
        back the cards it threw away.  The public state knows only how many cards the
        hand held, so it counts them into the discard pile by number; the secret state
        moves the cards.
        """
        old_hand, old_size = self.hand, self.hand_size
        self.hand, self.hand_size = (), 0
        self.draw_up()
        self.discard_size += old_size
        if self.secret:
            self.discard += old_hand

    def draw_up(self) -> None:
        """Draw back up to seven, reshuffling the discard pile whenever the deck runs out."""
        while self.hand_size < HAND_SIZE:
            if self.deck_size == 0:
                if self.discard_size == 0:
                    return  # both empty: the hand stays short
                self._reshuffle()
            take = min(HAND_SIZE - self.hand_size, self.deck_size)
            self.hand_size += take
            self.deck_size -= take
            if self.secret:
                self.hand += self.deck[:take]
                self.deck = self.deck[take:]

    def _reshuffle(self) -> None:
        secrets = self.secrets
        if secrets is not None:
            deck = secrets.reshuffle(self.reshuffles, tuple(sorted(self.discard)))
            if sorted(deck) != sorted(self.discard):
                raise errors.SetupError("the reshuffle did not return a permutation of the discard")
            self.deck, self.discard = deck, ()
        self.deck_size, self.discard_size = self.discard_size, 0
        self.reshuffles += 1

    # --- the next state -------------------------------------------------------------

    def freeze(self) -> GameState:
        """The state after the action: one new :class:`GameState` from every slot."""
        secrets = self.secrets
        if secrets is not None and (
            self.hand is not secrets.hand
            or self.deck is not secrets.deck
            or self.discard is not secrets.discard
        ):
            self.secrets = Secrets(
                secrets.columns,
                secrets.culprit,
                self.hand,
                self.deck,
                self.discard,
                secrets.reshuffle,
            )
        values = list(_state_values(self))
        values[_INVESTIGATORS] = tuple(self.investigators)
        return GameState(*values)
