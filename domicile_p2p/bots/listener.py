"""``Listener``: a policy that hears the table's chat."""

from __future__ import annotations

from typing import Protocol, runtime_checkable


@runtime_checkable
class Listener(Protocol):
    """Hears each line of chat as it is said: by ``seat``, on ``day``."""

    def hear(self, seat: int, text: str, day: int) -> None: ...
