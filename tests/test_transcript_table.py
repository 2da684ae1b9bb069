"""The host's table: it orders what the protocol allows and refuses the rest, unchanged."""

from __future__ import annotations

from dataclasses import replace

import pytest
from transcript_support import Game, honest_game

from domicile_p2p.identity import Identity
from domicile_p2p.rules import GHOST, Place
from domicile_p2p.transcript import (
    Check,
    GameTable,
    HostMisuse,
    Kind,
    Rejected,
    SignedAction,
    Step,
    Violation,
)
from domicile_p2p.transcript.schema import (
    EntropyRevealBody,
    GhostCommitBody,
    LockBody,
    Opening,
    PlaceBody,
    RevealBody,
    SeanceBody,
    VerdictBody,
)


def refused(game: Game, action: SignedAction, check: Check, seat: int | None) -> Rejected:
    before = (game.game_table.events, game.game_table.head)
    with pytest.raises(Rejected) as caught:
        game.game_table.submit(action)
    assert caught.value.check is check, caught.value
    assert caught.value.seat == seat
    assert (game.game_table.events, game.game_table.head) == before
    return caught.value


def test_the_setup_runs_in_protocol_order_and_the_host_deals() -> None:
    game = Game(40)
    assert game.game_table.step is Step.COMMITMENTS
    assert game.game_table.awaiting() == (0, 1, 2)
    game.send(game.agents[1].commit_entropy())
    game.send(game.ghost.commit())
    assert game.game_table.awaiting() == (1,)
    game.send(game.agents[0].commit_entropy())
    assert game.game_table.step is Step.REVEALS
    game.send(game.agents[1].reveal_entropy())
    events = game.send(game.agents[0].reveal_entropy())
    assert [e.kind for e in events] == [Kind.ENTROPY_REVEAL, Kind.DEAL]
    assert game.game_table.step is Step.SLOT_COMMITMENTS
    assert game.game_table.awaiting() == (GHOST,)
    game.send(game.ghost.commit_slots())
    assert game.game_table.step is Step.PLAY
    assert game.replica.head == game.game_table.head


def test_a_signature_by_another_key_is_refused() -> None:
    game = Game(41)
    honest = game.ghost.commit()
    forged = SignedAction.create(
        Identity.from_private_bytes(bytes(32)),
        game=honest.game,
        seat=0,
        counter=1,
        kind=Kind.GHOST_COMMIT,
        body=honest.body,
    )
    refused(game, forged, Check.PLAYER_SIGNATURES, 0)


def test_an_action_for_another_game_is_refused() -> None:
    game = Game(41)
    other = SignedAction.create(
        game.keys.identities[0],
        game="00" * 16,
        seat=0,
        counter=1,
        kind=Kind.GHOST_COMMIT,
        body=GhostCommitBody("00" * 32),
    )
    refused(game, other, Check.PLAYER_SIGNATURES, 0)


def test_an_unknown_seat_is_refused() -> None:
    game = Game(41)
    stranger = SignedAction.create(
        game.keys.identities[0],
        game=game.game_table.game_id,
        seat=5,
        counter=1,
        kind=Kind.GHOST_COMMIT,
        body=GhostCommitBody("00" * 32),
    )
    refused(game, stranger, Check.PLAYER_SIGNATURES, 5)


def test_a_replayed_action_is_refused() -> None:
    game = Game(42)
    commit = game.ghost.commit()
    game.send(commit)
    error = refused(game, commit, Check.PLAYER_SIGNATURES, 0)
    assert "replayed" in error.reason


def test_a_skipped_counter_is_refused_and_resync_recovers() -> None:
    game = Game(42)
    game.ghost.sign(Kind.GHOST_COMMIT, GhostCommitBody(game.ghost.commitment.hex()))  # lost
    late = game.ghost.sign(Kind.GHOST_COMMIT, GhostCommitBody(game.ghost.commitment.hex()))
    refused(game, late, Check.PLAYER_SIGNATURES, 0)
    game.ghost.resync()
    game.send(game.ghost.commit())


