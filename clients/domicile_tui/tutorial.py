"""The tutorial's script: three short chapters, and what to say at each step of them.

The tutorial is a real game at a fixed seed with bots in the other seats,
told in three chapters: one round as an investigator, one give as the
Ghost, and Stage Two (whose first days the tutorial plays for the player).
This module is only the script, as data: each chapter is a list of steps,
and each step is a condition on what the player sees (a :class:`Situation`:
which screen, the game as that screen shows it, what has the focus) with the
hint to show while it holds.  The first step whose condition holds is the
hint, so a hint always follows the game and the player's own moves, never a
clock; the last step of each chapter holds always.

Nothing here knows Textual: ``coach`` builds the situation from the screen
and shows the hint (``widgets.hint``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from domicile_p2p.rules import GHOST, Difficulty, Investigator, Outcome, Phase, Stage, View
from domicile_tui.framing import GHOST_INTRODUCED, LOST
from domicile_tui.personas import persona
from domicile_tui.session import Role

TUTORIAL_SEED: Final = 11
"""The deal of the tutorial's investigator chapters (the same house in both)."""
GHOST_SEED: Final = 12
"""The deal of the Ghost's chapter."""
INVESTIGATORS: Final = 2
"""Two investigators: the player and one bot, so the table is easy to take in."""
DIFFICULTY: Final = Difficulty.EASY


class Where(StrEnum):
    """The screen the player looks at."""

    LOBBY = "lobby"
    TABLE = "table"
    GHOST = "ghost"
    STAGE_TWO = "stage two"
    END = "end"


class Focus(StrEnum):
    """What kind of thing has the keyboard's focus."""

    NOTHING = "nothing"
    CARD = "card"
    """A card of the tableau (Stage Two: a suspect)."""
    DREAM = "dream"
    """A dream card: the investigator's, the group's, or one of the Ghost's hand."""
    CHAT = "chat"
    COLUMN = "column"
    """One of the Ghost's secret columns."""


@dataclass(frozen=True, slots=True)
class Situation:
    """What the player has in front of them now."""

    where: Where
    view: View | None = None
    """The game as the screen shows it (``None`` in the lobby)."""
    focus: Focus = Focus.NOTHING
    picked: int = 0
    """The Ghost's dreams picked for the next give."""

    @property
    def started(self) -> bool:
        return self.view is not None

    @property
    def me(self) -> Investigator | None:
        """The investigator the player plays (``None``: no game yet, or the player is the
        Ghost)."""
        view = self.view
        if view is None or view.seat == GHOST:
            return None
        return view.state.investigator(view.seat)


Condition = Callable[[Situation], bool]


@dataclass(frozen=True, slots=True)
class Step:
    """One hint, shown while ``when`` holds (and no step before it in its chapter does)."""

    name: str
    when: Condition
    text: str


@dataclass(frozen=True, slots=True)
class Chapter:
    number: int
    title: str
    role: Role
    seed: int
    intro: str
    """What the chapter is about, said before it begins."""
    steps: tuple[Step, ...]
    over: Condition
    """The chapter's lesson is done (the last chapter ends with the game)."""
    skips_stage_one: bool = False
    """Stage One is played out for the player before the chapter begins."""
    opens_in_lobby: bool = False

    def step(self, situation: Situation) -> Step:
        """The hint for ``situation``: the first step whose condition holds."""
        return next(step for step in self.steps if step.when(situation))


def always(_: Situation) -> bool:
    return True


def at(where: Where) -> Condition:
    return lambda s: s.where is where


def phase(s: Situation) -> Phase | None:
    return s.view.state.phase if s.view is not None else None


def day(s: Situation) -> int:
    return s.view.state.day if s.view is not None else 0


def game_over(s: Situation) -> bool:
    return phase(s) is Phase.ENDED


def won(s: Situation) -> bool:
    return s.view is not None and s.view.state.outcome is Outcome.WON


