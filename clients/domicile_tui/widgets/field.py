"""A text field whose editing keys act in their own turn, however fast the keys come.

Textual's :class:`~textual.widgets.Input` types a letter as its key arrives, but
its other keys (Backspace, the arrows, Ctrl+U, Enter) are *bindings*, run once
the key has bubbled up to the app: by then the keys typed right after it have
reached the field as well, so in a burst ("X", Backspace, "Ann") the Backspace
took the last letter of "Ann" instead of the "X".  A :class:`Field` runs its
own bindings when their key comes, between the keys before and after it.
"""

from __future__ import annotations

from textual import events
from textual.widgets import Input


class Field(Input):
    async def _on_key(self, event: events.Key) -> None:
        bindings = self._bindings.key_to_bindings.get(event.key)
        if event.is_printable or not bindings:
            await super()._on_key(event)
            return
        event.stop()
        event.prevent_default()
        self._restart_blink()
        await self.run_action(bindings[0].action)
