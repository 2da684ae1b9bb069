"""``verify`` on one thread and on several: the same report, the same first failure.

With worker threads, signatures are checked while the game is replayed ahead
of time; the report must still read as if every check ran in order on one
thread.  These transcripts each hold more than one fault, so the order in
which the checks are reported decides which one is named.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_verify_fuzz import GAMES, _mutate, _rechain
from transcript_support import CARDS, forge, honest_game, index_of, transcript

from domicile_p2p.canonical import CanonicalError, encode
from domicile_p2p.transcript import Check, Event
from domicile_p2p.transcript.batch import CHUNK, SignatureBatch, default_jobs
from domicile_p2p.transcript.files import encode_transcript
from domicile_p2p.transcript.schema import Kind, PlaceBody
from domicile_p2p.transcript.verify import VerifyReport, _Verification, verify
from protocol_tools.forge import Entry

LOST = (1, 2)
JOBS = (1, 2, 5)


def reports(data: bytes) -> list[VerifyReport]:
    """The report for every number of threads; all the same, or the test fails."""
    made = [verify(data, jobs=jobs) for jobs in JOBS]
    first = made[0].to_json()
    for jobs, report in zip(JOBS, made, strict=True):
        assert report.to_json() == first, f"jobs={jobs} differs from jobs=1"
    return made


def failure(data: bytes) -> tuple[str, int | None, str | None]:
    report = reports(data)[0]
    assert report.error is not None, report.summary
    return report.error.check, report.error.seq, report.error.party


def _forged_place(entries: list[Entry], *, keep_signature: bool, nth: int = 0) -> list[Entry]:
    """Place another card in the ``nth`` place (the old signature kept, or signed again)."""
    places = [i for i, entry in enumerate(entries) if entry.kind is Kind.PLACE]
    at = places[nth]
    body = entries[at].body
    assert isinstance(body, PlaceBody)
    other = next(card for card in CARDS.character if card != body.card)
    if keep_signature:
        entries[at] = replace(entries[at], body=PlaceBody(other))
    else:
        entries[at] = entries[at].with_body(PlaceBody(other))
    return entries


def _bad_last_host_signature(events: list[Event]) -> bytes:
    """The transcript with the last event's host signature broken (no later link to break)."""
    lines = transcript(events).split(b"\n")
    last = lines[-2]
    at = last.index(b'"host_sig":"') + len(b'"host_sig":"')
    digit = b"0" if last[at : at + 1] != b"0" else b"1"
    lines[-2] = last[:at] + digit + last[at + 1 :]
    return b"\n".join(lines)


def test_an_honest_game_is_the_same_report_on_any_number_of_threads() -> None:
    report = reports(transcript(honest_game(*LOST)))[0]
    assert report.valid, report.summary


def test_a_bad_host_signature_after_a_bad_move_is_named_first() -> None:
    def illegal(entries: list[Entry]) -> list[Entry]:
        place = index_of(entries, lambda e: getattr(e, "kind", None) is Kind.PLACE)
        entries[place] = entries[place].with_body(PlaceBody("item-01"))  # an Item first
        return entries

    events = forge(*LOST, illegal)
    assert verify(encode_transcript(events)).error.check == Check.PUBLIC_RULES.value  # type: ignore[union-attr]
    data = _bad_last_host_signature(events)
    assert failure(data) == (Check.HOST_SIGNATURES.value, len(events) - 1, "host")
    for report in reports(data):
        assert report.replica is None  # the game replayed ahead of time is not reported
        assert report.outcome is None
        not_reached = {n.name for n in report.not_checked if n.detail == "not reached"}
        assert Check.PUBLIC_RULES.value in not_reached


def test_a_bad_host_signature_is_named_before_an_earlier_forged_action() -> None:
    events = forge(*LOST, lambda entries: _forged_place(entries, keep_signature=True))
    assert failure(_bad_last_host_signature(events)) == (
        Check.HOST_SIGNATURES.value,
        len(events) - 1,
        "host",
    )


def test_the_first_of_a_forged_signature_and_a_wrong_counter_is_named() -> None:
    def both(entries: list[Entry], forged: int, skipped: int) -> list[Entry]:
        entries = _forged_place(entries, keep_signature=True, nth=forged)
        places = [i for i, entry in enumerate(entries) if entry.kind is Kind.PLACE]
        at = places[skipped]
        counter = entries[at].counter
        assert counter is not None
        entries[at] = replace(entries[at], counter=counter + 5, sig=None)
        return entries

    for forged, skipped in ((0, 3), (3, 0)):
        events = forge(*LOST, lambda entries, f=forged, s=skipped: both(entries, f, s))
        places = [i for i, event in enumerate(events) if event.kind is Kind.PLACE]
        check, seq, party = failure(encode_transcript(events))
        assert (check, seq, party) == (Check.PLAYER_SIGNATURES.value, places[0], "host")
        reason = reports(encode_transcript(events))[0].error.reason  # type: ignore[union-attr]
        assert ("counter" in reason) is (skipped == 0)


