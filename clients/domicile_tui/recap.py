"""The game told again, day by day: what each investigator dreamt, guessed and found.

Pure (no terminal): :func:`recap_of` reads a :class:`~domicile_tui.timeline.Timeline`
and says, for each investigator, on each day of Stage One, the dreams the
Ghost gave them that day, where their marker stood when the séance judged it
and the verdict, beside their true column once the Ghost's reveal is in; and
for each day of Stage Two, the group's three dreams, every vote and the
verdict.  The end screen and the replay viewer show the same recap
(``widgets/recap.py`` draws it).

Markers are read from the public state just before each séance, dreams from
the gives themselves: the recap holds nothing the table did not see, except
the truth, which comes from the reveal (proven by the seed, never taken on
the Ghost's word).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from domicile_p2p.client_api import (
    CulpritSeanceBody,
    Event,
    GiveBody,
    GroupGiveBody,
    Pack,
    SeanceBody,
    TimeUpBody,
)
from domicile_p2p.rules import Category, GameState, Outcome, Stage
from domicile_tui.timeline import Reveal, Timeline, fold


@dataclass(frozen=True, slots=True)
class Guess:
    """One investigator's day of Stage One."""

    day: int
    seeking: Category | None
    """What they sought that day (``None``: they were done, which a guess never is)."""
    dreams: tuple[str, ...] = ()
    """The dream cards the Ghost gave them that day (a refresh does not take them back)."""
    marker: str | None = None
    """Where their marker stood at the séance (``None``: no guess, or no séance yet)."""
    correct: bool | None = None
    """The séance's verdict (``None``: the day had no séance, as when the game stopped)."""
    clock: bool = False
    """The sand-glass ran out on them that day (their marker was locked, or none placed)."""


@dataclass(frozen=True, slots=True)
class Story:
    """One investigator's game."""

    seat: int
    name: str
    days: tuple[Guess, ...]
    found: tuple[str, ...]
    """The cards they found, in order (Character, Location, Item)."""


@dataclass(frozen=True, slots=True)
class Accusation:
    """One day of Stage Two: the group's dreams, each vote, and the verdict."""

    day: int
    dreams: tuple[str, ...] = ()
    votes: tuple[tuple[int, str | None], ...] = ()
    """Each investigator's seat and the Character their marker stood on at the séance."""
    correct: bool | None = None


@dataclass(frozen=True, slots=True)
class Recap:
    """The whole game, as :func:`recap_of` tells it."""

    stories: tuple[Story, ...]
    accusations: tuple[Accusation, ...]
    truth: Reveal | None
    outcome: Outcome | None
    day: int
    """The last day played."""

    @property
    def culprit_character(self) -> str | None:
        truth = self.truth
        return None if truth is None else truth.column(truth.culprit).character

    def story(self, seat: int) -> Story:
        return self.stories[seat - 1]


@dataclass
class _Telling:
    """The recap as it is gathered, event by event (mutable; frozen by :meth:`told`)."""

    names: tuple[str, ...]
    days: dict[int, dict[int, Guess]] = field(default_factory=dict)
    """Seat -> day -> the guess so far."""
    accusations: dict[int, Accusation] = field(default_factory=dict)

    def guess(self, seat: int, before: GameState) -> Guess:
        days = self.days.setdefault(seat, {})
        if before.day not in days:
            days[before.day] = Guess(before.day, before.investigator(seat).seeking)
        return days[before.day]

    def set_guess(self, seat: int, guess: Guess) -> None:
        self.days[seat][guess.day] = guess

    def accusation(self, day: int) -> Accusation:
        return self.accusations.setdefault(day, Accusation(day))

    def hear(self, event: Event, before: GameState) -> None:
        match event.body:
            case GiveBody(to=to, cards=cards):
                guess = self.guess(to, before)
                self.set_guess(to, replace(guess, dreams=(*guess.dreams, *cards)))
            case SeanceBody(verdicts=verdicts):
                for verdict in verdicts:
                    guess = self.guess(verdict.seat, before)
                    marker = before.investigator(verdict.seat).marker
                    self.set_guess(
                        verdict.seat, replace(guess, marker=marker, correct=verdict.correct)
                    )
            case TimeUpBody(locked=locked, no_guess=no_guess):
                if before.stage is Stage.PLOT:
                    for seat in (*locked, *no_guess):
                        self.set_guess(seat, replace(self.guess(seat, before), clock=True))
            case GroupGiveBody(cards=cards):
                self.accusations[before.day] = Accusation(before.day, tuple(cards))
            case CulpritSeanceBody(correct=correct):
                votes = tuple(
                    (seat, before.investigator(seat).marker) for seat in before.config.seats
                )
                accusation = self.accusation(before.day)
                self.accusations[before.day] = Accusation(
                    accusation.day, accusation.dreams, votes, correct
                )
            case _:
                pass

    def told(self, last: GameState | None, truth: Reveal | None) -> Recap:
        stories = tuple(
            Story(
                seat,
                name,
                tuple(guess for _, guess in sorted(self.days.get(seat, {}).items())),
                () if last is None else last.investigator(seat).found,
            )
            for seat, name in enumerate(self.names, start=1)
        )
        accusations = tuple(accusation for _, accusation in sorted(self.accusations.items()))
        return Recap(
            stories,
            accusations,
            truth,
            None if last is None else last.outcome,
            0 if last is None else last.day,
        )


def recap_of(timeline: Timeline, upto: int | None = None) -> Recap | None:
    """The recap of the game in ``timeline`` (``None`` when no tableau was ever dealt).

    ``upto``: only the first ``upto`` frames (the replay viewer's recap of the game so
    far); the truth is told only when those frames include the reveal.
    """
    config = timeline.config
    frames = timeline.frames if upto is None else timeline.frames[:upto]
    if config is None:
        return None
    telling = _Telling(config.investigator_names)
    last: GameState | None = None
    truth: Reveal | None = None
    for frame in frames:
        if frame.refused is not None or frame.unchecked:
            continue
        if frame.before is not None:
            telling.hear(frame.event, frame.before)
        last = frame.state if frame.state is not None else last
        truth = frame.truth
    if last is None:
        return None
    return telling.told(last, truth)


def recap_of_events(events: Sequence[Event]) -> Recap | None:
    """The recap of a whole transcript (its events folded once more, as a peer would)."""
    return recap_of(fold(events))


CardText = Callable[[str], str]
"""A card's name, or a dream's text, by the card's id."""


def card_names(pack: Pack | None) -> CardText:
    """Card names from ``pack``; a card it does not have (or no pack) shows by its id."""
    return _by_id(pack, lambda known, card_id: known.investigator_card(card_id).name)


def dream_texts(pack: Pack | None) -> CardText:
    """Dream texts from ``pack``; a dream it does not have (or no pack) shows by its id."""
    return _by_id(pack, lambda known, card_id: known.dream(card_id).text)


def _by_id(pack: Pack | None, read: Callable[[Pack, str], str]) -> CardText:
    def text(card_id: str) -> str:
        if pack is None:
            return card_id
        try:
            return read(pack, card_id)
        except KeyError:
            return card_id

    return text
