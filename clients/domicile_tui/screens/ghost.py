"""The Ghost's screen: the secret columns, the hand of seven, giving and refreshing.

The Ghost never speaks, so there is no chat line here, only the chat log.
Which cards are picked for the next give and for whom is the screen's own
choice-in-progress (not game state): it lives here until the give is sent.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import ContentSwitcher

from domicile_p2p.rules import (
    GROUP_GIVE_SIZE,
    GameState,
    Give,
    GroupGive,
    Phase,
    Refresh,
    Stage,
    View,
)
from domicile_tui.describe import awaiting_dreams, refreshes_left, your_prompt
from domicile_tui.keys import HelpKeys
from domicile_tui.news import LobbyInfo
from domicile_tui.personas import persona, seat_of_letter
from domicile_tui.screens.base import TableScreen
from domicile_tui.screens.confirm import ConfirmScreen
from domicile_tui.screens.seeker import INSPECT, card_under
from domicile_tui.theme import LATER_STYLES
from domicile_tui.widgets.card import CardTile
from domicile_tui.widgets.chat import ChatPanel
from domicile_tui.widgets.columns import ColumnRow, SecretColumns
from domicile_tui.widgets.dream import DreamTile
from domicile_tui.widgets.hand import GhostHand, Places, keep_places
from domicile_tui.widgets.header import TableHeader
from domicile_tui.widgets.plain import Static, assemble
from domicile_tui.widgets.sandglass import SandGlassBar
from domicile_tui.widgets.status_bar import BottomBar
from domicile_tui.widgets.tableau import Tableau
from domicile_tui.widgets.teardown import children_gone


def refresh_line(state: GameState) -> Content:
    in_game, now = refreshes_left(state)
    if in_game == 0 and now == 0:
        return Content.styled("No refreshes left", "$text-muted")
    game = "no limit this game" if in_game is None else f"{in_game} left this game"
    return assemble(
        ("Refreshes ", "bold"), ("(R)", "$text-muted"), f"\n  {now} this round\n  {game}"
    )


def ghost_summary(view: View) -> Content:
    """The side panel: refreshes, who still awaits dreams, the deck."""
    state = view.state
    lines = [refresh_line(state)]
    waiting = awaiting_dreams(state)
    if state.stage is Stage.CULPRIT:
        if state.phase is Phase.DREAMS:
            lines.append(Content.styled("The group awaits its three dreams", "bold $primary"))
        else:
            lines.append(Content.styled("The group has its dreams", "$text-muted"))
    elif waiting:
        tags = Content(" ").join(persona(seat).tag() for seat in waiting)
        lines.append(assemble(("Still to serve  ", "bold"), tags))
    else:
        lines.append(Content.styled("Everyone has their dreams", "$text-muted"))
    lines.append(
        Content.styled(
            f"Deck {state.deck_size} · discard {state.discard_size}",
            "$text-muted",
        )
    )
    return Content("\n").join(lines)


class GhostScreen(TableScreen):
    CSS_PATH = LATER_STYLES
    HELP_TITLE = "The Ghost's screen"
    HELP_KEYS: ClassVar[tuple[HelpKeys, ...]] = (
        HelpKeys(tuple(str(n) for n in range(1, 8)), "pick or unpick dream card N of your hand"),
        HelpKeys(("enter", "space"), "pick or unpick the dream under the cursor"),
        HelpKeys(("i", "o"), "read the card under the cursor in full (on a column: its target)"),
        HelpKeys(tuple("abcdef"), "choose which investigator to serve"),
        HelpKeys(("g",), "give the picked dreams (Stage Two: three, to the group)"),
        HelpKeys(("r",), "refresh: discard the whole hand and draw seven"),
        HelpKeys(("x",), "unpick every dream"),
        HelpKeys(("v",), "look at the tableau instead of your hand, and back"),
        HelpKeys(("s",), "go to the secret columns"),
        HelpKeys(("h",), "go to your hand"),
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        *(
            Binding(str(n), f"pick({n})", f"Pick dream {n}", show=False, priority=True)
            for n in range(1, 8)
        ),
        *(
            Binding(
                letter,
                f"serve('{letter}')",
                f"Serve investigator {letter.upper()}",
                show=False,
                priority=True,
            )
            for letter in "abcdef"
        ),
        INSPECT,
        Binding("g", "give", "Give", priority=True),
        Binding("r", "refresh", "Refresh hand", priority=True),
        Binding("x", "clear", "Clear picks", priority=True),
        Binding("v", "switch", "Hand / tableau", priority=True),
        Binding("s", "columns", "Columns", show=False, priority=True),
        Binding("h", "hand", "Hand", show=False, priority=True),
    ]

    chosen: reactive[frozenset[str]] = reactive(frozenset())
    recipient: reactive[int | None] = reactive(None)
    away: reactive[frozenset[int]] = reactive(frozenset())
    hand: reactive[Places] = reactive(())

    def compose(self) -> ComposeResult:
        pack = self.client.pack
        yield TableHeader(pack.name.removeprefix("The "), id="header").data_bind(
            view=GhostScreen.view, lobby=GhostScreen.lobby
        )
        yield Static(id="prompt")
        yield SandGlassBar(self.client.clock, id="sandglass").data_bind(glass=GhostScreen.glass)
        with Horizontal(id="table-body"):
            with Vertical(id="table-main"):
                yield SecretColumns(pack, id="columns").data_bind(
                    view=GhostScreen.view, recipient=GhostScreen.recipient, away=GhostScreen.away
                )
                yield Static(id="target-detail")
                with ContentSwitcher(initial="hand", id="ghost-board"):
                    yield GhostHand(pack, id="hand").data_bind(
                        hand=GhostScreen.hand, chosen=GhostScreen.chosen
                    )
                    yield Tableau(pack, id="ghost-tableau").data_bind(view=GhostScreen.view)
            with Vertical(id="table-side"):
                yield Static(id="ghost-summary")
                yield ChatPanel(can_speak=False, id="chat").data_bind(lines=GhostScreen.chat)
        yield BottomBar(id="bottom").data_bind(status=GhostScreen.status)

    def watch_view(self, view: View | None) -> None:
        if view is None or children_gone(self) or view.ghost is None:
            return
        if not self.query("#ghost-summary"):
            # Not composed yet (a table that opens straight on the Ghost's screen, as the
            # tutorial's second chapter can): shown once it is.
            self.call_after_refresh(lambda: self.watch_view(self.view))
            return
        state = view.state
        self.hand = keep_places(self.hand, view.ghost.hand)
        self.chosen = self.chosen & frozenset(view.ghost.hand)
        waiting = awaiting_dreams(state)
        if self.recipient not in waiting:
            self.recipient = waiting[0] if waiting else None
        self.query_one("#prompt", Static).update(
            Content.styled(your_prompt(view, self.client.pack), "bold")
        )
        self.query_one("#ghost-summary", Static).update(ghost_summary(view))
        self._show_target()
        self.call_after_refresh(self._ensure_focus)

    def watch_lobby(self, lobby: LobbyInfo | None) -> None:
        self.away = lobby.away if lobby is not None else frozenset()

    def watch_recipient(self) -> None:
        self._show_target()

    def _show_target(self) -> None:
        view = self.view
        found = self.query("#target-detail")
        if view is None or view.ghost is None or not found:
            return  # (not composed yet: a table that opens straight on the Ghost's screen)
        detail = found.first(Static)
        state = view.state
        if state.stage is Stage.CULPRIT:
            culprit = view.ghost.column(view.ghost.culprit)
            names = [
                self.client.pack.investigator_card(c).name
                for c in (culprit.character, culprit.location, culprit.item)
            ]
            detail.update(
                assemble(
                    ("The truth  ", "bold $accent"),
                    " · ".join(names),
                    ("   give the group three dreams that point to it", "$text-muted"),
                )
            )
            return
        seat = self.recipient
        if seat is None:
            detail.update(Content.styled("Nobody awaits dreams now.", "$text-muted"))
            return
        seeking = state.investigator(seat).seeking
        if seeking is None:
            detail.update("")
            return
        card = self.client.pack.investigator_card(view.ghost.column(seat).card(seeking))
        # The card's name first: on a narrow screen the line is cut at its end (I reads it all).
        detail.update(
            assemble(
                ("→ ", "$text-muted"),
                (card.name, "bold $primary"),
                (f" ({seeking.label}) for ", "$text-muted"),
                persona(seat).tag(),
                " ",
                (state.config.name(seat), "bold"),
                "  ",
                (card.description, "italic"),
            )
        )

    def target(self, seat: int | None) -> tuple[str, str] | None:
        """The card ``seat``'s dreams must point to now, and who seeks it (Stage Two: the
        culprit, for the whole group)."""
        view = self.view
        if view is None or view.ghost is None:
            return None
        state = view.state
        if state.stage is Stage.CULPRIT:
            return view.ghost.column(view.ghost.culprit).character, "The culprit"
        if seat is None:
            return None
        seeking = state.investigator(seat).seeking
        if seeking is None:
            return None
        note = f"What {persona(seat).letter} {state.config.name(seat)} seeks"
        return view.ghost.column(seat).card(seeking), note

    def action_inspect(self) -> None:
        """The card under the cursor in full; on a secret column, the card it seeks now."""
        focused = self.focused
        card = card_under(focused)
        if card is not None:
            self.client.open_card(card)
        else:
            seat = focused.seat if isinstance(focused, ColumnRow) else self.recipient
            target = self.target(seat)
            if target is None:
                self.notify("Nobody seeks a card now.")
                return
            card, note = target
            self.client.open_card(card, note)

    def _ensure_focus(self) -> None:
        if self.focused is None:
            tile = self.query_one(GhostHand).tile(1)
            if tile is not None:
                self.set_focus(tile)

    # --- choosing ---------------------------------------------------------------------

    def take_now(self, message: Message) -> bool:
        """A dream picked or opened, a column or a card chosen, in the turn of the key that
        did it (``now``): a G typed right behind a pick gives it."""
        match message:
            case DreamTile.Toggled():
                self.toggle(message)
            case DreamTile.Opened():
                self.open_dream(message)
            case ColumnRow.Picked():
                self.pick_row(message)
            case CardTile.Chosen():
                self.card_chosen(message)
            case _:
                return False
        return True

    def toggle(self, message: DreamTile.Toggled) -> None:
        card = message.card_id
        self.chosen = self.chosen - {card} if card in self.chosen else self.chosen | {card}

    def open_dream(self, message: DreamTile.Opened) -> None:
        self.client.open_card(message.card_id)

    def pick_row(self, message: ColumnRow.Picked) -> None:
        self._choose_recipient(message.seat)

    def action_pick(self, number: int) -> None:
        tile = self.query_one(GhostHand).tile(number)
        if tile is not None:
            self.set_focus(tile)
            tile.action_primary()

    def action_serve(self, letter: str) -> None:
        seat = seat_of_letter(letter)
        view = self.view
        if seat is None or view is None or seat not in view.state.config.seats:
            self.notify(f"There is no investigator {letter.upper()} at this table.")
            return
        self._choose_recipient(seat)

    def _choose_recipient(self, seat: int) -> None:
        view = self.view
        if view is None:
            return
        if view.state.stage is Stage.CULPRIT:
            self.notify("In Stage Two your dreams go to the whole group.")
            return
        self.recipient = seat

    def action_clear(self) -> None:
        self.chosen = frozenset()

    def action_columns(self) -> None:
        rows = list(self.query(ColumnRow))
        if rows:
            self.set_focus(rows[0])

    def action_hand(self) -> None:
        self.query_one("#ghost-board", ContentSwitcher).current = "hand"
        tile = self.query_one(GhostHand).tile(1)
        if tile is not None:
            self.set_focus(tile)

    def action_switch(self) -> None:
        """The hand, or the whole tableau (to see which cards a dream might be mistaken for)."""
        board = self.query_one("#ghost-board", ContentSwitcher)
        if board.current == "hand":
            board.current = "ghost-tableau"
            self.query_one(Tableau).focus_first_sought()
        else:
            self.action_hand()

    def card_chosen(self, message: CardTile.Chosen) -> None:
        card = self.client.pack.investigator_card(message.card_id)
        self.notify(f"{card.name}: {card.description}", title="On the tableau")

    # --- acting -----------------------------------------------------------------------

    def action_give(self) -> None:
        view = self.view
        if view is None or view.ghost is None:
            return
        cards = tuple(card for card in view.ghost.hand if card in self.chosen)
        state = view.state
        if state.stage is Stage.CULPRIT:
            needed = min(GROUP_GIVE_SIZE, len(view.ghost.hand))
            if len(cards) != needed:
                self.notify(f"Pick exactly {needed} dreams for the group (1-7), then G.")
                return
            self.client.act(GroupGive(cards))
        else:
            if self.recipient is None:
                self.notify("Nobody awaits dreams now.")
                return
            if not cards and view.ghost.hand:
                self.notify("Pick one or more dreams first (1-7 or Space).")
                return
            self.client.act(Give(self.recipient, cards))
        self.chosen = frozenset()

    def action_refresh(self) -> None:
        view = self.view
        if view is None:
            return
        in_game, now = refreshes_left(view.state)
        if now == 0:
            self.notify("You may not refresh your hand now.", severity="warning")
            return
        left = "" if in_game is None else f" ({in_game} left this game)"

        def answer(yes: bool | None) -> None:
            if yes:
                self.chosen = frozenset()
                self.client.act(Refresh())

        self.app.push_screen(
            ConfirmScreen(f"Discard your whole hand and draw seven new dreams?{left}"), answer
        )

    def palette_commands(self) -> Iterable[SystemCommand]:
        yield SystemCommand(
            "Give the picked dreams", "To the chosen investigator", self.action_give
        )
        yield SystemCommand(
            "Refresh the hand", "Discard all seven, draw seven", self.action_refresh
        )
        yield SystemCommand("Clear the picks", "Unpick every dream", self.action_clear)