def in_stage_two(s: Situation) -> bool:
    return s.view is not None and s.view.state.stage is Stage.CULPRIT


def awaiting_dreams(s: Situation) -> bool:
    return s.me is not None and not s.me.served


def unplaced(s: Situation) -> bool:
    """The player's marker is not on a card yet."""
    return s.me is not None and s.me.marker is None


def unlocked(s: Situation) -> bool:
    """The player's marker is on a card, not locked."""
    return s.me is not None and s.me.marker is not None and not s.me.locked


def setting_up(s: Situation) -> bool:
    """At the table, before the game's first view has come."""
    return s.view is None and s.where is not Where.LOBBY


SETTING_UP: Final = Step("setting up", setting_up, "The candles are being lit…")
LOBBY: Final = Step("lobby", at(Where.LOBBY), "The lobby: who sits where. Press Enter to begin.")


def the_ghost_has_given(s: Situation) -> bool:
    """Someone at the table has received dreams this round."""
    if s.view is None:
        return False
    state = s.view.state
    return any(state.investigator(seat).served for seat in state.config.seats)


# --- chapter 1: one round as an investigator ------------------------------------------------

INVESTIGATOR_STEPS: Final = (
    SETTING_UP,
    Step(
        "welcome",
        at(Where.LOBBY),
        f"Welcome to the manor. {GHOST_INTRODUCED} You are investigator A, "
        f"{persona(1).introduction()}. Bots play the Ghost and investigator B. "
        "Press Enter to begin.",
    ),
    Step(
        "wait for dreams",
        awaiting_dreams,
        "The Ghost is choosing dreams for you. Above is the tableau: Characters, "
        "Locations and Items. Each of you has one of each to find, starting with a Character.",
    ),
    Step(
        "in the chat",
        lambda s: s.focus is Focus.CHAT,
        "Type to talk to the other investigators, Enter to send. Esc takes you back to the cards.",
    ),
    Step(
        "read a dream",
        lambda s: s.focus is Focus.DREAM and unplaced(s),
        "A dream the Ghost sent you. I reads it in full. What in it reminds you of a "
        "Character? C takes you back to the tableau.",
    ),
    Step(
        "place the marker",
        unplaced,
        "The Ghost sent you dreams (below): D goes to them, I reads one in full. Then "
        "arrows move over the Characters, and Enter places your marker on the one your "
        "dreams point to.",
    ),
    Step(
        "lock the marker",
        lambda s: unlocked(s) and phase(s) is not Phase.SEANCE,
        "Your marker is placed (◇). Enter on another card moves it. When you are sure, "
        "press L to lock it: the séance begins once everyone has locked.",
    ),
    Step(
        "wait for the others",
        lambda s: s.me is not None and day(s) == 1,
        "Locked (◆). L again unlocks. The séance comes when every "
        "investigator has locked: it says who was right.",
    ),
    Step(
        "round over",
        always,
        "That was one round: dreams, markers, the séance.",
    ),
)


def round_one_over(s: Situation) -> bool:
    return s.started and (day(s) > 1 or game_over(s))


# --- chapter 2: one give as the Ghost -----------------------------------------------------

GHOST_STEPS: Final = (
    SETTING_UP,
    LOBBY,
    Step(
        "given",
        the_ghost_has_given,
        "Given: your hand is drawn back up to 7, and the investigator reads your dreams.",
    ),
    Step(
        "look at a column",
        lambda s: s.focus is Focus.COLUMN,
        "A secret column: the three cards this investigator must find, in order. Enter "
        "serves them next; I reads the card they seek now. H goes back to your hand.",
    ),
    Step(
        "pick dreams",
        lambda s: s.picked == 0,
        "You are the Ghost now. At the top, each investigator's secret cards; the → line "
        "names the card the one you serve (A; B switches) must find now. Press 1 to 7 to "
        "pick the dreams of your hand that recall it (I reads one in full).",
    ),
    Step(
        "give",
        always,
        "Picked (✓). More dreams make the card easier to find, but every one leaves your "
        "hand. Press G to give them (X unpicks all). You never speak: dreams are all you have.",
    ),
)


