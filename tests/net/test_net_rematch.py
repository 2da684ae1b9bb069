"""A table's next game (a rematch) over the fake link: the same table, seats, and code."""

from __future__ import annotations

from pathlib import Path

import pytest
from net_support import CODE, FakeNetwork, Peer, make_peer, make_room

from domicile_p2p.identity import Identity
from domicile_p2p.net.errors import HostMisbehaved, Refused
from domicile_p2p.net.sessions.room import Refusal
from domicile_p2p.net.wire import ErrorCode, Seated, Watching
from domicile_p2p.transcript.verify import verify

TABLE = CODE.nameplate


def _table(tmp: Path, *, people: frozenset[int] = frozenset()) -> tuple[FakeNetwork, list[Peer]]:
    """Three seats (the Ghost and two investigators), each joined for every game; the
    seats in ``people`` are persons (they must say ready), the others bots."""
    network = FakeNetwork([make_room(Identity.generate(), investigators=2)])
    peers = [
        make_peer(
            tmp / f"seat{seat}",
            seat=seat,
            name=f"Player {seat}",
            bot=seat not in people,
            games=None,
        )
        for seat in range(3)
    ]
    for peer in peers:
        network.join(peer)
        network.deliver()
    return network, peers


def _play_out(network: FakeNetwork, peers: list[Peer]) -> None:
    network.run(peers, until=lambda: all(peer.session.finished for peer in peers))
    assert all(peer.error is None for peer in peers), [peer.error for peer in peers]


def test_two_games_in_a_row_at_the_same_table_each_its_own_verified_transcript(
    tmp_path: Path,
) -> None:
    network, peers = _table(tmp_path)
    _play_out(network, peers)
    first = peers[0].session.player.replica
    assert first is not None
    with pytest.raises(Refusal):
        network.host.start_table(TABLE, network.now)  # over, not in a lobby
    network.apply(network.host.next_game(TABLE, network.now))
    assert network.logged("next-game")[-1]["game"] == 2
    # Bots are always ready: the next game begins at once, with a new genesis.
    _play_out(network, peers)
    second = peers[0].session.player.replica
    assert second is not None and second.game_id != first.game_id
    assert network.finished == [first.game_id, second.game_id]
    for peer in peers:
        assert peer.session.game == 2
        assert [r.game_id for r in peer.session.past_games] == [first.game_id]
        assert [e.line for e in peer.session.past_games[0].events] == [e.line for e in first.events]
        assert [e.line for e in peer.session.player.replica.events] == [
            e.line for e in second.events
        ]
    assert verify(list(first.events)).valid and verify(list(second.events)).valid
    persisted = network.persisted[TABLE]
    assert persisted == [e.line for e in first.events] + [e.line for e in second.events]
    assert [seat.key for seat in second.table_setup.genesis.seats] == [
        seat.key for seat in first.table_setup.genesis.seats
    ], "everyone kept their seat"


def test_a_person_must_say_ready_before_the_next_game_begins(tmp_path: Path) -> None:
    network, peers = _table(tmp_path, people=frozenset({1}))
    _play_out(network, peers)
    network.apply(network.host.next_game(TABLE, network.now))
    network.deliver()
    person = peers[1]
    room = network.host.rooms[TABLE]
    assert room.game is None and room.games == 2
    lobby = person.session.lobby
    assert lobby is not None and lobby.game == 2 and lobby.state.value == "lobby"
    assert [(s.seat, s.ready) for s in lobby.seats] == [(0, True), (1, False), (2, True)]
    network.run(peers)  # the bots wait for the person: nothing starts
    assert room.game is None
    network.apply_peer(person, person.session.set_ready(True))
    assert room.game is not None, "everyone ready: the next game began"
    [ready] = network.logged("ready")
    assert (ready["seat"], ready["ready"]) == (1, True)
    _play_out(network, peers)
    assert person.session.game == 2 and person.session.finished


def test_ready_outside_a_lobby_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    network, peers = _table(tmp_path, people=frozenset({2}))
    network.run(peers, until=lambda: peers[0].session.player.playing)
    network.apply_peer(peers[2], peers[2].session.set_ready(True))
    assert peers[2].connection is not None
    [error] = network.take_errors(peers[2].connection)
    assert error.code is ErrorCode.UNEXPECTED and not error.fatal


