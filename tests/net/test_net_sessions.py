"""HostSession and PeerSession over a fake link: handshakes, a whole game, refusals."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from net_support import (
    CODE,
    FINGERPRINT,
    FakeNetwork,
    Peer,
    make_peer,
    make_room,
    seated_table,
)

from domicile_p2p import canonical
from domicile_p2p.identity import Identity
from domicile_p2p.net import wire
from domicile_p2p.net.errors import BadEvent, HostMisbehaved, Refused, WrongCode
from domicile_p2p.net.join.codes import JoinCode
from domicile_p2p.net.sessions.effects import Send
from domicile_p2p.net.sessions.host import HostLimits
from domicile_p2p.net.sessions.peer import PeerSession
from domicile_p2p.net.wire import PROTOCOL, Join, Role
from domicile_p2p.transcript.schema import Kind, LockBody
from domicile_p2p.transcript.verify import verify


def test_a_whole_bot_game_over_the_fake_link_ends_with_identical_verified_transcripts(
    tmp_path: Path,
) -> None:
    network, peers = seated_table(tmp_path, investigators=3)
    assert [peer.session.seat for peer in peers] == [0, 1, 2, 3]
    assert all(peer.pins == [FINGERPRINT] for peer in peers), "the PAKE proved the certificate"
    network.run(peers)
    assert all(peer.error is None for peer in peers), [peer.error for peer in peers]
    assert all(peer.session.finished for peer in peers)
    lines = {tuple(e.line for e in peer.session.player.replica.events) for peer in peers}
    assert len(lines) == 1, "every peer holds the same transcript"
    events = peers[0].session.player.replica.events
    persisted = network.persisted[CODE.nameplate]
    assert persisted == [event.line for event in events], "the host persisted every event"
    report = verify(list(events))
    assert report.valid, report.summary
    assert network.finished == [peers[0].session.player.replica.game_id]


def _finish(network: FakeNetwork, peers: list) -> None:
    """Play the rest of the game; every peer must end with the same verified transcript."""
    network.run(peers)
    assert all(peer.error is None for peer in peers), [peer.error for peer in peers]
    assert all(peer.session.finished for peer in peers)
    transcripts = {tuple(e.line for e in p.session.player.replica.events) for p in peers}
    assert len(transcripts) == 1
    assert verify(list(peers[0].session.player.replica.events)).valid


def _in_play(peers: list) -> Callable[[], bool]:
    return lambda: all(p.session.player.playing and p.session.ready for p in peers)


def test_a_wrong_code_is_refused_on_both_sides_counted_and_then_rate_limited(
    tmp_path: Path,
) -> None:
    network = FakeNetwork([make_room(Identity.generate())])
    for attempt in range(1, 6):
        intruder = make_peer(tmp_path / "x", code=JoinCode(CODE.nameplate, "moss", "owl"))
        network.join(intruder)
        network.deliver()  # the client hangs up on the host's confirmation
        assert isinstance(intruder.error, WrongCode), intruder.error
        assert intruder.pins == [], "nothing is pinned after a failed PAKE"
        refused = network.logged("refused")[-1]
        assert refused["code"] == "wrong-code" and refused["failures"] == attempt
    honest = make_peer(tmp_path / "honest")
    network.join(honest)
    network.deliver()
    assert isinstance(honest.error, Refused) and honest.error.code == "rate-limited"
    assert "try again in" in str(honest.error)
    network.now += 61
    late = make_peer(tmp_path / "late")
    network.join(late)
    network.deliver()
    assert late.error is None and late.session.seated, "the window passed"
    assert network.host.rooms[CODE.nameplate].seats_free == 2


def test_a_relay_with_another_certificate_fails_the_pake_even_with_the_right_code(
    tmp_path: Path,
) -> None:
    """The client saw the relay's certificate; the host binds its own: confirmations differ."""
    network = FakeNetwork([make_room(Identity.generate())])
    victim = make_peer(tmp_path / "v")
    network.join(victim, fingerprint=bytes(32))
    network.deliver()
    assert isinstance(victim.error, WrongCode)
    assert victim.pins == []
    assert network.host.rooms[CODE.nameplate].seats_free == 3


