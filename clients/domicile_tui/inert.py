"""Outside text made inert before the client shows it (``domicile_p2p.text`` decides how).

Text from a host, a peer, a pack or a saved file is data: it must never act on the
player's terminal (an escape sequence setting the title or writing the clipboard, a
bidi override) nor deceive (a zero-width character).  Two boundaries hold it:

- :func:`inert_news`: every piece of news from a table, as it enters the app
  (``DomicileApp.receive``): names, chat lines, the table's name, refusals, errors and
  the verification's words, with each unsafe character shown as an escape (``\\x1b``).
- :class:`InertOutput`: a line filter every line the app draws passes on its way to
  the terminal.  It removes whatever unsafe character is left (a pack's words, a line
  of a replayed transcript).  Textual counts none of them as a cell, so removing them
  moves nothing on the screen.

Markup is the other half: the client's text widgets never read it
(``domicile_tui.widgets.plain``), and its notifications neither (``DomicileApp.notify``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

from domicile_p2p.client_api import inert, is_inert, without_unsafe
from domicile_p2p.rules import init_field_names, is_record, replace

if TYPE_CHECKING:
    from domicile_p2p.rules import View

Value = TypeVar("Value")


def inert_news(news: Value) -> Value:
    """``news`` (a session event, or any part of one) with every text in it inert.

    The same object comes back when nothing in it had to change, which is every
    time at a table of honest people.
    """
    from domicile_p2p.rules import View  # with a table's first news: no first frame waits

    return _inert(news, View)  # type: ignore[no-any-return]


def _inert(value: Any, view: type[View]) -> Any:
    if isinstance(value, str):
        return inert(value)  # a StrEnum member is inert and comes back as itself
    if isinstance(value, tuple):
        parts = tuple(_inert(part, view) for part in value)
        return value if all(a is b for a, b in zip(parts, value, strict=True)) else parts
    if isinstance(value, view):
        return _inert_view(value)
    if is_record(value) and not isinstance(value, type):
        changed = {}
        for name in init_field_names(value):
            before = getattr(value, name)
            after = _inert(before, view)
            if after is not before:
                changed[name] = after
        return replace(value, **changed) if changed else value
    return value


def _inert_view(view: View) -> View:
    """The view with its seats' names inert: the only words of a game's state that its
    players chose (the rest are the pack's card ids and the rules' numbers)."""
    config = view.state.config
    names = (config.ghost_name, *config.investigator_names)
    if all(is_inert(name) for name in names):
        return view
    config = replace(
        config,
        ghost_name=inert(config.ghost_name),
        investigator_names=tuple(inert(name) for name in config.investigator_names),
    )
    return replace(view, state=replace(view.state, config=config))


class InertOutput(LineFilter):
    """Removes every unsafe character from the lines on their way to the terminal."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        if all(is_inert(segment.text) for segment in segments):
            return segments
        return [
            segment
            if is_inert(segment.text)
            else Segment(without_unsafe(segment.text), segment.style, segment.control)
            for segment in segments
        ]
