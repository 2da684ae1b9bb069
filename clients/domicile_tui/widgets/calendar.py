"""The calendar: seven days, the past ones burnt out, today's candle lit."""

from __future__ import annotations

from textual.content import Content

from domicile_p2p.rules import LAST_DAY
from domicile_tui.theme import CANDLE_LIT, DAY_PAST, DAY_TO_COME
from domicile_tui.widgets.plain import assemble


def calendar_line(day: int) -> Content:
    """``Day 3 of 7  ● ● ✦ ○ ○ ○ ○``."""
    marks: list[Content] = []
    for number in range(1, LAST_DAY + 1):
        if number < day:
            marks.append(Content.styled(DAY_PAST, "$text-muted"))
        elif number == day:
            marks.append(Content.styled(CANDLE_LIT, "bold $primary"))
        else:
            marks.append(Content.styled(DAY_TO_COME, "$secondary"))
    label = Content.styled(f"Day {day} of {LAST_DAY}", "bold")
    return assemble(label, "  ", Content(" ").join(marks))
