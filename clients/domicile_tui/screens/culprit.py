"""Stage Two for the investigators: the grouped tableau, the group's three dreams, the vote."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

from domicile_p2p.client_api import Pack
from domicile_p2p.rules import GROUP_GIVE_SIZE, GameState, Phase, View
from domicile_tui.keys import HelpKeys
from domicile_tui.personas import persona
from domicile_tui.screens.seeker import INSPECT, SeekerScreen, card_detail
from domicile_tui.theme import MARKER_LOCKED, MARKER_PLACED, NO, YES
from domicile_tui.widgets.chat import ChatPanel
from domicile_tui.widgets.dream import DreamTile
from domicile_tui.widgets.grouped import GroupedTableau
from domicile_tui.widgets.header import TableHeader
from domicile_tui.widgets.investigators import ghost_line
from domicile_tui.widgets.plain import Static, assemble
from domicile_tui.widgets.sandglass import SandGlassBar
from domicile_tui.widgets.status_bar import BottomBar
from domicile_tui.widgets.teardown import children_gone


def vote_lines(view: View, pack: Pack) -> Content:
    """Each investigator's accusation, and whether the group agrees yet."""
    state = view.state
    lines = [Content.styled("The accusation", "bold")]
    accused: set[str] = set()
    for seat in state.config.seats:
        investigator = state.investigator(seat)
        look = persona(seat)
        you = " (you)" if seat == view.seat else ""
        lines.append(assemble(look.tag(), " ", (state.config.name(seat) + you, "bold")))
        if investigator.marker is None:
            lines.append(Content.styled("  undecided", "italic $text-muted"))
            continue
        accused.add(investigator.marker)
        glyph = MARKER_LOCKED if investigator.locked else MARKER_PLACED
        lines.append(
            assemble(
                (f"  {glyph} ", f"bold {look.colour}"),
                pack.investigator_card(investigator.marker).name,
                (" · locked" if investigator.locked else "", "$text-muted"),
            )
        )
    markers = [state.investigator(s).marker for s in state.config.seats]
    locked = all(state.investigator(s).locked for s in state.config.seats)
    if None not in markers and len(accused) == 1:
        verdict = (
            Content.styled(f"{YES} unanimous", "bold $success")
            if locked
            else Content.styled(f"{YES} all agree · lock to hold the séance", "bold $primary")
        )
    else:
        verdict = Content.styled(f"{NO} not yet unanimous", "$warning")
    lines.append(verdict)
    lines.append(ghost_line(state))
    return Content("\n").join(lines)


DayOfDreams = tuple[int, tuple[str, ...]]
"""A day of Stage Two and the three dreams the Ghost gave the group that day."""


def dreams_by_day(state: GameState) -> tuple[DayOfDreams, ...]:
    """The group's dreams, each give with its day, today's (the latest) first.

    The Ghost gives the group one handful a day (three, fewer only from a hand the deck
    could not fill); the latest was given today once today's dreams are in (the phase is
    past them), yesterday otherwise."""
    cards = state.group_dreams
    gives = [cards[at : at + GROUP_GIVE_SIZE] for at in range(0, len(cards), GROUP_GIVE_SIZE)]
    latest = state.day if state.phase is not Phase.DREAMS else state.day - 1
    return tuple((latest - age, give) for age, give in enumerate(reversed(gives)))


def day_heading(day: int, today: int) -> Content:
    if day == today:
        return assemble((f"Today, day {day}", "bold $primary"), ("  the latest", "$text-muted"))
    return assemble(
        (f"Day {day}", "bold $secondary"),
        ("  an earlier give (that accusation failed)", "$text-muted"),
    )


