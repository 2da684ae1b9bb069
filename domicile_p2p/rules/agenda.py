"""``due(state)`` (the agenda): what is due now, in one answer from the phase table.

Everything outside ``rules`` that needs to know where the game stands asks
this: whose move it is, which kinds of action the table takes, what it
waits for (the gives, the locks, the séance), the investigation a
sand-glass times and the refreshes left.  The answer is read from
:mod:`~domicile_p2p.rules.phases` (:data:`~domicile_p2p.rules.phases.MOVES`,
:data:`~domicile_p2p.rules.phases.AWAITS` and the seat passes the triggers
themselves make), so it cannot say otherwise than the triggers do
(``tests/test_rules_due.py`` plays games to check it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from domicile_p2p.rules.actions import TimeUp
from domicile_p2p.rules.engine import refreshes_left
from domicile_p2p.rules.model import GHOST, GameState, Phase, Stage
from domicile_p2p.rules.phases import AWAITS, MOVES, Awaiting, undecided, unserved

Investigation = tuple[int, int]
"""Which investigation: its day and its stage (``int(Stage)``); one a day."""

_GHOST_OWES: Final = frozenset({Awaiting.GIVES, Awaiting.GROUP_GIVE, Awaiting.SEANCE})
_DECIDING: Final = frozenset(
    {(Stage.PLOT, Phase.DREAMS), (Stage.PLOT, Phase.INVESTIGATION)}
    | {(Stage.CULPRIT, Phase.INVESTIGATION)}
)


@dataclass(frozen=True, slots=True)
class Due:
    """What the table waits for in one state (:func:`due`)."""

    day: int
    stage: Stage
    phase: Phase
    awaiting: Awaiting
    """What ends this phase (the host's time-up aside)."""
    moves: frozenset[type]
    """The kinds of action the table takes now (chat always; none but chat once it ended)."""
    to_serve: tuple[int, ...]
    """Stage One's dreams phase: the investigators the Ghost still has to serve, in seat order."""
    undecided: tuple[int, ...]
    """The investigators whose marker is not locked yet, while markers may move (Stage One's
    dreams and investigation, Stage Two's investigation), in seat order."""
    refreshes_left: int | None
    """Refreshes the difficulty still allows this game (``None``: no limit)."""
    refreshes_now: int
    """Refreshes it allows this round (within the game's)."""
    timed: bool
    """The table has a sand-glass and the host may call time now (an investigation)."""
    everyone: tuple[int, ...]
    """Every investigator's seat."""

    @property
    def key(self) -> Investigation:
        """The round's (day, stage): one investigation, one sand-glass, a round."""
        return self.day, int(self.stage)

    @property
    def investigation(self) -> Investigation | None:
        """The investigation under way, or ``None`` outside the investigation phase."""
        return self.key if self.phase is Phase.INVESTIGATION else None

    @property
    def seance(self) -> bool:
        """The Ghost must announce the séance now."""
        return self.awaiting is Awaiting.SEANCE

    @property
    def over(self) -> bool:
        return self.awaiting is Awaiting.NOTHING

    @property
    def to_move(self) -> tuple[int, ...]:
        """Whose move the table waits for: the Ghost (its gives, its séance), or the
        investigators still undecided (Stage Two: everyone, while the markers disagree)."""
        if self.awaiting in _GHOST_OWES:
            return (GHOST,)
        if self.awaiting is Awaiting.NOTHING:
            return ()
        return self.undecided or self.everyone


def due(state: GameState) -> Due:
    """What is due in ``state``: whose move, which kinds of action, what the table waits for."""
    position = (state.stage, state.phase)
    awaiting, _ = AWAITS[position]
    moves = MOVES[position]
    investigators = state.investigators
    to_serve = tuple(unserved(state.stage, investigators)) if awaiting is Awaiting.GIVES else ()
    deciding = tuple(undecided(state.stage, investigators)) if position in _DECIDING else ()
    in_game, now = refreshes_left(state)
    return Due(
        day=state.day,
        stage=state.stage,
        phase=state.phase,
        awaiting=awaiting,
        moves=moves,
        to_serve=to_serve,
        undecided=deciding,
        refreshes_left=in_game,
        refreshes_now=now,
        timed=state.config.timer is not None and TimeUp in moves,
        everyone=tuple(state.config.seats),
    )
