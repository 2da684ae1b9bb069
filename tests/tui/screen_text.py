"""The text of a screen as the terminal shows it, line by line (for tests that read it)."""

from __future__ import annotations

from textual.app import App


def screen_lines(app: App[object]) -> list[str]:
    """Every line of the screen on top (dialogs over their screen), as plain text."""
    compositor = app.screen._compositor
    return [strip.text for strip in compositor.render_strips(app.size)]
