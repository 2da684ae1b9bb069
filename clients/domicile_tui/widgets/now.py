"""A tile's choice handled in the turn of the key that made it.

A posted message is handled once its widget's queue gets to it, after the app has
already run the bindings of the keys typed behind it: in a burst ("Enter L" from a
terminal) the screen locked a marker it had not yet been asked to place.  A tile hands
its choice to the first ancestor with a ``take_now`` that takes it, at once; one that
nobody takes is posted as usual.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from textual.message import Message
from textual.widget import Widget


@runtime_checkable
class TakesNow(Protocol):
    def take_now(self, message: Message) -> bool:
        """Handle ``message`` now if it is one of this node's; whether it was."""
        ...


def tell_now(widget: Widget, message: Message) -> None:
    """Hand ``message`` to the nearest ancestor that takes it now, else post it."""
    for node in widget.ancestors_with_self:
        if isinstance(node, TakesNow) and node.take_now(message):
            return
    widget.post_message(message)
