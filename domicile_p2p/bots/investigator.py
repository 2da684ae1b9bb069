"""The investigator bot: reads its dreams, listens to the table, says why, and commits.

Stage One: it scores each tableau card of the category it seeks by how well
all the dreams it holds read as it (``readers.py``: by default their words
against the cards' names and descriptions; wrong guesses keep their dreams,
so the evidence accumulates), leaves out the cards a séance has already
called wrong for it, weighs in every card a person at the table has named in
the chat today (:data:`PERSON_WEIGHT` each), places its marker and locks.

Stage Two: it reads the group's three dreams itself and proposes the group
that fits them best (never one already wrongly accused), saying why.  Then:

- it follows the majority of the *people's* locked markers (ties: the group
  it reads best); it never follows a seat only for sitting lower;
- while the runner says to wait (``hold_lock``: until every person has
  locked, or half the sand-glass, or a minute without one; ``waiting.py``),
  it places its own proposal but does not lock;
- with no person locked (a table of bots, or the people have not decided in
  time), the bots agree among themselves: each goes with the group most
  locked markers stand on (its own included when it is locked), ties going
  to the lowest-seated marker, so every bot settles on the same group.

Before it locks a bot says one line of table talk (``talk.py``), in its
persona's voice, quoting the words of its dreams, naming its top two when
they are close and saying so when a person's word changed its mind.  It
hears every chat line (:meth:`InvestigatorBot.hear`) and never repeats a
line another seat said that day.

It sees only its seat's view (the public state), the chat and the pack.  Its
choices carry a little seeded noise (a softmax over its scores), so self-play
games are not all alike; the noise of a decision is one number hashed from the
bot's seed, the seat, the day and the category (``reading.DecisionDraws``: no
generator is seeded), so the decision is stable however often the bot is
asked, and identical for identical public states.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from domicile_p2p.bots.errors import BotMisuse
from domicile_p2p.bots.memory import SeanceMemory
from domicile_p2p.bots.readers import DEFAULT_READERS, Fits, Readers, fits, name_index
from domicile_p2p.bots.reading import DecisionDraws, card_scores, group_scores, softmax_choice
from domicile_p2p.bots.talk import TableTalk
from domicile_p2p.packs import Pack
from domicile_p2p.packs.names import NameIndex
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
"""The softmax temperature of every choice: a card read one point (a word printed on one
card of its category) behind the best is picked exp(-1 / 0.45), about a ninth, as often.
Tuned with ``domicile simulate`` so that the difficulty levels stay well apart (the
table in the README)."""

PERSON_WEIGHT: Final = 1.5
"""What a person naming a card in the chat adds to its score, per person: more than one
word of a dream, less than the card's name in one."""

CLOSE: Final = 1.0
"""A runner-up scoring within this of the card chosen is named with it ("X, or Y")."""


@dataclass(frozen=True, slots=True)
class Decision:
    """A card (or a group's Character) chosen, and what a line about it says."""

    card: str
    had: str
    """The bot's choice without what people said (``card`` when they changed nothing)."""
    runner_up: str | None
    """A close second, or ``None``."""
    suggested_by: int | None
    """The person whose word changed the bot's mind, or ``None``."""


_ChoiceInputs = tuple[
    int, Category, tuple[str, ...], frozenset[str], tuple[str, ...], tuple[tuple[str, int], ...]
]
"""What a Stage One choice depends on: the day, the category sought, its cards on the
table, those ruled out, the dreams held, and the cards people named."""

