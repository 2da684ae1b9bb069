"""The tutorial's tables: each chapter's offline game, and the days it plays for the player.

Each chapter of the script (``tutorial``) is a real offline table at a fixed
seed, bots in the other seats.  The Stage Two chapter begins at Stage Two:
before the player sees the game, a guide who knows the Ghost's columns plays
every investigator's Stage One (the Ghost bot gives its dreams as always), so
the player arrives at the culprit with all the cards found, in a game whose
transcript is whole, verifies and is kept like any other offline game's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from domicile_p2p.rules import GHOST, Action, Lock, Phase, Place, Stage, View
from domicile_tui.offline import KEPT_GAMES, OfflineTable
from domicile_tui.session import TableSettings
from domicile_tui.tutorial import DIFFICULTY, INVESTIGATORS, Chapter

if TYPE_CHECKING:
    from domicile_tui.connect import TableDoor
    from domicile_tui.local_game import LocalGame

TABLE_NAME: Final = "The tutorial"
SKIP_LIMIT: Final = 500
"""Moves the guide may play at most (Stage One takes about 30 at the tutorial's table)."""


class Guide:
    """An investigator who reads the answer from the Ghost's columns: places the marker on
    the card sought, then locks.  Only the tutorial's skipped days use it."""

    def __init__(self, seat: int, game: LocalGame) -> None:
        self.seat = seat
        self.game = game

    def act(self, view: View) -> Action | None:
        state = view.state
        me = state.investigator(self.seat)
        if state.stage is not Stage.PLOT or state.phase is not Phase.INVESTIGATION:
            return None
        if not me.served or me.locked or me.seeking is None:
            return None
        knowledge = self.game.ghost.view().ghost
        assert knowledge is not None, "the Ghost's own view holds its columns"
        target = knowledge.column(self.seat).card(me.seeking)
        return Lock(self.seat) if me.marker == target else Place(self.seat, target)


def play_out_stage_one(game: LocalGame) -> None:
    """Play ``game`` until Stage Two begins: the Ghost's bot gives, guides investigate."""
    bots = game.policies
    investigators = game.replica.state.config.seats if game.replica.state else ()
    game.policies = {GHOST: bots[GHOST], **{seat: Guide(seat, game) for seat in investigators}}
    try:
        for _ in range(SKIP_LIMIT):
            state = game.replica.state
            if game.over or state is None or state.stage is Stage.CULPRIT:
                return
            wanted = game.bot_actions()
            if not wanted:
                raise RuntimeError("the tutorial's skipped days came to a stop")
            seat, action = wanted[0]
            game.play(seat, action)
        raise RuntimeError("the tutorial's skipped days did not reach Stage Two")
    finally:
        game.policies = bots


class ChapterTable(OfflineTable):
    """A chapter's table: its game begins as the table opens, unless the chapter opens in
    the lobby (the first one, to show it)."""

    def __init__(self, chapter: Chapter, door: TableDoor, player_name: str) -> None:
        settings = TableSettings(
            table_name=TABLE_NAME,
            player_name=player_name,
            role=chapter.role,
            difficulty=DIFFICULTY,
            investigators=INVESTIGATORS,
        )
        super().__init__(
            settings,
            door.pack,
            pace=door.pace,
            seed=chapter.seed,
            policy_factory=door.policy_factory,
            keep_in=door.home / KEPT_GAMES,  # the finished game, as every offline table keeps it
            prelude=play_out_stage_one if chapter.skips_stage_one else None,
        )
        self.chapter = chapter

    async def open(self) -> None:
        await super().open()
        if not self.chapter.opens_in_lobby:
            await self.start_game()
