"""The recap drawn: each investigator's days under their true column, then Stage Two.

The words and marks come from :mod:`domicile_tui.recap` (pure); this module only
lays them out.  Every line is short or wraps (dream texts are whole sentences), so
it reads at 80 columns; the screens put it in a scrolling pane.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.content import Content

from domicile_p2p.rules import CATEGORY_ORDER, Outcome
from domicile_tui.describe import a_card
from domicile_tui.personas import persona
from domicile_tui.recap import Accusation, CardText, Guess, Recap, Story
from domicile_tui.theme import FLOURISH, NO, YES
from domicile_tui.widgets.plain import assemble
from domicile_tui.widgets.wrapped import hanging

DREAM = "☁"


def recap_content(
    recap: Recap | None, names: CardText, dreams: CardText, width: int | None = None
) -> Content:
    """The whole recap (``None``: the game never got to its first day), dreams wrapped to
    ``width``."""
    if recap is None:
        return Content.styled("Nothing was played: the tableau was never dealt.", "italic")

    def dream(card: str) -> Content:
        return dream_line(card, dreams, width)

    blocks = [_story(recap, story, names, dream) for story in recap.stories]
    if recap.accusations:
        blocks.append(_stage_two(recap, names, dream))
    if recap.truth is None:
        blocks.append(
            Content.styled(
                "The columns show once the Ghost reveals its seed.", "italic $text-muted"
            )
        )
    separator = Content.styled(f"\n{FLOURISH}\n", "$secondary")
    return separator.join(blocks)


DreamLine = Callable[[str], Content]


def _story(recap: Recap, story: Story, names: CardText, dream: DreamLine) -> Content:
    look = persona(story.seat)
    truth = recap.truth
    title = assemble(look.tag(), " ", (story.name, f"bold {look.colour}"))
    found = len(story.found)
    title += Content.styled(f"  found {found} of 3", "$success" if found == 3 else "$text-muted")
    lines = [title]
    if truth is not None:
        column = truth.column(story.seat)
        culprit = story.seat == truth.culprit
        for category in CATEGORY_ORDER:
            card = column.card(category)
            mark = (YES, "$success") if card in story.found else ("·", "$text-muted")
            lines.append(
                assemble(
                    "  ",
                    mark,
                    (f" {category.label:<10}", "$secondary"),
                    (names(card), "bold $accent" if culprit else "bold"),
                )
            )
        if culprit:
            lines.append(Content.styled("  ☠ the culprit's column", "bold $accent"))
    for guess in story.days:
        lines.append(Content(""))
        lines += _day(guess, names, dream)
    if not story.days:
        lines.append(Content.styled("  No dreams came.", "italic $text-muted"))
    return Content("\n").join(lines)


def _day(guess: Guess, names: CardText, dream: DreamLine) -> list[Content]:
    seeking = f"seeking {a_card(guess.seeking.label)}" if guess.seeking is not None else ""
    lines = [assemble(("  Day ", "bold"), (str(guess.day), "bold"), (f"  {seeking}", "italic"))]
    lines += [dream(card) for card in guess.dreams]
    lines.append(_verdict(guess, names))
    return lines


def dream_line(card: str, dreams: CardText, width: int | None, indent: int = 4) -> Content:
    """``☁ A grandfather clock weeps…``, wrapped under its first word."""
    prefix = Content(" " * indent) + Content.styled(DREAM, "$secondary") + Content(" ")
    return hanging(prefix, dreams(card), "italic $text-muted", width)


def _verdict(guess: Guess, names: CardText) -> Content:
    clock = Content.styled("  (the sand-glass ran out)", "$warning") if guess.clock else Content("")
    if guess.marker is None and guess.correct is None:
        return Content.styled("    → no séance yet", "$text-muted")
    where = (
        Content.styled("no guess", "italic")
        if guess.marker is None
        else Content.styled(names(guess.marker), "bold")
    )
    if guess.correct is None:
        told = Content.styled("  awaiting the séance", "$text-muted")
    elif guess.correct:
        told = Content.styled(f"  {YES} right", "bold $success")
    else:
        told = Content.styled(f"  {NO} wrong", "bold $error")
    return assemble("    → ", where, told, clock)


def _stage_two(recap: Recap, names: CardText, dream: DreamLine) -> Content:
    lines = [Content.styled("Stage Two · naming the culprit", "bold $primary")]
    culprit = recap.culprit_character
    for accusation in recap.accusations:
        lines.append(Content(""))
        lines += _accusation(accusation, names, dream, recap)
    if culprit is not None:
        lines.append(Content(""))
        won = recap.outcome is Outcome.WON
        lines.append(
            assemble(
                ("It was ", "italic"),
                (names(culprit), "bold $accent"),
                (
                    ". " + ("The group named them." if won else "No one named them in time."),
                    "italic",
                ),
            )
        )
    return Content("\n").join(lines)


def _accusation(
    accusation: Accusation, names: CardText, dream: DreamLine, recap: Recap
) -> list[Content]:
    lines = [
        assemble(
            ("  Day ", "bold"),
            (str(accusation.day), "bold"),
            ("  the group's three dreams", "italic"),
        )
    ]
    lines += [dream(card) for card in accusation.dreams]
    for seat, vote in accusation.votes:
        look = persona(seat)
        lines.append(
            assemble(
                "    ",
                look.tag(),
                " ",
                (recap.story(seat).name, look.colour),
                (" votes ", "$text-muted"),
                (names(vote), "bold") if vote is not None else ("no one", "italic"),
            )
        )
    if accusation.correct is True:
        lines.append(Content.styled(f"    {YES} the accusation is right", "bold $success"))
    elif accusation.correct is False:
        lines.append(Content.styled(f"    {NO} the accusation is wrong", "bold $error"))
    else:
        lines.append(Content.styled("    → no séance yet", "$text-muted"))
    return lines
