"""The end of the game: won or lost, the whole truth, and the proof that it was fair."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content

from domicile_p2p.client_api import Pack, head_phrase
from domicile_p2p.rules import CATEGORY_ORDER, Outcome, Stage, View
from domicile_tui.keys import HelpKeys
from domicile_tui.news import Verification
from domicile_tui.personas import persona
from domicile_tui.recap import card_names, dream_texts
from domicile_tui.screens.base import TableScreen
from domicile_tui.screens.confirm import ConfirmScreen
from domicile_tui.screens.export import ExportScreen
from domicile_tui.screens.recap import RecapScreen
from domicile_tui.theme import FLOURISH, LATER_STYLES, YES
from domicile_tui.timeline import Reveal
from domicile_tui.widgets.plain import Static, assemble
from domicile_tui.widgets.status_bar import BottomBar
from domicile_tui.widgets.teardown import children_gone
from domicile_tui.widgets.verification import VerificationReport, verdict_line


def banner(view: View) -> Content:
    state = view.state
    if state.outcome is Outcome.WON:
        title = Content.styled("✦  T H E   G H O S T   I S   F R E E  ✦", "bold $success")
        line = f"The culprit was named on day {state.day}. The candles burn steady at last."
    else:
        title = Content.styled("T H E   G H O S T   I S   B O U N D", "bold $error")
        where = "naming the culprit" if state.stage is Stage.CULPRIT else "the plot"
        line = (
            f"The anniversary passed with {where} unsolved: "
            "the Ghost must haunt the house another year."
        )
    return Content("\n").join([title, Content.styled(line, "italic $text-muted")])


def reveal_of(view: View, verification: Verification | None) -> Reveal | None:
    """The secrets: from the verification (they are proven), or the Ghost's own knowledge."""
    if verification is not None and verification.reveal is not None:
        return verification.reveal
    if view.ghost is not None:
        return Reveal(view.ghost.columns, view.ghost.culprit)
    return None


def truth_lines(view: View, reveal: Reveal | None, pack: Pack) -> Content:
    state = view.state
    lines = [Content.styled("The truth", "bold $primary")]
    if reveal is None:
        lines.append(
            Content.styled("Waiting for the Ghost to reveal its seed…", "italic $text-muted")
        )
        return Content("\n").join(lines)
    for seat in state.config.seats:
        look = persona(seat)
        column = reveal.column(seat)
        found = state.investigator(seat).found
        culprit = seat == reveal.culprit
        title = assemble(look.tag(), " ", (state.config.name(seat), "bold"))
        if culprit:
            title += Content.styled("  ☠ the culprit's column", "bold $accent")
        lines.append(title)
        for category in CATEGORY_ORDER:
            card = column.card(category)
            mark = (
                Content.styled(f" {YES}", "$success")
                if card in found
                else Content.styled(" ·", "$text-muted")
            )
            lines.append(
                assemble(
                    mark,
                    (f" {category.label:<10}", "$secondary"),
                    (pack.investigator_card(card).name, "bold" if culprit else ""),
                )
            )
    return Content("\n").join(lines)


def culprit_sentence(reveal: Reveal | None, pack: Pack) -> Content:
    """ "It was X, in Y, with Z.": the culprit's three cards (nothing before the reveal)."""
    if reveal is None:
        return Content("")
    culprit_column = reveal.column(reveal.culprit)
    names = [pack.investigator_card(culprit_column.card(c)).name for c in CATEGORY_ORDER]
    return assemble(
        ("It was ", "italic"),
        (names[0], "bold $accent"),
        (", in ", "italic"),
        (_inline(names[1]), "bold"),
        (", with ", "italic"),
        (_inline(names[2]), "bold"),
        (".", "italic"),
    )


def head_lines(verification: Verification | None) -> Content:
    """The final chain head as six words, for the table to compare out loud."""
    if verification is None or verification.head is None:
        return Content("")
    words = head_phrase(bytes.fromhex(verification.head))
    return Content("\n").join(
        [
            assemble(("The last link  ", "bold"), (words, "bold $primary")),
            Content.styled(
                "Read it out loud: everyone should see the same six words.", "italic $text-muted"
            ),
        ]
    )


def _inline(name: str) -> str:
    """A card's name inside a sentence: "The Family Crypt" -> "the Family Crypt"."""
    return "the " + name.removeprefix("The ") if name.startswith("The ") else name


RECAP_HINT = assemble(
    ("R", "bold $secondary"), ("  the game told again, day by day", "$text-muted")
)


def export_suggestion(table_name: str, day: int) -> Path:
    """Where E offers to write the transcript: the player's home directory (never the
    directory the client happened to start in, a checkout with ``make play``)."""
    slug = re.sub(r"[^a-z0-9]+", "-", table_name.lower()).strip("-") or "table"
    return Path.home() / f"domicile-{slug}-day{day}.transcript.json"


