"""Text whose long lines wrap under themselves, not under their bullet.

Textual wraps a long line back to the left edge; a dream's text after its
``☁`` reads better wrapped under its first word.  :func:`hanging` wraps it
to a width; :class:`Redrawn` draws its content again whenever its width
changes (the terminal was resized), so the wrapping always fits.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable

from textual import events
from textual.content import Content

from domicile_tui.widgets.plain import Static

Drawing = Callable[[int | None], Content]
"""Content for a width (``None``: not known yet, wrap nothing)."""


def hanging(prefix: Content, text: str, style: str, width: int | None) -> Content:
    """``prefix`` then ``text``, its later lines indented as far as its first."""
    indent = prefix.cell_length
    room = None if width is None else width - indent
    if room is None or room < 12:
        return prefix + Content.styled(text, style)
    lines = textwrap.wrap(text, room) or [""]
    joined = ("\n" + " " * indent).join(lines)
    return prefix + Content.styled(joined, style)


class Redrawn(Static):
    """A :class:`Static` whose content is drawn for its width, and again when it changes."""

    def __init__(self, drawing: Drawing | None = None, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._drawing = drawing
        self._width: int | None = None

    def draw(self, drawing: Drawing) -> None:
        self._drawing = drawing
        self.update(drawing(self._width))

    def on_mount(self) -> None:
        if self._drawing is not None:
            self.update(self._drawing(self._width))

    def on_resize(self, event: events.Resize) -> None:
        width = event.size.width or None
        if width != self._width:
            self._width = width
            if self._drawing is not None:
                self.update(self._drawing(width))
