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
    expertise: str = ""
    """What this investigator knows that the others do not: what follows "who knows"."""

    def introduction(self) -> str:
        """The seat as the tutorial and its tooltip say it: "the Archivist, who knows wills..."."""
        return f"{self.title}, who knows {self.expertise}" if self.expertise else self.title

    def tag(self) -> Content:
        """The seat letter, bold, in the seat's colour."""
        return Content.styled(self.letter, f"bold {self.colour}")


# A persona's title is never a card's name: "you are A Ada, the Medium" beside the suspect
# The Medium would read as a clue (a test checks every card of the pack).
GHOST_PERSONA: Final = Persona("☾", "the Ghost", "The Ghost", "#9fc7c0")

# The seed's six guests are "a famous medium, an exotic visitor from the Far East, a
# beautiful gypsy, a famous detective, an inquisitive journalist, and an officer of the
# law": two of them are an origin and a look instead of a skill, one is named with a
# slur. Every investigator here is at the table for what they know (docs/RULES.md); a bot
# in the seat speaks in the persona's voice (domicile_p2p.bots.talk.VOICES, in this order).
INVESTIGATOR_PERSONAS: Final[tuple[Persona, ...]] = (
    Persona(
        "A",
        "the Spiritualist",
        "Orla Vance",
        "#d9736b",
        expertise="séances: how the dead are heard, and what was said at each one",
    ),
    Persona(
        "B",
        "the Folklorist",
        "Idris Hale",
        "#6fb8ad",
        expertise="the coast's ghost stories, charms and omens, and what each sign meant",
    ),
    Persona(
        "C",
        "the Archivist",
        "Mina Sorel",
        "#dcb75e",
        expertise="wills, parish registers and old letters, and the date out of place",
    ),
    Persona(
        "D",
        "the Detective",
        "Arthur Penrose",
        "#a993d6",
        expertise="motives and alibis: who could have been where, and why",
    ),
    Persona(
        "E",
        "the Journalist",
        "Clara Whitlow",
        "#97ba6d",
        expertise="the county paper's file on the murder and what the household told it",
    ),
    Persona(
        "F",
        "the Constable",
        "Tom Brannock",
        "#de8f5f",
        expertise="the statements taken on the night, and every door of the house",
    ),
)
ROLE_WIDTH: Final = max(len(look.title) for look in (GHOST_PERSONA, *INVESTIGATOR_PERSONAS))
"""The longest title: a column of seats that shows the titles is this wide."""
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
