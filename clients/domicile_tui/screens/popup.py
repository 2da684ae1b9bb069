"""A dialog over the table whose closing keys stay its own for a moment after it closes.

People press Enter twice when once would do (to skip the séance, and to close
it, just as it ends by itself): the second press must not fall through to the
screen behind, where Enter places a marker or picks a dream.  A pop-up closed
by a key asks the app to hold its keys briefly (``DomicileApp.hold_keys``);
every other key acts at once, as always.
"""

from __future__ import annotations

from typing import Protocol, TypeVar, cast

from textual.binding import Binding
from textual.screen import ModalScreen

ResultT = TypeVar("ResultT")

BUTTON_KEYS = frozenset({"enter", "space"})
"""Keys that press a focused button (or submit an input) in a dialog."""


class HoldsKeys(Protocol):
    """The one thing a pop-up asks of the app (``DomicileApp.hold_keys``)."""

    def hold_keys(self, keys: frozenset[str], *, now: bool = False) -> None: ...


class PopUp(ModalScreen[ResultT]):
    """A dialog; :meth:`close` dismisses it and holds the keys that close it."""

    def closing_keys(self) -> frozenset[str]:
        bound = {binding.key for binding in Binding.make_bindings(self.BINDINGS)}
        return frozenset(bound) | BUTTON_KEYS

    def on_mount(self) -> None:
        # A new dialog: the keys held for the one before are this one's to take.
        cast("HoldsKeys", self.app).hold_keys(frozenset())

    def close(self, result: ResultT) -> None:
        cast("HoldsKeys", self.app).hold_keys(self.closing_keys())
        self.dismiss(result)

    def close_by_itself(self, result: ResultT) -> None:
        """Close without a key (a séance that passes by itself): a closing key pressed just
        as it closes is still the dialog's."""
        cast("HoldsKeys", self.app).hold_keys(self.closing_keys(), now=True)
        self.dismiss(result)
