"""Who sits where: each seat's letter, colour, persona and bot name.

Information never rides on colour alone: every seat also has a letter
(``A``-``F`` for the investigators, ``☾`` for the Ghost) that is printed next
to anything the seat owns, so the table reads the same with ``NO_COLOR``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from textual.content import Content

from domicile_p2p.rules import GHOST, MAX_INVESTIGATORS


@dataclass(frozen=True, slots=True)
class Persona:
    """The look of one seat at the table."""

    letter: str
    title: str
    bot_name: str
    colour: str

    def tag(self) -> Content:
        """The seat letter, bold, in the seat's colour."""
        return Content.styled(self.letter, f"bold {self.colour}")


# A persona's title is never a card's name: "you are A Ada, the Medium" beside the suspect
# The Medium would read as a clue (a test checks every card of the pack).
GHOST_PERSONA: Final = Persona("☾", "the Ghost", "The Ghost", "#9fc7c0")

INVESTIGATOR_PERSONAS: Final[tuple[Persona, ...]] = (
    Persona("A", "the Oracle", "Orla Vance", "#d9736b"),
    Persona("B", "the Wayfarer", "Idris Hale", "#6fb8ad"),
    Persona("C", "the Seer", "Mina Sorel", "#dcb75e"),
    Persona("D", "the Detective", "Arthur Penrose", "#a993d6"),
    Persona("E", "the Journalist", "Clara Whitlow", "#97ba6d"),
    Persona("F", "the Constable", "Tom Brannock", "#de8f5f"),
)
assert len(INVESTIGATOR_PERSONAS) == MAX_INVESTIGATORS


def persona(seat: int) -> Persona:
    """The persona of ``seat`` (0 is the Ghost, 1-6 the investigators)."""
    if seat == GHOST:
        return GHOST_PERSONA
    if not 1 <= seat <= MAX_INVESTIGATORS:
        raise ValueError(f"there is no seat {seat}: seats are 0 (the Ghost) to {MAX_INVESTIGATORS}")
    return INVESTIGATOR_PERSONAS[seat - 1]


def seat_tag(seat: int) -> Content:
    return persona(seat).tag()


def seat_of_letter(letter: str) -> int | None:
    """The investigator seat whose letter is ``letter`` (any case), or ``None``."""
    for seat, candidate in enumerate(INVESTIGATOR_PERSONAS, start=1):
        if candidate.letter == letter.upper():
            return seat
    return None
