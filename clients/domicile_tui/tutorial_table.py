"""The tutorial's tables: each chapter's offline game, and the days it plays for the player.

Each chapter of the script (``tutorial``) is a real offline table (a table
hosted in this process with no listener, ``networked``) at a fixed seed, bots
in the other seats.  The Stage Two chapter begins at Stage Two: before the
player sees the game, a guide who knows the Ghost's columns plays every
investigator's Stage One (the player's seat through the player's own session,
the bots' seats through the host's bots; the Ghost bot gives its dreams as
always, and nobody waits for a bot's pace meanwhile), so the player arrives at
the culprit with all the cards found, in a game whose transcript is whole,
verifies and is kept like any other offline game's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from domicile_p2p.rules import (
    GHOST,
    Action,
    GameState,
    GhostKnowledge,
    Lock,
    Phase,
    Place,
    Stage,
    View,
)
from domicile_tui.session import TableSettings
from domicile_tui.tutorial import DIFFICULTY, INVESTIGATORS, Chapter

if TYPE_CHECKING:
    from domicile_p2p.client_api import Pack
    from domicile_tui.connect import TableDoor
    from domicile_tui.networked import NetworkTable

TABLE_NAME: Final = "The tutorial"


def stage_one_over(state: GameState) -> bool:
    return state.stage is not Stage.PLOT or state.phase is Phase.ENDED


class Guide:
    """An investigator who reads the answer from the Ghost's columns: places the marker on
    the card sought, then locks, in Stage One; then ``then`` (the seat's own bot, if any)
    decides.  Only the tutorial's skipped days use it."""

    def __init__(
        self, seat: int, truth: Callable[[], GhostKnowledge | None], then: Any = None
    ) -> None:
        self.seat = seat
        self.truth = truth
        self.then = then

    def over(self, state: GameState) -> bool:
        return stage_one_over(state)

    def act(self, view: View) -> Action | None:
        state = view.state
        if stage_one_over(state):
            return self.then.act(view) if self.then is not None else None
        me = state.investigator(self.seat)
        if state.phase is not Phase.INVESTIGATION:
            return None
        if not me.served or me.locked or me.seeking is None:
            return None
        knowledge = self.truth()
        if knowledge is None:
            return None
        target = knowledge.column(self.seat).card(me.seeking)
        return Lock(self.seat) if me.marker == target else Place(self.seat, target)


def stage_one_played(
    door: TableDoor, settings: TableSettings, *, seed: int | None = None
) -> NetworkTable:
    """An offline table of ``door``'s whose games begin for the player at Stage Two: guides
    who read the Ghost bot's columns play every investigator's Stage One first (the
    player's seat as its :class:`~domicile_tui.networked.Prelude`, the other seats before
    their own bots decide), with no bot's pace, its séances included."""
    holder: list[NetworkTable] = []

    def truth() -> GhostKnowledge | None:
        host = holder[0].host if holder else None
        ghost = host.bot_session(GHOST) if host is not None else None
        shown = ghost.player.view() if ghost is not None else None
        return shown.ghost if shown is not None else None

    def policies(seat: int, pack: Pack, bot_seed: int) -> Any:
        bot = door.bot_policy(seat, pack, bot_seed)
        return bot if seat == GHOST else Guide(seat, truth, bot)

    def pace(view: View | None) -> float:
        # Stage One is played before the player sits down: no bot thinks there.
        if view is None or not stage_one_over(view.state):
            return 0.0
        return door.pace.delay()

    from domicile_tui.connect import TableDoor

    table = TableDoor.offline(  # the door's own offline table, whatever door it is
        door.with_policies(policies),
        settings,
        seed=seed,
        prelude=Guide(settings.your_seat, truth),
        bot_pace=pace,
    )
    holder.append(table)
    return table


def chapter_table(chapter: Chapter, door: TableDoor, player_name: str) -> NetworkTable:
    """A chapter's table: its game begins as the table opens, unless the chapter opens in
    the lobby (the first one, to show it)."""
    settings = TableSettings(
        table_name=TABLE_NAME,
        player_name=player_name,
        role=chapter.role,
        difficulty=DIFFICULTY,
        investigators=INVESTIGATORS,
    )
    if chapter.skips_stage_one:
        table = stage_one_played(door, settings, seed=chapter.seed)
    else:
        table = door.offline(settings, seed=chapter.seed)
    if not chapter.opens_in_lobby:
        table.starts_on_opening = True
    return table
