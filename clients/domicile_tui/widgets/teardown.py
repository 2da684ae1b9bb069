"""A widget taken down before its first frame still hears of its mount.

When its screen is replaced at once (a spectator's lobby as the game begins, a tutorial
chapter left as it opens), Textual may hand a widget its mount, and its reactives' first
watch, after its children have gone.  What writes into its children asks first.
"""

from __future__ import annotations

from textual.widget import Widget


def children_gone(widget: Widget) -> bool:
    """Whether ``widget``'s composed children are gone (it is being taken down)."""
    return not widget.children