def test_a_forged_signature_beats_a_wrong_counter_at_the_same_event() -> None:
    def both(entries: list[Entry]) -> list[Entry]:
        entries = _forged_place(entries, keep_signature=True)
        place = index_of(entries, lambda e: getattr(e, "kind", None) is Kind.PLACE)
        counter = entries[place].counter
        assert counter is not None
        entries[place] = replace(entries[place], counter=counter + 1)  # signature still stale
        return entries

    events = forge(*LOST, both)
    place = index_of(events, lambda e: getattr(e, "kind", None) is Kind.PLACE)
    assert failure(encode_transcript(events)) == (Check.PLAYER_SIGNATURES.value, place, "host")
    reason = reports(encode_transcript(events))[0].error.reason  # type: ignore[union-attr]
    assert "signature" in reason and "counter" not in reason


@pytest.mark.parametrize("nth", [0, 4, 8])
def test_the_first_bad_signature_is_named_whichever_chunk_holds_it(nth: int) -> None:
    def two(entries: list[Entry]) -> list[Entry]:
        entries = _forged_place(entries, keep_signature=True, nth=nth + 4)
        return _forged_place(entries, keep_signature=True, nth=nth)

    events = forge(*LOST, two)
    places = [i for i, event in enumerate(events) if event.kind is Kind.PLACE]
    assert failure(encode_transcript(events)) == (
        Check.PLAYER_SIGNATURES.value,
        places[nth],
        "host",
    )


def test_an_error_of_the_game_pass_ahead_of_time_waits_for_the_signatures(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(self: _Verification) -> None:
        raise RuntimeError("the replay broke")

    monkeypatch.setattr(_Verification, "_fold", broken)
    events = list(honest_game(*LOST))
    for jobs in JOBS:
        report = verify(_bad_last_host_signature(events), jobs=jobs)
        assert report.error is not None and report.error.check == Check.HOST_SIGNATURES.value
        with pytest.raises(RuntimeError, match="the replay broke"):
            verify(transcript(events), jobs=jobs)


def test_jobs_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        verify(transcript(honest_game(*LOST)), jobs=0)
    assert default_jobs() >= 1


def test_a_batch_answers_in_order_whichever_thread_checked() -> None:
    events = list(honest_game(*LOST))
    data = transcript(events)
    report = verify(data)
    assert report.replica is not None
    table_setup = report.replica.table_setup
    game_id = table_setup.game_id
    checks = [
        (table_setup.host_key, bytes.fromhex(event.host_sig), event.host_message(game_id))
        for event in events
    ]
    wrong = {1, CHUNK, 3 * CHUNK + 2, len(checks) - 1}
    for index in wrong:
        key, signature, message = checks[index]
        checks[index] = (key, signature, message + b"!")
    expected = [index not in wrong for index in range(len(checks))]
    for workers in (0, 1, 3):
        with SignatureBatch(checks, workers=workers) as batch:
            assert batch.parallel is (workers > 0)
            assert batch.verdicts() == expected


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_mutated_transcript_gets_the_same_report_on_any_number_of_threads(
    data: st.DataObject,
) -> None:
    game = data.draw(st.sampled_from(GAMES))
    events = honest_game(*game)
    index = data.draw(st.integers(1, len(events) - 1))
    values = [dict(event.value) for event in events]
    values[index] = _mutate(values[index], data)
    try:
        if data.draw(st.booleans()):
            mutated = b"".join(encode(v) + b"\n" for v in values)
        else:
            mutated = _rechain(values, index, *game)
    except CanonicalError:
        assume(False)
    reports(mutated)


class _BrokenKey:
    def verifies(self, signature: bytes, message: bytes) -> bool:
        raise RuntimeError("no such key")


@pytest.mark.parametrize("workers", [0, 2])
def test_an_error_on_any_thread_reaches_the_caller(workers: int) -> None:
    checks = [(_BrokenKey(), b"", b"")] * (3 * CHUNK)
    with (
        SignatureBatch(checks, workers=workers) as batch,  # type: ignore[arg-type]
        pytest.raises(RuntimeError, match="no such key"),
    ):
        batch.verdicts()
