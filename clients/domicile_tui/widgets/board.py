"""Arrow keys over a grid of cards.

Textual moves focus with Tab in reading order; on a table of cards people
expect the arrows (and vi's h j k l) to move to the card that is really up,
down, left or right on the screen.  A :class:`Board` finds that card by
geometry, so it works for any layout its CSS gives it.
"""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.geometry import Offset
from textual.widget import Widget

_DIRECTIONS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}


def _centre(widget: Widget, board: Widget) -> Offset:
    """The widget's centre in the board's (unscrolled) coordinates, even when scrolled away."""
    region = widget.virtual_region
    x, y = region.x + region.width // 2, region.y + region.height // 2
    node = widget.parent
    while isinstance(node, Widget) and node is not board:
        x, y = x + node.virtual_region.x, y + node.virtual_region.y
        node = node.parent
    return Offset(x, y)


def neighbour(
    current: Widget, candidates: list[Widget], direction: str, board: Widget
) -> Widget | None:
    """The candidate nearest to ``current`` in ``direction`` (``up``, ``down``, ...), if any.

    Distance along the direction counts once, distance across it three
    times, so "down" prefers the card right below over one diagonally nearer.
    """
    dx, dy = _DIRECTIONS[direction]
    here = _centre(current, board)
    best: tuple[int, Widget] | None = None
    for widget in candidates:
        if widget is current:
            continue
        there = _centre(widget, board)
        along = (there.x - here.x) * dx + (there.y - here.y) * dy
        if along <= 0:
            continue
        across = abs((there.x - here.x) * dy) + abs((there.y - here.y) * dx)
        score = along + 3 * across
        if best is None or score < best[0]:
            best = (score, widget)
    return None if best is None else best[1]


class Board(VerticalScroll, can_focus=False):
    """A scrollable area of focusable tiles navigated with the arrow keys."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move('up')", "Up", show=False),
        Binding("down", "move('down')", "Down", show=False),
        Binding("left", "move('left')", "Left", show=False),
        Binding("right", "move('right')", "Right", show=False),
    ]

    def tiles(self) -> list[Widget]:
        """The focusable tiles of this board."""
        return [w for w in self.query("*") if w.focusable and w.display]

    def action_move(self, direction: str) -> None:
        focused = self.screen.focused
        tiles = self.tiles()
        if not tiles:
            return
        if focused is None or focused not in tiles:
            tiles[0].focus()
            return
        target = neighbour(focused, tiles, direction, self)
        if target is not None:
            target.focus()
            target.scroll_visible()
