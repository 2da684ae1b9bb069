"""The sand-glass in the transcript: the host's time-up statement, replayed and verified.

The host's clock is trusted for *when* (protocol/SPEC.md §13); everything else about a
time-up is checked: the table has a sand-glass, an investigation is under way, and the
statement locks exactly the placed markers and names exactly the seats without one.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from msgspec.structs import replace as revise
from transcript_support import Game, index_of, reseal, transcript

from domicile_p2p.rules import GHOST, Phase, time_up
from domicile_p2p.transcript import Check
from domicile_p2p.transcript.errors import HostMisuse, party
from domicile_p2p.transcript.schema import (
    GenesisBody,
    Kind,
    SeanceBody,
    TimeUpBody,
    VerdictBody,
)
from domicile_p2p.transcript.selfplay import PlainPolicy
from domicile_p2p.transcript.verify import verify
from protocol_tools.forge import Entry, entries_of

SEED, INVESTIGATORS = 3, 2


def _investigating(game: Game) -> bool:
    return game.state.phase is Phase.INVESTIGATION


def timed_game() -> tuple[Game, TimeUpBody]:
    """A game whose first investigation the host cuts short, then played to the end."""
    game = Game(SEED, INVESTIGATORS, timer=60).setup()
    policies = [PlainPolicy(seat, SEED) for seat in range(1, INVESTIGATORS + 1)]
    game.play(policies, until=_investigating)
    due = time_up(game.state)
    event = game.time_up()
    assert isinstance(event.body, TimeUpBody)
    assert (event.body.locked, event.body.no_guess) == (due.locked, due.no_guess)
    assert game.state.phase is Phase.SEANCE
    game.play(policies)
    game.finish()
    return game, event.body


def test_a_time_up_game_is_valid_and_names_who_was_locked() -> None:
    game, body = timed_game()
    assert body.no_guess, "the seed's first investigation should leave a seat without a marker"
    report = verify(transcript(game.events))
    assert report.valid, report.summary


def test_the_host_cannot_call_time_outside_an_investigation() -> None:
    game = Game(SEED, INVESTIGATORS, timer=60).setup()
    with pytest.raises(HostMisuse, match="cannot call time"):
        game.time_up()  # the Ghost is still sending dreams
    untimed = Game(SEED, INVESTIGATORS).setup()
    policies = [PlainPolicy(seat, SEED) for seat in range(1, INVESTIGATORS + 1)]
    untimed.play(policies, until=_investigating)
    with pytest.raises(HostMisuse, match="without a sand-glass"):
        untimed.time_up()


def _forged(change: Callable[[list[Entry], int], list[Entry]]) -> tuple[bytes, int]:
    game, _ = timed_game()
    entries = entries_of(game.events)
    at = index_of(entries, lambda e: getattr(e, "kind", None) is Kind.TIME_UP)
    return transcript(reseal(change(entries, at), SEED, INVESTIGATORS)), at


def _fails(data: bytes, check: Check, seq: int, party: str | None) -> None:
    report = verify(data)
    assert report.error is not None, report.summary
    assert (report.error.check, report.error.seq, report.error.party) == (
        check.value,
        seq,
        party,
    ), report.error


def test_a_time_up_that_locks_a_marker_never_placed_fails_public_rules() -> None:
    def lock_everyone(entries: list[Entry], at: int) -> list[Entry]:
        body = entries[at].body
        assert isinstance(body, TimeUpBody)
        entries[at] = entries[at].with_body(TimeUpBody(tuple(range(1, INVESTIGATORS + 1)), ()))
        return entries

    data, at = _forged(lock_everyone)
    _fails(data, Check.PUBLIC_RULES, at, "host")


def test_a_time_up_at_a_table_without_a_sand_glass_fails_public_rules() -> None:
    def no_timer(entries: list[Entry], at: int) -> list[Entry]:
        genesis = entries[0].body
        assert isinstance(genesis, GenesisBody)
        entries[0] = entries[0].with_body(revise(genesis, timer=None))
        return entries

    data, at = _forged(no_timer)
    _fails(data, Check.PUBLIC_RULES, at, "host")


def test_a_time_up_before_the_investigation_fails_public_rules() -> None:
    def early(entries: list[Entry], at: int) -> list[Entry]:
        give = index_of(entries, lambda e: getattr(e, "kind", None) is Kind.GIVE)
        moved = entries.pop(at)
        entries.insert(give, moved)
        return entries

    data, _ = _forged(early)
    game, _ = timed_game()
    give = index_of(game.events, lambda e: getattr(e, "kind", None) is Kind.GIVE)
    _fails(data, Check.PUBLIC_RULES, give, "host")


def test_a_time_up_before_the_game_fails_event_order() -> None:
    def in_setup(entries: list[Entry], at: int) -> list[Entry]:
        entries.insert(1, entries.pop(at))
        return entries

    data, _ = _forged(in_setup)
    _fails(data, Check.EVENT_ORDER, 1, "host")


def test_a_seat_that_made_no_guess_cannot_be_called_correct() -> None:
    def flatter(entries: list[Entry], at: int) -> list[Entry]:
        body = entries[at].body
        assert isinstance(body, TimeUpBody) and body.no_guess
        seance = index_of(entries, lambda e: getattr(e, "kind", None) is Kind.SEANCE)
        verdicts = entries[seance].body
        assert isinstance(verdicts, SeanceBody)
        flattered = tuple(
            VerdictBody(v.seat, True, None) if v.seat in body.no_guess else v
            for v in verdicts.verdicts
        )
        entries[seance] = entries[seance].with_body(SeanceBody(flattered))
        return entries

    data, _ = _forged(flatter)
    game, _ = timed_game()
    seance = index_of(game.events, lambda e: getattr(e, "kind", None) is Kind.SEANCE)
    _fails(data, Check.PUBLIC_RULES, seance, party(GHOST))