_AccusationInputs = tuple[
    int, tuple[tuple[str, ...], ...], frozenset[str], tuple[str, ...], tuple[tuple[str, int], ...]
]
"""What a Stage Two accusation depends on: the day, the grouped tableau, the Characters
wrongly accused, the group's dreams, and the cards people named."""


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
        self.people: frozenset[int] = frozenset()
        """The investigator seats people hold (the runner says; none in self-play)."""
        self.hold_lock = False
        """Set by the runner in Stage Two while the bot should wait for the people."""
        self._fits: Fits = fits(pack, readers)
        self._pack = pack
        self._talk = TableTalk(pack, seat)
        self._names: NameIndex = name_index(pack)
        self._said: set[tuple[int, Stage, str]] = set()
        """The lines already said: (day, stage, card)."""
        self._heard_day = 0
        self._heard: set[str] = set()
        """The lines said at the table on ``_heard_day``."""
        self._named: dict[str, list[int]] = {}
        """The cards people named on ``_heard_day``, each with who named it, in order."""
        self._memory = SeanceMemory(only=seat)
        self._draws = DecisionDraws(f"{seed}/{seat}/")
        # The last choices and everything each was made from: the bot is asked again for
        # the same decision (to place, then to lock), and the answer is the same.
        self._last_choice: tuple[_ChoiceInputs, Decision] | None = None
        self._last_accusation: tuple[_AccusationInputs, Decision] | None = None

    # --- the chat ------------------------------------------------------------------

    def hear(self, seat: int, text: str, day: int) -> None:
        """A line of chat said by ``seat`` on ``day``: remembered (a bot never repeats
        another seat's line that day), and when a person said it, the cards it names are
        weighed into the bot's next choices that day."""
        self._new_day(day)
        self._heard.add(text)
        if seat not in self.people or seat == self.seat:
            return
        for match in self._names.find(text):
            for card in match.cards:
                speakers = self._named.setdefault(card.id, [])
                if seat not in speakers:
                    speakers.append(seat)

    def _new_day(self, day: int) -> None:
        if day != self._heard_day:
            self._heard_day, self._heard, self._named = day, set(), {}

    def _named_today(self, day: int) -> tuple[tuple[str, int], ...]:
        self._new_day(day)
        if not self._named:  # nobody named a card today (every day of self-play)
            return ()
        return tuple((card, len(seats)) for card, seats in sorted(self._named.items()))

    # --- acting --------------------------------------------------------------------

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

    def _choose(
        self, decision: str, options: Sequence[str], scores: Sequence[float], bonus: Sequence[float]
    ) -> Decision:
        """The option drawn with people's words weighed in, and the one drawn without."""
        if len(options) == 1:
            return Decision(options[0], options[0], None, None)
        weighed = [score + extra for score, extra in zip(scores, bonus, strict=True)]
        draw = self._draws.draw(decision)
        card = softmax_choice(draw, options, weighed, self.temperature)
        had = card
        if any(bonus):
            had = softmax_choice(draw, options, scores, self.temperature)
        position = options.index(card)
        rivals = [(weighed[i], option) for i, option in enumerate(options) if i != position]
        best_rival, runner_up = max(rivals)
        close = runner_up if best_rival >= weighed[position] - CLOSE else None
        suggested_by = None
        if had != card:
            suggested_by = self._named[card][0] if card in self._named else None
        return Decision(card, had, close, suggested_by)

    def _announce(self, state: GameState, card: str, kind: str, **words: str) -> Chat | None:
        """The line to say before locking on ``card``, once per day, stage and card."""
        key = (state.day, state.stage, card)
        if key in self._said:
            return None
        self._said.add(key)
        self._new_day(state.day)
        # The phrasing varies with the bot and the day; no generator is seeded for it.
        variant = self.seed + 7 * state.day + 3 * (state.stage is Stage.CULPRIT)
        if state.stage is Stage.PLOT:
            dreams = state.investigator(self.seat).dreams
            cards: tuple[str, ...] = (card,)
        else:
            dreams = state.group_dreams
            cards = next(group for group in state.grouped_tableau if group[0] == card)
        text = self._talk.line(kind, variant, dreams, cards, self._heard, **words)
        self._heard.add(text)
        return Chat(self.seat, text)

    # --- Stage One -----------------------------------------------------------------

    def _plot(self, state: GameState) -> Action | None:
        me = state.investigator(self.seat)
        if state.phase is Phase.SEANCE or me.done or not me.served or me.locked:
            return None
        decision = self._choose_card(state, me)
        choice = decision.card
        if me.marker != choice:
            return Place(self.seat, choice)
        self._memory.note(self.seat, state, choice)
        return self._announce_decision(state, decision) or Lock(self.seat)

    def _announce_decision(self, state: GameState, decision: Decision) -> Chat | None:
        name = self._talk.name
        if decision.suggested_by is not None:
            return self._announce(
                state,
                decision.card,
                "changed",
                who=state.config.name(decision.suggested_by),
                was=name((decision.had,)),
            )
        if decision.runner_up is not None:
            return self._announce(state, decision.card, "close", other=name((decision.runner_up,)))
        return self._announce(state, decision.card, "leaning")

    def _choose_card(self, state: GameState, me: Investigator) -> Decision:
        seeking = me.seeking
        assert seeking is not None  # an active investigator seeks a card
        on_table = state.tableau.cards(seeking)
        ruled_out = self._memory.ruled_out(self.seat, seeking)
        named = self._named_today(state.day)
        inputs = (state.day, seeking, on_table, ruled_out, me.dreams, named)
        if self._last_choice is not None and self._last_choice[0] == inputs:
            return self._last_choice[1]
        candidates = [card for card in on_table if card not in ruled_out] or list(on_table)
        scores = card_scores(self._fits, me.dreams, candidates)
        counts = dict(named)
        bonus = [PERSON_WEIGHT * counts.get(card, 0) for card in candidates]
        decision = self._choose(f"{state.day}/{seeking.value}", candidates, scores, bonus)
        self._last_choice = (inputs, decision)
        return decision

    # --- Stage Two -----------------------------------------------------------------

    def _culprit(self, state: GameState) -> Action | None:
        """Propose its own group, wait if told to, then go where the people locked."""
        if state.phase is not Phase.INVESTIGATION:
            return None
        me = state.investigator(self.seat)
        own = self._choose_culprit(state)
        target, people_locked = self._stage_two_target(state, own.card)
        if me.locked:
            return None if me.marker == target else Unlock(self.seat)
        if me.marker != target:
            return Place(self.seat, target)
        if target != own.card:
            table = _table_note(people_locked, len(self.people), target)
            line = self._announce(
                state, target, "following", table=table, was=self._group_name(state, own.card)
            )
        elif self.hold_lock:
            line = self._announce(state, target, "proposing")
        else:
            line = self._announce_decision(state, own)
        if line is not None:
            return line
        if self.hold_lock:
            return None  # its proposal stands; the people have time to answer
        self._memory.note(self.seat, state, target)
        return Lock(self.seat)

    def _group_name(self, state: GameState, character: str) -> str:
        group = next(group for group in state.grouped_tableau if group[0] == character)
        return self._talk.name(group)

    def _stage_two_target(self, state: GameState, own: str) -> tuple[str, Counter[str]]:
        """Where the bot's marker should stand now, and the people's locked markers."""
        markers: dict[int, str] = {}
        for seat in state.config.seats:
            investigator = state.investigator(seat)
            if investigator.locked and investigator.marker is not None:
                markers[seat] = investigator.marker
        people = Counter(marker for seat, marker in markers.items() if seat in self.people)
        if self.hold_lock:
            return own, people  # its own proposal stands while the people decide
        if people:
            most = max(people.values())
            tied = [card for card, count in people.items() if count == most]
            if own in tied:
                return own, people
            scores = group_scores(
                self._fits,
                state.group_dreams,
                [next(g for g in state.grouped_tableau if g[0] == card) for card in tied],
            )
            return tied[scores.index(max(scores))], people
        if not markers:
            return own, people
        votes = Counter(markers.values())
        most = max(votes.values())
        first_seat = min(seat for seat, marker in markers.items() if votes[marker] == most)
        return markers[first_seat], people

    def _choose_culprit(self, state: GameState) -> Decision:
        groups = state.grouped_tableau
        accused = self._memory.accused_wrongly
        named = self._named_today(state.day)
        inputs = (state.day, groups, accused, state.group_dreams, named)
        if self._last_accusation is not None and self._last_accusation[0] == inputs:
            return self._last_accusation[1]
        open_groups = [group for group in groups if group[0] not in accused] or list(groups)
        scores = group_scores(self._fits, state.group_dreams, open_groups)
        counts = dict(named)
        bonus = [PERSON_WEIGHT * sum(counts.get(card, 0) for card in g) for g in open_groups]
        characters = [group[0] for group in open_groups]
        decision = self._choose(f"{state.day}/culprit", characters, scores, bonus)
        if decision.had != decision.card and decision.suggested_by is None:
            group = open_groups[characters.index(decision.card)]
            speaker = next((self._named[card][0] for card in group if card in self._named), None)
            decision = Decision(decision.card, decision.had, decision.runner_up, speaker)
        self._last_accusation = (inputs, decision)
        return decision


def _table_note(people: Counter[str], seats: int, target: str) -> str:
    """How many of the people locked on ``target``, or, among bots, that the table did."""
    if people:
        return f"{people[target]} of the {seats} of you locked there"
    return "the others locked there"
