"""Who is at each table, on its own (``sessions/audience.py``)."""

from __future__ import annotations

from domicile_p2p.net.sessions.audience import Audience
from domicile_p2p.net.sessions.effects import ConnectionId


def test_the_seats_in_seat_order_then_the_spectators_in_the_order_they_came() -> None:
    tables = Audience([7, 8])
    assert tables.sit(7, 2, ConnectionId(20)) is None
    assert tables.sit(7, 0, ConnectionId(10)) is None
    assert tables.watch(7, ConnectionId(99), "Eve") == 1
    assert tables.watch(7, ConnectionId(98), "Dan") == 2
    assert tables.everyone(7) == [10, 20, 99, 98]
    assert tables.holders(7) == [(0, 10), (2, 20)]
    assert tables.seats(7) == {0, 2} and tables.seats(8) == set()
    assert tables.everyone(8) == [], "each table has its own"
    tables.stop_watching(7, ConnectionId(99))
    assert tables.spectators(7) == [98]


def test_a_superseded_connection_leaving_frees_nothing() -> None:
    tables = Audience([1])
    tables.sit(1, 0, ConnectionId(1))
    assert tables.sit(1, 0, ConnectionId(2)) == 1, "the one it replaces"
    assert not tables.leave(1, 0, ConnectionId(1))
    assert tables.holder(1, 0) == 2
    assert tables.leave(1, 0, ConnectionId(2))
    assert tables.holder(1, 0) is None
    assert tables.seats(404) == set() and tables.spectators(404) == [], "an unknown table"


def test_moving_everyone_round_and_unseating() -> None:
    tables = Audience([1])
    tables.sit(1, 0, ConnectionId(10))
    tables.sit(1, 1, ConnectionId(11))
    tables.move(1, {0: 1, 1: 2, 2: 0})
    assert tables.holders(1) == [(1, 10), (2, 11)]
    assert tables.unseat(1, 2) == 11
    assert tables.unseat(1, 2) is None
    assert tables.seated(1) == [10]
