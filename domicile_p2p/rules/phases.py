"""The phase machine of a round, as data.

Theory of operation
-------------------
A game is seven days.  Each day is one round of three phases, and the
game is in one of two stages: the Plot (Stage One: every investigator finds
a Character, a Location and an Item) and the Culprit (Stage Two: the group
names the culprit).  The engine's position is the pair ``(stage, phase)``.

Actions never choose the next phase.  An action changes the state; then the
engine asks which *trigger* now holds and follows :data:`TRANSITIONS`.  So
the flow of a round is readable here, in one table, and the handlers in
``engine.py`` only move cards and markers:

Stage One (Plot)
    DREAMS         the Ghost serves each active investigator once (in any
                   order); a served investigator may already place and lock.
                   When the last one is served  -> INVESTIGATION.
    INVESTIGATION  the remaining markers are placed and locked.
                   When every active marker is locked  -> SEANCE.
    SEANCE         the Ghost announces each verdict.  Then the round ends:
                   on day 7 the game is lost (ENDED); else, if every
                   investigator holds three cards, the Culprit stage starts;
                   else the next day starts in DREAMS.

Stage Two (Culprit)
    DREAMS         the Ghost gives three dream cards to the group -> INVESTIGATION.
    INVESTIGATION  every marker goes on a Character of the grouped tableau;
                   when all are locked on the same one  -> SEANCE.
    SEANCE         the Ghost announces the verdict: correct wins (ENDED);
                   wrong ends the round like Stage One (day 7 -> lost).

:data:`MOVES` says which actions each position accepts; an action outside it
is a :class:`~domicile_p2p.rules.errors.WrongPhase`.  Chat is accepted in
every position, including after the end.
"""

from __future__ import annotations

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
    Unlock,
)
from domicile_p2p.rules.model import Phase, Stage


class Trigger(Enum):
    ALL_SERVED = "every active investigator has received this round's dreams"
    ALL_LOCKED = "every active marker is locked"
    UNANIMOUS = "every marker is locked on the same Character"
    NEXT_DAY = "the séance is over and the calendar advances"
    PLOT_SOLVED = "every investigator holds three cards"
    CULPRIT_NAMED = "the group named the culprit"
    CALENDAR_OUT = "the séance of the seventh day is over"


Position = tuple[Stage, Phase]

TRANSITIONS: Final[dict[tuple[Stage, Phase, Trigger], Position]] = {
    (Stage.PLOT, Phase.DREAMS, Trigger.ALL_SERVED): (Stage.PLOT, Phase.INVESTIGATION),
    (Stage.PLOT, Phase.INVESTIGATION, Trigger.ALL_LOCKED): (Stage.PLOT, Phase.SEANCE),
    (Stage.PLOT, Phase.SEANCE, Trigger.NEXT_DAY): (Stage.PLOT, Phase.DREAMS),
    (Stage.PLOT, Phase.SEANCE, Trigger.PLOT_SOLVED): (Stage.CULPRIT, Phase.DREAMS),
    (Stage.PLOT, Phase.SEANCE, Trigger.CALENDAR_OUT): (Stage.PLOT, Phase.ENDED),
    (Stage.CULPRIT, Phase.DREAMS, Trigger.ALL_SERVED): (Stage.CULPRIT, Phase.INVESTIGATION),
    (Stage.CULPRIT, Phase.INVESTIGATION, Trigger.UNANIMOUS): (Stage.CULPRIT, Phase.SEANCE),
    (Stage.CULPRIT, Phase.SEANCE, Trigger.CULPRIT_NAMED): (Stage.CULPRIT, Phase.ENDED),
    (Stage.CULPRIT, Phase.SEANCE, Trigger.NEXT_DAY): (Stage.CULPRIT, Phase.DREAMS),
    (Stage.CULPRIT, Phase.SEANCE, Trigger.CALENDAR_OUT): (Stage.CULPRIT, Phase.ENDED),
}

_MARKERS: Final = frozenset({Place, Lock, Unlock, Chat})

MOVES: Final[dict[Position, frozenset[type]]] = {
    (Stage.PLOT, Phase.DREAMS): frozenset({Give, Refresh}) | _MARKERS,
    (Stage.PLOT, Phase.INVESTIGATION): _MARKERS,
    (Stage.PLOT, Phase.SEANCE): frozenset({Seance, Chat}),
    (Stage.PLOT, Phase.ENDED): frozenset({Chat}),
    (Stage.CULPRIT, Phase.DREAMS): frozenset({GroupGive, Refresh, Chat}),
    (Stage.CULPRIT, Phase.INVESTIGATION): _MARKERS,
    (Stage.CULPRIT, Phase.SEANCE): frozenset({CulpritSeance, Chat}),
    (Stage.CULPRIT, Phase.ENDED): frozenset({Chat}),
}

PHASE_DESCRIPTIONS: Final[dict[Position, str]] = {
    (Stage.PLOT, Phase.DREAMS): "the Ghost is sending dreams",
    (Stage.PLOT, Phase.INVESTIGATION): "the investigators are deciding",
    (Stage.PLOT, Phase.SEANCE): "the séance is under way",
    (Stage.PLOT, Phase.ENDED): "the game is over",
    (Stage.CULPRIT, Phase.DREAMS): "the Ghost is sending the group its three dreams",
    (Stage.CULPRIT, Phase.INVESTIGATION): "the investigators are choosing the culprit",
    (Stage.CULPRIT, Phase.SEANCE): "the final séance is under way",
    (Stage.CULPRIT, Phase.ENDED): "the game is over",
}


def follow(stage: Stage, phase: Phase, trigger: Trigger) -> Position:
    """The position after ``trigger`` fires; a missing entry is an engine bug."""
    return TRANSITIONS[(stage, phase, trigger)]
