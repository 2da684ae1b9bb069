"""The story around the rules, told the same way everywhere (docs/RULES.md, "The story").

The murdered person is the Ghost; a lost game leaves it to haunt the house another
year (never "forever"); the calendar counts down to the anniversary; the six
investigators are there for what they know.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from tui_support import PACK

from domicile_p2p.bots.talk import voice_of
from domicile_p2p.rules import LAST_DAY, Difficulty, Outcome, view
from domicile_p2p.sim import deal
from domicile_tui import tutorial
from domicile_tui.describe import phase_line
from domicile_tui.framing import LOST, nights_before_anniversary
from domicile_tui.personas import INVESTIGATOR_PERSONAS, ROLE_WIDTH
from domicile_tui.screens.end import banner
from domicile_tui.screens.help import THE_GAME
from domicile_tui.screens.seance import summary

ROOT = Path(__file__).parents[2]
CLIENT = ROOT / "clients" / "domicile_tui"


def _player_texts() -> dict[Path, str]:
    """Every file whose words a player reads: the client's code, the README and the docs."""
    files = [*CLIENT.rglob("*.py"), ROOT / "README.md", *(ROOT / "docs").glob("*.md")]
    return {path: path.read_text("utf-8") for path in files}


@pytest.mark.parametrize(
    ("day", "words"),
    [
        (1, "six nights before the anniversary"),
        (4, "three nights before the anniversary"),
        (6, "one night before the anniversary"),
        (LAST_DAY, "the night of the anniversary"),
    ],
)
def test_the_calendar_counts_down_to_the_anniversary(day: int, words: str) -> None:
    assert nights_before_anniversary(day) == words


@pytest.mark.parametrize("day", [0, LAST_DAY + 1])
def test_a_day_off_the_calendar_is_refused(day: int) -> None:
    with pytest.raises(ValueError, match="the calendar has days 1 to 7"):
        nights_before_anniversary(day)


def test_the_seance_says_how_many_nights_are_left() -> None:
    state = deal(PACK, 2, Difficulty.NORMAL, seed=3)
    fourth = replace(state, day=4)
    line = summary(view(fourth, 1), (), culprit=False).plain
    assert line.endswith("Day 4 begins. Three nights before the anniversary.")


def test_a_lost_game_is_another_year_never_forever() -> None:
    state = deal(PACK, 2, Difficulty.NORMAL, seed=3)
    lost = replace(state, day=LAST_DAY, outcome=Outcome.LOST)
    assert "another year" in banner(view(lost, 1)).plain
    assert "another year" in phase_line(lost)
    assert "another year" in LOST and "another year" in THE_GAME
    for path, text in _player_texts().items():
        for line in text.splitlines():
            if re.search(r"\bghost\b", line, re.IGNORECASE):
                assert "forever" not in line, f"{path}: {line.strip()}"


def test_the_ghost_is_the_murdered_person_not_a_ghost_murdered() -> None:
    welcome = next(step for step in tutorial.INVESTIGATOR_STEPS if step.name == "welcome")
    assert "murdered in this house and is now its Ghost" in welcome.text
    for path, text in _player_texts().items():
        assert not re.search(r"ghost (was|got|had been) murdered", text, re.IGNORECASE), path


def test_each_investigator_has_an_expertise_and_a_voice() -> None:
    assert len({look.title for look in INVESTIGATOR_PERSONAS}) == len(INVESTIGATOR_PERSONAS)
    voices = [voice_of(seat) for seat in range(1, len(INVESTIGATOR_PERSONAS) + 1)]
    assert len({voice.leaning for voice in voices}) == len(INVESTIGATOR_PERSONAS)
    for look in INVESTIGATOR_PERSONAS:
        assert look.introduction().startswith(f"{look.title}, who knows "), look.title
        assert len(look.title) <= ROLE_WIDTH
        described = f"{look.title} {look.expertise}".casefold()
        for word in ("exotic", "gypsy", "far east", "beautiful", "oriental"):
            assert word not in described, look.title