def test_handshake_refusals_are_typed_and_fatal(tmp_path: Path) -> None:
    network = FakeNetwork([make_room(Identity.generate())])
    key = Identity.generate().public_hex
    pake = "41" + "11" * 32
    cases = [
        (Join(99, CODE.nameplate, key, "Ada", Role.ANY, pake), "protocol-version"),
        (Join(PROTOCOL, 9, key, "Ada", Role.ANY, pake), "unknown-table"),
    ]
    for message, code in cases:
        connection = network.open()
        network.replies(connection)
        network.frame(connection, wire.text(message))
        [error] = network.replies(connection)
        assert isinstance(error, wire.Error) and error.code == code and error.fatal
        assert connection in network.closed


def test_a_bad_pake_message_and_a_message_out_of_order_are_refused(tmp_path: Path) -> None:
    network = FakeNetwork([make_room(Identity.generate())])
    connection = network.open()
    network.replies(connection)
    key = Identity.generate().public_hex
    network.frame(
        connection, wire.text(Join(PROTOCOL, CODE.nameplate, key, "A", Role.ANY, "00" * 33))
    )
    [error] = network.replies(connection)
    assert error.code == "bad-message" and not error.fatal
    network.frame(connection, wire.text(wire.Fetch(0)))
    [error] = network.replies(connection)
    assert error.code == "unexpected" and not error.fatal
    assert connection not in network.closed


def test_a_handshake_that_never_finishes_is_closed_at_its_deadline() -> None:
    network = FakeNetwork([make_room(Identity.generate())], limits=HostLimits(handshake_timeout=5))
    connection = network.open()
    assert network.host.next_deadline() == 5.0
    network.apply(network.host.tick(4.9))
    assert connection not in network.closed
    network.apply(network.host.tick(5.0))
    assert network.closed[connection][1] == "unexpected"
    assert network.host.next_deadline() is None


def test_roles_seat_wishes_and_a_full_table(tmp_path: Path) -> None:
    network = FakeNetwork([make_room(Identity.generate(), investigators=1)])
    ghost = make_peer(tmp_path / "g", role=Role.GHOST)
    network.join(ghost)
    network.deliver()
    assert ghost.session.seat == 0
    second_ghost = make_peer(tmp_path / "g2", role=Role.GHOST)
    network.join(second_ghost)
    network.deliver()
    assert isinstance(second_ghost.error, Refused) and second_ghost.error.code == "role-taken"
    investigator = make_peer(tmp_path / "i")
    network.join(investigator)
    network.deliver()
    assert investigator.session.seat == 1
    late = make_peer(tmp_path / "late")
    network.join(late)
    network.deliver()
    assert isinstance(late.error, Refused) and late.error.code == "game-started"
    assert "the game has started" in str(late.error)
    assert network.logged("game-started")


def test_a_lobby_seat_is_freed_when_its_player_leaves_before_the_game(tmp_path: Path) -> None:
    network = FakeNetwork([make_room(Identity.generate())])
    first, second = make_peer(tmp_path / "a"), make_peer(tmp_path / "b")
    network.join(first)
    network.join(second)
    network.deliver()
    lobby = second.session.lobby
    assert lobby is not None and [s.connected for s in lobby.seats] == [False, True, True]
    network.drop(first.connection)
    network.deliver()
    lobby = second.session.lobby
    assert [s.name is not None for s in lobby.seats] == [False, False, True]
    assert network.logged("leave")[-1]["seat_released"] is True


def test_a_dropped_player_resumes_its_seat_and_catches_up(tmp_path: Path) -> None:
    network, peers = seated_table(tmp_path, investigators=2)
    network.run(peers, until=_in_play(peers))
    quitter = peers[2]
    held = quitter.session.player.held
    network.drop(quitter.connection)
    network.run(peers[:2], until=lambda: peers[0].session.player.held > held + 2)
    network.join(quitter, pinned=True)
    network.deliver()
    assert quitter.session.seated and quitter.session.caught_up
    assert network.logged("resume")[-1]["seat"] == 2
    assert quitter.session.player.held == peers[0].session.player.held
    _finish(network, peers)


