"""Check boxes and radio buttons whose mark says on or off by its shape, not only its colour.

Textual draws the same ``X`` inside a toggle whether it is on or off and
tells them apart by colour alone; with ``NO_COLOR`` (or a colour-blind
player) they would look the same.  These draw ``✓`` / ``●`` when on and a
blank when off.
"""

from __future__ import annotations

from textual.widgets import Checkbox, RadioButton


class MarkedCheckbox(Checkbox):
    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]
        return "✓" if self.value else " "


class MarkedRadioButton(RadioButton):
    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]
        return "●" if self.value else " "
