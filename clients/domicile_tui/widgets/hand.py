"""The Ghost's hand of seven dream cards, numbered, with the ones chosen for the next give."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Grid
from textual.reactive import reactive

from domicile_p2p.client_api import Pack
from domicile_tui.widgets.board import Board
from domicile_tui.widgets.dream import DreamTile
from domicile_tui.widgets.plain import Static

Places = tuple[str | None, ...]
"""The hand by number: place N holds card N (``None``: a place the deck could not fill)."""


def keep_places(before: Places, hand: tuple[str, ...]) -> Places:
    """``hand`` in the places its cards had in ``before``: a card kept keeps its number, and
    the new cards take the numbers the given ones freed, in the order they were drawn (after
    a refresh every card is new: 1 to 7 as drawn).  So a Ghost who said "the 5" still means
    the same dream after a give."""
    held = set(hand)
    places: list[str | None] = [card if card in held else None for card in before]
    for card in hand:
        if card in places:
            continue
        if None in places:
            places[places.index(None)] = card
        else:
            places.append(card)
    while places and places[-1] is None:
        places.pop()
    return tuple(places)


class GhostHand(Board):
    """Picking a card posts :class:`DreamTile.Toggled`; the screen keeps the choice."""

    hand: reactive[Places] = reactive(())
    chosen: reactive[frozenset[str]] = reactive(frozenset())

    def __init__(self, pack: Pack, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.pack = pack
        self._shown: Places = ()

    def compose(self) -> ComposeResult:
        self._shown = self.hand
        if not any(self.hand):
            yield Static("Your hand is empty: the deck and the discard pile are spent.")
            return
        with Grid(classes="hand-grid"):
            for number, card_id in enumerate(self.hand, start=1):
                if card_id is None:
                    continue
                yield DreamTile(
                    self.pack.dream(card_id),
                    selectable=True,
                    number=number,
                    id=f"hand-{card_id}",
                )

    async def watch_hand(self, hand: Places) -> None:
        if hand != self._shown:
            focused = self.screen.focused if self.is_mounted else None
            number = None
            if isinstance(focused, DreamTile) and focused.dream.id in self._shown:
                number = focused.number
            await self.recompose()
            self._mark()
            tiles = list(self.query(DreamTile).results(DreamTile))
            if number is not None and tiles:
                # The cursor stays on its place (the card now there), or the nearest one.
                self.screen.set_focus(min(tiles, key=lambda t: abs((t.number or 0) - number)))

    def watch_chosen(self) -> None:
        self._mark()

    def _mark(self) -> None:
        for tile in self.query(DreamTile):
            tile.selected = tile.dream.id in self.chosen

    def tile(self, number: int) -> DreamTile | None:
        """Card number ``number`` (from 1), if the hand has one there."""
        for tile in self.query(DreamTile).results(DreamTile):
            if tile.number == number:
                return tile
        return None
