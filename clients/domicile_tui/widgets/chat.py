"""The table chat: what the investigators say, and (for them only) a line to speak."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Input

from domicile_p2p.rules import MAX_CHAT_LENGTH
from domicile_tui.news import ChatLine
from domicile_tui.personas import persona
from domicile_tui.widgets.field import Field
from domicile_tui.widgets.plain import Static, assemble
from domicile_tui.widgets.teardown import children_gone


def chat_entry(line: ChatLine) -> Content:
    look = persona(line.seat)
    return assemble(look.tag(), " ", (line.name, f"bold {look.colour}"), ("  ", ""), line.text)


class SpeakingLine(Field):
    """The line to speak in.  Enter says what was typed before it, and only that.

    Enter is taken in the line's own turn (as a :class:`Field` takes its keys): the letters
    typed right after it are not said with it.
    """

    async def _on_key(self, event: events.Key) -> None:
        if event.key != "enter":
            await super()._on_key(event)
            return
        event.stop()
        event.prevent_default()
        said, self.value = self.value, ""
        self.post_message(self.Submitted(self, said))


class ChatScroll(VerticalScroll, can_focus=False):
    """The log scrolls with the mouse wheel; the keyboard stays on the table."""


class ChatPanel(Vertical):
    """The chat log, and an input line when this player may speak."""

    lines: reactive[tuple[ChatLine, ...]] = reactive(())

    class Said(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, *, can_speak: bool, id: str | None = None) -> None:
        super().__init__(id=id)
        self.can_speak = can_speak

    def compose(self) -> ComposeResult:
        with ChatScroll(id="chat-scroll"):
            yield Static(id="chat-log")
        if self.can_speak:
            yield SpeakingLine(
                placeholder="Say something to the table…  (T)",
                max_length=MAX_CHAT_LENGTH,
                id="chat-input",
            )

    def on_mount(self) -> None:
        self.border_title = "Table talk" if self.can_speak else "Table talk · you only listen"
        self._write()

    def watch_lines(self) -> None:
        if self.is_mounted:
            self._write()

    def _write(self) -> None:
        if children_gone(self):
            return
        log = self.query_one("#chat-log", Static)
        if self.lines:
            log.update(Content("\n").join(chat_entry(line) for line in self.lines))
        else:
            log.update(Content.styled("No one has spoken yet.", "italic $text-muted"))
        scroll = self.query_one("#chat-scroll", ChatScroll)
        scroll.anchor()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if text:
            self.post_message(self.Said(text))

    def focus_input(self) -> bool:
        if not self.can_speak:
            return False
        self.screen.set_focus(self.query_one("#chat-input", Input))
        return True
