"""The lobby marks the seats its host serves to browsers (``SeatStatus.browser``), and says
nothing new about any other seat: a lobby without browser seats is the same bytes."""

from __future__ import annotations

from pathlib import Path

from net_support import FakeNetwork, make_peer, make_room

from domicile_p2p.identity import Identity
from domicile_p2p.net import wire


def test_the_lobby_marks_a_seat_held_with_a_browser_seat_s_key(tmp_path: Path) -> None:
    room = make_room(Identity.generate())
    browser = Identity.generate()
    room.browser_keys = frozenset({browser.public_hex})
    network = FakeNetwork([room])
    in_browser = make_peer(tmp_path / "browser", identity=browser)
    at_a_terminal = make_peer(tmp_path / "terminal")
    network.join(in_browser)
    network.join(at_a_terminal)
    network.deliver()
    lobby = at_a_terminal.session.lobby
    assert lobby is not None
    marked = {status.key: status.browser for status in lobby.seats if status.key is not None}
    assert marked == {
        browser.public_hex: True,
        at_a_terminal.session.identity.public_hex: False,
    }
    frame = wire.encode(lobby)
    assert frame.count(b'"browser":true') == 1
    assert b'"browser":false' not in frame  # absent unless true: other lobbies keep their bytes
    assert wire.decode_host(frame.decode()) == lobby


def test_a_lobby_without_browser_seats_never_names_them(tmp_path: Path) -> None:
    network = FakeNetwork([make_room(Identity.generate())])
    player = make_peer(tmp_path / "a")
    network.join(player)
    network.deliver()
    lobby = player.session.lobby
    assert lobby is not None and lobby.seats
    assert b"browser" not in wire.encode(lobby)