# --- chapter 3: Stage Two --------------------------------------------------------------------

STAGE_TWO_STEPS: Final = (
    SETTING_UP,
    LOBBY,
    Step(
        "won",
        won,
        "You named the culprit: the Ghost is free. Here: the whole truth and every check "
        "of the game's fairness; R tells the game again, day by day. The tutorial is over: "
        "Esc goes back to the front door.",
    ),
    Step(
        "lost",
        game_over,
        f"{LOST} Here: the whole truth, and R tells the game again, day by day. The "
        "tutorial is over: Esc goes back to the front door.",
    ),
    Step(
        "in the chat",
        lambda s: s.focus is Focus.CHAT,
        "Type to argue your case, Enter to send. Esc takes you back to the suspects.",
    ),
    Step(
        "group dreams coming",
        lambda s: phase(s) is Phase.DREAMS,
        "Days went by: you both found your three cards. Stage Two: each group on the "
        "tableau is one investigator's Character, Location and Item. One is the murder; "
        "the Ghost now sends three dreams to you all.",
    ),
    Step(
        "read the group's dreams",
        lambda s: s.focus is Focus.DREAM and unplaced(s),
        "One dream for the culprit, one for the place, one for the weapon, in no order. "
        "I reads it in full; C goes back to the suspects.",
    ),
    Step(
        "after a wrong séance",
        lambda s: unplaced(s) and s.view is not None and len(s.view.state.group_dreams) > 3,
        "The séance said no: that was not the culprit. The group keeps its dreams and has "
        "three more: which group do they all tell of? Enter accuses, L locks.",
    ),
    Step(
        "accuse",
        unplaced,
        "Which group do the three dreams tell of? D reads them; arrows move over the "
        "suspects. Enter accuses the Character under the cursor.",
    ),
    Step(
        "lock the accusation",
        unlocked,
        "You accuse this Character. L locks your accusation: the séance happens only when "
        "every investigator accuses the same Character and has locked.",
    ),
    Step(
        "agree",
        always,
        "Locked. The others must accuse the same Character and lock too (the right column "
        "shows them). T talks to them; L unlocks if you change your mind.",
    ),
)


CHAPTERS: Final = (
    Chapter(
        1,
        "An investigator's round",
        Role.INVESTIGATOR,
        TUTORIAL_SEED,
        "You play investigator A for one round: read the Ghost's dreams, place your "
        "marker on the Character they point to, lock it, and see the séance.",
        INVESTIGATOR_STEPS,
        over=round_one_over,
        opens_in_lobby=True,
    ),
    Chapter(
        2,
        "The Ghost's give",
        Role.GHOST,
        GHOST_SEED,
        "Now you sit in the Ghost's chair, at another table. You see what the "
        "investigators must find; give one of them dreams that point to it.",
        GHOST_STEPS,
        over=the_ghost_has_given,
    ),
    Chapter(
        3,
        "Stage Two: the culprit",
        Role.INVESTIGATOR,
        TUTORIAL_SEED,
        "Back to the first house, days later: every investigator has found their three "
        "cards. Now the group must name the culprit together.",
        STAGE_TWO_STEPS,
        over=game_over,
        skips_stage_one=True,
    ),
)


def chapter_over_words(chapter: Chapter, situation: Situation) -> str:
    """What the player is told when ``chapter`` is over, in the game as it went."""
    if chapter.role is Role.GHOST:
        return (
            "That is the Ghost's whole work: each round it serves every investigator, "
            "then the séance tells them who read it right."
        )
    if situation.me is not None and situation.me.found:
        return (
            "Right: the Character went into your hand and your dreams to the discard. "
            "Next round you would seek a Location, then an Item."
        )
    return (
        "Wrong this time: you keep your dreams, and the next round's join them. Next "
        "round you would seek a Character again."
    )
