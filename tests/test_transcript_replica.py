"""Replicas check every event as it arrives; agents sign only what is true and can come back."""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise

import pytest
from transcript_support import Game, honest_game, reseal

from domicile_p2p.rules import (
    GHOST,
    FalseVerdict,
    Lock,
    Phase,
    Refresh,
    Seance,
    Stage,
    Verdict,
)
from domicile_p2p.transcript import (
    AgentMisuse,
    Check,
    Event,
    GhostAgent,
    InvestigatorAgent,
    Replica,
    Step,
    Violation,
    replay_public,
    replay_secret,
)
from domicile_p2p.transcript.files import encode_transcript, parse_transcript, write_transcript
from domicile_p2p.transcript.schema import GameOverBody
from protocol_tools.forge import entries_of

LOST = (1, 2)


def test_a_replica_accepts_an_honest_game_and_keeps_its_state() -> None:
    events = honest_game(*LOST)
    replica = Replica.from_events(events)
    assert replica.finished
    assert replica.step is Step.FINISHED
    assert replica.head == events[-1].link().hex()
    assert replica.events == events
    state = replica.state
    assert state is not None and state.phase is Phase.ENDED
    assert replay_public(events) == state
    final = replay_secret(events)
    assert final is not None and final.secrets is not None
    assert replica.ledger.seed is not None


def test_a_violation_names_the_event_and_leaves_the_replica_unchanged() -> None:
    events = honest_game(*LOST)
    replica = Replica.from_events(events[:20])
    head = replica.head
    tampered = replace(events[20], host_sig="00" * 64)
    with pytest.raises(Violation) as caught:
        replica.receive(tampered)
    assert (caught.value.seq, caught.value.party, caught.value.check) == (
        20,
        "host",
        Check.HOST_SIGNATURES,
    )
    assert replica.head == head and len(replica.events) == 20
    replica.receive(events[20])
    with pytest.raises(Violation) as caught:
        replica.receive(events[20])
    assert caught.value.check is Check.HASH_CHAIN


def test_a_game_over_that_the_moves_do_not_give_is_refused_at_once() -> None:
    events = honest_game(*LOST)
    entries = entries_of(events)
    over = next(i for i, e in enumerate(entries) if isinstance(e.body, GameOverBody))
    entries[over] = entries[over].with_body(GameOverBody("won", 7))
    forged = reseal(entries, *LOST)
    replica = Replica.from_events(forged[:over])
    with pytest.raises(Violation) as caught:
        replica.receive(forged[over])
    assert (caught.value.seq, caught.value.party, caught.value.check) == (
        over,
        "host",
        Check.GAME_OVER,
    )


def test_receive_value_parses_and_reports_garbage_as_the_hosts_fault() -> None:
    events = honest_game(*LOST)
    replica = Replica(events[0])
    replica.receive_value(events[1].value)
    with pytest.raises(Violation) as caught:
        replica.receive_value({"kind": "nonsense"})
    assert (caught.value.seq, caught.value.check, caught.value.party) == (2, Check.FORMAT, "host")


def test_an_empty_or_headless_history_is_refused() -> None:
    with pytest.raises(Violation):
        Replica.from_events([])
    events = honest_game(*LOST)
    with pytest.raises(Violation) as caught:
        Replica(events[1])
    assert caught.value.check is Check.GENESIS


def test_the_ghost_sees_its_secrets_and_investigators_do_not() -> None:
    game = Game(50).setup()
    ghost_view = game.ghost.view()
    assert ghost_view.ghost is not None and len(ghost_view.ghost.hand) == 7
    investigator_view = game.agents[0].view()
    assert investigator_view.ghost is None and investigator_view.state.secrets is None


def test_the_ghost_agent_refuses_to_sign_a_false_verdict() -> None:
    game = Game(51).setup()
    game.play(game.oracles(frozenset({1})), until=lambda g: g.state.phase is Phase.SEANCE)
    lies = tuple(Verdict(seat, False) for seat in game.state.active_seats)
    with pytest.raises(FalseVerdict):
        game.ghost.sign_move(Seance(lies))
    signed = game.ghost.seance()
    assert all(v.correct and v.opening is not None for v in signed.body.verdicts)  # type: ignore[attr-defined]
    game.send(signed)


def test_agents_refuse_what_the_protocol_does_not_allow_now() -> None:
    game = Game(52)
    with pytest.raises(AgentMisuse):
        game.agents[0].reveal_entropy()
    with pytest.raises(AgentMisuse):
        game.ghost.commit_slots()
    with pytest.raises(AgentMisuse):
        game.ghost.reveal()
    with pytest.raises(AgentMisuse):
        game.ghost.view()
    game.setup()
    with pytest.raises(AgentMisuse):
        game.ghost.commit()
    with pytest.raises(AgentMisuse):
        game.agents[0].commit_entropy()
    with pytest.raises(AgentMisuse):
        game.ghost.sign_move(Refresh(by=1))


