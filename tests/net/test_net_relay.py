"""Heads relayed and lost events taken back, on their own (``sessions/relay.py``)."""

from __future__ import annotations

from pathlib import Path

from net_support import FakeNetwork, make_peer, make_room, started_room

from domicile_p2p.identity import Identity
from domicile_p2p.net.sessions.effects import ConnectionId, Log
from domicile_p2p.net.sessions.game import HostedGame
from domicile_p2p.net.sessions.guards.heads import HeadClaim
from domicile_p2p.net.sessions.relay import Relay
from domicile_p2p.net.wire import Head, PeerHead, Restore


def test_a_seats_own_head_of_an_event_the_host_has_is_relayed_and_anything_else_is_not() -> None:
    started = started_room(1)
    game = started.room.game
    assert isinstance(game, HostedGame)
    [genesis] = game.event_objects
    game_id = bytes.fromhex(game.game_id)
    claim = HeadClaim.sign(started.seats[1], game_id, 1, 0, genesis.link())
    head = Head(claim.seq, claim.head.hex(), claim.sig.hex())
    assert Relay().head(game, 1, head) == PeerHead(1, 0, head.head, head.sig)
    problem = Relay().head(game, 0, head)
    assert isinstance(problem, str), "seat 0 cannot sign for seat 1"
    ahead = HeadClaim.sign(started.seats[1], game_id, 1, 5, genesis.link())
    problem = Relay().head(game, 1, Head(5, ahead.head.hex(), ahead.sig.hex()))
    assert problem == "there is no event 5 yet"


def test_a_log_behind_is_said_once_per_table_and_game() -> None:
    started = started_room(1)
    game = started.room.game
    relay = Relay()
    assert relay.behind(4, game, ConnectionId(1), len(game.events) if game else 0, 0) == []
    [said] = relay.behind(4, game, ConnectionId(1), 9, 0)
    assert isinstance(said, Log) and said.event == "log-behind"
    assert (said.fields["host_events"], said.fields["player_events"]) == (1, 9)
    assert relay.behind(4, game, ConnectionId(2), 12, 1) == [], "said once"
    assert relay.behind(4, None, ConnectionId(2), 12, 1) == [], "no game, nothing behind"


def test_lost_events_handed_back_are_taken_in_order_and_a_changed_one_is_refused(
    tmp_path: Path,
) -> None:
    host = Identity.generate()
    room = make_room(host, investigators=1)
    network = FakeNetwork([room])
    peers = [make_peer(tmp_path / f"seat{seat}", seat=seat) for seat in range(2)]
    for peer in peers:
        network.join(peer)
        network.deliver()
    network.run(peers, until=lambda: room.game is not None and len(room.game.events) >= 4)
    game = room.game
    assert isinstance(game, HostedGame)
    held = list(game.event_objects)
    lost = [event.value for event in held[2:]]
    rolled_back = HostedGame.resume(host, held[:2])
    changed = [dict(lost[0], body={"forged": True}), *lost[1:]]
    refused = Relay().restore(room.nameplate, rolled_back, 0, Restore(2, changed))
    assert refused.taken == [] and refused.log == [] and refused.problem is not None
    restored = Relay().restore(room.nameplate, rolled_back, 0, Restore(2, lost))
    assert restored.problem is None and restored.start == 2
    assert [event for event in restored.taken] == lost
    [log] = restored.log
    assert log.event == "log-restored" and log.fields["events"] == len(lost)
    assert len(rolled_back.events) == len(held)
