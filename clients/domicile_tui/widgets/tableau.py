"""The Clue Tableau of Stage One: three columns of cards, Character, Location, Item."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.reactive import reactive

from domicile_p2p.client_api import Pack
from domicile_p2p.rules import CATEGORY_ORDER, GHOST, Category, GameState, Stage, View
from domicile_tui.widgets.board import Board
from domicile_tui.widgets.card import CardTile, Marker
from domicile_tui.widgets.plain import Static, assemble


def markers_on(state: GameState, card: str) -> tuple[Marker, ...]:
    """Every marker on ``card``, in seat order."""
    return tuple(
        (seat, inv.locked)
        for seat, inv in enumerate(state.investigators, start=1)
        if inv.marker == card
    )


def sought_category(view: View) -> Category | None:
    """The category this seat seeks now (``None`` for the Ghost, in Stage Two, or when done)."""
    if view.seat == GHOST or view.state.stage is not Stage.PLOT:
        return None
    return view.state.investigator(view.seat).seeking


def card_dom_id(card_id: str) -> str:
    return f"card-{card_id}"


class Tableau(Board):
    """The tableau as cards.  Choosing a card posts :class:`CardTile.Chosen`."""

    IN_COLUMNS = True  # a column shorter than the next (its cards found) ends at its last card

    view: reactive[View | None] = reactive(None)

    def __init__(self, pack: Pack, *, watching: bool = False, id: str | None = None) -> None:
        """``watching``: a spectator's tableau (what the seat it follows seeks)."""
        super().__init__(id=id)
        self.pack = pack
        self.watching = watching
        self._dealt: tuple[tuple[str, ...], ...] = ()
        self._seeking: Category | None = None
        self._recomposing = False

    def compose(self) -> ComposeResult:
        view = self.view
        if view is None:
            return
        self._dealt = tuple(view.state.tableau.cards(c) for c in CATEGORY_ORDER)
        with Horizontal(classes="tableau-columns"):
            for category in CATEGORY_ORDER:
                with Vertical(classes="tableau-column", id=f"column-{category.value}"):
                    yield Static(classes="column-header", id=f"header-{category.value}")
                    for card_id in view.state.tableau.cards(category):
                        card = self.pack.investigator_card(card_id)
                        yield CardTile(card, id=card_dom_id(card_id))

    async def watch_view(self, view: View | None) -> None:
        if view is None or self._recomposing:
            return  # (a rebuild under way shows the latest view once its cards are there)
        focused = self.screen.focused if self.is_mounted else None
        on_board = isinstance(focused, CardTile) and focused in self.query(CardTile)
        refocus = focused.id if on_board and focused is not None else None
        while (dealt := tuple(view.state.tableau.cards(c) for c in CATEGORY_ORDER)) != self._dealt:
            self._dealt = dealt
            self._recomposing = True
            try:
                await self.recompose()
            finally:
                self._recomposing = False
            # Views that came while the cards were rebuilt were left to this one: the latest.
            view = self.view or view
        self._decorate(view)
        seeking = sought_category(view)
        moved_on = seeking is not None and seeking is not self._seeking
        self._seeking = seeking
        if not self.display:
            return  # put away (the Ghost's screen shows its hand instead)
        if self.screen.focused is None or (on_board and moved_on):
            # A new category to seek: go to it.
            self.focus_first_sought()
        elif refocus is not None:
            # The tableau was rebuilt under the cursor: stay on the card, or on the table.
            again = self.query(f"#{refocus}")
            if again:
                self.screen.set_focus(again.first())
            else:
                self.focus_first_sought()

    def _decorate(self, view: View) -> None:
        headers = [self.query(f"#header-{category.value}") for category in CATEGORY_ORDER]
        if not all(headers):
            # Composed, not mounted yet (views can come faster than a screen is built, as
            # when a spectator catches up): decorate the latest view once the cards are in.
            self.call_after_refresh(self._decorate_latest)
            return
        state = view.state
        seeking = sought_category(view)
        mine = None if view.seat == GHOST else state.investigator(view.seat).marker
        for category, found in zip(CATEGORY_ORDER, headers, strict=True):
            header = found.first(Static)
            count = len(state.tableau.cards(category))
            header.update(_header(category, seeking, count, watching=self.watching))
            header.set_class(category is seeking, "-seek")
            # On a phone only the sought column is shown, its cards the whole width.
            column = self.query_one(f"#column-{category.value}")
            column.set_class(seeking is not None and category is not seeking, "-other")
        for tile in self.query(CardTile):
            tile.markers = markers_on(state, tile.card.id)
            category = Category(tile.card.category)
            tile.set_class(seeking is not None and category is seeking, "-seek")
            tile.set_class(seeking is not None and category is not seeking, "-dim")
            tile.set_class(tile.card.id == mine, "-mine")

    def _decorate_latest(self) -> None:
        if self.view is not None and self.is_attached:
            self._decorate(self.view)

    def focus_first_sought(self) -> None:
        """Put the focus on the first card of the category this seat seeks (or the first card)."""
        tiles = list(self.query(CardTile))
        preferred = [t for t in tiles if t.has_class("-mine")] or [
            t for t in tiles if t.has_class("-seek")
        ]
        candidates = preferred or tiles
        if candidates:
            self.screen.set_focus(candidates[0])


def _header(
    category: Category, seeking: Category | None, count: int, *, watching: bool = False
) -> Content:
    label = Content.styled(category.label.upper(), "bold")
    if category is seeking:
        return assemble(label, ("  ◂ sought" if watching else "  ◂ you seek", "bold $primary"))
    return assemble(label, (f"  {count}", "$text-muted"))
