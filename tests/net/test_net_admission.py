"""The host's admission on its own: connection caps and join turns (``sessions/admission.py``)."""

from __future__ import annotations

from collections.abc import Callable

from domicile_p2p.net.sessions.admission import Admission, Opening, address_of
from domicile_p2p.net.sessions.limits import HostLimits


def test_the_address_of_a_remote_drops_its_port_only() -> None:
    assert address_of("10.0.0.7:5000") == "10.0.0.7"
    assert address_of("[::1]:5000") == "::1"
    assert address_of("fe80::1") == "fe80::1", "a bare IPv6 address has no port to drop"
    assert address_of("local") == "local"


def test_connections_fit_until_their_address_then_the_host_is_full() -> None:
    admission = Admission(HostLimits(max_per_address=2, max_connections=3))
    assert [admission.open("a:1"), admission.open("a:2")] == [Opening.FITS, Opening.FITS]
    assert admission.open("a:3") is Opening.ADDRESS_FULL
    admission.close("a:3")
    assert admission.open("b:1") is Opening.FITS
    assert admission.open("c:1") is Opening.HOST_FULL, "a fourth connection is over the host"
    admission.close("c:1")
    admission.close("a:1")
    assert admission.open("a:4") is Opening.FITS, "a closed connection frees its place"


def test_the_connection_rate_is_per_address() -> None:
    admission = Admission(HostLimits(connection_rate=1.0, max_per_address=2))
    assert admission.admits("a:1", 0.0) and admission.admits("a:2", 0.0)
    assert not admission.admits("a:3", 0.0), "a burst of max_per_address, then refused"
    assert admission.admits("b:1", 0.0), "another address has its own bucket"
    assert admission.admits("a:4", 1.0), "one more a second"


def _queued(remotes: dict[int, str]) -> Callable[[int], str | None]:
    return remotes.get


def test_a_joins_turn_comes_within_its_addresss_guesses() -> None:
    admission = Admission(HostLimits(join_failures=2, pending_joins=8))
    remotes = {1: "a:1", 2: "a:2", 3: "a:3"}
    for connection, remote in remotes.items():
        assert admission.queue(connection, remote) is None
    turns = []
    for connection, admitted in admission.turns(0.0, _queued(remotes)):
        turns.append((connection, admitted))
        admission.unqueue(remotes[connection])
        admission.guessing(remotes[connection])
        del remotes[connection]
    assert turns == [(1, True), (2, True)], "two guesses in flight, the third waits"
    assert admission.guessed("a:1", 1.0, failed=False) is None
    assert list(admission.turns(1.0, _queued(remotes))) == [(3, True)]


def test_an_address_over_its_failures_is_refused_its_turn() -> None:
    admission = Admission(HostLimits(join_failures=1, join_window=60.0))
    assert admission.queue(1, "a:1") is None
    assert admission.record_failure("a:9", 0.0) == 1
    assert admission.retry_after("a:1", 0.0) is not None
    assert list(admission.turns(0.0, {1: "a:1"}.get)) == [(1, False)]
    assert admission.retry_after("a:1", 61.0) is None, "the window passes"


def test_gone_joins_are_skipped_and_the_hosts_bucket_holds_the_rest() -> None:
    admission = Admission(HostLimits(join_rate=1.0, join_burst=1.0))
    for connection in (1, 2, 3):
        assert admission.queue(connection, f"{connection}.0.0.1:1") is None
    remotes = {2: "2.0.0.1:1", 3: "3.0.0.1:1"}  # connection 1 has gone since it queued
    assert list(admission.turns(0.0, remotes.get)) == [(2, True)]
    assert admission.turns_resume_at() == 1.0, "the bucket refills for the next one"
    assert list(admission.turns(1.0, remotes.get)) == [(3, True)]
    assert admission.turns_resume_at() is None, "nobody waits"


def test_the_join_queue_is_bounded_per_address_and_in_all() -> None:
    admission = Admission(HostLimits(pending_joins=2, join_queue=3))
    assert admission.queue(1, "a:1") is None
    admission.unqueue("a:1")
    admission.guessing("a:1")
    assert admission.queue(2, "a:2") is None
    assert admission.queue(3, "a:3") == "too many joins at once from your address", (
        "one guessing and one waiting are the address's two"
    )
    assert admission.queue(4, "b:1") is None
    assert admission.queue(5, "c:1") == "the host is busy with joins; try again in a minute", (
        "three in the queue (the first's turn was not taken from it yet)"
    )
    admission.unqueue("a:2")
    admission.guessed("a:1", 0.0, failed=True)
    assert admission.retry_after("a:1", 0.0) is None, "one failure is under the default five"
