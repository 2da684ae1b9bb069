"""``view`` and ``public``: what each seat may see (RULES.md, "Visibility")."""

from __future__ import annotations

import pytest
from rules_support import give_one, manual_game, play_round, scripted_games

from domicile_p2p.rules import (
    GHOST,
    GhostKnowledge,
    UnknownSeat,
    View,
    public,
    view,
)


def test_an_investigator_sees_the_public_state_only() -> None:
    replay = play_round(manual_game(3), correct={2})
    for seat in (1, 2, 3):
        seen = view(replay.secret, seat)
        assert seen == View(seat, replay.public, None)
        assert seen.state.secrets is None


def test_the_ghost_sees_its_columns_culprit_and_hand_but_not_the_deck_order() -> None:
    replay = give_one(manual_game(3, culprit=3), 1)
    seen = view(replay.secret, GHOST)
    assert seen.state == replay.public
    assert seen.ghost == GhostKnowledge(replay.secrets.columns, 3, replay.secrets.hand)
    assert seen.ghost.column(2) == replay.secrets.column(2)
    # The deck is face down, even to the Ghost: its order is nowhere in the view.
    assert not hasattr(seen.ghost, "deck")
    assert seen.state.secrets is None
    assert seen.state.deck_size == len(replay.secrets.deck)


def test_a_public_state_has_no_ghost_knowledge_to_show() -> None:
    replay = manual_game(2)
    assert view(replay.public, GHOST) == View(GHOST, replay.public, None)


@pytest.mark.parametrize("seat", [-1, 3, 7])
def test_a_view_for_a_seat_that_is_not_at_the_table(seat: int) -> None:
    replay = manual_game(2)
    with pytest.raises(UnknownSeat, match=f"there is no seat {seat} at this table"):
        view(replay.secret, seat)


def test_every_step_of_a_game_shows_the_same_to_every_investigator() -> None:
    for game in scripted_games():
        for replay in game:
            assert public(replay.secret) == replay.public
            views = {view(replay.secret, seat).state for seat in replay.secret.config.seats}
            assert views == {replay.public}


def test_views_given_the_public_state_share_it_and_show_the_same() -> None:
    replay = give_one(manual_game(3, culprit=2), 1)
    shared = public(replay.secret)
    for seat in (GHOST, 1, 2, 3):
        seen = view(replay.secret, seat, shared)
        assert seen == view(replay.secret, seat)
        assert seen.state is shared
    assert view(replay.secret, GHOST, shared).ghost is not None
    with pytest.raises(UnknownSeat, match="there is no seat 4 at this table"):
        view(replay.secret, 4, shared)
