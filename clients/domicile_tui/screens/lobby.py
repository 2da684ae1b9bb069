"""The lobby: who sits where, how others can join, and the start of the game."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from domicile_p2p.rules import GHOST
from domicile_tui.keys import HelpKeys
from domicile_tui.personas import persona
from domicile_tui.screens.base import TableScreen
from domicile_tui.screens.setup import difficulty_note
from domicile_tui.session import LobbyInfo, SeatInfo, SeatKind
from domicile_tui.theme import FLOURISH, NO, YES
from domicile_tui.widgets.status_bar import BottomBar

_KIND_LABELS = {
    SeatKind.YOU: "you",
    SeatKind.HUMAN: "player",
    SeatKind.BOT: "bot",
    SeatKind.OPEN: "open seat",
}


def seat_line(info: SeatInfo, *, host_seat: int | None = None) -> Content:
    look = persona(info.seat)
    role = "the Ghost" if info.seat == GHOST else look.title
    name = "— waiting for someone to join —" if info.kind is SeatKind.OPEN else info.name
    kind = _KIND_LABELS[info.kind]
    if info.kind is SeatKind.OPEN:
        ready = Content.styled("·", "$text-muted")
    elif info.seat == host_seat:
        ready = Content.styled(f"{YES} host", "$success")
    elif info.ready or info.kind is SeatKind.BOT:
        ready = Content.styled(f"{YES} ready", "$success")
    else:
        ready = Content.styled(f"{NO} not ready", "$warning")
    if not info.connected:
        ready = Content.styled("○ disconnected", "bold $warning")
    return Content.assemble(
        look.tag(),
        "  ",
        (f"{role:<14}", "$secondary"),
        (f"{name:<32}", "bold" if info.kind is not SeatKind.OPEN else "italic $text-muted"),
        (f"{kind:<10}", "$text-muted"),
        ready,
    )


def joining_lines(lobby: LobbyInfo) -> Content:
    if lobby.offline:
        return Content.styled(
            "An offline table: you and the bots, on this laptop alone.", "italic $text-muted"
        )
    lines: list[Content] = []
    if lobby.code:
        lines.append(Content.assemble(("Table code   ", "bold"), (lobby.code, "bold $primary")))
    if lobby.address:
        lines.append(Content.assemble(("Address      ", "bold"), lobby.address))
    if lobby.fingerprint_phrase:
        lines.append(
            Content.assemble(("Host phrase  ", "bold"), (lobby.fingerprint_phrase, "italic"))
        )
        lines.append(
            Content.styled(
                "Everyone joining should see this same phrase on their screen.", "$text-muted"
            )
        )
    return Content("\n").join(lines)


class LobbyScreen(TableScreen):
    HELP_TITLE = "The lobby"
    HELP_KEYS: ClassVar[tuple[HelpKeys, ...]] = (
        HelpKeys(("enter",), "begin the game (at an offline table)"),
        HelpKeys(("escape",), "leave the table"),
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "begin", "Begin"),
        Binding("escape", "leave", "Leave"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="lobby"):
            yield Static(id="lobby-title")
            yield Static(Content.styled(FLOURISH, "$secondary"), classes="flourish")
            yield Static(id="lobby-seats")
            yield Static(id="lobby-rules")
            yield Static(id="lobby-join")
            yield Static(id="lobby-hint")
        yield BottomBar(id="bottom").data_bind(status=LobbyScreen.status)

    def watch_lobby(self, lobby: LobbyInfo | None) -> None:
        if lobby is None:
            return
        title = Content.assemble(
            ("☾ ", "$primary"), (lobby.table_name, "bold $primary"), ("  lobby", "$text-muted")
        )
        self.query_one("#lobby-title", Static).update(title)
        host_seat = lobby.your_seat if lobby.is_host else None
        seats = Content("\n").join(seat_line(info, host_seat=host_seat) for info in lobby.seats)
        self.query_one("#lobby-seats", Static).update(seats)
        rules = Content.assemble(
            (f"{lobby.difficulty.label}  ", "bold"),
            (difficulty_note(lobby.difficulty, lobby.investigators), "$text-muted"),
        )
        if lobby.pack_name:
            rules += Content.styled(f"\nCards: {lobby.pack_name}", "$text-muted")
        self.query_one("#lobby-rules", Static).update(rules)
        self.query_one("#lobby-join", Static).update(joining_lines(lobby))
        self.query_one("#lobby-hint", Static).update(self._hint(lobby))

    def _hint(self, lobby: LobbyInfo) -> Content:
        if lobby.offline:
            return Content.styled("Press Enter to light the candles and begin.", "bold $primary")
        open_seats = sum(1 for seat in lobby.seats if seat.kind is SeatKind.OPEN)
        if open_seats:
            plural = "s" if open_seats != 1 else ""
            return Content.styled(
                f"The game begins as soon as every seat is taken ({open_seats} seat{plural} "
                "open). Read the code out loud.",
                "bold $primary",
            )
        return Content.styled("Every seat is taken: the candles are being lit…", "bold $primary")

    def action_begin(self) -> None:
        lobby = self.lobby
        if lobby is None:
            return
        self.table.start_game()

    def action_leave(self) -> None:
        self.table.leave_table()

    def palette_commands(self) -> Iterable[SystemCommand]:
        yield SystemCommand(
            "Begin the game", "Start (host) or say you are ready", self.action_begin
        )
