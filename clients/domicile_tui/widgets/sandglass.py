"""The draining bar of the sand-glass: one line under the prompt while a glass runs.

Everyone at a timed table sees it (investigators, the Ghost, Stage Two): the
sand left, and in words how long.  It reads the time from the clock it is
given (the app's, injected in tests) and redraws a few times a second while
the sand runs; with no glass it takes no room at all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from textual.content import Content
from textual.reactive import reactive
from textual.timer import Timer
from textual.widget import Widget

from domicile_tui.sandglass import Glass
from domicile_tui.widgets.plain import assemble

TICK: Final = 0.25
"""Seconds between redraws while the sand runs."""

SAND: Final = "█"
EMPTY: Final = "░"
_EIGHTHS: Final = " ▏▎▍▌▋▊▉"
"""A cell filled by 0 to 7 eighths, so the bar drains smoothly."""

_NAME: Final = "⧗ Sand-glass"
_SHORT_NAME: Final = "⧗"


def glass_line(glass: Glass, now: float, width: int) -> Content:
    """The glass drawn in ``width`` cells: its name, the sand left, and in words how much."""
    left = glass.left(now)
    if glass.called:
        words, short = "time's up: the host locked every placed marker", "time's up"
    elif left <= 0:
        words, short = "time's up: waiting for the host to call it", "time's up"
    else:
        whole = int(-(-left // 1))  # rounded up: "0:00" only once the glass is empty
        words = short = f"{whole // 60}:{whole % 60:02d} left"
    name, tail = _NAME, f"  {words}"
    if width - len(name) - len(tail) < 12:
        tail = f"  {short}"
    if width - len(name) - len(tail) < 8:
        name = _SHORT_NAME
    bar = _bar(left / glass.seconds, max(0, width - len(name) - len(tail) - 1))
    sand_style = "$primary" if left > glass.seconds / 4 else "$warning"
    return assemble(
        (name, "$secondary"), " ", (bar, sand_style), (tail, "bold $error" if left <= 0 else "bold")
    )


def _bar(share: float, width: int) -> str:
    """``share`` (0 to 1) of ``width`` cells in sand, to an eighth of a cell; the rest empty."""
    eighths = round(max(0.0, min(1.0, share)) * width * 8)
    full, part = divmod(eighths, 8)
    cells = SAND * full
    if part:
        cells += _EIGHTHS[part]
    return cells + EMPTY * (width - len(cells))


class SandGlassBar(Widget):
    """The glass of the investigation under way (``glass``), drained by ``clock``."""

    glass: reactive[Glass | None] = reactive(None)

    def __init__(self, clock: Callable[[], float], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._clock = clock
        self._ticker: Timer | None = None

    def on_mount(self) -> None:
        self._ticker = self.set_interval(TICK, self.refresh, pause=True)
        self.watch_glass(self.glass)

    def watch_glass(self, glass: Glass | None) -> None:
        self.display = glass is not None
        if self._ticker is None:
            return
        if glass is not None and not glass.called:
            self._ticker.resume()
        else:
            self._ticker.pause()

    def render(self) -> Content:
        if self.glass is None:
            return Content("")
        return glass_line(self.glass, self._clock(), self.content_size.width)
