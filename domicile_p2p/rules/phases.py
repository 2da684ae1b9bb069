"""The phase machine of a round, as data: positions, moves, triggers and transitions.

Theory of operation
-------------------
A game is seven days.  Each day is one round of three phases, and the
game is in one of two stages: the Plot (Stage One: every investigator finds
a Character, a Location and an Item) and the Culprit (Stage Two: the group
names the culprit).  The engine's position is the pair ``(stage, phase)``.

Actions never choose the next phase.  ``engine.apply`` checks the action
against :data:`MOVES`, lets its handler move cards and markers on a
:class:`~domicile_p2p.rules.draft.Draft`, and then calls :func:`settle`: it
asks which *trigger* of the current position now holds (:data:`HOLDS`, a
predicate over the draft: the state so far and the action that made it),
does what that transition does on the way (:data:`ON_ENTRY`: the round's
end, the outcome) and moves to the position :data:`TRANSITIONS` names, again
and again until no trigger holds (h11's fixed point).  A position's triggers
are tried in the order :data:`TRANSITIONS` lists them; the first that holds
is followed.  So the flow of a round is readable here, and nowhere else:

Stage One (Plot)
    DREAMS         the Ghost serves each active investigator once (in any
                   order); a served investigator may already place and lock.
                   ALL_SERVED    -> INVESTIGATION.
    INVESTIGATION  the remaining markers are placed and locked.
                   ALL_LOCKED    -> SEANCE.
                   TIME_UP       (the host's sand-glass ran out: placed markers
                                  locked, a seat without one made no guess)
                                 -> SEANCE.
    SEANCE         the Ghost announces each verdict; the round ends.
                   CALENDAR_OUT  (day 7) -> ENDED, lost;
                   PLOT_SOLVED   (every investigator holds three cards)
                                 -> Stage Two's DREAMS of the next day, with
                                    the Clue Tableau put away;
                   NEXT_DAY      -> DREAMS of the next day.

Stage Two (Culprit)
    DREAMS         the Ghost gives three dream cards to the group.
                   GROUP_SERVED  -> INVESTIGATION.
    INVESTIGATION  every marker goes on a Character of the grouped tableau.
                   UNANIMOUS     (all locked on the same one) -> SEANCE; an
                                 unlock after that is too late.
                   TIME_UP       as in Stage One -> SEANCE; unless every marker
                                 stands on one Character, nobody is accused.
    SEANCE         the Ghost announces the verdict.
                   CULPRIT_NAMED -> ENDED, won;
                   CALENDAR_OUT  (day 7) -> ENDED, lost;
                   NEXT_DAY      -> DREAMS of the next day.

The end of a round (every way out of a séance but CULPRIT_NAMED) takes the
markers off, forgets who was served and how often the Ghost refreshed, and
draws the Ghost's hand back up.  A new rule is a trigger here (its
predicate, its row, what it does on the way) and one handler in
``engine.py`` that moves the pieces it needs.

:data:`MOVES` says which actions each position accepts; an action outside it
is a :class:`~domicile_p2p.rules.errors.WrongPhase`.  Chat is accepted in
every position, including after the end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from enum import Enum
from typing import Final

from domicile_p2p.rules.actions import (
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
    EMPTY_TABLEAU,
    LAST_DAY,
    Investigator,
    Outcome,
    Phase,
    Stage,
)


class Trigger(Enum):
    ALL_SERVED = "every active investigator has received this round's dreams"
    GROUP_SERVED = "the group has received this round's dreams"
    ALL_LOCKED = "every active marker is locked"
    TIME_UP = "the sand-glass ran out: every placed marker is locked where it stands"
    UNANIMOUS = "every marker is locked on the same Character"
    CULPRIT_NAMED = "the séance found the group's accusation right"
    CALENDAR_OUT = "the séance of the seventh day is over"
    PLOT_SOLVED = "the séance is over and every investigator holds three cards"
    NEXT_DAY = "the séance is over and the calendar advances"


Position = tuple[Stage, Phase]

TRANSITIONS: Final[dict[tuple[Stage, Phase, Trigger], Position]] = {
    (Stage.PLOT, Phase.DREAMS, Trigger.ALL_SERVED): (Stage.PLOT, Phase.INVESTIGATION),
    (Stage.PLOT, Phase.INVESTIGATION, Trigger.ALL_LOCKED): (Stage.PLOT, Phase.SEANCE),
    (Stage.PLOT, Phase.INVESTIGATION, Trigger.TIME_UP): (Stage.PLOT, Phase.SEANCE),
    (Stage.PLOT, Phase.SEANCE, Trigger.CALENDAR_OUT): (Stage.PLOT, Phase.ENDED),
    (Stage.PLOT, Phase.SEANCE, Trigger.PLOT_SOLVED): (Stage.CULPRIT, Phase.DREAMS),
    (Stage.PLOT, Phase.SEANCE, Trigger.NEXT_DAY): (Stage.PLOT, Phase.DREAMS),
    (Stage.CULPRIT, Phase.DREAMS, Trigger.GROUP_SERVED): (Stage.CULPRIT, Phase.INVESTIGATION),
    (Stage.CULPRIT, Phase.INVESTIGATION, Trigger.UNANIMOUS): (Stage.CULPRIT, Phase.SEANCE),
    (Stage.CULPRIT, Phase.INVESTIGATION, Trigger.TIME_UP): (Stage.CULPRIT, Phase.SEANCE),
    (Stage.CULPRIT, Phase.SEANCE, Trigger.CULPRIT_NAMED): (Stage.CULPRIT, Phase.ENDED),
    (Stage.CULPRIT, Phase.SEANCE, Trigger.CALENDAR_OUT): (Stage.CULPRIT, Phase.ENDED),
    (Stage.CULPRIT, Phase.SEANCE, Trigger.NEXT_DAY): (Stage.CULPRIT, Phase.DREAMS),
}
"""Where each trigger leads from each position; a position's rows are tried in this order."""

