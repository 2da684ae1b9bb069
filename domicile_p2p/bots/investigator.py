"""The investigator bot: reads its dreams, points at the card they show, locks.

Stage One: it scores each tableau card of the category it seeks by the
motifs the card shares with all the dreams it holds (wrong guesses keep
their dreams, so the evidence accumulates), leaves out the cards a séance
has already called wrong for it, places its marker and locks.

Stage Two: each bot reads the three dreams itself and places its marker on
the Character whose group best fits them (never one already wrongly
accused).  It never copies a marker that is only placed: it moves its vote
only when someone *locks* on another group.  A séance needs every marker
locked on one Character, so the locks settle it: an unlocked bot follows
the lowest-seated locked marker, and a locked bot stays unless a lower seat
is locked elsewhere, so the lowest locked seat's group is where every bot
ends up (a bot at a lower seat than a person holds its ground; the person
can argue, or move).

In both stages, just before it locks, a bot says one short line of table
talk (``talk.py``): the card or group and the imagery that led there.

It sees only its seat's view (the public state) and the pack.  Its choices
carry a little seeded noise (a softmax over its scores), so self-play games
are not all alike; the noise of a decision is drawn from a generator
seeded by the seat, the day and the category, so the decision is stable
however often the bot is asked, and identical for identical public states.
"""

from __future__ import annotations

import random
from typing import Final

from domicile_p2p.bots.errors import BotMisuse
from domicile_p2p.bots.memory import SeanceMemory
from domicile_p2p.bots.naming import DreamNames, dream_names
from domicile_p2p.bots.readers import DEFAULT_READERS, Fits, Readers, fits
from domicile_p2p.bots.reading import card_scores, group_scores, softmax_choice
from domicile_p2p.bots.talk import following_line, leaning_line
from domicile_p2p.packs import Pack
from domicile_p2p.rules import (
    GHOST,
    Action,
    Category,
    Chat,
    GameState,
    Investigator,
    Lock,
    Phase,
    Place,
    Stage,
    Unlock,
    View,
)

DEFAULT_TEMPERATURE: Final = 0.45
"""The softmax temperature of every choice: a card one shared motif behind the best is
picked exp(-1 / 0.45), about a ninth, as often.  Tuned with ``domicile simulate`` so that
the difficulty levels stay well apart (the table in the README)."""


_ChoiceInputs = tuple[int, Category, tuple[str, ...], frozenset[str], tuple[str, ...]]
"""What a Stage One choice depends on: the day, the category sought, its cards on the
table, those ruled out, and the dreams held."""

_AccusationInputs = tuple[int, tuple[tuple[str, ...], ...], frozenset[str], tuple[str, ...]]
"""What a Stage Two accusation depends on: the day, the grouped tableau, the Characters
wrongly accused, and the group's dreams."""


