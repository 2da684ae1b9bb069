"""Join floods: code guesses stay at 5 a minute per address however the joins are
spread over connections, malformed PAKE messages count as failures, and the whole
host computes at most ``join_rate`` PAKE replies a second (the rest wait their turn).

Raw joins on the fake link against the real host session: each PAKE reply the host
sends is one guess of the code (its confirmation tells a wrong code from a right one).
"""

from __future__ import annotations

import secrets
import time
from dataclasses import replace
from pathlib import Path

from net_support import CODE, FINGERPRINT, FakeNetwork, make_peer, make_room

from domicile_p2p.identity import Identity
from domicile_p2p.net import wire
from domicile_p2p.net.join.codes import JoinCode
from domicile_p2p.net.join.pake import Binding, ClientPake, host_reply
from domicile_p2p.net.sessions.host import HostLimits

WRONG = JoinCode(CODE.nameplate, "moss", "owl")


def _open_join(network: FakeNetwork, remote: str, *, code: JoinCode = WRONG, pake: str = "") -> int:
    """A raw connection from ``remote`` that sends a join (its PAKE with ``code``)."""
    connection = network.open(remote)
    [welcome] = network.replies(connection)
    assert isinstance(welcome, wire.Welcome)
    key = Identity.generate().public_hex
    binding = Binding(CODE.nameplate, FINGERPRINT, bytes.fromhex(key), bytes.fromhex(welcome.nonce))
    message = pake or ClientPake(code, binding).message.hex()
    join = wire.Join(wire.PROTOCOL, CODE.nameplate, key, "Guesser", wire.Role.ANY, message)
    network.frame(connection, wire.text(join))
    return connection


def _replies(network: FakeNetwork, connections: list[int]) -> dict[int, list[object]]:
    return {c: network.replies(c) for c in connections}


def _pake_replies(replies: dict[int, list[object]]) -> list[int]:
    return [c for c, got in replies.items() if any(isinstance(m, wire.PakeReply) for m in got)]


def _confirm_wrong(network: FakeNetwork, connection: int) -> None:
    network.frame(connection, wire.text(wire.Confirm("00" * 32, "00" * 64)))


def test_ten_concurrent_joins_from_one_address_get_five_guesses_a_minute(tmp_path: Path) -> None:
    network = FakeNetwork([make_room(Identity.generate())])
    guesser = [_open_join(network, f"10.0.0.66:{4000 + n}") for n in range(10)]
    replies = _replies(network, guesser)
    answered = _pake_replies(replies)
    assert len(answered) == 5, "five guesses at once, the others wait their turn"
    waiting = [c for c in guesser if c not in answered][:3]
    assert all(replies[c] == [] for c in waiting), "three wait their turn (8 at once at most)"
    for connection in guesser[8:]:
        assert network.closed[connection][1] == "rate-limited"
    for connection in answered:  # five wrong codes: the window is full
        _confirm_wrong(network, connection)
    late = _replies(network, waiting)
    assert _pake_replies(late) == [], "no sixth guess in the window"
    for connection in waiting:
        assert network.closed[connection][1] == "rate-limited"
    assert len(network.logged("refused")) == 10
    # Another address is not held up meanwhile, and an honest player joins.
    honest = make_peer(tmp_path / "honest")
    network.join(honest)
    network.deliver()
    assert honest.session.seated
    # A minute later the guesser gets its next five, and no more.
    network.now += 61
    again = [_open_join(network, f"10.0.0.66:{5000 + n}") for n in range(7)]
    assert len(_pake_replies(_replies(network, again))) == 5


def test_malformed_pake_messages_count_as_failures(tmp_path: Path) -> None:
    network = FakeNetwork([make_room(Identity.generate())])
    not_a_point = "41" + "ff" * 32  # the right length, not a group element
    for attempt in range(1, 6):
        connection = _open_join(network, f"10.0.0.77:{4000 + attempt}", pake=not_a_point)
        [error] = network.replies(connection)
        assert isinstance(error, wire.Error) and error.code == "bad-message", error
        assert network.logged("rejected")[-1]["reason"].startswith("the PAKE message")
    # The sixth join from that address is refused before any PAKE, even with the right code.
    intruder = make_peer(tmp_path / "intruder")
    connection = network.open("10.0.0.77:4100")
    intruder.connection = connection
    network.peers[connection] = intruder
    network._peer_apply(intruder, intruder.session.connection_made(FINGERPRINT, False))
    network.deliver()
    assert intruder.error is not None and "try again in" in str(intruder.error)
    assert network.logged("refused")[-1]["code"] == "rate-limited"


def test_a_flood_from_many_addresses_gets_at_most_the_hosts_join_rate(tmp_path: Path) -> None:
    limits = replace(HostLimits(), join_rate=2.0, join_burst=4.0)
    network = FakeNetwork([make_room(Identity.generate())], limits=limits)
    flood = [_open_join(network, f"10.0.1.{n}:4000") for n in range(1, 17)]
    answered = _pake_replies(_replies(network, flood))
    assert len(answered) == 4, "the burst, then the rate"
    deadline = network.host.next_deadline()
    assert deadline is not None and deadline <= network.now + 0.5
    # An honest player joins in the middle of the flood: it waits its turn, then sits.
    honest = make_peer(tmp_path / "honest")
    network.join(honest)
    network.deliver()
    assert not honest.session.seated and honest.error is None
    for _second in range(12):
        network.now += 1.0
        network.apply(network.host.tick(network.now))
        got = _pake_replies(_replies(network, [c for c in flood if c not in answered]))
        assert len(got) <= 2, "at most join_rate PAKE replies a second"
        answered += got
        network.deliver()
        if honest.session.seated:
            break
    assert honest.session.seated and honest.error is None
    assert len(answered) <= 4 + 2 * 12


def test_the_default_join_rate_keeps_pake_work_under_half_a_core() -> None:
    """The host's PAKE reply, timed here on this machine: ``join_rate`` of them a second
    must cost under half a second of CPU (generous: the measurement runs beside others)."""
    binding = Binding(CODE.nameplate, FINGERPRINT, secrets.token_bytes(32), bytes(32))
    messages = [ClientPake(WRONG, binding).message for _ in range(10)]
    started = time.process_time()
    for message in messages:
        host_reply(CODE, binding, message)
    cost = (time.process_time() - started) / len(messages)
    print(f"one PAKE reply: {cost * 1000:.1f} ms of CPU")
    assert HostLimits().join_rate * cost < 0.5
