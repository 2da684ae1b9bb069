"""The client's words and marks, without a terminal: prompts, calendar, keys, the proof."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from local_game import LocalGame
from tui_support import PACK, Clairvoyant

from domicile_p2p.net.adapters.discovery import DiscoveredTable, TableAdvert
from domicile_p2p.net.wire import TableState
from domicile_p2p.rules import GHOST, Difficulty, Give, Lock, Place, Refresh, apply, view
from domicile_p2p.sim import deal
from domicile_p2p.transcript.files import encode_transcript
from domicile_p2p.transcript.verify import verify
from domicile_tui.describe import (
    a_card,
    awaiting_dreams,
    ghost_refreshes,
    investigator_status,
    refreshes_left,
    still_deciding,
    your_prompt,
)
from domicile_tui.keys import HelpKeys, key_label
from domicile_tui.news import Check, Verification
from domicile_tui.screens.end import export_suggestion
from domicile_tui.screens.start import table_entry
from domicile_tui.verification import verification_of
from domicile_tui.widgets.calendar import calendar_line
from domicile_tui.widgets.card import marker_chips
from domicile_tui.widgets.verification import check_mark, verdict_line


def test_the_prompt_follows_an_investigator_through_a_day() -> None:
    state = deal(PACK, 2, Difficulty.NORMAL, seed=3)
    assert your_prompt(view(state, 1), PACK) == (
        "Wait for the Ghost's dreams; then seek a Character."
    )
    assert investigator_status(state, 1, PACK) == "awaits dreams"
    assert awaiting_dreams(state) == (1, 2)
    assert state.secrets is not None
    state = apply(state, Give(1, state.secrets.hand[:2]))
    assert your_prompt(view(state, 1), PACK).startswith("Read your dreams and seek a Character")
    card = state.tableau.character[0]
    state = apply(state, Place(1, card))
    name = PACK.investigator_card(card).name
    assert (
        your_prompt(view(state, 1), PACK)
        == f"Your marker is on {name}. Lock it (L) when you are sure."
    )
    assert investigator_status(state, 1, PACK) == f"leans to {name}"
    state = apply(state, Lock(1))
    assert investigator_status(state, 1, PACK) == f"locked on {name}"
    assert still_deciding(state) == (2,)
    ghost = your_prompt(view(state, GHOST), PACK)
    assert ghost == "Pick dreams (1-7), pick who (A-F), give (G) · 1 to serve"


def test_refreshes_left_follow_the_difficulty_table() -> None:
    easy = deal(PACK, 2, Difficulty.EASY, seed=1)
    assert refreshes_left(easy) == (None, 1)
    normal = deal(PACK, 2, Difficulty.NORMAL, seed=1)
    assert refreshes_left(normal) == (3, 1)
    after = apply(normal, Refresh())
    assert refreshes_left(after) == (2, 0)
    assert refreshes_left(deal(PACK, 2, Difficulty.DIFFICULT, seed=1)) == (1, 1)
    assert refreshes_left(deal(PACK, 2, Difficulty.VERY_DIFFICULT, seed=1)) == (0, 0)


def test_marks_say_it_without_colour() -> None:
    assert calendar_line(3).plain == "Day 3 of 7  ● ● ✦ ○ ○ ○ ○"
    assert marker_chips(((1, True), (3, False))).plain == "A◆ C◇"
    assert marker_chips(((1, True), (3, False)), compact=True).plain == "A◆C◇"
    assert check_mark(Check("hash chain", True)).plain == "✓"
    assert check_mark(Check("culprit", False)).plain == "✗"
    assert check_mark(Check("culprit", None)).plain == "–"


def test_key_labels_read_as_people_name_keys() -> None:
    assert key_label("question_mark") == "?"
    assert key_label("ctrl+p") == "Ctrl+P"
    assert key_label("g") == "G"
    assert key_label("escape") == "Esc"
    assert HelpKeys(tuple("1234567"), "").label == "1–7"
    assert HelpKeys(("up", "down", "left", "right"), "").label == "↑↓←→"
    assert HelpKeys(("enter", "space"), "").label == "Enter / Space"


def test_a_table_on_the_lan_is_described_in_one_line() -> None:
    advert = TableAdvert("Friday", 7, "a" * 64, 2, 4, "normal", TableState.LOBBY)
    table = DiscoveredTable("Friday", "127.0.0.1", 47470, advert)
    assert table_entry(table).plain == "Friday  table 7  2 of 4 seats free · normal"


def test_the_export_is_suggested_under_a_safe_name() -> None:
    path = export_suggestion("Ada's table / Friday", 4)
    assert path.name == "domicile-ada-s-table-friday-day4.transcript.json"
    assert path.parent == Path.home(), "never the directory the client started in"


def test_a_tampered_transcript_is_shown_as_unfair() -> None:
    game = LocalGame(
        pack=PACK,
        difficulty=Difficulty.EASY,
        names=("The Ghost", "Ada"),
        player_seat=1,
        player=_identity(),
        bot_seats=(0,),
        policy_factory=_policies,
    )
    game.set_up()
    mind = Clairvoyant(1, lambda: game.ghost.view().ghost)  # type: ignore[arg-type, return-value]
    for _ in range(500):
        if game.over:
            break
        wanted = game.bot_actions()
        if wanted:
            game.play(*wanted[0])
        action = mind.act(game.view(1))
        if action is not None:
            game.play(1, action)
    game.finish()
    assert game.verification().ok

    data = encode_transcript(game.game_table.events)
    lines = data.split(b"\n")
    # Someone swaps a dream card of a give after the fact: the host's signature no longer holds.
    victim = next(i for i, line in enumerate(lines) if b'"kind":"give"' in line)
    start = lines[victim].index(b'"dream-') + len(b'"dream-')
    digit = lines[victim][start + 2 : start + 3]
    swapped = b"1" if digit != b"1" else b"2"
    lines[victim] = lines[victim][: start + 2] + swapped + lines[victim][start + 3 :]
    verification = verification_of(verify(b"\n".join(lines)))
    assert not verification.ok
    assert verdict_line(verification).plain.startswith("✗ 1 check failed: do not trust this game")
    failed = [check for check in verification.checks if check.ok is False]
    assert [check.name for check in failed] == ["host signatures"]
    assert f"event {victim}" in failed[0].detail
    assert verification.reveal is None

    empty = Verification((), valid=False)
    assert verdict_line(empty).plain == "✗ The game could not be checked to the end."


def _identity():  # type: ignore[no-untyped-def]
    from domicile_p2p.identity import Identity

    return Identity.from_private_bytes(bytes(32))


def _policies(seat: int, pack: object, seed: int):  # type: ignore[no-untyped-def]
    from domicile_p2p.bots import make_policy

    return make_policy(seat, PACK, 5)


def test_an_item_is_sought_with_an_article_that_fits() -> None:
    assert [a_card(kind) for kind in ("Character", "Location", "Item")] == [
        "a Character",
        "a Location",
        "an Item",
    ]
    state = deal(PACK, 1, Difficulty.NORMAL, seed=3)
    item_seeker = replace(state.investigator(1), found=("char-01", "loc-01"))
    later = replace(state, investigators=(item_seeker,))
    assert "seek an Item" in your_prompt(view(later, 1), PACK)


def test_no_persona_is_named_like_a_card() -> None:
    from domicile_tui.personas import GHOST_PERSONA, INVESTIGATOR_PERSONAS

    def bare(name: str) -> str:
        return name.lower().removeprefix("the ").strip()

    cards = {bare(card.name) for card in PACK.investigator_cards}
    for look in (GHOST_PERSONA, *INVESTIGATOR_PERSONAS):
        assert bare(look.title) not in cards, f"{look.title} is also a card"
        assert bare(look.bot_name) not in cards, f"{look.bot_name} is also a card"


def test_the_investigators_can_count_the_ghosts_refreshes() -> None:
    normal = deal(PACK, 2, Difficulty.NORMAL, seed=1)
    assert ghost_refreshes(normal) == "3 left, 1 today"
    assert ghost_refreshes(apply(normal, Refresh())) == "2 left, 0 today"
    assert ghost_refreshes(deal(PACK, 2, Difficulty.EASY, seed=1)) == "1 left today"
    assert ghost_refreshes(deal(PACK, 2, Difficulty.VERY_DIFFICULT, seed=1)) == "none left"