class InvestigatorBot:
    """A policy for one investigator seat."""

    def __init__(
        self,
        seat: int,
        pack: Pack,
        seed: int,
        temperature: float = DEFAULT_TEMPERATURE,
        *,
        readers: Readers = DEFAULT_READERS,
    ) -> None:
        if seat == GHOST:
            raise BotMisuse("an investigator bot cannot sit in the Ghost's seat")
        self.seat = seat
        self.seed = seed
        self.temperature = temperature
        self._fits: Fits = fits(pack, readers)
        self._names: DreamNames = dream_names(pack)
        self._pack = pack
        self._said: set[tuple[int, Stage, str]] = set()
        """The locks already announced: (day, stage, card)."""
        self._memory = SeanceMemory(only=seat)
        # Built at the first decision, from that decision's seed: each decision seeds it
        # anyway, and building one seeds it once already.
        self._random: random.Random | None = None
        # The last choices and everything each was made from: the bot is asked again for
        # the same decision (to place, then to lock), and the answer is the same.
        self._last_choice: tuple[_ChoiceInputs, str] | None = None
        self._last_accusation: tuple[_AccusationInputs, str] | None = None

    def act(self, view: View) -> Action | None:
        if view.seat != self.seat:
            raise BotMisuse(f"the bot of seat {self.seat} was shown the view of seat {view.seat}")
        state = view.state
        self._memory.observe(state)
        if state.phase is Phase.ENDED:
            return None
        if state.stage is Stage.PLOT:
            return self._plot(state)
        return self._culprit(state)

    def _rng(self, decision: str) -> random.Random:
        """The generator of one decision, seeded by the bot's seed, its seat and ``decision``.

        Reseeding one generator gives the very stream a new ``Random(text)`` would, for
        less than building one."""
        text = f"{self.seed}/{self.seat}/{decision}"
        if self._random is None:
            self._random = random.Random(text)
        else:
            self._random.seed(text)
        return self._random

    # --- Stage One -----------------------------------------------------------------

    def _plot(self, state: GameState) -> Action | None:
        me = state.investigator(self.seat)
        if state.phase is Phase.SEANCE or me.done or not me.served or me.locked:
            return None
        choice = self._choose_card(state, me)
        if me.marker != choice:
            return Place(self.seat, choice)
        self._memory.note(self.seat, state, choice)
        return self._announce(state, choice, me.dreams, (choice,)) or Lock(self.seat)

    def _announce(
        self,
        state: GameState,
        card: str,
        dreams: tuple[str, ...],
        cards: tuple[str, ...],
        leader: int | None = None,
    ) -> Chat | None:
        """The line to say before locking on ``card``, once per day, stage and card."""
        key = (state.day, state.stage, card)
        if key in self._said:
            return None
        self._said.add(key)
        if leader is None:
            text = leaning_line(self._pack, self._names, dreams, cards)
        else:
            text = following_line(self._pack, state.config.name(leader), cards)
        return Chat(self.seat, text)

    def _choose_card(self, state: GameState, me: Investigator) -> str:
        seeking = me.seeking
        assert seeking is not None  # an active investigator seeks a card
        on_table = state.tableau.cards(seeking)
        ruled_out = self._memory.ruled_out(self.seat, seeking)
        inputs = (state.day, seeking, on_table, ruled_out, me.dreams)
        if self._last_choice is not None and self._last_choice[0] == inputs:
            return self._last_choice[1]
        candidates = [card for card in on_table if card not in ruled_out] or list(on_table)
        if len(candidates) == 1:
            choice = candidates[0]  # what any draw would pick: no generator to seed
        else:
            scores = card_scores(self._fits, me.dreams, candidates)
            rng = self._rng(f"{state.day}/{seeking.value}")
            choice = softmax_choice(rng, candidates, scores, self.temperature)
        self._last_choice = (inputs, choice)
        return choice

    # --- Stage Two -----------------------------------------------------------------

    def _culprit(self, state: GameState) -> Action | None:
        """Vote for its own best group; move only to a group someone has locked on."""
        if state.phase is not Phase.INVESTIGATION:
            return None
        me = state.investigator(self.seat)
        locked = [
            seat
            for seat in state.config.seats
            if state.investigator(seat).locked and state.investigator(seat).marker is not None
        ]
        leader = next((seat for seat in locked if seat != self.seat), None)
        if me.locked and (leader is None or leader > self.seat):
            return None  # the lowest locked marker holds its ground
        if leader is not None:
            target = state.investigator(leader).marker
            assert target is not None
        else:
            target = self._choose_culprit(state)
        if me.marker != target:
            return Unlock(self.seat) if me.locked else Place(self.seat, target)
        if me.locked:
            return None
        self._memory.note(self.seat, state, target)
        group = next(group for group in state.grouped_tableau if group[0] == target)
        if leader is not None and target == self._choose_culprit(state):
            leader = None  # its own reading agrees: it says why, not whom it follows
        announced = self._announce(state, target, state.group_dreams, group, leader)
        return announced or Lock(self.seat)

    def _choose_culprit(self, state: GameState) -> str:
        groups = state.grouped_tableau
        accused = self._memory.accused_wrongly
        inputs = (state.day, groups, accused, state.group_dreams)
        if self._last_accusation is not None and self._last_accusation[0] == inputs:
            return self._last_accusation[1]
        open_groups = [group for group in groups if group[0] not in accused] or list(groups)
        scores = group_scores(self._fits, state.group_dreams, open_groups)
        rng = self._rng(f"{state.day}/culprit")
        choice = softmax_choice(rng, [group[0] for group in open_groups], scores, self.temperature)
        self._last_accusation = (inputs, choice)
        return choice