_MARKERS: Final = frozenset({Place, Lock, Unlock, Chat})

MOVES: Final[dict[Position, frozenset[type]]] = {
    (Stage.PLOT, Phase.DREAMS): frozenset({Give, Refresh}) | _MARKERS,
    (Stage.PLOT, Phase.INVESTIGATION): _MARKERS | {TimeUp},
    (Stage.PLOT, Phase.SEANCE): frozenset({Seance, Chat}),
    (Stage.PLOT, Phase.ENDED): frozenset({Chat}),
    (Stage.CULPRIT, Phase.DREAMS): frozenset({GroupGive, Refresh, Chat}),
    (Stage.CULPRIT, Phase.INVESTIGATION): _MARKERS | {TimeUp},
    (Stage.CULPRIT, Phase.SEANCE): frozenset({CulpritSeance, Chat}),
    (Stage.CULPRIT, Phase.ENDED): frozenset({Chat}),
}


class Awaiting(Enum):
    """What a position waits for: the triggers that end it without the host's clock."""

    GIVES = "the Ghost's give to every active investigator"
    GROUP_GIVE = "the Ghost's three dreams for the group"
    LOCKS = "every active investigator's locked marker"
    ACCUSATION = "every marker locked on one Character"
    SEANCE = "the Ghost's séance"
    NOTHING = "nothing: the game is over"


AWAITS: Final[dict[Position, tuple[Awaiting, frozenset[Trigger]]]] = {
    (Stage.PLOT, Phase.DREAMS): (Awaiting.GIVES, frozenset({Trigger.ALL_SERVED})),
    (Stage.PLOT, Phase.INVESTIGATION): (Awaiting.LOCKS, frozenset({Trigger.ALL_LOCKED})),
    (Stage.PLOT, Phase.SEANCE): (
        Awaiting.SEANCE,
        frozenset({Trigger.CALENDAR_OUT, Trigger.PLOT_SOLVED, Trigger.NEXT_DAY}),
    ),
    (Stage.PLOT, Phase.ENDED): (Awaiting.NOTHING, frozenset()),
    (Stage.CULPRIT, Phase.DREAMS): (Awaiting.GROUP_GIVE, frozenset({Trigger.GROUP_SERVED})),
    (Stage.CULPRIT, Phase.INVESTIGATION): (Awaiting.ACCUSATION, frozenset({Trigger.UNANIMOUS})),
    (Stage.CULPRIT, Phase.SEANCE): (
        Awaiting.SEANCE,
        frozenset({Trigger.CULPRIT_NAMED, Trigger.CALENDAR_OUT, Trigger.NEXT_DAY}),
    ),
    (Stage.CULPRIT, Phase.ENDED): (Awaiting.NOTHING, frozenset()),
}
"""What each position waits for, and the triggers of :data:`TRANSITIONS` that bring it (the
host's TIME_UP aside): ``tests/test_rules_due.py`` checks both against the table."""

PHASE_DESCRIPTIONS: Final[dict[Position, str]] = {
    (Stage.PLOT, Phase.DREAMS): "the Ghost is sending dreams",
    (Stage.PLOT, Phase.INVESTIGATION): "the investigators are deciding",
    (Stage.PLOT, Phase.SEANCE): "the séance is under way",
    (Stage.PLOT, Phase.ENDED): "the game is over",
    (Stage.CULPRIT, Phase.DREAMS): "the Ghost is sending the group its three dreams",
    (Stage.CULPRIT, Phase.INVESTIGATION): "the investigators are choosing the culprit",
    (Stage.CULPRIT, Phase.SEANCE): "the séance of the accusation is under way",
    (Stage.CULPRIT, Phase.ENDED): "the game is over",
}


# --------------------------------------------------------------------------- the triggers


# The predicates run after every action, so each is one pass over the investigators that
# stops at the first who breaks it.  Active: in Stage One those still seeking a card
# (``done`` is asked only of those the rest of the test does not settle), in Stage Two all.
# :func:`unserved` and :func:`undecided` are the same passes, naming the seats: the query
# ``rules.due`` asks them, so what the table waits for is what the triggers wait for.