def test_an_agent_must_hold_its_seats_key() -> None:
    game = Game(53)
    with pytest.raises(AgentMisuse):
        InvestigatorAgent(game.keys.identities[2], 1, game.replica)
    with pytest.raises(AgentMisuse):
        InvestigatorAgent(game.keys.identities[0], 0, game.replica)
    with pytest.raises(AgentMisuse):
        GhostAgent(game.keys.identities[0], game.replica, seed=bytes(31))
    with pytest.raises(AgentMisuse):
        InvestigatorAgent(game.keys.identities[1], 9, game.replica)


def test_a_ghost_with_a_lost_seed_cannot_go_on() -> None:
    game = Game(54)
    game.send(game.ghost.commit())
    for agent in game.agents:
        game.send(agent.commit_entropy())
    for agent in game.agents:
        game.send(agent.reveal_entropy())
    amnesiac = GhostAgent(game.keys.identities[GHOST], game.replica, seed=bytes(32))
    with pytest.raises(AgentMisuse, match="lost seed"):
        amnesiac.commit_slots()


def test_a_crashed_ghost_comes_back_from_its_seed_and_the_events(tmp_path) -> None:  # type: ignore[no-untyped-def]
    game = Game(55).setup()
    game.play(game.oracles(frozenset({1, 2})), until=lambda g: g.state.day == 3)
    path = tmp_path / "log.jsonl"
    write_transcript(path, game.game_table.events)
    events = parse_transcript(path.read_bytes())
    back = GhostAgent.restore(game.keys.identities[GHOST], game.ghost.seed, events)
    assert back.state == game.ghost.state
    assert back.next_counter == game.ghost.next_counter
    signed = back.sign_move(Refresh())
    assert signed.counter == game.ghost.next_counter


def test_an_investigator_comes_back_with_its_entropy() -> None:
    game = Game(56)
    game.send(game.ghost.commit())
    for agent in game.agents:
        game.send(agent.commit_entropy())
    entropy = game.agents[0].entropy
    back = InvestigatorAgent.restore(game.keys.identities[1], 1, entropy, game.game_table.events)
    game.send(back.reveal_entropy())
    lost = InvestigatorAgent(game.keys.identities[2], 2, game.replica, bytes(32))
    with pytest.raises(AgentMisuse, match="lost entropy"):
        lost.reveal_entropy()


def test_transcript_files_round_trip(tmp_path) -> None:  # type: ignore[no-untyped-def]
    events = honest_game(*LOST)
    path = tmp_path / "game.jsonl"
    write_transcript(path, events)
    data = path.read_bytes()
    assert data == encode_transcript(events) and data.endswith(b"\n")
    assert data.count(b"\n") == len(events)
    assert [e.line for e in parse_transcript(data)] == [e.line for e in events]


def test_every_event_line_is_what_the_chain_hashes() -> None:
    events: tuple[Event, ...] = honest_game(*LOST)
    for before, after in pairwise(events):
        assert after.prev == before.link().hex()


def test_an_agent_does_each_setup_step_once_and_moves_only_in_play() -> None:
    game = Game(57)
    game.send(game.ghost.commit())
    game.send(game.agents[0].commit_entropy())
    with pytest.raises(AgentMisuse, match="already committed"):
        game.agents[0].commit_entropy()
    game.send(game.agents[1].commit_entropy())
    game.send(game.agents[0].reveal_entropy())
    with pytest.raises(AgentMisuse, match="already revealed"):
        game.agents[0].reveal_entropy()
    with pytest.raises(AgentMisuse, match="not been dealt"):
        game.agents[0].view()
    with pytest.raises(AgentMisuse, match="only once the tableau is dealt"):
        game.ghost.state  # noqa: B018
    game.send(game.agents[1].reveal_entropy())
    with pytest.raises(AgentMisuse, match="not being played"):
        game.agents[0].sign_move(Lock(1))
    with pytest.raises(AgentMisuse, match="not being played"):
        game.ghost.sign_move(Refresh())
    with pytest.raises(AgentMisuse, match="entropy is 32 bytes"):
        InvestigatorAgent(game.keys.identities[1], 1, game.replica, bytes(3))


def test_the_ghost_agent_tells_the_truth_in_stage_two() -> None:
    game = Game(58).setup()
    game.play(
        game.oracles(frozenset({1, 2, 3})),
        until=lambda g: g.state.phase is Phase.SEANCE and g.state.stage is Stage.CULPRIT,
    )
    signed = game.ghost.seance()
    accused = game.state.investigators[0].marker
    truth = accused == game.secrets.column(game.secrets.culprit).character
    assert signed.body.correct is truth  # type: ignore[attr-defined]
    assert (signed.body.opening is not None) is truth  # type: ignore[attr-defined]
    game.send(signed)


def test_a_replica_shows_the_phase_and_the_last_verdicts() -> None:
    game = Game(59)
    assert game.replica.phase is None and game.replica.last_verdicts == ()
    game.setup()
    assert game.replica.phase is Phase.DREAMS
    game.play(game.oracles(frozenset({1})), until=lambda g: g.state.day == 2)
    assert [v.seat for v in game.replica.last_verdicts] == [1, 2]
    assert all(v.correct for v in game.replica.last_verdicts)
    assert {o.slot for o in game.replica.ledger.openings} == {
        "column/1/character",
        "column/2/character",
    }
