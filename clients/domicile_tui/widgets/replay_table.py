"""A replay in the viewer's words: its verdict, each event, and the table at that moment.

The table is drawn from a :class:`~domicile_tui.timeline.Frame`'s public
state (never the Ghost's secrets before its reveal) with the replay's card
names: what every seat saw, and the truth once revealed.
"""

from __future__ import annotations

from textual.content import Content

from domicile_p2p.rules import CATEGORY_ORDER, GameState, Phase, Stage
from domicile_tui.describe import ghost_refreshes, phase_line, stage_title
from domicile_tui.personas import persona
from domicile_tui.recap import CardText
from domicile_tui.replay import Replay, event_line
from domicile_tui.theme import MARKER_LOCKED, MARKER_PLACED, NO, YES
from domicile_tui.timeline import Reveal
from domicile_tui.widgets.investigators import progress
from domicile_tui.widgets.plain import assemble
from domicile_tui.widgets.recap import dream_line


def verdict_content(replay: Replay) -> Content:
    """The verification's verdict, without spoiling the outcome of a fair game."""
    report = replay.report
    events = f"{report.events} event{'s' if report.events != 1 else ''}"
    if report.valid:
        return assemble(
            (f"{YES} Verified: ", "bold $success"),
            (f"every check passed ({events})", "$success"),
        )
    return Content.styled(f"{NO} {report.summary}", "bold $error")


def position_content(replay: Replay, index: int) -> Content:
    frames = replay.frames
    frame = frames[index]
    where = Content.styled(f"Event {frame.event.seq}", "bold")
    where += Content.styled(f" ({index + 1} of {len(frames)})", "$text-muted")
    what = event_line(frame, replay.timeline.config, replay.names)
    return assemble(where, "  ", (what, "bold $primary"))


def notes_content(replay: Replay, index: int) -> Content:
    """What this event means for the verification, and the outcome at the last one."""
    frame = replay.frames[index]
    notes: list[Content] = []
    error = replay.report.error
    if index == replay.failing and error is not None:
        who = f" ({error.party})" if error.party else ""
        notes.append(
            Content.styled(f"{NO} Verification fails here{who}: {error.reason}", "bold $error")
        )
    elif frame.refused is not None:
        notes.append(
            Content.styled(f"{NO} The rules refuse this event: {frame.refused.reason}", "$error")
        )
    elif frame.unchecked:
        notes.append(
            Content.styled(
                "After a refused event: shown as written, the table is not replayed",
                "italic $warning",
            )
        )
    if index == len(replay.frames) - 1:
        style = "bold $success" if replay.report.valid else "bold $error"
        notes.append(Content.styled(replay.report.summary, style))
    return Content("\n").join(notes)


def heading(text: str) -> Content:
    return Content.styled(text, "bold $primary")


def moment_line(state: GameState | None) -> Content:
    """Where the game stands: "Day 3 · Stage One · the Plot — The investigators…"."""
    if state is None:
        return Content.styled("The setup: no card is dealt yet", "italic $text-muted")
    return assemble(
        (f"Day {state.day}", "bold"),
        (f" · {stage_title(state)}", "$secondary"),
        (f" · {phase_line(state)}", "italic"),
    )


def _marker(state: GameState, seat: int, names: CardText) -> Content:
    investigator = state.investigator(seat)
    if investigator.marker is None:
        return Content.styled("no marker", "$text-muted")
    glyph = MARKER_LOCKED if investigator.locked else MARKER_PLACED
    verb = "locked on" if investigator.locked else "leans to"
    return assemble((f"{glyph} {verb} ", ""), (names(investigator.marker), "bold"))


def seats_content(
    state: GameState, names: CardText, dreams: CardText, width: int | None = None
) -> Content:
    """Each investigator: progress, marker, and the dreams before them (wrapped to
    ``width``)."""
    lines = [heading("At the table")]
    for seat in state.config.seats:
        look = persona(seat)
        investigator = state.investigator(seat)
        line = assemble(look.tag(), " ", (state.config.name(seat), f"bold {look.colour}"))
        if state.stage is Stage.PLOT:
            line += Content("  ") + progress(state, seat)
        if state.phase is not Phase.ENDED:
            line += Content("  ") + _marker(state, seat, names)
        lines.append(line)
        lines += [dream_line(card, dreams, width, indent=2) for card in investigator.dreams]
    if state.group_dreams:
        lines.append(Content.styled("The group's dreams", "$secondary"))
        lines += [dream_line(card, dreams, width, indent=2) for card in state.group_dreams]
    ghost = persona(0)
    lines.append(
        assemble(
            ghost.tag(),
            (" The Ghost's refreshes ", "bold"),
            (ghost_refreshes(state), "$text-muted"),
        )
    )
    return Content("\n").join(lines)


def _markers_on(state: GameState, card: str) -> Content:
    tags = [
        persona(seat).tag()
        for seat in state.config.seats
        if state.investigator(seat).marker == card
    ]
    return Content("").join(tags)


def _after(markers: Content) -> Content:
    """`` AB`` after a card with markers on it; nothing after one without."""
    return Content(" ") + markers if markers.plain else Content("")


def _card_with_markers(state: GameState, card: str, names: CardText) -> Content:
    return Content(names(card)) + _after(_markers_on(state, card))


def tableau_content(state: GameState, names: CardText) -> Content:
    """The cards on the table, each with the letters of the markers on it."""
    if state.stage is Stage.CULPRIT:
        lines = [heading("The suspects (each investigator's three cards)")]
        for seat, group in enumerate(state.grouped_tableau, start=1):
            if not group:
                continue
            character, *rest = group
            lines.append(
                assemble(
                    persona(seat).tag(),
                    " ",
                    (names(character), "bold"),
                    _after(_markers_on(state, character)),
                    (f"  in {' · with '.join(names(card) for card in rest)}", "$text-muted"),
                )
            )
        return Content("\n").join(lines)
    lines = [heading("The tableau")]
    for category in CATEGORY_ORDER:
        cards = [_card_with_markers(state, card, names) for card in state.tableau.cards(category)]
        lines.append(assemble((f"{category.label:<10}", "$secondary"), Content(" · ").join(cards)))
    return Content("\n").join(lines)


def columns_content(state: GameState, truth: Reveal, names: CardText) -> Content:
    """The Ghost's columns and the culprit, as the reveal showed them."""
    lines = [heading("The Ghost's columns (revealed)")]
    for seat in state.config.seats:
        column = truth.column(seat)
        culprit = seat == truth.culprit
        cards = " · ".join(names(column.card(category)) for category in CATEGORY_ORDER)
        line = assemble(
            persona(seat).tag(),
            " ",
            (state.config.name(seat), "bold"),
            ("  ", ""),
            (cards, "bold $accent" if culprit else ""),
        )
        if culprit:
            line += Content.styled("  ☠ the culprit", "bold $accent")
        lines.append(line)
    return Content("\n").join(lines)