def test_rotating_the_seats_makes_the_next_seat_the_ghost(tmp_path: Path) -> None:
    network, peers = _table(tmp_path)
    _play_out(network, peers)
    first = peers[0].session.player.replica
    assert first is not None
    keys = [seat.key for seat in first.table_setup.genesis.seats]
    room = network.host.rooms[TABLE]
    room.starts = room.starts.OWNER  # hold the lobby open for the owner's rotation
    network.apply(network.host.next_game(TABLE, network.now))
    network.deliver()
    assert room.game is None
    network.apply(network.host.rotate_seats(TABLE, network.now))
    network.deliver()
    assert [peer.session.seat for peer in peers] == [2, 0, 1]
    network.apply(network.host.start_table(TABLE, network.now))
    _play_out(network, peers)
    second = peers[1].session.player.replica
    assert second is not None and second.game_id != first.game_id
    assert [seat.key for seat in second.table_setup.genesis.seats] == [keys[1], keys[2], keys[0]]
    assert all(verify(list(p.session.player.replica.events)).valid for p in peers)


def test_a_player_gone_before_the_next_game_frees_its_seat(tmp_path: Path) -> None:
    network, peers = _table(tmp_path)
    _play_out(network, peers)
    assert peers[2].connection is not None
    network.drop(peers[2].connection)
    network.apply(network.host.next_game(TABLE, network.now))
    assert network.logged("next-game")[-1]["freed"] == [2]
    room = network.host.rooms[TABLE]
    assert 2 not in room.holders and room.game is None


def test_a_client_refuses_a_host_that_goes_back_to_an_earlier_game(tmp_path: Path) -> None:
    network, peers = _table(tmp_path)
    _play_out(network, peers)
    network.apply(network.host.next_game(TABLE, network.now))
    network.deliver()
    session = peers[0].session
    assert session.game == 2
    with pytest.raises(HostMisbehaved):
        session.receive(Seated(TABLE, 0, 0, game=1))


def test_a_client_that_missed_the_move_to_the_next_game_catches_up_on_resume(
    tmp_path: Path,
) -> None:
    network, peers = _table(tmp_path)
    _play_out(network, peers)
    late = peers[2]
    first = late.session.player.replica
    assert first is not None
    network.apply(network.host.next_game(TABLE, network.now))  # bots: game 2 begins at once
    assert late.connection is not None
    network.drop(late.connection)  # before any of it reached this client
    network.run(peers[:2], until=lambda: len(network.persisted[TABLE]) > len(first.events) + 1)
    network.join(late, pinned=True)
    network.deliver()
    assert late.session.game == 2 and late.session.past_games == [first]
    assert network.logged("resume")[-1]["seat"] == 2
    _play_out(network, peers)
    assert late.error is None
    second = late.session.player.replica
    assert second is not None and verify(list(second.events)).valid
    assert [e.line for e in second.events] == [
        e.line for e in peers[0].session.player.replica.events
    ]


def test_the_spectators_of_a_finished_game_watch_the_next_one(tmp_path: Path) -> None:
    network, peers = _table(tmp_path)
    spectator = make_peer(tmp_path / "spectator", name="Watcher", watch=True, games=None)
    network.join(spectator)
    network.deliver()
    _play_out(network, peers)
    first = peers[0].session.player.replica
    assert first is not None and spectator.session.finished
    network.apply(network.host.next_game(TABLE, network.now))
    assert spectator.connection not in network.closed
    assert network.host.spectators(TABLE) == 1
    _play_out(network, peers)
    network.deliver()
    second = peers[0].session.player.replica
    assert second is not None and second.game_id != first.game_id
    assert spectator.error is None and spectator.session.game == 2
    watched = [spectator.session.past_games[0], spectator.session.player.replica]
    assert [[e.line for e in r.events] for r in watched] == [
        [e.line for e in first.events],
        [e.line for e in second.events],
    ], "each game's transcript, as the seats hold it"
    assert spectator.session.finished and verify(list(second.events)).valid


