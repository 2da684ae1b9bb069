"""The investigators at a glance: who found what, who seeks what, who is still deciding."""

from __future__ import annotations

from textual.content import Content
from textual.reactive import reactive

from domicile_p2p.client_api import Pack
from domicile_p2p.rules import CATEGORY_ORDER, GHOST, GameState, Phase, Stage, View
from domicile_tui.describe import ghost_refreshes, investigator_status, still_deciding
from domicile_tui.news import LobbyInfo, SeatInfo
from domicile_tui.personas import persona
from domicile_tui.status import SeatKind
from domicile_tui.theme import MARKER_LOCKED, MARKER_PLACED, YES
from domicile_tui.widgets.plain import Static, assemble


def progress(state: GameState, seat: int) -> Content:
    """``C✓ L▸ I·``: found, sought now, still to come."""
    investigator = state.investigator(seat)
    parts: list[Content] = []
    for index, category in enumerate(CATEGORY_ORDER):
        initial = category.label[0]
        if index < len(investigator.found):
            parts.append(Content.styled(f"{initial}{YES}", "bold $success"))
        elif category is investigator.seeking:
            parts.append(Content.styled(f"{initial}▸", "bold $primary"))
        else:
            parts.append(Content.styled(f"{initial}·", "$text-muted"))
    return Content(" ").join(parts)


def ghost_line(state: GameState) -> Content:
    """The Ghost's refreshes left (public, RULES.md: Visibility): one may count on them."""
    title = assemble(persona(GHOST).tag(), " ", ("The Ghost's refreshes", "bold"))
    return Content("\n").join([title, Content.styled(f"  {ghost_refreshes(state)}", "$text-muted")])


def seat_info(lobby: LobbyInfo | None, seat: int) -> SeatInfo | None:
    if lobby is None:
        return None
    try:
        return lobby.seat(seat)
    except KeyError:
        return None


def who_plays(lobby: LobbyInfo | None, seat: int, *, yours: bool) -> str:
    """Beside a name: you (or the seat watched), a bot, a browser seat, or a person."""
    if yours:
        return " (watched)" if lobby is not None and lobby.watching else " (you)"
    info = seat_info(lobby, seat)
    if info is None:
        return ""
    if info.kind is SeatKind.BOT:
        return " (bot)"
    return " (browser)" if info.browser else ""


class InvestigatorList(Static):
    """One short entry per investigator."""

    view: reactive[View | None] = reactive(None)
    lobby: reactive[LobbyInfo | None] = reactive(None)

    def __init__(self, pack: Pack, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.pack = pack

    def watch_view(self) -> None:
        self._show()

    def watch_lobby(self) -> None:
        self._show()

    def _show(self) -> None:
        view = self.view
        if view is None:
            return
        state = view.state
        deciding = set(still_deciding(state))
        entries: list[Content] = []
        for seat in state.config.seats:
            look = persona(seat)
            investigator = state.investigator(seat)
            who = who_plays(self.lobby, seat, yours=seat == view.seat)
            name = assemble(
                look.tag(), " ", (state.config.name(seat), "bold"), (who, "$text-muted")
            )
            first = name
            if state.stage is Stage.PLOT:
                first = assemble(name, "  ", progress(state, seat))
            status = investigator_status(state, seat, self.pack)
            away = self.lobby is not None and seat in self.lobby.away
            if away and state.phase is not Phase.ENDED:
                status = "is away (their seat waits for them)"
            if investigator.marker is not None and state.phase is not Phase.ENDED:
                glyph = MARKER_LOCKED if investigator.locked else MARKER_PLACED
                status = f"{glyph} {status}"
            style = "$foreground" if seat in deciding else "$text-muted"
            if seat in deciding and investigator.marker is None:
                style = "italic $foreground"
            if away and state.phase is not Phase.ENDED:
                style = "$warning"
            second = Content.styled(f"  {status}", style)
            entries.append(Content("\n").join([first, second]))
        entries.append(ghost_line(state))
        self.update(Content("\n").join(entries))
