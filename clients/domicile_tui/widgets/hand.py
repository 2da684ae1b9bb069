"""The Ghost's hand of seven dream cards, numbered, with the ones chosen for the next give."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Grid
from textual.reactive import reactive

from domicile_p2p.client_api import Pack
from domicile_tui.widgets.board import Board
from domicile_tui.widgets.dream import DreamTile
from domicile_tui.widgets.plain import Static


class GhostHand(Board):
    """Picking a card posts :class:`DreamTile.Toggled`; the screen keeps the choice."""

    hand: reactive[tuple[str, ...]] = reactive(())
    chosen: reactive[frozenset[str]] = reactive(frozenset())

    def __init__(self, pack: Pack, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.pack = pack
        self._shown: tuple[str, ...] = ()

    def compose(self) -> ComposeResult:
        self._shown = self.hand
        if not self.hand:
            yield Static("Your hand is empty: the deck and the discard pile are spent.")
            return
        with Grid(classes="hand-grid"):
            for number, card_id in enumerate(self.hand, start=1):
                yield DreamTile(
                    self.pack.dream(card_id),
                    selectable=True,
                    number=number,
                    id=f"hand-{card_id}",
                )

    async def watch_hand(self, hand: tuple[str, ...]) -> None:
        if hand != self._shown:
            focused = self.screen.focused if self.is_mounted else None
            index = None
            if isinstance(focused, DreamTile) and focused.dream.id in self._shown:
                index = self._shown.index(focused.dream.id)
            await self.recompose()
            self._mark()
            tiles = list(self.query(DreamTile))
            if index is not None and tiles:
                self.screen.set_focus(tiles[min(index, len(tiles) - 1)])

    def watch_chosen(self) -> None:
        self._mark()

    def _mark(self) -> None:
        for tile in self.query(DreamTile):
            tile.selected = tile.dream.id in self.chosen

    def tile(self, number: int) -> DreamTile | None:
        """The ``number``-th card (from 1), if the hand has one."""
        tiles = list(self.query(DreamTile))
        return tiles[number - 1] if 1 <= number <= len(tiles) else None