def test_a_spectator_refuses_a_table_that_goes_back_a_game(tmp_path: Path) -> None:
    network, peers = _table(tmp_path)
    spectator = make_peer(tmp_path / "spectator", name="Watcher", watch=True, games=None)
    network.join(spectator)
    network.deliver()
    _play_out(network, peers)
    network.apply(network.host.next_game(TABLE, network.now))
    network.deliver()
    assert spectator.session.game == 2
    with pytest.raises(HostMisbehaved, match="went back"):
        spectator.session.receive(Watching(TABLE, 0, 1))
    with pytest.raises(HostMisbehaved, match="middle of game"):
        spectator.session.receive(Watching(TABLE, 3, 3))


def _rematch_lobby_with_a_person_not_ready(
    tmp_path: Path,
) -> tuple[FakeNetwork, list[Peer], Peer]:
    network, peers = _table(tmp_path, people=frozenset({1}))
    _play_out(network, peers)
    network.apply(network.host.next_game(TABLE, network.now))
    network.run(peers)  # the bots are ready; the person never says so
    assert network.host.rooms[TABLE].game is None
    return network, peers, peers[1]


def _someone_else_takes_seat_1_and_the_game_is_played(
    tmp_path: Path, network: FakeNetwork, peers: list[Peer]
) -> None:
    room = network.host.rooms[TABLE]
    assert 1 not in room.holders, "the seat is free for someone else"
    newcomer = make_peer(tmp_path / "newcomer", seat=1, name="Newcomer", games=None)
    network.join(newcomer)
    network.deliver()
    assert room.game is not None, "the seats are full and ready: the game begins"
    players = [peers[0], newcomer, peers[2]]
    _play_out(network, players)
    game = room.game
    assert game.ended and verify(list(game.event_objects)).valid  # type: ignore[attr-defined]


def test_the_owner_starts_a_rematch_without_a_person_who_is_not_ready(tmp_path: Path) -> None:
    network, peers, person = _rematch_lobby_with_a_person_not_ready(tmp_path)
    network.apply(network.host.start_table(TABLE, network.now))
    network.deliver()
    error = person.error
    assert isinstance(error, Refused) and error.code == ErrorCode.GAME_STARTED
    assert str(error) == (
        "the host's owner started the game without you (you were not ready); you may watch it"
    )
    [unseated] = network.logged("unseated")
    assert (unseated["seat"], unseated["name"]) == (1, "Player 1")
    lobby = peers[0].session.lobby
    assert lobby is not None and lobby.seats[1].name is None, "everyone sees the seat free"
    _someone_else_takes_seat_1_and_the_game_is_played(tmp_path, network, peers)


def test_the_owners_start_counts_the_owners_own_seat_as_ready(tmp_path: Path) -> None:
    network, _peers, person = _rematch_lobby_with_a_person_not_ready(tmp_path)
    network.apply(network.host.start_table(TABLE, network.now, owner=1))
    network.deliver()
    assert person.error is None and network.host.rooms[TABLE].game is not None
    assert not network.logged("unseated")


def test_a_seat_not_ready_is_freed_after_the_ready_timeout_everyone_was_told(
    tmp_path: Path,
) -> None:
    network, peers, person = _rematch_lobby_with_a_person_not_ready(tmp_path)
    timeout = network.host.limits.ready_timeout
    for peer in peers:
        lobby = peer.session.lobby
        assert lobby is not None and lobby.ready_timeout == timeout, "the lobby says how long"
    opened = network.logged("next-game")[-1]
    deadline = network.host.next_deadline()
    assert deadline is not None
    network.apply(network.host.tick(deadline - 0.5))
    network.deliver()
    assert person.error is None and not network.logged("unseated"), "not before its time"
    network.now = deadline
    network.apply(network.host.tick(network.now))
    network.deliver()
    error = person.error
    assert isinstance(error, Refused) and error.code == ErrorCode.GAME_STARTED
    assert f"you were not ready within {timeout:g} s: your seat is free" in str(error)
    [unseated] = network.logged("unseated")
    assert unseated["seat"] == 1 and opened["game"] == 2
    _someone_else_takes_seat_1_and_the_game_is_played(tmp_path, network, peers)
