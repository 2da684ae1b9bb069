"""A host that lost the end of its log (rolled back between runs) takes the lost events
back from the players who hold them, checking each as any replica would; what a player
hands back that this host did not sign, or that is not the next of its history, changes
nothing and counts against that connection."""

from __future__ import annotations

from pathlib import Path

from hostile_support import seated

from domicile_p2p.identity import Identity
from domicile_p2p.net import wire
from domicile_p2p.net.errors import BadEvent
from domicile_p2p.net.sessions.game import HostedGame
from domicile_p2p.net.sessions.room import Room
from domicile_p2p.net.wire import ErrorCode
from domicile_p2p.transcript import Event, Kind
from domicile_p2p.transcript.schema import AbortBody
from domicile_p2p.transcript.verify import verify

LOST = 3


def _restart_with_a_rolled_back_log(table, held: int):  # type: ignore[no-untyped-def]
    """The host process restarts with its log ``LOST`` events short; every peer comes back."""
    network = table.network
    for peer in table.peers:
        assert peer.connection is not None
        network.drop(peer.connection)
    room: Room = network.host.rooms[table.nameplate]
    kept = list(table.game.event_objects)[: held - LOST]
    room.game = HostedGame.resume(table.host, kept)
    network.host._games.deadlines.published(
        room.nameplate
    )  # as a resumed host's session would hold it
    return room


def test_the_first_returning_player_hands_back_what_the_host_lost_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    table = seated(tmp_path, investigators=2)
    network = table.network
    network.run(table.peers, until=lambda: len(table.game.events) >= 30)
    network.deliver()
    held = len(table.game.events)
    assert all(peer.session.player.held == held for peer in table.peers)
    room = _restart_with_a_rolled_back_log(table, held)
    first, *others = table.peers
    network.join(first, pinned=True)
    network.deliver()
    [behind] = network.logged("log-behind")
    assert (behind["host_events"], behind["player_events"]) == (held - LOST, held)
    [restored] = network.logged("log-restored")
    assert (restored["start"], restored["events"]) == (held - LOST, LOST)
    assert len(room.game.events) == held and first.error is None
    for peer in others:
        network.join(peer, pinned=True)
        network.deliver()
    assert len(network.logged("log-behind")) == 1, "the others hold nothing the host lacks"
    # A peer's word (its ``have``) alone is said once per table and game, however often.
    assert first.connection is not None
    state = network.host._connections[first.connection]
    for _ in range(3):
        assert (
            network.host._games._relay.behind(room.nameplate, room.game, state.id, held + 10, 0)
            == []
        )
    network.run(table.peers)
    assert all(peer.error is None and peer.session.finished for peer in table.peers)
    events = list(room.game.event_objects)  # type: ignore[attr-defined]
    assert verify(events).valid
    for peer in table.peers:
        replica = peer.session.player.replica
        assert replica is not None and [e.line for e in replica.events] == [e.line for e in events]


def test_events_the_host_did_not_sign_are_refused_and_change_nothing(tmp_path: Path) -> None:
    table = seated(tmp_path, investigators=1)
    network = table.network
    network.run(table.peers, until=lambda: len(table.game.events) >= 20)
    network.deliver()
    held = len(table.game.events)
    genuine = [dict(value) for value in table.game.events[held - LOST :]]
    room = _restart_with_a_rolled_back_log(table, held)
    liar = table.peers[1]
    connection = network.join(liar, pinned=True)
    network.deliver()  # the honest client in the liar's seat hands its events back...
    assert len(room.game.events) == held
    persisted = len(network.persisted[table.nameplate])
    # ...and now a modified client sends an event of its own making as the next one.
    head = table.game.event_objects[-1]
    forged = Event.create(
        Identity.generate(),
        game_id=table.game.game_table.table_setup.game_id,
        seq=held,
        prev=head.link().hex(),
        statement=(Kind.ABORT, AbortBody("forged", ())),
    )
    network.frame(connection, wire.text(wire.Restore(held, [dict(forged.value)])))
    [refusal] = network.take_errors(connection)
    assert refusal.code == ErrorCode.BAD_MESSAGE and "does not check out" in refusal.message
    assert len(room.game.events) == held
    assert len(network.persisted[table.nameplate]) == persisted, "nothing written"
    # A restore that claims the host's own events differ is refused too.
    changed = dict(genuine[0], host_sig="00" * 64)
    network.frame(connection, wire.text(wire.Restore(held - LOST, [changed])))
    [refusal] = network.take_errors(connection)
    assert "not the one this host holds" in refusal.message


def test_a_host_that_refuses_the_events_back_is_caught_by_the_client(tmp_path: Path) -> None:
    table = seated(tmp_path, investigators=1)
    network = table.network
    network.run(table.peers, until=lambda: len(table.game.events) >= 20)
    network.deliver()
    room = _restart_with_a_rolled_back_log(table, len(table.game.events))
    game = room.game
    assert isinstance(game, HostedGame)
    game.restore = lambda start, values: ((), "no thanks")  # type: ignore[method-assign]
    player = table.peers[1]
    network.join(player, pinned=True)
    network.deliver()
    assert isinstance(player.error, BadEvent)
    assert "refused them back: no thanks" in str(player.error)