def test_an_action_in_flight_when_the_link_drops_is_sent_once_after_the_resume(
    tmp_path: Path,
) -> None:
    network, peers = seated_table(tmp_path, investigators=1)
    network.run(peers, until=_in_play(peers))
    ghost = peers[0]
    action = ghost.brain.decide()
    assert action is not None
    # The frame is lost with the connection: the host never saw it.
    network.drop(ghost.connection)
    ghost.session.submit(action)
    assert ghost.session.in_flight is action
    network.join(ghost, pinned=True)
    network.deliver()
    assert ghost.session.in_flight is None, "resent after the catch-up, and its event came back"
    assert ghost.session.player.last_counter() == action.counter
    assert not network.logged("rejected")
    _finish(network, peers)


def test_an_action_the_host_applied_before_the_drop_is_not_sent_again(tmp_path: Path) -> None:
    network, peers = seated_table(tmp_path, investigators=1)
    network.run(peers, until=_in_play(peers))
    ghost = peers[0]
    action = ghost.brain.decide()
    network._peer_apply(ghost, ghost.session.submit(action))  # the host applies it...
    network.to_peer[ghost.connection].clear()  # ...but its event is lost with the link
    network.drop(ghost.connection)
    network.join(ghost, pinned=True)
    network.deliver()
    assert ghost.session.in_flight is None
    assert not network.logged("rejected"), "nothing was applied twice or replayed"
    _finish(network, peers)


def test_resume_without_a_pin_joins_again_with_the_code(tmp_path: Path) -> None:
    network, peers = seated_table(tmp_path, investigators=1)
    network.run(peers, until=_in_play(peers))
    network.drop(peers[1].connection)
    network.join(peers[1], pinned=False)
    network.deliver()
    assert peers[1].session.seat == 1
    assert network.logged("rejoin")[-1]["seat"] == 1
    _finish(network, peers)


def test_a_second_connection_of_the_same_player_supersedes_the_first(tmp_path: Path) -> None:
    network, peers = seated_table(tmp_path, investigators=1)
    old = peers[1].connection
    clone = make_peer(tmp_path / "seat1", identity=peers[1].session.identity)
    network.join(clone)
    network.deliver()
    network.deliver()
    assert clone.session.seat == 1
    assert network.closed[old][1] == "superseded"
    assert isinstance(peers[1].error, Refused) and peers[1].error.code == "superseded"
    _finish(network, [peers[0], clone])


def _valid_action(peer) -> dict:
    action = peer.brain.decide()
    assert action is not None
    peer.session.player.agent.resync()
    return dict(action.value)


def _attack(network: FakeNetwork, peer, frame: str | bytes) -> wire.Error:
    network.frame(peer.connection, frame)
    [error] = network.take_errors(peer.connection)
    return error


def test_each_bad_input_gets_a_typed_error_and_the_game_carries_on(tmp_path: Path) -> None:
    network, peers = seated_table(tmp_path, investigators=2)
    network.run(peers, until=_in_play(peers))
    ghost, first, second = peers
    value = _valid_action(ghost)
    forged = {**value, "sig": ("0" if value["sig"][0] != "0" else "1") + value["sig"][1:]}
    others = _valid_action(ghost)
    cases = [
        ("not json", "bad-frame"),
        (b"\x00binary", "bad-frame"),
        ('{"type": "act"}', "bad-message"),
        (wire.text(wire.Act({"what": "ever"})), "bad-action"),
        (wire.text(wire.Act(forged)), "bad-signature"),
        (wire.text(wire.Act(others)), "not-your-seat"),
        (wire.text(wire.Act({**value, "counter": value["counter"] + 5})), "bad-signature"),
    ]
    for index, (frame, code) in enumerate(cases):
        # Spread over the seats: more than 5 refusals in a row close a connection (fatal).
        target = first if code == "not-your-seat" else second if code == "bad-frame" else ghost
        error = _attack(network, target, frame)
        assert error.code == code and not error.fatal, (index, error)
    assert len(network.logged("rejected")) == len(cases), "every refusal is logged"
    # A genuine action, then the same frame again: a replay.
    network.frame(ghost.connection, wire.text(wire.Act(value)))
    network.deliver()
    error = _attack(network, ghost, wire.text(wire.Act(value)))
    assert error.code == "replay"
    # Out of turn: an investigator locks before it has a marker.
    lock = first.session.player.agent.sign(Kind.LOCK, LockBody())
    first.session.player.agent.resync()
    assert _attack(network, first, wire.text(wire.Act(lock.value))).code == "rule"
    _finish(network, peers)