def test_a_reveal_before_every_commitment_is_refused() -> None:
    game = Game(43)
    game.send(game.ghost.commit())
    game.send(game.agents[0].commit_entropy())
    early = game.agents[0].sign(
        Kind.ENTROPY_REVEAL, EntropyRevealBody(game.agents[0].entropy.hex())
    )
    refused(game, early, Check.EVENT_ORDER, 1)


def test_a_reveal_that_does_not_open_its_commitment_is_refused() -> None:
    game = Game(43)
    game.send(game.ghost.commit())
    for agent in game.agents:
        game.send(agent.commit_entropy())
    wrong = game.agents[0].sign(Kind.ENTROPY_REVEAL, EntropyRevealBody("00" * 32))
    refused(game, wrong, Check.ENTROPY, 1)


def test_a_second_ghost_commitment_is_refused() -> None:
    game = Game(43)
    game.send(game.ghost.commit())
    again = game.ghost.sign(Kind.GHOST_COMMIT, GhostCommitBody("00" * 32))
    refused(game, again, Check.EVENT_ORDER, 0)


def test_an_investigator_cannot_send_the_ghosts_kinds() -> None:
    game = Game(43)
    impostor = game.agents[0].sign(Kind.GHOST_COMMIT, GhostCommitBody("00" * 32))
    refused(game, impostor, Check.EVENT_ORDER, 1)


def test_moves_wait_for_the_slot_commitments() -> None:
    game = Game(44)
    game.send(game.ghost.commit())
    for agent in game.agents:
        game.send(agent.commit_entropy())
    for agent in game.agents:
        game.send(agent.reveal_entropy())
    early = game.agents[0].sign(Kind.LOCK, LockBody())
    error = refused(game, early, Check.EVENT_ORDER, 1)
    assert "not started" in error.reason
    game.agents[0].resync()
    game.send(game.agents[0].chat("waiting for the Ghost"))


def test_an_illegal_move_is_refused_with_the_rules_reason() -> None:
    game = Game(44).setup()
    wrong = game.agents[0].sign(Kind.PLACE, PlaceBody("char-01"))
    error = refused(game, wrong, Check.PUBLIC_RULES, 1)
    assert "no dreams yet" in error.reason


def test_a_correct_verdict_with_a_bad_opening_is_refused() -> None:
    game = Game(45).setup()
    game.play(game.oracles(frozenset({1})), until=lambda g: g.state.phase.value == "seance")
    verdicts = tuple(
        VerdictBody(seat, True, Opening("00" * 32, game.state.investigator(seat).marker or ""))
        for seat in game.state.active_seats
    )
    lie = game.ghost.sign(Kind.SEANCE, SeanceBody(verdicts))
    refused(game, lie, Check.OPENINGS, 0)


def test_the_game_over_statement_follows_the_last_move() -> None:
    game = Game(46).setup()
    game.play(game.oracles(frozenset({1, 2, 3, 4})))
    assert game.game_table.events[-1].kind is Kind.GAME_OVER
    assert game.game_table.step is Step.REVEAL
    assert game.game_table.awaiting() == (GHOST,)
    game.finish()
    assert game.game_table.step is Step.FINISHED
    with pytest.raises(HostMisuse):
        game.game_table.abort("too late")


def test_a_wrong_seed_is_refused_and_the_right_one_accepted() -> None:
    game = Game(46).setup()
    game.play(game.oracles(frozenset({1, 2, 3, 4})))
    wrong = game.ghost.sign(Kind.REVEAL, RevealBody("00" * 32))
    refused(game, wrong, Check.GHOST_SEED, 0)
    game.ghost.resync()
    game.finish()
    assert game.replica.finished