class EndScreen(TableScreen):
    CSS_PATH = LATER_STYLES
    HELP_TITLE = "The end of the game"
    HELP_KEYS: ClassVar[tuple[HelpKeys, ...]] = (
        HelpKeys(("e",), "export the transcript to a file"),
        HelpKeys(
            ("up", "down", "pageup", "pagedown", "home", "end"), "scroll the truth and the proof"
        ),
        HelpKeys(("r",), "the game, day by day: every dream, marker and vote"),
        HelpKeys(("n",), "another game at the same table"),
        HelpKeys(("escape",), "leave the table"),
        HelpKeys(("q",), "quit"),
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("e", "export", "Export transcript"),
        Binding("r", "recap", "Recap"),
        Binding("n", "again", "Play again"),
        Binding("escape", "leave", "Leave table"),
        Binding("q", "quit", "Quit"),
    ]

    def compose(self) -> ComposeResult:
        # What everyone wants first is on top at every size: who it was, whether the game
        # checks out, the six words to read out loud and where the game is kept; the columns
        # and every check below, in one scroll that has the focus (the arrows, PgDn and End
        # scroll it at once).
        with Vertical(id="end"):
            yield Static(id="end-banner")
            yield Static(Content.styled(FLOURISH, "$secondary"), classes="flourish")
            yield Static(id="end-summary")
            yield Static(id="end-head")
            with VerticalScroll(id="end-body"), Horizontal(id="end-columns"):
                with Vertical(id="end-truth"):
                    yield Static(id="truth")
                    yield Static(RECAP_HINT, id="end-recap-hint")
                with Vertical(id="end-proof"):
                    yield Static(Content.styled("The proof", "bold $primary"))
                    yield VerificationReport(id="report").data_bind(
                        verification=EndScreen.verification
                    )
        yield BottomBar(id="bottom").data_bind(status=EndScreen.status)

    def watch_view(self, view: View | None) -> None:
        self._show()

    def watch_verification(self) -> None:
        self._show()

    def _show(self) -> None:
        view = self.view
        if view is None or children_gone(self):
            return
        pack = self.client.pack
        self.query_one("#end-banner", Static).update(banner(view))
        reveal = reveal_of(view, self.verification)
        self.query_one("#truth", Static).update(truth_lines(view, reveal, pack))
        summary = [culprit_sentence(reveal, pack), verdict_line(self.verification)]
        self.query_one("#end-summary", Static).update(
            Content("\n").join(line for line in summary if line.plain)
        )
        head = head_lines(self.verification)
        kept = self.kept_where()
        if kept is not None:
            head += Content.styled(f"\nThe transcript is kept in {kept}", "$text-muted")
        self.query_one("#end-head", Static).update(head)

    def action_export(self) -> None:
        view = self.view
        lobby = self.lobby
        if view is None:
            return
        suggestion = export_suggestion(lobby.table_name if lobby else "table", view.state.day)
        if self.app.is_web:  # a browser seat: a download, never a path on the host
            self.client.deliver_transcript(suggestion.name)
            return

        def chosen(path: Path | None) -> None:
            if path is not None:
                self.client.export_transcript(path)

        self.app.push_screen(ExportScreen(suggestion), chosen)

    def action_recap(self) -> None:
        verification = self.verification
        if verification is None or verification.recap is None:
            self.notify("The recap comes with the proof, once the whole game is checked.")
            return
        pack = self.client.pack
        self.app.push_screen(RecapScreen(verification.recap, card_names(pack), dream_texts(pack)))

    def action_again(self) -> None:
        lobby = self.lobby
        if lobby is not None and not lobby.is_host:
            self.notify("The host decides when the next game begins.")
            return
        self.client.play_again()

    def on_mount(self) -> None:
        if children_gone(self):
            return
        self.watch(self.app, "kept", lambda _: self._show())
        self.set_focus(self.query_one("#end-body", VerticalScroll))

    def kept_where(self) -> str | None:
        """Where the table kept the transcript: within the data dir, said as such."""
        kept, door = self.client.kept, self.client.door
        if kept is None:
            return None
        if door is not None and kept.is_relative_to(door.home):
            return f"the data dir, {kept.relative_to(door.home)}"
        return str(kept)

    def action_leave(self) -> None:
        self._unless_unexported("Leave the table", self.client.leave_table)

    def action_quit(self) -> None:
        self._unless_unexported("Quit", lambda: self.app.call_later(self.client.action_quit))

    def _unless_unexported(self, doing: str, then: Callable[[], object]) -> None:
        """Do ``then`` at once when the transcript was exported, else after asking."""
        if self.client.exported is not None:
            then()
            return
        kept = self.kept_where()
        if kept is not None:
            question = f"{doing}? The transcript is kept in {kept} (E exports a copy elsewhere)."
        else:
            question = f"{doing} before the game is kept? E exports the transcript first."

        def answer(yes: bool | None) -> None:
            if yes:
                then()

        self.app.push_screen(ConfirmScreen(question), answer)

    def palette_commands(self) -> Iterable[SystemCommand]:
        yield SystemCommand("Export the transcript", "Write the game to a file", self.action_export)
        yield SystemCommand("Play again", "Another game at the same table", self.action_again)