def test_too_many_bad_frames_or_a_flood_disconnect_only_that_connection(tmp_path: Path) -> None:
    limits = HostLimits(max_bad_frames=3, message_rate=100.0, message_burst=10.0)
    network, peers = seated_table(tmp_path, investigators=2, limits=limits)
    network.run(peers, until=_in_play(peers))
    for _ in range(3):
        assert not _attack(network, peers[1], "garbage").fatal
    network.frame(peers[1].connection, "garbage")
    errors = [m for m in network.replies(peers[1].connection) if isinstance(m, wire.Error)]
    assert errors[-1].fatal and network.closed[peers[1].connection][1] == "bad-frame"
    network.drop(peers[1].connection)

    flooder = network.open("10.0.0.66:1")
    for _ in range(10):
        network.frame(flooder, wire.text(wire.Fetch(0)))
    assert network.closed[flooder][1] == "flood"
    # The table carries on: the dropped investigator comes back and everyone finishes.
    network.join(peers[1], pinned=True)
    _finish(network, peers)


def test_a_gap_in_the_events_is_fetched(tmp_path: Path) -> None:
    network, peers = seated_table(tmp_path, investigators=2)
    network.run(peers, until=_in_play(peers))
    ghost, watcher = peers[0], peers[2]
    network._peer_apply(ghost, ghost.session.submit(ghost.brain.decide()))
    network.to_peer[watcher.connection].clear()  # that event never reaches the watcher
    network.deliver(only=[ghost.connection])
    network._peer_apply(ghost, ghost.session.submit(ghost.brain.decide()))
    held = watcher.session.player.held
    network.deliver()
    gaps = [record for record in watcher.logs if record["event"] == "gap"]
    assert gaps == [{"event": "gap", "expected": held, "got": held + 1}]
    assert watcher.session.player.held == ghost.session.player.held
    assert watcher.session.caught_up
    _finish(network, peers)


def test_a_host_that_rewrites_an_event_is_caught(tmp_path: Path) -> None:
    network, peers = seated_table(tmp_path, investigators=1)
    network.run(peers, until=_in_play(peers))
    watcher = peers[1]
    events = [dict(e.value) for e in watcher.session.player.replica.events]
    tampered = {**events[1], "host_sig": "00" * 64}
    with pytest.raises(BadEvent, match="different event 1"):
        watcher.session.receive(wire.Events(1, [tampered]))
    forged_next = {**events[-1], "seq": len(events)}
    with pytest.raises(BadEvent, match="the host broke the protocol at event"):
        watcher.session.receive(wire.Events(len(events), [forged_next]))


def _pake_then(
    network: FakeNetwork, tmp_path: Path, confirm: Callable[[Peer, wire.PakeReply], wire.Confirm]
) -> wire.Error:
    """Join honestly up to the host's PAKE reply, then send a crafted confirm."""
    peer = make_peer(tmp_path / "crafted")
    connection = network.open()
    [welcome] = network.replies(connection)
    peer.connection = connection
    [transmit] = peer.session.connection_made(FINGERPRINT, False) + peer.session.receive(welcome)
    network.frame(connection, wire.text(transmit.message))
    [reply] = network.replies(connection)
    network.frame(connection, wire.text(confirm(peer, reply)))
    [error] = network.replies(connection)
    return error


