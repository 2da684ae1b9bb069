"""What séances ruled out, remembered from the public states a bot has seen.

The public state keeps only the verdicts of the *last* séance
(``state.last_seance``), and the markers are cleared when the round ends.
So a bot notes every locked marker it sees (and its own marker when it
locks), and when a later day shows the verdicts, it learns which guesses
were wrong:

- Stage One: a wrong verdict rules that card out for that investigator and
  that category (the card may still be right for someone else).
- Stage Two: a wrong accusation rules that Character out for the group.

A bot rebuilt mid-game starts with an empty memory; it still plays
legally, only less well, and catches up from the next séance it sees.
"""

from __future__ import annotations

from dataclasses import dataclass

from domicile_p2p.rules import Category, GameState, Phase, Stage


@dataclass(frozen=True, slots=True)
class Guess:
    """A marker as it stood, locked, before a séance."""

    day: int
    stage: Stage
    category: Category | None
    card: str


_NONE: frozenset[str] = frozenset()
"""No card: what is ruled out before any séance."""


class SeanceMemory:
    """Guesses awaiting a verdict, and the wrong ones learnt so far."""

    __slots__ = ("_accused_wrongly", "_earliest", "_only", "_pending", "_ruled_out")

    def __init__(self, only: int | None = None) -> None:
        """Remember every seat's guesses, or ``only`` that seat's.

        An investigator needs only its own: in Stage One only its own cards ruled
        out matter to it, and in Stage Two a séance needs every marker locked on
        the same Character, so its own guess of the day is the group's.
        """
        self._only = only
        self._pending: dict[int, Guess] = {}
        self._earliest = 0
        """At most the day of every pending guess: none resolves until a later day."""
        # Frozen, replaced when they grow: the bots ask for them at every decision.
        self._ruled_out: dict[tuple[int, Category], frozenset[str]] = {}
        self._accused_wrongly: frozenset[str] = frozenset()

    def observe(self, state: GameState) -> None:
        """Learn from ``state``: resolve guesses of earlier days, note locked markers."""
        if self._pending and state.day > self._earliest:
            self._resolve(state)
        if state.phase is Phase.ENDED:
            return
        if self._only is not None:
            investigator = state.investigator(self._only)
            if investigator.locked and investigator.marker is not None:
                self.note(self._only, state, investigator.marker)
            return
        for seat, investigator in enumerate(state.investigators, start=1):
            if investigator.locked and investigator.marker is not None:
                self.note(seat, state, investigator.marker)

    def note(self, seat: int, state: GameState, card: str) -> None:
        """Remember that ``seat``'s marker is (about to be) locked on ``card`` today."""
        noted = self._pending.get(seat)
        if (
            noted is not None
            and noted.day == state.day
            and noted.stage is state.stage
            and noted.card == card
        ):
            return  # already noted: the category sought cannot change before the séance
        category = state.investigator(seat).seeking if state.stage is Stage.PLOT else None
        if not self._pending or state.day < self._earliest:
            self._earliest = state.day
        self._pending[seat] = Guess(state.day, state.stage, category, card)

    def ruled_out(self, seat: int, category: Category) -> frozenset[str]:
        """The cards of ``category`` a séance has called wrong for ``seat``."""
        return self._ruled_out.get((seat, category), _NONE)

    @property
    def accused_wrongly(self) -> frozenset[str]:
        """The Characters the group has wrongly accused in Stage Two."""
        return self._accused_wrongly

    def _resolve(self, state: GameState) -> None:
        for seat, guess in list(self._pending.items()):
            if state.day <= guess.day:
                continue
            del self._pending[seat]
            if not self._was_wrong(state, seat, guess):
                continue
            if guess.stage is Stage.CULPRIT:
                self._accused_wrongly |= {guess.card}
            elif guess.category is not None:
                key = (seat, guess.category)
                self._ruled_out[key] = self._ruled_out.get(key, _NONE) | {guess.card}
        self._earliest = min((guess.day for guess in self._pending.values()), default=0)

    @staticmethod
    def _was_wrong(state: GameState, seat: int, guess: Guess) -> bool:
        if state.day == guess.day + 1:
            for verdict in state.last_seance:
                if verdict.seat == seat:
                    return not verdict.correct
        # The verdict itself is gone; what it did to the table is not.
        if guess.stage is Stage.CULPRIT:
            return True  # a right accusation ends the game on that very day
        return guess.card not in state.investigator(seat).found
