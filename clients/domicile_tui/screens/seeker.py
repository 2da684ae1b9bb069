"""What both investigator screens share: reading cards, moving and locking the marker, talking.

Stage One (``InvestigatorScreen``) and Stage Two (``CulpritScreen``) differ in
what is on the table; the player's hands do the same things on both.
"""

from __future__ import annotations

from typing import ClassVar, Final

from textual import on
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input

from domicile_p2p.client_api import DreamCard, InvestigatorCard
from domicile_p2p.rules import Lock, Place, Unlock, View
from domicile_tui.describe import watching_prompt, your_prompt
from domicile_tui.screens.base import TableScreen
from domicile_tui.theme import LATER_STYLES
from domicile_tui.widgets.card import CardTile
from domicile_tui.widgets.chat import ChatPanel
from domicile_tui.widgets.dream import DreamTile
from domicile_tui.widgets.plain import Static, assemble


def card_detail(card: InvestigatorCard | DreamCard | None) -> Content:
    """The full text of the focused card, for the strip under the tableau."""
    if card is None:
        return Content.styled(
            "Move over a card to read it; Enter places your marker.", "$text-muted"
        )
    if isinstance(card, DreamCard):
        return assemble(("☁ ", "$secondary"), (card.text, "italic"))
    return assemble(
        (card.name, "bold $primary"),
        (f"  {card.category.capitalize()}", "$secondary"),
        "  ",
        (card.description, "italic"),
    )


def lock_or_unlock(view: View) -> Lock | Unlock:
    """L: lock this investigator's marker, or unlock it when it is locked."""
    me = view.state.investigator(view.seat)
    return Unlock(view.seat) if me.locked else Lock(view.seat)


LETTER_ACTIONS = frozenset({"lock", "talk", "cards", "dreams", "inspect"})
"""The actions of the investigators' letter keys (L, T, C, D, I and O)."""

PLAYERS_ONLY = frozenset({"lock", "talk", "noop"})
"""The actions a spectator does not have: it reads the cards, and nothing more."""

INSPECT = Binding("i,o", "inspect", "Read card", priority=True)
"""I (or O): the card under the cursor in full, on every screen that shows cards."""


def card_under(focused: Widget | None) -> str | None:
    """The id of the card (investigator card or dream) that has the focus, if a card has it."""
    if isinstance(focused, CardTile):
        return focused.card.id
    if isinstance(focused, DreamTile):
        return focused.dream.id
    return None


PHONE_TABS: Final = frozenset({"players", "table_tab"})
"""On a phone the side panel (the players, the chat) is a tab of its own: these switch."""


class SeekerScreen(TableScreen):
    """An investigator's screen; subclasses say where the cards and the dreams are.

    On a phone (``-phone``) the side panel is a tab: ⇄ in the footer shows the players
    and the chat in place of the table (``-side``), and back; T goes to the chat, C and D
    back to the table.  Neither is a letter: they work from the chat line too, whose
    letters are letters.
    """

    CSS_PATH = LATER_STYLES
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f2", "players", "Players & chat", key_display="⇄", priority=True),
        Binding("f3", "table_tab", "Table", key_display="⇄", priority=True),
    ]

    def focus_cards(self) -> None:
        """Put the focus on the first card worth looking at."""
        raise NotImplementedError

    def dream_tiles(self) -> list[DreamTile]:
        raise NotImplementedError

    def on_mount(self) -> None:
        self.watch(self, "focused", self._show_detail)

    @property
    def watching(self) -> bool:
        """This player watches the table: the same screen, read only."""
        lobby = self.client.lobby
        return lobby is not None and lobby.watching

    def prompt(self, view: View) -> Content:
        """What this player can do now (a spectator: whose view it sees)."""
        text = watching_prompt(view) if self.watching else your_prompt(view, self.client.pack)
        return Content.styled(text, "bold")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in PHONE_TABS:
            return self.phone and self.has_class("-side") == (action == "table_tab")
        if action in PLAYERS_ONLY and self.watching:
            return False
        # The table's letter keys are priority bindings (they act as the key arrives, see
        # ``Board``): in the chat line a letter is a letter.
        return not (action in LETTER_ACTIONS and isinstance(self.focused, Input))

    def ensure_focus(self) -> None:
        if self.focused is None:
            self.focus_cards()

    def _show_detail(self, focused: Widget | None) -> None:
        if isinstance(focused, CardTile):
            card: InvestigatorCard | DreamCard = focused.card
        elif isinstance(focused, DreamTile):
            card = focused.dream
        else:
            return
        self.query_one("#card-detail", Static).update(card_detail(card))

    def take_now(self, message: Message) -> bool:
        """A card chosen or a dream opened, in the turn of the key that did it (``now``)."""
        match message:
            case CardTile.Chosen():
                self.place(message)
            case DreamTile.Opened():
                self.open_dream(message)
            case _:
                return False
        return True

    def place(self, message: CardTile.Chosen) -> None:
        view = self.view
        if self.watching:
            self.notify("You are watching: a spectator cannot play.")
            return
        if view is not None:
            self.client.act(Place(view.seat, message.card_id))

    def open_dream(self, message: DreamTile.Opened) -> None:
        self.client.open_card(message.card_id)

    @on(ChatPanel.Said)
    def say(self, message: ChatPanel.Said) -> None:
        self.client.say(message.text)

    def action_lock(self) -> None:
        # Decided when its turn comes, on the game as it is then: L right behind Enter locks
        # the marker Enter placed, and L L locks then unlocks.
        self.client.act_on(lock_or_unlock)

    def _side(self, shown: bool) -> None:
        """On a phone: the side panel's tab (``shown``) or the table's."""
        if self.has_class("-side") != shown:
            self.set_class(shown, "-side")
            self.refresh_bindings()

    def action_players(self) -> None:
        self._side(True)
        if not self.query_one(ChatPanel).focus_input():
            self.set_focus(None)

    def action_table_tab(self) -> None:
        self._side(False)
        self.focus_cards()

    def action_talk(self) -> None:
        self._side(True)
        self.query_one(ChatPanel).focus_input()

    def action_cards(self) -> None:
        self._side(False)
        self.focus_cards()

    def action_leave_chat(self) -> None:
        """Esc: from the chat line (or anywhere) back to the cards."""
        self._side(False)
        self.focus_cards()

    def action_dreams(self) -> None:
        self._side(False)
        tiles = self.dream_tiles()
        if tiles:
            self.set_focus(tiles[0])
        else:
            self.notify("No dreams on the table yet.")

    def action_inspect(self) -> None:
        card = card_under(self.focused)
        if card is not None:
            self.client.open_card(card)
        else:
            self.notify("Move to a card first (C: the cards, D: the dreams).")

    def action_noop(self) -> None:
        """Enter is handled by the focused card; the binding shows it in the footer."""
