"""The look of the manor: a candlelit palette and a little ornament.

Dark wood and soot for the background, candle flame for what matters now,
old brass for frames, an ember red for danger, parchment for text.  The
palette is a Textual :class:`~textual.theme.Theme`, so every ``.tcss`` file
speaks of ``$primary`` and ``$accent`` rather than of hex codes.
"""

from __future__ import annotations

from pathlib import Path, PurePath
from typing import Final

from textual.theme import Theme

STYLES: Final = Path(__file__).parent / "styles"
FIRST_STYLES: Final[list[str | PurePath]] = [STYLES / "base.tcss", STYLES / "front.tcss"]
"""The styles of the screens that can be the first (the start screen, the lobby, the replay
viewer): parsed before the first frame."""
LATER_STYLES: Final[list[str | PurePath]] = [
    STYLES / "forms.tcss",
    STYLES / "table.tcss",
    STYLES / "modals.tcss",
]
"""The front door's forms, the game's table, the end and the dialogs: loaded right after
the first frame, or by the first screen that needs them (their ``CSS_PATH``), whichever
comes first.  Every rule parsed before the first frame holds it up: ``base.tcss`` and
``front.tcss`` parse in 9.0-9.7 ms, against 18.6-21.6 ms while ``front.tcss`` still held the
forms and the end (best of 21, load 7)."""

CANDLELIGHT: Final = Theme(
    name="candlelight",
    primary="#e3a94f",
    secondary="#9c7a4d",
    accent="#c8553d",
    warning="#e0a240",
    error="#d65a4f",
    success="#93c283",
    foreground="#eadcc2",
    background="#100d0b",
    surface="#18130f",
    panel="#241b14",
    dark=True,
    variables={
        # Content styles cannot resolve "auto" colours: give the muted text a real one.
        "text-muted": "#94846c",
        "footer-key-foreground": "#e3a94f",
        "block-cursor-background": "#3a2a1a",
        "block-cursor-foreground": "#f4e6c8",
        "input-selection-background": "#e3a94f 35%",
        "border": "#6b5236",
        "border-blurred": "#3d2f22",
        "scrollbar": "#3d2f22",
        "scrollbar-hover": "#6b5236",
        "scrollbar-active": "#9c7a4d",
    },
)

TITLE: Final = "T O R T U R E D   D O M I C I L E"

MANOR: Final = r"""
                          ☾
             ┌┐          /\          ┌┐
          ___││_________/  \_________││___
         /    ││    ▪  /    \  ▪     ││   \
        /_____┴┴______/______\_______┴┴____\
        │  ▪   ▪   ▪  │  ▒▒  │  ▪   ▪   ▪  │
        │  ▪   ▪   ▪  │  ▒▒  │  ▪   ▪   ▪  │
    ────┴─────────────┴──────┴─────────────┴────
""".strip("\n")

FLOURISH: Final = "─── ✦ ───"
"""A small divider between sections."""

CANDLE_LIT: Final = "✦"
DAY_PAST: Final = "●"
DAY_TO_COME: Final = "○"

MARKER_PLACED: Final = "◇"
MARKER_LOCKED: Final = "◆"
YES: Final = "✓"
NO: Final = "✗"