def unserved(stage: Stage, investigators: Sequence[Investigator]) -> Iterator[int]:
    """The seats ALL_SERVED waits for: active investigators without this round's give."""
    if stage is Stage.CULPRIT:
        return (seat for seat, inv in enumerate(investigators, 1) if not inv.served)
    return (seat for seat, inv in enumerate(investigators, 1) if not (inv.served or inv.done))


def undecided(stage: Stage, investigators: Sequence[Investigator]) -> Iterator[int]:
    """The seats ALL_LOCKED (and UNANIMOUS) wait for: active investigators not locked."""
    if stage is Stage.CULPRIT:
        return (seat for seat, inv in enumerate(investigators, 1) if not inv.locked)
    return (seat for seat, inv in enumerate(investigators, 1) if not (inv.locked or inv.done))


def _all_served(draft: Draft) -> bool:
    return next(unserved(draft.stage, draft.investigators), None) is None


def _group_served(draft: Draft) -> bool:
    return isinstance(draft.action, GroupGive)


def _all_locked(draft: Draft) -> bool:
    return next(undecided(draft.stage, draft.investigators), None) is None


def unanimous(investigators: Sequence[Investigator]) -> bool:
    """Every marker locked on one Character (Stage Two's UNANIMOUS)."""
    return all(inv.locked for inv in investigators) and (
        len({inv.marker for inv in investigators}) == 1
    )


def _unanimous(draft: Draft) -> bool:
    return unanimous(draft.investigators)


def _timed_out(draft: Draft) -> bool:
    return isinstance(draft.action, TimeUp)


def _seance_over(draft: Draft) -> bool:
    return isinstance(draft.action, Seance | CulpritSeance)


def _culprit_named(draft: Draft) -> bool:
    return isinstance(draft.action, CulpritSeance) and draft.action.correct


def _calendar_out(draft: Draft) -> bool:
    return _seance_over(draft) and draft.day == LAST_DAY


def _plot_solved(draft: Draft) -> bool:
    return _seance_over(draft) and all(investigator.done for investigator in draft.investigators)


HOLDS: Final[dict[Trigger, Callable[[Draft], bool]]] = {
    Trigger.ALL_SERVED: _all_served,
    Trigger.GROUP_SERVED: _group_served,
    Trigger.ALL_LOCKED: _all_locked,
    Trigger.TIME_UP: _timed_out,
    Trigger.UNANIMOUS: _unanimous,
    Trigger.CULPRIT_NAMED: _culprit_named,
    Trigger.CALENDAR_OUT: _calendar_out,
    Trigger.PLOT_SOLVED: _plot_solved,
    Trigger.NEXT_DAY: _seance_over,
}
"""Whether each trigger holds on a draft (its position aside: the table checks that)."""


# --------------------------------------------------------------------------- on the way


def _end_round(draft: Draft) -> None:
    # Markers come off the table and nobody has been served yet: only what was found
    # and the dreams still held carry over.
    draft.investigators = [
        Investigator(found=inv.found, dreams=inv.dreams) for inv in draft.investigators
    ]
    draft.refreshes_this_round = 0
    draft.no_guess = ()
    # Drawing up here as well as after each give matters only when the hand ran dry
    # with both piles empty: a séance may have refilled the discard pile since.
    draft.draw_up()


def _next_day(draft: Draft) -> None:
    _end_round(draft)
    draft.day += 1


def _stage_two(draft: Draft) -> None:
    _next_day(draft)
    draft.tableau = EMPTY_TABLEAU  # Stage Two plays on the grouped tableau


def _lost(draft: Draft) -> None:
    _end_round(draft)
    draft.outcome = Outcome.LOST


def _won(draft: Draft) -> None:
    draft.outcome = Outcome.WON


ON_ENTRY: Final[dict[Trigger, Callable[[Draft], None]]] = {
    Trigger.NEXT_DAY: _next_day,
    Trigger.PLOT_SOLVED: _stage_two,
    Trigger.CALENDAR_OUT: _lost,
    Trigger.CULPRIT_NAMED: _won,
}
"""What following a trigger does besides moving to its position (none for the others)."""


_Exit = tuple[Callable[[Draft], bool], Callable[[Draft], None] | None, Position]

# Each position's ways out, in the table's order: ``settle`` runs after every action.
_EXITS: Final[dict[Position, tuple[_Exit, ...]]] = {
    (stage, phase): tuple(
        (HOLDS[trigger], ON_ENTRY.get(trigger), target)
        for (source_stage, source_phase, trigger), target in TRANSITIONS.items()
        if (source_stage, source_phase) == (stage, phase)
    )
    for stage in Stage
    for phase in Phase
}


def settle(draft: Draft) -> None:
    """Follow the first trigger that holds, again and again, until none does.

    No action leads through more than one transition today; the bound only turns a
    table that would cycle (a bug in it) into an error instead of a hang.
    """
    for _ in range(len(TRANSITIONS) + 1):
        for holds, on_entry, target in _EXITS[(draft.stage, draft.phase)]:
            if holds(draft):
                if on_entry is not None:
                    on_entry(draft)
                draft.stage, draft.phase = target
                break
        else:
            return
    raise AssertionError(f"the phase triggers cycle through {draft.stage.name} {draft.phase}")
