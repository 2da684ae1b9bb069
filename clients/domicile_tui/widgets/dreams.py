"""Every investigator's dream cards, face up: yours first, then the others' in seat order."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Grid
from textual.reactive import reactive

from domicile_p2p.client_api import Pack
from domicile_p2p.rules import GHOST, View
from domicile_tui.personas import persona
from domicile_tui.widgets.board import Board
from domicile_tui.widgets.dream import DreamTile
from domicile_tui.widgets.plain import Static, assemble


def shelf_order(view: View) -> tuple[int, ...]:
    """Seats in the order their dreams are shown: this seat first."""
    seats = tuple(view.state.config.seats)
    if view.seat == GHOST:
        return seats
    return (view.seat, *(s for s in seats if s != view.seat))


class DreamShelf(Board):
    """The dreams on the table.  Opening one posts :class:`DreamTile.Opened`."""

    view: reactive[View | None] = reactive(None)

    def __init__(self, pack: Pack, *, watching: bool = False, id: str | None = None) -> None:
        """``watching``: a spectator's shelf (the seat it follows is not "you")."""
        super().__init__(id=id)
        self.pack = pack
        self.watching = watching
        self._shown: tuple[tuple[str, ...], ...] = ()

    def _holdings(self, view: View) -> tuple[tuple[str, ...], ...]:
        return tuple(view.state.investigator(s).dreams for s in shelf_order(view))

    def compose(self) -> ComposeResult:
        view = self.view
        if view is None:
            return
        self._shown = self._holdings(view)
        config = view.state.config
        for seat in shelf_order(view):
            dreams = view.state.investigator(seat).dreams
            look = persona(seat)
            yours = seat == view.seat and not self.watching
            who = "Your dreams" if yours else f"{config.name(seat)}'s dreams"
            count = f"  {len(dreams)}" if dreams else "  none yet"
            title = assemble(look.tag(), " ", (who, "bold"), (count, "$text-muted"))
            yield Static(title, classes="shelf-title" + (" -you" if seat == view.seat else ""))
            if dreams:
                with Grid(classes="dream-grid" + (" -you" if seat == view.seat else "")):
                    for card_id in dreams:
                        yield DreamTile(self.pack.dream(card_id), classes=f"seat-{seat}")

    async def watch_view(self, view: View | None) -> None:
        if view is None or self._holdings(view) == self._shown:
            return
        await self.recompose()