def test_a_forged_confirmation_or_proof_is_refused_and_counted(tmp_path: Path) -> None:
    network = FakeNetwork([make_room(Identity.generate())])
    error = _pake_then(network, tmp_path, lambda peer, reply: wire.Confirm("00" * 32, "00" * 64))
    assert (error.code, error.fatal) == ("wrong-code", True)

    def bad_proof(peer: Peer, reply: wire.PakeReply) -> wire.Confirm:
        [_pin, _log, transmit] = peer.session.receive(reply)
        assert isinstance(transmit.message, wire.Confirm)
        return wire.Confirm(transmit.message.mac, "11" * 64)

    error = _pake_then(network, tmp_path, bad_proof)
    assert (error.code, error.fatal) == ("bad-proof", True)
    assert [r["failures"] for r in network.logged("refused")] == [1, 2]
    assert network.host.rooms[CODE.nameplate].seats_free == 3


def test_resume_with_a_bad_proof_or_an_unknown_key(tmp_path: Path) -> None:
    network = FakeNetwork([make_room(Identity.generate())])
    connection = network.open()
    network.replies(connection)
    key = Identity.generate().public_hex
    network.frame(connection, wire.text(wire.Resume(PROTOCOL, CODE.nameplate, key, "22" * 64, 0)))
    [error] = network.replies(connection)
    assert (error.code, error.fatal) == ("bad-proof", True)
    # A stranger with a valid proof but no seat, and no code to fall back on.
    stranger = make_peer(tmp_path / "s", code=None)
    stranger.session.player.seat = 2  # it believes it holds a seat
    network.join(stranger, pinned=True)
    network.deliver()
    assert isinstance(stranger.error, Refused) and stranger.error.code == "not-seated"


def test_a_host_with_tables_past_nine_keeps_each_tables_traffic_to_its_own_seats(
    tmp_path: Path,
) -> None:
    """Tables 1, 12 and 345 at one host: every frame a seat gets is its own table's."""
    host = Identity.generate()
    codes = {number: JoinCode(number, "raven", "lantern") for number in (1, 12, 345)}
    network = FakeNetwork([make_room(host, investigators=1, code=code) for code in codes.values()])
    sent: list[tuple[int, object]] = []
    apply = network.apply

    def recording(effects: list) -> None:
        sent.extend((e.connection, e.message) for e in effects if isinstance(e, Send))
        apply(effects)

    network.apply = recording  # type: ignore[method-assign]
    tables = {
        number: [
            make_peer(tmp_path / f"t{number}s{seat}", code=code, seat=seat, name=f"Bot {seat}")
            for seat in range(2 if number != 345 else 1)
        ]
        for number, code in codes.items()
    }
    for peers in tables.values():
        for peer in peers:
            network.join(peer)
            network.deliver()
    table_of = {peer.connection: number for number, peers in tables.items() for peer in peers}
    network.run(tables[1] + tables[12])
    for number in (1, 12):
        assert all(peer.session.finished for peer in tables[number])
        lines = network.persisted[number]
        for peer in tables[number]:
            assert [e.line for e in peer.session.player.replica.events] == lines
    assert 345 not in network.persisted, "the half-seated table never began"
    own_lines = {number: set(lines) for number, lines in network.persisted.items()}
    for connection, message in sent:
        number = table_of[connection]
        if isinstance(message, wire.Lobby | wire.Seated):
            assert message.table == number
        if isinstance(message, wire.Events):
            assert {canonical.encode(value) for value in message.events} <= own_lines[number]
    lonely = tables[345][0].connection
    assert not [m for c, m in sent if c == lonely and isinstance(m, wire.Events)]


def test_a_peer_is_offline_until_its_connection_is_made_and_again_once_it_is_lost() -> None:
    session = PeerSession(Identity.generate(), CODE.nameplate, code=CODE, name="Ann")
    assert not session.connected
    with pytest.raises(HostMisbehaved):
        session.receive(wire.Welcome(PROTOCOL, "00" * 32))
    session.connection_made(FINGERPRINT, pinned=False)
    assert session.connected
    session.connection_lost()
    assert not session.connected
    with pytest.raises(HostMisbehaved):
        session.receive(wire.Welcome(PROTOCOL, "00" * 32))
