"""A widget taken down before its first frame still hears of its mount.

When its screen is replaced at once (a spectator's lobby as the game begins, a tutorial
chapter left as it opens) or the app closes as it opens, Textual may hand a widget its
mount, and its reactives' first watch, while its children are being taken down: the
deepest go first, so a screen may still hold its header and no longer its chat's log.
What writes into its children asks first.
"""

from __future__ import annotations

from textual.widget import Widget


def children_gone(widget: Widget) -> bool:
    """Whether ``widget`` is being taken down: its composed children gone, or going.

    Textual marks every node of a subtree it begins to remove, and the widget it closes;
    it has no public word for either, and asks the same of its own nodes (its signals)."""
    return widget._pruning or widget._closing or not widget.children
