"""Spectators over the fake link: the same chain as the seats, nothing secret, no say, bounded."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from net_support import CODE, FakeNetwork, Peer, make_peer, make_room, seated_table
from redaction_support import assert_no_secret_in, secrets_of

from domicile_p2p.identity import Identity
from domicile_p2p.net import wire
from domicile_p2p.net.errors import Refused, WrongCode
from domicile_p2p.net.join.codes import JoinCode
from domicile_p2p.net.sessions.effects import Send
from domicile_p2p.net.sessions.host import HostLimits
from domicile_p2p.transcript import Kind, SignedAction
from domicile_p2p.transcript.schema import ChatBody
from domicile_p2p.transcript.verify import verify


def _spectator(tmp_path: Path, name: str = "Watcher", **options: Any) -> Peer:
    return make_peer(tmp_path / name, name=name, watch=True, **options)


def _watch(network: FakeNetwork, spectator: Peer, remote: str | None = None) -> int:
    if remote is None:
        connection = network.join(spectator)
    else:  # from an address of its own
        connection = network.open(remote)
        spectator.connection = connection
        network.peers[connection] = spectator
        network._peer_apply(spectator, spectator.session.connection_made(bytes(range(32)), False))
    network.deliver()
    return connection


def _events(peer: Peer) -> list[bytes]:
    replica = peer.session.player.replica
    assert replica is not None
    return [event.line for event in replica.events]


def test_a_spectator_who_arrives_mid_game_holds_the_hosts_chain_and_it_verifies(
    tmp_path: Path,
) -> None:
    network, peers = seated_table(tmp_path, investigators=2)
    network.run(peers, until=lambda: peers[0].session.player.held > 20)
    spectator = _spectator(tmp_path)
    _watch(network, spectator)
    assert spectator.error is None and spectator.session.seated
    assert spectator.session.seat is None, "a spectator takes no seat"
    assert spectator.session.player.held == peers[0].session.player.held, "caught up at once"
    assert spectator.pins == [bytes(range(32))], "the PAKE proved the certificate, as a join's"
    [watch] = network.logged("watch")
    assert watch["name"] == "Watcher" and watch["spectators"] == 1
    assert network.host.rooms[CODE.nameplate].seats_free == 0, "no seat changed hands"
    network.run(peers)
    assert all(peer.error is None for peer in [*peers, spectator])
    assert spectator.session.finished
    persisted = network.persisted[CODE.nameplate]
    assert _events(spectator) == persisted == _events(peers[1])
    report = verify(list(spectator.session.player.replica.events))
    assert report.valid, report.summary


def test_a_spectator_from_the_lobby_on_receives_nothing_secret_before_the_reveal(
    tmp_path: Path,
) -> None:
    """Every frame the spectator gets, lobby and heads included, searched as the investigators'
    events are in tests/test_redaction.py."""
    network = FakeNetwork([make_room(Identity.generate(), investigators=2)])
    spectator = _spectator(tmp_path)
    connection = _watch(network, spectator)
    frames: list[str] = []
    apply = network.apply

    def recording(effects: list[Any]) -> None:
        frames.extend(
            wire.text(e.message)
            for e in effects
            if isinstance(e, Send) and e.connection == connection
        )
        apply(effects)

    network.apply = recording  # type: ignore[method-assign]
    peers = [make_peer(tmp_path / f"s{seat}", seat=seat) for seat in range(3)]
    for peer in peers:
        network.join(peer)
        network.deliver()
    network.run(peers)
    assert spectator.error is None and spectator.session.finished
    events = spectator.session.player.replica.events
    assert events[-1].kind is Kind.REVEAL and events[0].kind is Kind.GENESIS
    assert any(isinstance(wire.decode_host(f), wire.PeerHead) for f in frames), "heads too"
    secret = secrets_of(tuple(events))
    held = 0
    for frame in frames:
        message = wire.decode_host(frame)
        if isinstance(message, wire.Events):
            held = max(held, message.start + len(message.events))
        if held == len(events):
            break  # the frame that brings the reveal: from here on nothing is secret
        assert_no_secret_in(frame.encode(), secret, held=held)
    assert held == len(events)


def _chat(spectator: Peer, seat: int) -> dict[str, Any]:
    """A chat as a seat would sign it, signed with the spectator's own key."""
    replica = spectator.session.player.replica
    assert replica is not None
    action = SignedAction.create(
        spectator.session.identity,
        game=replica.game_id,
        seat=seat,
        counter=1,
        kind=Kind.CHAT,
        body=ChatBody("may I?"),
    )
    return dict(action.value)