def test_a_reveal_that_proves_cheating_is_kept_as_the_proof() -> None:
    game = Game(20).setup()
    game.play(
        game.oracles(frozenset({7})),
        until=lambda g: g.state.day == 7 and g.state.phase.value == "seance",
    )
    lie = SeanceBody(tuple(VerdictBody(s, False, None) for s in game.state.active_seats))
    game.send(game.ghost.sign(Kind.SEANCE, lie))
    game.finish()
    assert game.game_table.events[-1].kind is Kind.REVEAL
    cheat = game.game_table.ledger.cheat
    assert cheat is not None and cheat.check is Check.VERDICTS
    assert isinstance(game.proof, Violation) and game.proof.party == "ghost"  # type: ignore[attr-defined]


def test_abort_stalled_names_the_seats_that_did_not_reveal() -> None:
    game = Game(47)
    game.send(game.ghost.commit())
    for agent in game.agents:
        game.send(agent.commit_entropy())
    game.send(game.agents[0].reveal_entropy())
    event = game.game_table.abort_stalled()
    assert event.kind is Kind.ABORT
    assert event.body.seats == (2,)  # type: ignore[attr-defined]
    assert "seat 2 (Bot 2) did not reveal its entropy" in event.body.reason  # type: ignore[attr-defined]
    assert game.game_table.step is Step.ABORTED
    refused(game, game.agents[1].reveal_entropy(), Check.EVENT_ORDER, 2)
    with pytest.raises(HostMisuse):
        game.game_table.abort_stalled()


def test_abort_stalled_needs_someone_to_wait_for() -> None:
    game = Game(47).setup()
    with pytest.raises(HostMisuse):
        game.game_table.abort_stalled()


def test_the_table_takes_bytes_and_json_objects() -> None:
    game = Game(48)
    game.game_table.submit(game.ghost.commit().to_json())
    game.game_table.submit(dict(game.agents[0].commit_entropy().value))
    assert len(game.game_table.events) == 3
    with pytest.raises(Rejected) as caught:
        game.game_table.submit(b"{}")
    assert caught.value.check is Check.FORMAT and caught.value.seat is None


def test_a_resumed_table_continues_the_same_chain() -> None:
    events = honest_game(1, 2)
    host = Game(1).keys.host
    cut = 25
    resumed = GameTable.resume(host, events[:cut])
    assert resumed.head == events[cut - 1].link().hex()
    assert resumed.next_seq == cut
    assert resumed.step is Step.PLAY
    game = Game(1)
    with pytest.raises(HostMisuse):
        GameTable.resume(game.keys.identities[1], events[:cut])


def test_resume_refuses_a_tampered_log() -> None:
    events = list(honest_game(1, 2)[:20])
    events[10] = replace(events[10], host_sig="00" * 64)
    with pytest.raises(Violation) as caught:
        GameTable.resume(Game(1).keys.host, events)
    assert caught.value.seq == 10 and caught.value.check is Check.HOST_SIGNATURES


def test_a_table_needs_its_own_host_key() -> None:
    game = Game(49)
    with pytest.raises(HostMisuse):
        GameTable(game.keys.identities[0], game.game_table.events[0])


def test_an_investigator_agent_refuses_moves_of_other_seats() -> None:
    game = Game(49).setup()
    with pytest.raises(Exception, match="cannot sign a move of seat 2"):
        game.agents[0].sign_move(Place(2, "char-01"))


def test_a_finished_log_whose_reveal_proves_a_cheat_resumes() -> None:
    game = Game(20).setup()
    game.play(
        game.oracles(frozenset({7})),
        until=lambda g: g.state.day == 7 and g.state.phase.value == "seance",
    )
    lie = SeanceBody(tuple(VerdictBody(s, False, None) for s in game.state.active_seats))
    game.send(game.ghost.sign(Kind.SEANCE, lie))
    game.finish()
    resumed = GameTable.resume(game.keys.host, game.game_table.events)
    assert resumed.step is Step.FINISHED
    assert resumed.ledger.cheat is not None
    with pytest.raises(HostMisuse):
        GameTable.resume(game.keys.host, [])
