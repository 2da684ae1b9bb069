"""The protocol's step table (``ledger.STEPS``): what each step accepts, owes, and when it is over.

The table is the one place that knows the steps; the host's table, the
agents, the network's seat and ``verify`` ask it.  These tests hold the
table to SPEC.md section 11 and pin the cases where the copies it replaced
used to disagree: an abort before any move (nothing is owed, the game is
over, yet the Ghost may still reveal) and an abort before the Ghost's
commitment (its agent must not sign a reveal the table refuses).
"""

from __future__ import annotations

import pytest
from transcript_support import Game

from domicile_p2p.rules import GHOST, Lock
from domicile_p2p.transcript import AgentMisuse, Check, Rejected, Step
from domicile_p2p.transcript.ledger import STEPS
from domicile_p2p.transcript.moves import PLAY_KINDS
from domicile_p2p.transcript.schema import (
    GHOST_KINDS,
    HOST_KINDS,
    INVESTIGATOR_KINDS,
    Kind,
    RevealBody,
)


def test_every_step_has_a_rule_and_each_role_sends_only_its_own_kinds() -> None:
    assert set(STEPS) == set(Step)
    for step, rule in STEPS.items():
        assert rule.ghost <= GHOST_KINDS, step
        assert rule.investigators <= INVESTIGATOR_KINDS, step
        assert rule.host <= HOST_KINDS - {Kind.GENESIS}, step
        assert rule.owed <= rule.ghost | rule.investigators | rule.host, step


def test_the_table_says_what_spec_section_11_says() -> None:
    chat_steps = {step for step, rule in STEPS.items() if Kind.CHAT in rule.investigators}
    assert chat_steps == {Step.SLOT_COMMITMENTS, Step.PLAY, Step.REVEAL}
    assert all(Kind.CHAT not in rule.ghost for rule in STEPS.values())  # the Ghost never speaks
    abortable = {step for step, rule in STEPS.items() if Kind.ABORT in rule.host}
    assert abortable == {
        Step.COMMITMENTS,
        Step.REVEALS,
        Step.SLOT_COMMITMENTS,
        Step.PLAY,
        Step.REVEAL,
    }
    moves = {step for step, rule in STEPS.items() if (PLAY_KINDS - {Kind.CHAT}) & rule.ghost}
    assert moves == {Step.PLAY}
    assert {step for step, rule in STEPS.items() if rule.final} == {Step.FINISHED, Step.ABORTED}
    assert STEPS[Step.PLAY].owed == frozenset()  # whose move it is, is the engine's


def test_each_setup_step_is_owed_until_sent_then_neither_owed_nor_accepted() -> None:
    game = Game(61)
    ledger = game.ledger
    assert [ledger.owed(seat) for seat in (GHOST, 1, 2)] == [
        Kind.GHOST_COMMIT,
        Kind.ENTROPY_COMMIT,
        Kind.ENTROPY_COMMIT,
    ]
    assert ledger.owed(None) is None
    game.send(game.agents[0].commit_entropy())
    assert game.ledger.owed(1) is None and not game.ledger.accepts(Kind.ENTROPY_COMMIT, 1)
    assert game.ledger.awaiting() == (GHOST, 2)
    assert game.agents[0].owed() is None
    game.send(game.ghost.owed() or pytest.fail("the Ghost owes its commitment"))
    game.send(game.agents[1].owed() or pytest.fail("seat 2 owes its commitment"))
    assert game.ledger.step is Step.REVEALS
    assert game.ledger.owed(GHOST) is None and game.ledger.owed(1) is Kind.ENTROPY_REVEAL
    assert not game.ledger.over


def test_after_an_abort_before_any_move_nothing_is_owed_yet_a_reveal_may_follow() -> None:
    game = Game(62).setup()
    game.game_table.abort("the host had to leave")
    game.replica.receive(game.game_table.events[-1])
    ledger = game.ledger
    assert ledger.step is Step.ABORTED and not ledger.played
    # Before the table, the ledger said the Ghost was awaited here while the network said the
    # game was over: a Ghost's client could send a reveal after the host had archived the game.
    assert ledger.awaiting() == () and ledger.owed(GHOST) is None
    assert ledger.over and game.game_table.over
    assert game.ghost.owed() is None
    # The spec still lets the Ghost reveal a seed it committed to: the table accepts it.
    assert ledger.accepts(Kind.REVEAL, GHOST)
    game.send(game.ghost.reveal())
    assert game.ledger.seed is not None and game.ledger.over


def test_after_an_abort_during_play_the_ghost_owes_its_reveal_until_it_is_made() -> None:
    game = Game(63).setup()
    game.play(game.oracles(frozenset({1})), until=lambda g: g.state.day == 2)
    game.game_table.abort("the host had to leave")
    game.replica.receive(game.game_table.events[-1])
    assert game.ledger.played
    assert game.ledger.awaiting() == (GHOST,) and not game.ledger.over
    reveal = game.ghost.owed()
    assert reveal is not None and reveal.kind is Kind.REVEAL
    game.send(reveal)
    assert game.ledger.over and game.ledger.awaiting() == ()


def test_the_ghost_agent_does_not_sign_a_reveal_of_a_seed_it_never_committed_to() -> None:
    game = Game(64)
    game.send(game.agents[0].commit_entropy())
    event = game.game_table.abort_stalled()
    game.replica.receive(event)
    assert event.body.seats == (GHOST, 2)  # type: ignore[attr-defined]
    assert game.ledger.over and not game.ledger.accepts(Kind.REVEAL, GHOST)
    # The agent used to sign this reveal, which the table then refused (event order).
    with pytest.raises(AgentMisuse, match="only when the game is over or aborted"):
        game.ghost.reveal()
    forged = game.ghost.sign(Kind.REVEAL, RevealBody(game.ghost.seed.hex()))
    with pytest.raises(Rejected) as caught:
        game.game_table.submit(forged)
    assert caught.value.check is Check.EVENT_ORDER


def test_moves_are_refused_outside_play_by_the_agent_and_the_ledger_alike() -> None:
    game = Game(65)
    with pytest.raises(AgentMisuse, match="not being played"):
        game.agents[0].sign_move(Lock(1))
    game.setup()
    assert game.ledger.step is Step.PLAY
    assert game.ledger.accepts(Kind.PLACE, 1) and not game.ledger.accepts(Kind.PLACE, GHOST)
    assert game.ledger.accepts(Kind.CHAT, 2) and not game.ledger.accepts(Kind.CHAT, GHOST)
    assert not game.ledger.accepts(Kind.SLOT_COMMITS, GHOST)
    with pytest.raises(AgentMisuse, match="the slot commitments come right after the deal"):
        game.ghost.commit_slots()