def test_a_spectator_cannot_chat_act_sign_a_head_or_be_ready_and_each_try_counts_as_refused(
    tmp_path: Path,
) -> None:
    limits = HostLimits(max_bad_frames=3)
    network, peers = seated_table(tmp_path, investigators=2, limits=limits)
    network.run(peers, until=lambda: peers[0].session.player.held > 10)
    spectator = _spectator(tmp_path)
    connection = _watch(network, spectator)
    held = spectator.session.player.held
    tries = [
        wire.Act(_chat(spectator, 1)),
        wire.Head(0, "00" * 32, "00" * 64),
        wire.Ready(True),
    ]
    for message in tries:
        network.frame(connection, wire.text(message))
        [error] = network.take_errors(connection)
        assert (error.code, error.fatal) == ("spectator", False), error
    assert held == len(network.host.rooms[CODE.nameplate].game.events), "nothing reached it"
    with pytest.raises(RuntimeError, match="spectator"):
        spectator.session.submit(SignedAction.from_value(_chat(spectator, 1)))
    network.frame(connection, wire.text(wire.Act(_chat(spectator, 1))))
    [error] = network.take_errors(connection)
    assert (error.code, error.fatal) == ("spectator", True), "the fourth refusal in a row"
    assert network.closed[connection][1] == "spectator"
    network.drop(connection)
    assert network.host.spectators(CODE.nameplate) == 0
    assert [r["code"] for r in network.logged("rejected")] == ["spectator"] * 3
    network.run(peers)
    assert all(peer.error is None and peer.session.finished for peer in peers)


def test_a_spectator_with_a_wrong_code_is_refused_and_counted_like_a_player(
    tmp_path: Path,
) -> None:
    network = FakeNetwork([make_room(Identity.generate())])
    intruder = _spectator(tmp_path, code=JoinCode(CODE.nameplate, "moss", "owl"))
    _watch(network, intruder)
    assert isinstance(intruder.error, WrongCode) and intruder.pins == []
    assert network.logged("refused")[-1]["failures"] == 1
    assert network.host.spectators(CODE.nameplate) == 0


def test_the_seventeenth_spectator_is_refused_until_one_leaves(tmp_path: Path) -> None:
    network = FakeNetwork([make_room(Identity.generate())])
    spectators = [_spectator(tmp_path, f"W{i}") for i in range(16)]
    for spectator in spectators:
        _watch(network, spectator)
        assert spectator.error is None and spectator.session.seated
    assert network.host.spectators(CODE.nameplate) == 16
    late = _spectator(tmp_path, "Late")
    _watch(network, late)
    assert isinstance(late.error, Refused) and late.error.code == "spectators-full"
    assert "16 people already watch this table" in str(late.error)
    assert network.logged("refused")[-1].get("failures") is None, "not a wrong code"
    network.drop(spectators[0].connection)
    again = _spectator(tmp_path, "Again")
    _watch(network, again)
    assert again.error is None and again.session.seated
    # The seats are not the spectators': players still sit down.
    player = make_peer(tmp_path / "p")
    network.join(player)
    network.deliver()
    assert player.error is None and player.session.seat is not None


def test_spectators_count_against_the_connection_caps(tmp_path: Path) -> None:
    limits = HostLimits(max_per_address=2, max_connections=5)
    network, _seats = seated_table(tmp_path, investigators=1, limits=limits)
    # Two seats from 10.0.0.7 already: the same address cannot add a spectator.
    crowd = _spectator(tmp_path, "Crowd")
    connection = _watch(network, crowd)
    assert network.closed[connection][1] == "rate-limited"
    assert isinstance(crowd.error, Refused) and crowd.error.code == "rate-limited"
    network.drop(connection)
    # Three spectators from three addresses fill the host's five connections.
    for number in range(3):
        spectator = _spectator(tmp_path, f"W{number}")
        _watch(network, spectator, f"10.0.1.{number}:4000")
        assert spectator.session.seated
    refused = network.open("10.0.2.1:4000")
    assert network.closed[refused][1] == "rate-limited", "a watched table is full like any"
    assert network.host.spectators(CODE.nameplate) == 3, "a spectator is never shed"


def test_the_players_see_who_watches_as_they_come_and_go(tmp_path: Path) -> None:
    network, peers = seated_table(tmp_path, investigators=2)
    network.run(peers, until=lambda: peers[0].session.player.held > 5)
    assert peers[0].session.lobby is not None and peers[0].session.lobby.watchers == []
    zed, mo = _spectator(tmp_path, "Zed"), _spectator(tmp_path, "Mo")
    _watch(network, zed)
    _watch(network, mo)
    while network.deliver():
        pass
    for peer in [*peers, zed, mo]:
        lobby = peer.session.lobby
        assert lobby is not None and lobby.watchers == ["Mo", "Zed"], peer.session.name
    network.drop(zed.connection)
    while network.deliver():
        pass
    for peer in [*peers, mo]:
        lobby = peer.session.lobby
        assert lobby is not None and lobby.watchers == ["Mo"]
