"""The lobby: who sits where, how others can join, and the start of the game.

At a table with bots, a friend who joins with the code takes a bot's seat
(the bot steps aside), but only here: the seats' keys are bound when the
game starts, so the lobby says so, and its owner starts the game with Enter.

After a game the table comes back here for its next one (a rematch): the
same code and seats, each person says ready with R (bots always are), and
the owner may move everyone round one seat with O (the next Ghost) before
starting with Enter; the game begins once everyone is ready, or at once when
the owner starts it (whoever is not ready is left out and offered to watch).
A seat not ready within the host's ready timeout (the lobby says how long) is
freed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, ClassVar

from rich.cells import cell_len, set_cell_size
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content

from domicile_p2p.rules import GHOST
from domicile_tui.describe import difficulty_note
from domicile_tui.keys import HelpKeys
from domicile_tui.personas import ROLE_WIDTH, persona
from domicile_tui.screens.base import TableScreen
from domicile_tui.status import SeatKind
from domicile_tui.theme import FLOURISH, NO, YES
from domicile_tui.widgets.plain import Static, assemble
from domicile_tui.widgets.status_bar import BottomBar
from domicile_tui.widgets.teardown import children_gone

if TYPE_CHECKING:  # the news of a table: loaded with the first of it
    from domicile_tui.news import LobbyInfo, SeatInfo

_KIND_LABELS = {
    SeatKind.YOU: "you",
    SeatKind.HUMAN: "person",
    SeatKind.BOT: "bot",
    SeatKind.OPEN: "open seat",
}

BROWSER_LABEL = "browser"
"""A person's seat played in a browser, through a client its host runs (its player
trusts the host with it: SECURITY.md, "Browser seats")."""


def seat_line(info: SeatInfo, *, host_seat: int | None = None, takeover: bool = False) -> Content:
    """One seat: its letter, role, name, you / person / browser / bot, and whether it is
    ready.

    With ``takeover`` a bot's seat says it is open to a person who joins with the code;
    ``host_seat`` (the owner's, in a table's first lobby) says "host" instead of ready.
    """
    look = persona(info.seat)
    role = "the Ghost" if info.seat == GHOST else look.title
    name = "— waiting for someone to join —" if info.kind is SeatKind.OPEN else info.name
    kind = (
        BROWSER_LABEL if info.browser and info.kind is SeatKind.HUMAN else _KIND_LABELS[info.kind]
    )
    if info.kind is SeatKind.OPEN:
        ready = Content.styled("·", "$text-muted")
    elif info.seat == host_seat:
        ready = Content.styled(f"{YES} host", "$success")
    elif info.kind is SeatKind.BOT and takeover:
        ready = Content.styled("open to take over", "bold $accent")
    elif info.ready or info.kind is SeatKind.BOT:
        ready = Content.styled(f"{YES} ready", "$success")
    else:
        ready = Content.styled(f"{NO} not ready", "$warning")
    if not info.connected:
        ready = Content.styled("○ disconnected", "bold $warning")
    return assemble(
        look.tag(),
        "  ",
        (f"{role:<{ROLE_WIDTH + 2}}", "$secondary"),
        (_column(name, 32), "bold" if info.kind is not SeatKind.OPEN else "italic $text-muted"),
        (f"{kind:<10}", "$text-muted"),
        ready,
    )


def _column(text: str, width: int) -> str:
    """``text`` in a column ``width`` cells wide, a space before the next one (a name longer
    than that is cut with "…", so the columns after it stay put)."""
    if cell_len(text) >= width:
        text = set_cell_size(text, width - 2) + "…"
    return set_cell_size(text, width)


def joining_lines(lobby: LobbyInfo) -> Content:
    if lobby.offline:
        return Content.styled(
            "An offline table: you and the bots, on this laptop alone.", "italic $text-muted"
        )
    lines: list[Content] = []
    if lobby.code:
        lines.append(assemble(("Table code   ", "bold"), (lobby.code, "bold $primary")))
    if lobby.address:
        lines.append(assemble(("Address      ", "bold"), lobby.address))
    if lobby.listening:
        lines.append(assemble(("Listening on ", "bold"), lobby.listening))
    if lobby.fingerprint_phrase:
        lines.append(assemble(("Host phrase  ", "bold"), (lobby.fingerprint_phrase, "italic")))
        lines.append(
            Content.styled(
                "Everyone joining should see this same phrase on their screen.", "$text-muted"
            )
        )
    for number, url in enumerate(lobby.browser_seats, 1):
        lines.append(assemble((f"Browser {number}    ", "bold"), (url, "$primary")))
    if lobby.browser_seats:
        lines.append(
            Content.styled(
                "B: each browser seat's QR code to scan. Whoever has its URL has the seat.",
                "$text-muted",
            )
        )
    if lobby.takeover:
        until = "until you start" if lobby.can_start else "until the game starts"
        lines.append(
            Content.styled(f"Friends can take a bot's seat with the code {until}.", "bold $accent")
        )
    return Content("\n").join(lines)


def lobby_title(table_name: str) -> Content:
    return assemble(("☾ ", "$primary"), (table_name, "bold $primary"), (" · lobby", "$text-muted"))


def rematch_hint(lobby: LobbyInfo) -> Content:
    """What the lobby of a table's next game waits for, and the keys that move it on.

    The owner is waited for by the others, never by itself: its Enter starts the game
    (and says it is ready), so its own seat is no name in its list ("Waiting for you,
    Bo." read as if the table were waiting for Bo, the owner)."""
    waiting = [
        "you" if info.kind is SeatKind.YOU else info.name
        for info in lobby.seats
        if not info.ready
        and (info.kind is SeatKind.HUMAN or (info.kind is SeatKind.YOU and not lobby.can_start))
    ]
    title = Content.styled(f"Game {lobby.game} at the same table. ", "bold $primary")
    if lobby.can_start:
        keys = (
            "Enter: start now (bots are always ready; whoever is not may watch instead). "
            "O: everyone moves round one seat (the next Ghost)."
        )
        waits = (
            f" {_listed(waiting)} {'is' if len(waiting) == 1 else 'are'} not ready yet."
            if waiting
            else " Everyone is ready: the table waits for you to start (Enter)."
        )
    else:
        keys = "R: say you are ready (or no longer). It begins once everyone is."
        waits = f" Waiting for {_listed(waiting)}." if waiting else " Everyone is ready."
    if waiting and lobby.ready_timeout is not None:
        waits += f" A seat not ready within {lobby.ready_timeout:g} s is freed."
    return title + Content.styled(keys + waits, "$text")


def _listed(names: list[str]) -> str:
    """``names`` as a sentence says them: "Ann", "Ann and Bo", "Ann, Bo and Cy"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


OPENING_HINT = Content.styled("Opening the table…", "italic $text-muted")


class LobbyScreen(TableScreen):
    HELP_TITLE = "The lobby"
    HELP_KEYS: ClassVar[tuple[HelpKeys, ...]] = (
        HelpKeys(("enter",), "start the game (at your own table: offline, or hosted here)"),
        HelpKeys(("r",), "ready / not ready (the lobby of a table's next game)"),
        HelpKeys(("o",), "move everyone round one seat: the next Ghost (the owner, next game)"),
        HelpKeys(("b",), "the browser seats' QR codes (a table hosted with --browser-seats)"),
        HelpKeys(("escape",), "leave the table"),
        HelpKeys(("l",), "learn to play: a guided first game (the table's first lobby)"),
        HelpKeys(("1", "2", "3"), "in the tutorial's lobby: go to that chapter"),
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "begin", "Start"),
        Binding("r", "ready", "Ready"),
        Binding("o", "rotate", "Next Ghost"),
        Binding("b", "browser_seats", "Browser seats"),
        Binding("escape", "leave", "Leave"),
        Binding("l", "learn", "Learn to play"),
        *(Binding(str(n), f"chapter({n})", f"Tutorial chapter {n}", show=False) for n in (1, 2, 3)),
    ]

    def compose(self) -> ComposeResult:
        # A table still opening (the app's first moments) shows its name and says so.
        opening = self.client.opening
        with Vertical(id="lobby"):
            yield Static(lobby_title(opening) if opening else "", id="lobby-title")
            yield Static(Content.styled(FLOURISH, "$secondary"), classes="flourish")
            yield Static(id="lobby-seats")
            yield Static(id="lobby-rules")
            yield Static(id="lobby-join")
            yield Static(OPENING_HINT if opening else "", id="lobby-hint")
        yield BottomBar(id="bottom").data_bind(status=LobbyScreen.status)

    def watch_lobby(self, lobby: LobbyInfo | None) -> None:
        if lobby is None or children_gone(self):
            return
        self.query_one("#lobby-title", Static).update(lobby_title(lobby.table_name))
        host_seat = lobby.your_seat if lobby.is_host and not lobby.rematch else None
        seats = Content("\n").join(
            seat_line(info, host_seat=host_seat, takeover=lobby.takeover) for info in lobby.seats
        )
        if lobby.watchers:
            # As at a real table: the players see who looks on.
            seats += assemble(
                ("\n◎  watching  ", "$secondary"),
                (", ".join(lobby.watchers), "bold"),
                (f"  ({len(lobby.watchers)}, without a seat)", "$text-muted"),
            )
        self.query_one("#lobby-seats", Static).update(seats)
        rules = assemble(
            (f"{lobby.difficulty.label}  ", "bold"),
            (difficulty_note(lobby.difficulty, lobby.investigators), "$text-muted"),
        )
        if lobby.pack_name:
            rules += Content.styled(f"\nCards: {lobby.pack_name}", "$text-muted")
        self.query_one("#lobby-rules", Static).update(rules)
        self.query_one("#lobby-join", Static).update(joining_lines(lobby))
        hint = self._hint(lobby)
        if self.client.tutorial is not None and not lobby.started:
            hint += Content.styled(
                "\nKnow a part already? 2: skip to the Ghost's give · 3: skip to Stage Two.",
                "$text-muted",
            )
        elif self._newcomer_welcome(lobby):
            hint += Content.styled(
                "\nNew to the game? L: learn to play, a guided first game (this table closes).",
                "$text-muted",
            )
        self.query_one("#lobby-hint", Static).update(hint)
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Start is shown only to who may start: an offline table, or the owner's lobby;
        dimmed while the table is still opening, when Enter has nothing to start yet."""
        lobby = self.lobby
        if action == "begin":
            return None if lobby is None else lobby.offline or lobby.can_start
        if action == "ready":
            return lobby is not None and lobby.rematch and not lobby.started
        if action == "rotate":
            return lobby is not None and lobby.can_rotate
        if action == "browser_seats":
            return lobby is not None and bool(lobby.browser_seats)
        if action == "learn":
            return self._newcomer_welcome(lobby)
        if action == "chapter":
            return self.client.tutorial is not None and lobby is not None and not lobby.started
        return True

    def _newcomer_welcome(self, lobby: LobbyInfo | None) -> bool:
        """A table's first lobby, of the player's own (offline, or hosted here), when not in
        the tutorial already: the first screen ``domicile play`` shows, so the one that says
        how to learn the game."""
        return (
            lobby is not None
            and lobby.game == 1
            and (lobby.offline or lobby.can_start)  # a table of the player's own
            and not lobby.watching
            and not lobby.started
            and self.client.tutorial is None
        )

    def _hint(self, lobby: LobbyInfo) -> Content:
        if lobby.offline:
            return Content.styled("Press Enter to light the candles and begin.", "bold $primary")
        if not lobby.seats:  # the host has not answered yet: the status bar says where
            return Content.styled("Waiting for the host to answer…", "italic $text-muted")
        if lobby.watching:
            return Content.styled(
                "You are watching this table: its game shows here as soon as it begins.",
                "bold $primary",
            )
        open_seats = sum(1 for seat in lobby.seats if seat.kind is SeatKind.OPEN)
        plural = "s" if open_seats != 1 else ""
        if lobby.rematch and not lobby.started:
            return rematch_hint(lobby)
        if lobby.can_start:
            text = "Press Enter to start the game: bots play every seat no friend has taken."
            if open_seats:
                text += f" Bots take the {open_seats} open seat{plural} when you start."
            return Content.styled(text, "bold $primary")
        from domicile_p2p.client_api import Starts  # a networked table: its stack is loaded

        if lobby.starts is Starts.OWNER:
            return Content.styled(
                "Waiting for the host to start the game. Read the code out loud.", "bold $primary"
            )
        if lobby.starts is Starts.WAIT:
            return Content.styled(
                "The game begins once every seat is held and the host's lobby wait is over.",
                "bold $primary",
            )
        if open_seats:
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
        self.client.start_game()

    def action_ready(self) -> None:
        lobby = self.lobby
        if lobby is not None and lobby.rematch:
            self.client.set_ready(not lobby.you_ready)

    def action_rotate(self) -> None:
        self.client.rotate_seats()

    def action_browser_seats(self) -> None:
        from domicile_tui.screens.browser_seats import BrowserSeatScreen

        lobby = self.lobby
        if lobby is not None and lobby.browser_seats:
            self.app.push_screen(BrowserSeatScreen(lobby.browser_seats))

    def action_leave(self) -> None:
        self.client.leave_table()

    def action_learn(self) -> None:
        self.client.leave_to_learn()

    def action_chapter(self, number: int) -> None:
        """In the tutorial's lobby: go straight to chapter ``number``."""
        self.client.tutorial_chapter(number)

    def palette_commands(self) -> Iterable[SystemCommand]:
        lobby = self.lobby
        if lobby is not None and (lobby.offline or lobby.can_start):
            yield SystemCommand(
                "Start the game",
                "Begin now: bots play every seat no person has taken (Enter)",
                self.action_begin,
            )
