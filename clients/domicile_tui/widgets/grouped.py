"""Stage Two's tableau: each investigator's three cards, grouped; Characters are the suspects."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.reactive import reactive

from domicile_p2p.client_api import Pack
from domicile_p2p.rules import GHOST, View
from domicile_tui.personas import persona
from domicile_tui.widgets.board import Board
from domicile_tui.widgets.card import CardTile
from domicile_tui.widgets.plain import Static, assemble
from domicile_tui.widgets.tableau import markers_on


class GroupedTableau(Board):
    """One row per investigator's case.  Choosing a Character posts :class:`CardTile.Chosen`."""

    view: reactive[View | None] = reactive(None)

    def __init__(self, pack: Pack, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.pack = pack
        self._groups: tuple[tuple[str, ...], ...] = ()

    def compose(self) -> ComposeResult:
        view = self.view
        if view is None:
            return
        state = view.state
        self._groups = state.grouped_tableau
        with Horizontal(classes="case-headers"):
            yield Static(Content.styled("FOUND BY", "$secondary"), classes="case-label")
            for heading in ("SUSPECT  (Character)", "WHERE  (Location)", "WITH  (Item)"):
                yield Static(Content.styled(heading, "bold $secondary"), classes="case-heading")
        for seat, group in zip(state.config.seats, state.grouped_tableau, strict=True):
            look = persona(seat)
            with Horizontal(classes="case"):
                yield Static(
                    assemble(look.tag(), " ", state.config.name(seat).split(" ")[0]),
                    classes="case-label",
                )
                for index, card_id in enumerate(group):
                    tile = CardTile(self.pack.investigator_card(card_id), id=f"case-{card_id}")
                    if index == 0:
                        tile.add_class("-suspect")
                    else:
                        tile.add_class("-evidence")
                        tile.can_focus = False
                    yield tile

    async def watch_view(self, view: View | None) -> None:
        if view is None:
            return
        if view.state.grouped_tableau != self._groups:
            await self.recompose()
        mine = None if view.seat == GHOST else view.state.investigator(view.seat).marker
        for tile in self.query(CardTile):
            tile.markers = markers_on(view.state, tile.card.id)
            tile.set_class(tile.card.id == mine, "-mine")
        if self.screen.focused is None:
            self.focus_first()

    def focus_first(self) -> None:
        tiles = [t for t in self.query(CardTile) if t.has_class("-mine")] or [
            t for t in self.query(CardTile) if t.can_focus
        ]
        if tiles:
            self.screen.set_focus(tiles[0])