class CulpritScreen(SeekerScreen):
    HELP_TITLE = "Stage Two: naming the culprit"
    HELP_KEYS: ClassVar[tuple[HelpKeys, ...]] = (
        HelpKeys(("enter", "space"), "accuse the Character under the cursor"),
        HelpKeys(("i", "o"), "read the card under the cursor in full"),
        HelpKeys(("l",), "lock or unlock your accusation"),
        HelpKeys(("t",), "talk to the table"),
        HelpKeys(("c",), "back to the suspects"),
        HelpKeys(("d",), "the group's dreams"),
        HelpKeys(("escape",), "from the chat back to the suspects"),
        HelpKeys(("f2", "f3"), "on a phone: the players and the chat, or the table (⇄)"),
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "noop", "Accuse", key_display="⏎"),
        Binding("l", "lock", "Lock / unlock", priority=True),
        INSPECT,
        Binding("t", "talk", "Talk", priority=True),
        Binding("c", "cards", "Suspects", priority=True),
        Binding("d", "dreams", "Dreams", priority=True),
        Binding("escape", "leave_chat", "Back to the suspects", show=False, priority=True),
    ]

    group_dreams: reactive[tuple[DayOfDreams, ...]] = reactive(())

    def compose(self) -> ComposeResult:
        pack = self.client.pack
        yield TableHeader(
            pack.name.removeprefix("The "), watching=self.watching, id="header"
        ).data_bind(view=CulpritScreen.view, lobby=CulpritScreen.lobby)
        yield Static(id="prompt")
        yield SandGlassBar(self.client.clock, id="sandglass").data_bind(glass=CulpritScreen.glass)
        with Horizontal(id="table-body"):
            with Vertical(id="table-main"):
                yield GroupedTableau(pack, id="grouped").data_bind(view=CulpritScreen.view)
                yield Static(card_detail(None), id="card-detail")
                yield Static(
                    assemble(
                        ("The group's dreams", "bold"),
                        ("  today's first · the culprit, the place, the weapon", "$text-muted"),
                    ),
                    classes="shelf-title",
                )
                yield VerticalScroll(id="group-dreams")
            with Vertical(id="table-side"):
                yield Static(id="vote")
                yield ChatPanel(can_speak=not self.watching, id="chat").data_bind(
                    lines=CulpritScreen.chat
                )
        yield BottomBar(id="bottom").data_bind(status=CulpritScreen.status)

    def watch_view(self, view: View | None) -> None:
        if view is None or children_gone(self):
            return
        pack = self.client.pack
        self.query_one("#prompt", Static).update(self.prompt(view))
        self.query_one("#vote", Static).update(vote_lines(view, pack))
        self.group_dreams = dreams_by_day(view.state)
        self.call_after_refresh(self.ensure_focus)

    async def watch_group_dreams(self, days: tuple[DayOfDreams, ...]) -> None:
        if children_gone(self):
            return
        shelf = self.query_one("#group-dreams", VerticalScroll)
        today = self._today()
        shown: list[Widget] = []
        if not days or self.view is None or days[0][0] != today:
            shown.append(
                Static(
                    Content.styled("The Ghost is choosing today's dreams…", "italic $text-muted")
                )
            )
        for day, cards in days:
            shown.append(Static(day_heading(day, today), classes="day-heading"))
            tiles = (DreamTile(self.client.pack.dream(card)) for card in cards)
            shown.append(Grid(*tiles, classes="dream-grid -group"))
        # One mount of whole days: a shelf being taken down mounts nothing, and then a
        # day's grid mounted first and filled after would not be there to fill.
        async with shelf.batch():
            await shelf.remove_children()
            await shelf.mount_all(shown)

    def _today(self) -> int:
        view = self.view
        return 0 if view is None else view.state.day

    def focus_cards(self) -> None:
        for suspects in self.query(GroupedTableau).results(GroupedTableau):
            suspects.focus_first()

    def dream_tiles(self) -> list[DreamTile]:
        return list(self.query("#group-dreams DreamTile").results(DreamTile))

    def palette_commands(self) -> Iterable[SystemCommand]:
        yield SystemCommand(
            "Lock or unlock my accusation", "Decide, or think again", self.action_lock
        )
        yield SystemCommand("Talk to the table", "Focus the chat line", self.action_talk)
