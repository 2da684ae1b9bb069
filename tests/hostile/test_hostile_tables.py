"""One table's failure never touches another table.

Nothing a guest sends can make a table's start fail (a seat name is checked at
``join``), but should a table's own work ever raise, the host sets that table
aside (logged, its players told) and every other table, the lobby clocks and
new connections carry on.  Here the failure is forced: a table whose game
factory raises, at a host that also runs an honest table.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from net_support import CODE, FakeNetwork, Peer, make_peer, make_room

from domicile_p2p.identity import Identity
from domicile_p2p.net.errors import Refused
from domicile_p2p.net.join.codes import JoinCode
from domicile_p2p.net.sessions.room import Room, SeatHolder
from domicile_p2p.net.wire import ErrorCode, Starts
from domicile_p2p.text import is_inert
from domicile_p2p.transcript.verify import verify

BROKEN = JoinCode(6, "owl", "quill")


def _broken_room(*, starts: Starts = Starts.FULL, lobby_wait: float = 0.0) -> Room:
    honest = make_room(
        Identity.generate(),
        investigators=1,
        code=BROKEN,
        bot_seats=frozenset({1}) if starts is Starts.WAIT else frozenset(),
        starts=starts,
        lobby_wait=lobby_wait,
    )

    def start(_holders: Sequence[SeatHolder]) -> object:
        raise RuntimeError("the genesis could not be written")

    honest._start_game = start  # type: ignore[assignment]
    return honest


def _finish(network: FakeNetwork, peers: Sequence[Peer]) -> None:
    """Play the honest table's game out: it ends, written and verified."""
    network.run(peers)
    assert all(peer.error is None and peer.session.finished for peer in peers)
    game = network.host.rooms[CODE.nameplate].game
    assert game is not None and game.ended
    assert verify(list(game.event_objects)).valid  # type: ignore[attr-defined]
    assert network.persisted[CODE.nameplate] == list(game.lines)


def _told_the_start_failed(peer: Peer) -> None:
    error = peer.error
    assert isinstance(error, Refused) and error.code == ErrorCode.UNEXPECTED
    assert "could not start" in str(error)


def test_a_table_whose_start_fails_is_set_aside_and_the_other_table_plays_on(
    tmp_path: Path,
) -> None:
    broken = _broken_room()
    network = FakeNetwork([broken, make_room(Identity.generate(), investigators=1)])
    first = make_peer(tmp_path / "a0", code=BROKEN, seat=0, name="Ann", bot=False)
    second = make_peer(tmp_path / "a1", code=BROKEN, seat=1, name="Bo", bot=False)
    for peer in (first, second):
        network.join(peer)
        network.deliver()  # the second join fills the table: its start fails, contained
    network.deliver()
    [failed] = network.logged("table-failed")
    assert (
        failed["table"] == BROKEN.nameplate and "genesis could not be written" in (failed["error"])
    )
    for peer in (first, second):
        _told_the_start_failed(peer)
    honest = [make_peer(tmp_path / f"b{seat}", code=CODE, seat=seat) for seat in (0, 1)]
    for peer in honest:
        network.join(peer)
        network.deliver()
    _finish(network, honest)
    assert broken.game is None and len(network.logged("table-failed")) == 1, "once"


def test_a_lobby_clock_that_fails_one_table_stops_neither_the_clock_nor_other_tables(
    tmp_path: Path,
) -> None:
    broken = _broken_room(starts=Starts.WAIT, lobby_wait=5.0)
    network = FakeNetwork([broken, make_room(Identity.generate(), investigators=1)])
    guest = make_peer(tmp_path / "a0", code=BROKEN, seat=0, name="Ann", bot=False)
    bot = make_peer(tmp_path / "a1", code=BROKEN, seat=1, name="Bot 1")
    for peer in (guest, bot):
        network.join(peer)
        network.deliver()
    honest = [make_peer(tmp_path / f"b{seat}", code=CODE, seat=seat) for seat in (0, 1)]
    network.join(honest[0])
    network.deliver()
    network.now += 10.0
    network.apply(network.host.tick(network.now))  # the broken lobby's clock runs out
    assert [r["table"] for r in network.logged("table-failed")] == [BROKEN.nameplate]
    network.join(honest[1])  # a new connection after it, to the other table, sits down
    network.deliver()
    assert honest[1].error is None and honest[1].session.player.replica is not None
    _finish(network, honest)
    network.now += 10.0
    network.apply(network.host.tick(network.now))
    assert len(network.logged("table-failed")) == 1
    _told_the_start_failed(guest)


@pytest.mark.parametrize("name", [" ", "Eve\u202e", "Eve\x1b]0;pwned\x07", "\u3164"])
def test_a_name_the_genesis_would_refuse_is_refused_at_join_and_the_table_starts(
    tmp_path: Path, name: str
) -> None:
    network = FakeNetwork([make_room(Identity.generate(), investigators=1)])
    guest = make_peer(tmp_path / "guest", code=CODE, seat=0, name=name, bot=False)
    network.join(guest)
    network.deliver()
    error = guest.error
    assert isinstance(error, Refused) and error.code == ErrorCode.BAD_MESSAGE
    assert str(error).startswith("the name ") and is_inert(str(error))
    [refused] = network.logged("refused")
    assert refused["code"] == "bad-message" and "pake" not in refused, "refused before any PAKE"
    assert network.host.rooms[CODE.nameplate].seats_free == 2, "the guest holds no seat"
    honest = [make_peer(tmp_path / f"b{seat}", code=CODE, seat=seat) for seat in (0, 1)]
    for peer in honest:
        network.join(peer)
        network.deliver()
    _finish(network, honest)
