"""Who may do what, and when: seats, the Ghost's silence, chat, phases, the end of the game."""

from __future__ import annotations

from functools import cache

import pytest
from rules_support import Replay, give_one, manual_game, scripted_games

from domicile_p2p.rules import (
    GHOST,
    MAX_CHAT_LENGTH,
    MOVES,
    Action,
    BadChat,
    Chat,
    CulpritSeance,
    GameOver,
    GhostMayNotSpeak,
    GhostOnly,
    Give,
    GroupGive,
    InvestigatorOnly,
    Lock,
    Phase,
    Place,
    Refresh,
    Seance,
    Stage,
    UnknownSeat,
    Unlock,
    Verdict,
    WrongPhase,
    apply,
)

# One representative of every action, and how a refusal names it.
SAMPLES: dict[type, tuple[Action, str]] = {
    Give: (Give(1, ("dream-84",)), "give dream cards"),
    GroupGive: (GroupGive(("dream-82", "dream-83", "dream-84")), "give dream cards"),
    Refresh: (Refresh(), "refresh the hand"),
    Place: (Place(1, "char-01"), "move a marker"),
    Lock: (Lock(1), "lock a marker"),
    Unlock: (Unlock(1), "unlock a marker"),
    Seance: (Seance((Verdict(1, False), Verdict(2, False))), "announce the séance"),
    CulpritSeance: (CulpritSeance(False), "announce the séance"),
}

PHASE_WORDS = {
    (Stage.PLOT, Phase.DREAMS): "the Ghost is sending dreams",
    (Stage.PLOT, Phase.INVESTIGATION): "the investigators are deciding",
    (Stage.PLOT, Phase.SEANCE): "the séance is under way",
    (Stage.CULPRIT, Phase.DREAMS): "the Ghost is sending the group its three dreams",
    (Stage.CULPRIT, Phase.INVESTIGATION): "the investigators are choosing the culprit",
    (Stage.CULPRIT, Phase.SEANCE): "the séance of the accusation is under way",
}


@cache
def _states_by_position() -> dict[tuple[Stage, Phase], Replay]:
    found: dict[tuple[Stage, Phase], Replay] = {}
    for game in scripted_games():
        for replay in game:
            found.setdefault((replay.secret.stage, replay.secret.phase), replay)
    return found


@pytest.mark.parametrize("position", list(PHASE_WORDS))
def test_an_action_out_of_its_phase_is_refused_naming_the_phase(
    position: tuple[Stage, Phase],
) -> None:
    replay = _states_by_position()[position]
    refused_types = set(SAMPLES) - MOVES[position]
    assert refused_types
    for action_type in refused_types:
        action, words = SAMPLES[action_type]
        for state in (replay.secret, replay.public):
            with pytest.raises(WrongPhase) as caught:
                apply(state, action)
            assert str(caught.value) == f"no one may {words} now: {PHASE_WORDS[position]}"


@pytest.mark.parametrize("position", [(Stage.PLOT, Phase.ENDED), (Stage.CULPRIT, Phase.ENDED)])
def test_after_the_end_only_chat_remains(position: tuple[Stage, Phase]) -> None:
    replay = _states_by_position()[position]
    outcome = replay.secret.outcome
    assert outcome is not None
    for action, _ in SAMPLES.values():
        for state in (replay.secret, replay.public):
            with pytest.raises(GameOver, match=f"the game is over \\({outcome}\\)"):
                apply(state, action)
    assert apply(replay.public, Chat(2, "good game")) == replay.public


@pytest.mark.parametrize(
    ("action", "words"),
    [
        (Give(2, ("dream-01",), by=1), "only the Ghost may give dream cards"),
        (GroupGive(("dream-01", "dream-02", "dream-03"), by=2), "only the Ghost may give dream"),
        (Refresh(by=1), "only the Ghost may refresh the hand"),
        (Seance((), by=1), "only the Ghost may announce the séance"),
        (CulpritSeance(True, by=2), "only the Ghost may announce the séance"),
        (Refresh(by=7), "only the Ghost may refresh the hand"),
    ],
)
def test_only_the_ghost_gives_refreshes_and_judges(action: Action, words: str) -> None:
    replay = manual_game(2)
    for state in (replay.secret, replay.public):
        with pytest.raises(GhostOnly) as caught:
            apply(state, action)
        assert words in str(caught.value)


@pytest.mark.parametrize("action", [Place(GHOST, "char-01"), Lock(GHOST), Unlock(GHOST)])
def test_the_ghost_has_no_marker(action: Action) -> None:
    replay = give_one(manual_game(2), 1)
    for state in (replay.secret, replay.public):
        with pytest.raises(InvestigatorOnly, match="the Ghost has no marker"):
            apply(state, action)


@pytest.mark.parametrize(
    "action",
    [Place(3, "char-01"), Lock(-1), Unlock(99), Chat(3, "hello"), Give(3, ("dream-01",))],
)
def test_a_seat_that_is_not_at_the_table(action: Action) -> None:
    replay = manual_game(2)
    for state in (replay.secret, replay.public):
        with pytest.raises(UnknownSeat, match="there is no investigator in seat"):
            apply(state, action)


def test_the_ghost_is_given_no_dreams() -> None:
    replay = manual_game(2)
    with pytest.raises(UnknownSeat, match="there is no investigator in seat 0"):
        apply(replay.secret, Give(GHOST, ("dream-01",)))


def test_the_ghost_never_speaks() -> None:
    for game in scripted_games()[:1]:
        for replay in game[::10]:
            for state in (replay.secret, replay.public):
                with pytest.raises(GhostMayNotSpeak, match="the Ghost may never speak"):
                    apply(state, Chat(GHOST, "boo"))


def test_investigators_may_chat_at_any_time() -> None:
    for game in scripted_games():
        for replay in game:
            for seat in replay.secret.config.seats:
                assert apply(replay.secret, Chat(seat, "I think it is the lighthouse")) is (
                    replay.secret
                )


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "a chat message cannot be empty"),
        ("  \n\t", "a chat message cannot be empty"),
        ("x" * (MAX_CHAT_LENGTH + 1), f"a chat message has at most {MAX_CHAT_LENGTH} characters"),
    ],
)
def test_a_chat_message_is_neither_empty_nor_too_long(text: str, words: str) -> None:
    replay = manual_game(2)
    for state in (replay.secret, replay.public):
        with pytest.raises(BadChat) as caught:
            apply(state, Chat(1, text))
        assert str(caught.value) == words
    assert apply(replay.public, Chat(2, "y" * MAX_CHAT_LENGTH)) == replay.public
