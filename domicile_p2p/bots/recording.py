"""A policy that keeps a log of what another policy played.

Used to record whole games once and replay their actions later (the
self-play benchmark's engine-only anchor, tests that compare two ways of
playing the same game).
"""

from __future__ import annotations

from domicile_p2p.bots.listener import Listener
from domicile_p2p.rules import Action, Policy, View


class RecordingPolicy:
    """Plays as ``inner`` does and appends every action it returns to ``log``.

    Several seats may share one ``log``: the engine applies each returned
    action at once, so the shared log is the game's order of play.
    """

    def __init__(self, inner: Policy, log: list[Action]) -> None:
        self.inner = inner
        self.log = log

    def act(self, view: View) -> Action | None:
        action = self.inner.act(view)
        if action is not None:
            self.log.append(action)
        return action

    def hear(self, seat: int, text: str, day: int) -> None:
        """Passes the chat on to ``inner`` when it listens."""
        if isinstance(self.inner, Listener):
            self.inner.hear(seat, text, day)
