"""Descriptor floods: connections are capped per address and in total (the oldest
connection not yet seated gives way first), and failed ``accept()`` calls are logged
once a second at most.

The caps run on the fake link against the real host session, small: a host of 24
connections at most, 6 per address; the seated players' game goes on beside the
flood and verifies.
"""

from __future__ import annotations

import asyncio
import resource
from dataclasses import replace
from pathlib import Path
from typing import Any

from hostile_support import finish, in_play, seated

from domicile_p2p.cli.host import DESCRIPTORS_KEPT, DESCRIPTORS_PER_TABLE, max_connections
from domicile_p2p.net import wire
from domicile_p2p.net.adapters.server import ACCEPT_FAILED, AcceptErrors
from domicile_p2p.net.sessions.host import HostLimits


def test_connections_are_capped_per_address_and_the_unseated_give_way(tmp_path: Path) -> None:
    limits = replace(HostLimits(), max_connections=24, max_per_address=6)
    table = seated(tmp_path, investigators=2, limits=limits)
    network = table.network
    network.run(table.peers, until=in_play(table.peers))
    # One address: its seventh connection is refused at once.
    mine = [network.open(f"10.0.2.1:{4000 + n}") for n in range(8)]
    refused = [c for c in mine if c in network.closed]
    assert refused == mine[6:]
    assert all(network.closed[c][1] == "rate-limited" for c in refused)
    [*_, error] = network.replies(mine[6])
    assert isinstance(error, wire.Error) and "at most 6 at once" in error.message
    for connection in mine:
        network.drop(connection)
    # Many addresses (3 seats + 30 idle connections, cap 24): the oldest unseated give way,
    # never a seated player, and the host holds 24 at most.
    flood = [network.open(f"10.0.3.{n}:4000") for n in range(1, 31)]
    shed = [c for c in flood if c in network.closed]
    assert shed == flood[: len(shed)], "the oldest give way first"
    assert len(flood) - len(shed) + len(table.peers) == 24
    assert all(peer.connection not in network.closed for peer in table.peers)
    assert all(
        "the oldest not seated gives way" in r["reason"]
        for r in network.logged("refused")
        if r["connection"] in shed
    )
    for connection in flood:
        network.drop(connection)
    finish(table)


def test_a_full_host_of_seated_players_refuses_the_newcomer(tmp_path: Path) -> None:
    limits = replace(HostLimits(), max_connections=3)
    table = seated(tmp_path, investigators=2, limits=limits)
    network = table.network
    newcomer = network.open("10.0.4.1:4000")
    assert network.closed[newcomer][1] == "rate-limited"
    assert "too many connections; try later" in network.logged("refused")[-1]["reason"]
    network.drop(newcomer)
    finish(table)


def test_the_default_cap_leaves_room_for_every_tables_files() -> None:
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert max_connections(100, 10) == 100
    if soft != resource.RLIM_INFINITY:
        kept = DESCRIPTORS_KEPT + DESCRIPTORS_PER_TABLE * 10
        assert max_connections(None, 10) == max(16, soft - kept)


def test_failed_accepts_are_logged_once_a_second_at_most() -> None:
    logged: list[tuple[str, dict[str, Any]]] = []
    passed_on: list[dict[str, Any]] = []
    now = [0.0]
    handler = AcceptErrors(
        lambda event, fields: logged.append((event, dict(fields))),
        lambda: now[0],
        lambda _loop, context: passed_on.append(context),
    )
    loop = asyncio.new_event_loop()
    try:
        error = OSError(24, "Too many open files")
        for _attempt in range(1000):  # 1,000 failed accepts over 5 seconds
            handler(loop, {"message": ACCEPT_FAILED, "exception": error})
            now[0] += 0.005
        handler(loop, {"message": "something else"})
    finally:
        loop.close()
    assert [event for event, _ in logged] == ["accept-failed"] * 5
    assert sum(fields["attempts"] for _, fields in logged) < 1000  # the last second's wait
    assert logged[0][1]["reason"] == "[Errno 24] Too many open files"
    assert passed_on == [{"message": "something else"}]
