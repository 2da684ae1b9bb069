"""``verify`` replays the game once (the seed read ahead) and reports what two replays did.

Before, ``verify`` folded the public game and then, at the reveal, replayed
it again with the Ghost's secrets.  Now it reads the seed ahead and plays
each move with the secrets during the fold (``reveal.Foresight``).  The
report must not change for any transcript: the first failing check, its
event, the party and the wording.  These tests verify mutated transcripts
both ways, the old way being the same ledger without the seed read ahead,
and compare the reports, the public state and the replay with the secrets.

The mutations that reach the replay are the ones a host colluding with every
seat could sign: any field of any move changed (a give of a card the Ghost
does not hold, or of one already face up; a verdict turned; a refresh or a
group give out of turn...), then the whole game signed again with every
key.  Bytes changed and fields changed under the host's signature alone
are mixed in.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from test_verify_fuzz import GAMES, _mutate, _rechain
from transcript_support import CARDS, honest_game, reseal, transcript

from domicile_p2p.canonical import CanonicalError, encode
from domicile_p2p.transcript import verify as verify_module
from domicile_p2p.transcript.codec import body_value, parse_body
from domicile_p2p.transcript.errors import Fault, MalformedEvent
from domicile_p2p.transcript.moves import PLAY_KINDS
from domicile_p2p.transcript.schema import GiveBody, GroupGiveBody
from domicile_p2p.transcript.verify import VerifyReport, verify
from protocol_tools.forge import entries_of


def _both_ways(data: bytes, monkeypatch: pytest.MonkeyPatch) -> tuple[VerifyReport, VerifyReport]:
    once = verify(data, jobs=1)
    with monkeypatch.context() as patched:
        patched.setattr(verify_module._Verification, "_foreseen_seed", lambda self: None)
        twice = verify(data, jobs=1)
    return once, twice


def _assert_same(data: bytes, monkeypatch: pytest.MonkeyPatch) -> VerifyReport:
    once, twice = _both_ways(data, monkeypatch)
    assert once.to_json() == twice.to_json()
    if once.replica is not None or twice.replica is not None:
        assert once.replica is not None and twice.replica is not None
        assert once.replica.state == twice.replica.state
        assert once.replica.ledger.replay == twice.replica.ledger.replay
        assert _fault(once.replica.ledger.cheat) == _fault(twice.replica.ledger.cheat)
    return once


def _fault(fault: Fault | None) -> tuple[object, ...] | None:
    return None if fault is None else (fault.check, fault.party, fault.reason, fault.seq)


def _swap_card(body: Any, data: st.DataObject) -> Any:
    """A give with one card swapped for any dream card (held, face up or in the deck)."""
    cards = list(body.cards)
    if not cards:
        return body_value(body)
    at = data.draw(st.integers(0, len(cards) - 1))
    cards[at] = data.draw(st.sampled_from(CARDS.dream))
    return {**body_value(body), "cards": cards}


@st.composite
def colluded(draw: st.DrawFn) -> bytes:
    """An honest game with one to three moves changed, all signed again with every key."""
    data = draw(st.data())
    seed, investigators = draw(st.sampled_from(GAMES))
    entries = entries_of(honest_game(seed, investigators))
    moves = [i for i, entry in enumerate(entries) if entry.kind in PLAY_KINDS]
    changed = False
    for index in draw(st.lists(st.sampled_from(moves), min_size=1, max_size=3, unique=True)):
        entry = entries[index]
        if isinstance(entry.body, GiveBody | GroupGiveBody) and draw(st.booleans()):
            value = _swap_card(entry.body, data)
        else:
            value = _mutate(body_value(entry.body), data)
        try:
            body = parse_body(entry.kind, value)
        except MalformedEvent:
            continue  # the schema refuses it: no signer could send it
        if body != entry.body:
            entries[index], changed = entry.with_body(body), True
    assume(changed)
    return transcript(reseal(entries, seed, investigators))


@st.composite
def tampered(draw: st.DrawFn) -> bytes:
    """Bytes changed, or one field changed and signed again by the host alone."""
    data = draw(st.data())
    game = draw(st.sampled_from(GAMES))
    events = honest_game(*game)
    honest = transcript(events)
    if draw(st.booleans()):
        at = draw(st.integers(0, len(honest) - 1))
        return honest[:at] + draw(st.binary(max_size=3)) + honest[at + draw(st.integers(0, 3)) :]
    index = draw(st.integers(1, len(events) - 1))
    values: list[dict[str, Any]] = [dict(event.value) for event in events]
    values[index] = _mutate(values[index], data)
    try:
        encode(values[index])
    except CanonicalError:
        assume(False)
    return _rechain(values, index, *game)


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=colluded())
def test_moves_signed_by_colluding_seats_get_the_same_report(data: bytes) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        report = _assert_same(data, monkeypatch)
    event("valid" if report.error is None else report.error.check)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=tampered())
def test_tampered_transcripts_get_the_same_report(data: bytes) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        _assert_same(data, monkeypatch)


@pytest.mark.parametrize("game", GAMES)
def test_honest_games_replay_once_to_the_same_end(
    game: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    report = _assert_same(transcript(honest_game(*game)), monkeypatch)
    assert report.valid
    assert report.replica is not None and report.replica.ledger.foresight is not None


def test_a_seed_that_is_not_the_ghosts_is_not_foreseen(monkeypatch: pytest.MonkeyPatch) -> None:
    # A reveal whose seed does not open the Ghost's commitment: the fold must not use it.
    seed, investigators = GAMES[0]
    entries = entries_of(honest_game(seed, investigators))
    last = entries[-1]
    value = body_value(last.body)
    value["seed"] = ("0" if value["seed"][0] != "0" else "1") + value["seed"][1:]
    entries[-1] = last.with_body(parse_body(last.kind, value))
    report = _assert_same(transcript(reseal(entries, seed, investigators)), monkeypatch)
    assert report.error is not None and report.error.check == "ghost seed"
    assert report.replica is not None and report.replica.ledger.foresight is None
