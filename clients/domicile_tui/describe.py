"""What the table looks like in words: pure functions from a view to text.

Screens and widgets use these to say what is going on ("the Ghost is
sending dreams", "Mina is still deciding", "seek a Location") so that the
wording lives in one place and can be tested without a terminal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domicile_p2p.rules import (
    DIFFICULTY_RULES,
    GHOST,
    LAST_DAY,
    Difficulty,
    GameState,
    Outcome,
    Phase,
    Stage,
)
from domicile_tui.framing import LOST_SHORT, WON_SHORT

if TYPE_CHECKING:
    from domicile_p2p.client_api import Pack
    from domicile_p2p.rules import View


def stage_title(state: GameState) -> str:
    if state.stage is Stage.PLOT:
        return "Stage One · the Plot"
    return "Stage Two · the Culprit"


def phase_line(state: GameState) -> str:
    """What the whole table is doing, capitalised: "The Ghost is sending dreams"."""
    from domicile_p2p.rules import PHASE_DESCRIPTIONS  # the moves and phases: with a game

    text = PHASE_DESCRIPTIONS[(state.stage, state.phase)]
    if state.outcome is Outcome.WON:
        text = WON_SHORT
    elif state.outcome is Outcome.LOST:
        text = LOST_SHORT
    return text[0].upper() + text[1:]


def days_left(state: GameState) -> int:
    """Séances left after today's (0 on the last day)."""
    return LAST_DAY - state.day


def awaiting_dreams(state: GameState) -> tuple[int, ...]:
    """Investigators the Ghost still has to serve this round (Stage One), in seat order."""
    from domicile_p2p.rules import due  # the phase table: with a game

    return due(state).to_serve


def still_deciding(state: GameState) -> tuple[int, ...]:
    """Active investigators whose marker is not locked yet (while markers may move)."""
    from domicile_p2p.rules import due

    return due(state).undecided


def investigator_status(state: GameState, seat: int, pack: Pack) -> str:
    """One investigator's situation in a few words."""
    investigator = state.investigator(seat)
    if state.phase is Phase.ENDED:
        return "the game is over"
    if state.stage is Stage.PLOT and investigator.done:
        return "has all three cards"
    if state.stage is Stage.PLOT and not investigator.served:
        return "awaits dreams"
    if state.stage is Stage.CULPRIT and state.phase is Phase.DREAMS:
        return "awaits the group's dreams"
    if investigator.marker is None:
        return "is deciding"
    name = pack.investigator_card(investigator.marker).name
    if investigator.locked:
        return f"locked on {name}"
    return f"leans to {name}"


def watching_prompt(view: View) -> str:
    """A spectator's line: whose view of the table it sees (a public one), and that it
    cannot act."""
    state = view.state
    if state.phase is Phase.ENDED:
        return phase_line(state)
    name = state.config.name(view.seat)
    return f"Watching: the table as {name} sees it. A spectator cannot play or talk."


def your_prompt(view: View, pack: Pack) -> str:
    """What this seat can do right now, in one sentence."""
    state = view.state
    if state.phase is Phase.ENDED:
        return phase_line(state)
    if view.seat == GHOST:
        return _ghost_prompt(state)
    me = state.investigator(view.seat)
    if state.stage is Stage.CULPRIT:
        if state.phase is Phase.DREAMS:
            return "The Ghost is choosing three dreams for the whole group."
        if state.phase is Phase.SEANCE:
            return "The séance: the Ghost weighs your accusation."
        if me.locked:
            return "Your accusation is locked. Everyone must agree on one Character."
        return "Agree on the culprit: put your marker on a Character, then lock it (L)."
    if me.done:
        return "You have found all three cards. Help the others in the chat."
    if state.phase is Phase.SEANCE:
        return "The séance is under way…"
    seeking = me.seeking
    assert seeking is not None
    if not me.served:
        return f"Wait for the Ghost's dreams; then seek {a_card(seeking.label)}."
    if me.locked:
        return "Your marker is locked. Unlock it (L) to think again."
    if me.marker is None:
        return f"Read your dreams and seek {a_card(seeking.label)}: choose a card (Enter)."
    marked = pack.investigator_card(me.marker).name
    return f"Your marker is on {marked}. Lock it (L) when you are sure."


def a_card(kind: str) -> str:
    """ "a Character", "a Location", "an Item"."""
    return f"{'an' if kind[:1].lower() in 'aeiou' else 'a'} {kind}"


def refreshes_left(state: GameState) -> tuple[int | None, int]:
    """The Ghost's refreshes still allowed (``None``: no limit this game) and those left this
    round.  Public: every seat may count them (RULES.md, Visibility)."""
    from domicile_p2p.rules import due

    now = due(state)
    return now.refreshes_left, now.refreshes_now


def ghost_refreshes(state: GameState) -> str:
    """The Ghost's refreshes left, for the investigators: "3 left, 1 today" (short: it fits
    the side panel at 80 columns)."""
    in_game, now = refreshes_left(state)
    if in_game is None:
        return f"{now} left today"
    if in_game == 0:
        return "none left"
    return f"{in_game} left, {now} today"


def _ghost_prompt(state: GameState) -> str:
    if state.stage is Stage.CULPRIT:
        if state.phase is Phase.DREAMS:
            return "Choose exactly three dreams for the whole group, then give them (G)."
        if state.phase is Phase.SEANCE:
            return "The séance is announced."
        return "The investigators are choosing the culprit. You may only watch."
    if state.phase is Phase.DREAMS:
        waiting = len(awaiting_dreams(state))
        return f"Pick dreams (1-7), pick who (A-F), give (G) · {waiting} to serve"
    if state.phase is Phase.SEANCE:
        return "The séance is announced."
    return "Every investigator has dreams. Watch the markers move."


def difficulty_note(difficulty: Difficulty, investigators: int) -> str:
    """What a difficulty means at a table of ``investigators``: the tableau, the refreshes."""
    rules = DIFFICULTY_RULES[difficulty]
    cards = rules.tableau_size(investigators)
    if rules.refreshes_per_game == 0 or rules.refreshes_per_round == 0:
        refresh = "no hand refreshes"
    elif rules.refreshes_per_game is None:
        refresh = "one hand refresh a round"
    else:
        plural = "es" if rules.refreshes_per_game != 1 else ""
        refresh = f"{rules.refreshes_per_game} hand refresh{plural} a game, one a round at most"
    return f"{cards} cards per category on the tableau · {refresh}"
