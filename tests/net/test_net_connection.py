"""How a connection is refused, on its own (``sessions/connection.py``)."""

from __future__ import annotations

from domicile_p2p.net.sessions.connection import (
    CLOSE_POLICY,
    ERROR_CHARACTERS,
    Connection,
    Refusals,
    clip,
)
from domicile_p2p.net.sessions.effects import Close, ConnectionId, Log, Send
from domicile_p2p.net.sessions.limits import TokenBucket
from domicile_p2p.net.wire import Error, ErrorCode


def _connection() -> Connection:
    return Connection(ConnectionId(7), "10.0.0.7:5000", b"\0" * 32, 0.0, TokenBucket(1.0, 1.0))


def test_a_bad_message_is_refused_alone_until_one_too_many_closes_the_connection() -> None:
    forgotten: list[Connection] = []
    refusals = Refusals(2, forgotten.append)
    state = _connection()
    for _ in range(2):
        rejected, sent = refusals.bad(state, ErrorCode.UNEXPECTED, "not now")
        assert isinstance(rejected, Log) and rejected.event == "rejected"
        assert sent == Send(state.id, Error(ErrorCode.UNEXPECTED, "not now"))
        assert not state.closing and forgotten == []
    refused, told, closed = refusals.bad(state, ErrorCode.UNEXPECTED, "not now")
    assert isinstance(refused, Log) and refused.event == "refused"
    assert told == Send(
        state.id, Error(ErrorCode.UNEXPECTED, "not now (too many bad messages)", fatal=True)
    )
    assert closed == Close(state.id, CLOSE_POLICY, ErrorCode.UNEXPECTED.value)
    assert state.closing and forgotten == [state], "the parts that keep it are told once"


def test_a_fatal_refusal_logs_what_the_connection_held_and_why() -> None:
    state = _connection()
    state.nameplate, state.seat, state.log_fields["failures"] = 4, 1, 3
    log, _told, _closed = Refusals(5, lambda _state: None).fatal(
        state, ErrorCode.WRONG_CODE, "wrong table code"
    )
    assert isinstance(log, Log)
    assert log.fields == {
        "connection": 7,
        "remote": "10.0.0.7:5000",
        "table": 4,
        "seat": 1,
        "code": ErrorCode.WRONG_CODE.value,
        "reason": "wrong table code",
        "failures": 3,
    }


def test_an_errors_reason_is_cut_to_its_length_with_an_ellipsis() -> None:
    assert clip("x" * ERROR_CHARACTERS) == "x" * ERROR_CHARACTERS
    cut = clip("x" * (ERROR_CHARACTERS + 1))
    assert len(cut) == ERROR_CHARACTERS and cut.endswith("...")
