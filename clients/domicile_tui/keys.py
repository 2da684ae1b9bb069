"""The keys of every screen, as the help shows them.

Each screen lists its keys in ``HELP_KEYS`` in words a player understands
("pick or unpick dream card N"), by the same key names its ``BINDINGS``
use; a test checks that no binding is missing from the help.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

_NAMES: Final = {
    "question_mark": "?",
    "escape": "Esc",
    "enter": "Enter",
    "space": "Space",
    "tab": "Tab",
    "shift+tab": "Shift+Tab",
    "up": "↑",
    "down": "↓",
    "left": "←",
    "right": "→",
    "pageup": "PgUp",
    "pagedown": "PgDn",
}


def key_label(key: str) -> str:
    """``ctrl+p`` -> ``Ctrl+P``, ``question_mark`` -> ``?``, ``g`` -> ``G``."""
    if key in _NAMES:
        return _NAMES[key]
    if "+" in key:
        modifiers, _, last = key.rpartition("+")
        return "+".join(part.capitalize() for part in modifiers.split("+")) + "+" + key_label(last)
    return key.upper() if len(key) == 1 else key.capitalize()


@dataclass(frozen=True, slots=True)
class HelpKeys:
    keys: tuple[str, ...]
    text: str

    @property
    def label(self) -> str:
        labels = [key_label(key) for key in self.keys]
        if len(labels) > 3 and all(len(key) == 1 and key.isalnum() for key in self.keys):
            return f"{labels[0]}–{labels[-1]}"
        if all(key in ("up", "down", "left", "right") for key in self.keys):
            return "".join(labels)
        return " / ".join(labels)


EVERYWHERE: Final = (
    HelpKeys(("question_mark",), "this help"),
    HelpKeys(("ctrl+p",), "the command palette: every main action by name"),
    HelpKeys(("tab", "shift+tab"), "move between the parts of the screen"),
    HelpKeys(("ctrl+q",), "quit"),
)

TUTORIAL: Final = (
    HelpKeys(("escape",), "leave the tutorial, after asking (in the chat line: back to the cards)"),
    HelpKeys(("ctrl+q",), "leave the tutorial, after asking (back to the front door)"),
    HelpKeys(("enter",), "between two chapters: go on to the next"),
)
"""The tutorial's own keys (the hint under the table names the others as they come)."""

CARDS: Final = (
    HelpKeys(("up", "down", "left", "right"), "move between cards"),
    HelpKeys(("enter", "space"), "choose the card (or open a dream to read it)"),
    HelpKeys(("i", "o"), "read the card under the cursor in full: its whole name and text"),
)
