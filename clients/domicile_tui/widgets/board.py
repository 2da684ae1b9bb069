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
    current: Widget,
    candidates: list[Widget],
    direction: str,
    board: Widget,
    *,
    in_columns: bool = False,
) -> Widget | None:
    """The candidate nearest to ``current`` in ``direction`` (``up``, ``down``, ...), if any.

    Distance along the direction counts once, distance across it three
    times, so "down" prefers the card right below over one diagonally nearer.
    With ``in_columns`` up and down keep to ``current``'s column (its parent): past a
    column's end they go nowhere, rather than to the next column's cards below it.
    """
    dx, dy = _DIRECTIONS[direction]
    here = _centre(current, board)
    best: tuple[int, Widget] | None = None
    for widget in candidates:
        if widget is current:
            continue
        if in_columns and dy and widget.parent is not current.parent:
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
    """A scrollable area of focusable tiles navigated with the arrow keys.

    The keys that move between tiles or act on one are *priority* bindings: Textual runs
    those as the app receives the key, while other bindings run only once the key has
    bubbled up from the widget it was sent to, and the keys that followed it in the same
    burst were already sent to whatever had the focus *then*.  (``tmux send-keys Down Down``
    moved one card, and the second Down of "Down Enter" chose the card it came from.)
    """

    IN_COLUMNS: ClassVar[bool] = False
    """The tiles stand in columns (each its own container): up and down keep to a tile's
    column (see :func:`neighbour`)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move('up')", "Up", show=False, priority=True),
        Binding("down", "move('down')", "Down", show=False, priority=True),
        Binding("left", "move('left')", "Left", show=False, priority=True),
        Binding("right", "move('right')", "Right", show=False, priority=True),
    ]

    def tiles(self) -> list[Widget]:
        """The focusable tiles of this board."""
        return [w for w in self.query("*") if w.focusable and w.display]

    def action_move(self, direction: str) -> None:
        # The focus moves now, not on the next turn of the loop (``Widget.focus`` defers it):
        # keys that come in one burst ("Down Down" from tmux, a held key) are already queued,
        # and each must start from where the one before it left the cursor.
        screen = self.screen
        focused = screen.focused
        tiles = self.tiles()
        if not tiles:
            return
        if focused is None or focused not in tiles:
            screen.set_focus(tiles[0])
            return
        target = neighbour(focused, tiles, direction, self, in_columns=self.IN_COLUMNS)
        if target is not None:
            screen.set_focus(target)
