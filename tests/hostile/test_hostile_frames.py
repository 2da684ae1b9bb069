"""Junk and floods over real TLS: typed errors, closed connections, bounded memory, no delay.

Attackers connect while three honest bots (the Ghost and two investigators)
play over TLS on 127.0.0.1.  Every action of the honest players is timed
from its sending to its event coming back; the numbers are printed (run
with ``-s`` to see them) and only a generous bound is asserted: this is not
a benchmark, it is a check that one connection's junk never stalls the table.
"""

from __future__ import annotations

import asyncio
import json
import resource
from pathlib import Path

import pytest
from hostile_support import LatencyProbe, Records, percentile, send_all_and_listen
from live_support import LOOPBACK, loopback_config, network_bot, same_transcripts

from domicile_p2p.net import wire
from domicile_p2p.net.adapters.host import start_host
from domicile_p2p.net.errors import Refused
from domicile_p2p.net.join.codes import JoinCode
from domicile_p2p.net.wire import MAX_FRAME, Role

CODE = JoinCode(6, "owl", "quill")
DELAY_BOUND = 2.0
"""Seconds: generous on purpose (CI machines are slow and shared); typical values are ms."""

JUNK: list[tuple[str | bytes, str]] = [
    ("not json at all", "bad-frame"),
    (b"\x00\xffbinary\x00", "bad-frame"),
    ('{"type": "act"}', "bad-message"),
    ('{"type": "fetch", "since": -1}', "bad-message"),
    ('{"type": "join", "protocol": 1, "table": 6, "key": "zz"}', "bad-message"),
    ("[" * 5000 + "]" * 5000, "bad-message"),  # refused at the first "[": not an object
    ('{"type": "act", "action": ' + '{"a": ' * 3000 + "1" + "}" * 3000 + "}", "bad-frame"),
    ('{"type":"fetch","since":0}', "unexpected"),  # valid, but not before sitting down
]


PACE = 0.02
"""Seconds each honest bot waits before a move, so the game outlasts the attack."""
ROUNDS = 4
"""Rounds of junk per attacker, three attackers at once: enough for the attack to go on
while the honest game plays (each round is the same junk again; twelve made this the
suite's longest test for nothing more)."""


def _rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


SLICES = (slice(0, 6), slice(-6, None))
"""Five refused frames are tolerated and the sixth closes the connection: two connections
per round send every kind of junk."""


async def _junk_attacker(port: int, rounds: int) -> list[tuple[list[str], int]]:
    results = []
    for _ in range(rounds):
        for part in SLICES:
            results.append(await send_all_and_listen(port, [frame for frame, _ in JUNK[part]]))
        results.append(await send_all_and_listen(port, ["x" * (MAX_FRAME + 1)]))
        flood = [wire.text(wire.Fetch(0))] * 200
        results.append(await send_all_and_listen(port, flood))
    return results


@pytest.mark.slow
async def test_junk_huge_binary_nested_and_floods_never_stall_the_table(tmp_path: Path) -> None:
    log = Records()
    host = await start_host(
        loopback_config(tmp_path / "host", investigators=2, codes=(CODE,)),
        log,
    )
    url = f"wss://{LOOPBACK}:{host.port}"
    rss_before = _rss_mib()
    try:
        ghost = network_bot(tmp_path / "ghost", url, CODE, role=Role.GHOST, seed=0)
        first = network_bot(tmp_path / "first", url, CODE, seat=1, seed=1)
        rogue = network_bot(tmp_path / "rogue", url, CODE, seat=2, seed=2)
        probes = [LatencyProbe(bot) for bot in (ghost, first)]
        games = [asyncio.create_task(bot.play(delay=PACE)) for bot in (ghost, first, rogue)]
        while not (rogue.session.player.playing and rogue.session.ready):
            await asyncio.sleep(0.01)
        loop = asyncio.get_running_loop()
        attack_start = loop.time()
        # A seated player floods valid-looking actions: its own last action, again and again.
        replica = rogue.session.player.replica
        assert replica is not None
        [*_, mine] = [e for e in replica.events if e.seat == 2]
        transport = rogue.client._transport
        assert transport is not None
        for _ in range(200):
            await transport.send(wire.text(wire.Act(dict(mine.action(replica.game_id).value))))
        try:
            await asyncio.wait_for(games[2], 10)
            raise AssertionError("the flooder was not cut off")
        except Refused as refused:
            # Each replay is refused and counted: the sixth closes it before the bucket empties.
            assert refused.code == "replay" and "too many bad messages" in str(refused)
        # The flooder comes back (same key) and the game carries on to its end.
        again = network_bot(tmp_path / "rogue", url, CODE, seat=2, seed=2)
        games[2] = asyncio.create_task(again.play(delay=PACE))
        attackers = await asyncio.gather(*(_junk_attacker(host.port, ROUNDS) for _ in range(3)))
        attack_end = loop.time()
        outcomes = await asyncio.wait_for(asyncio.gather(*games), 90)
        await asyncio.wait_for(host.wait_done(), 10)
        connections_left = len(host.server.session._connections)  # type: ignore[union-attr]
    finally:
        await host.close()
    rss_growth = _rss_mib() - rss_before

    for junk in attackers:
        for index, part in enumerate(SLICES):
            wanted = [code for _frame, code in JUNK[part]]
            for codes, close_code in junk[index::4]:
                assert codes == [*wanted[:5], f"fatal:{wanted[5]}"], codes
                assert close_code == 1008, close_code
        for codes, close_code in junk[2::4]:
            assert close_code == 1009 and codes == [], "websockets refused the frame over 64 KiB"
        for codes, close_code in junk[3::4]:
            assert codes[-1] in ("fatal:unexpected", "fatal:flood") and close_code == 1008
    assert all(outcome.valid for outcome in outcomes), [o.report.summary for o in outcomes]
    assert same_transcripts(outcomes)
    refused = [r for r in log.named("refused") if r.get("code") == "too-large"]
    assert len(refused) == 3 * ROUNDS, "every frame over 64 KiB was refused and logged"
    assert connections_left == 0, "no connection state outlived its connection"

    during = [s for probe in probes for s in probe.during(attack_start, attack_end)]
    after = [s for probe in probes for s in probe.during(attack_end, float("inf"))]
    report = {
        "actions_timed_during_attack": len(during),
        "p50_ms_during": round(1000 * percentile(during, 0.5), 1),
        "p95_ms_during": round(1000 * percentile(during, 0.95), 1),
        "max_ms_during": round(1000 * max(during, default=0.0), 1),
        "p50_ms_after": round(1000 * percentile(after, 0.5), 1),
        "max_ms_after": round(1000 * max(after, default=0.0), 1),
        "attack_seconds": round(attack_end - attack_start, 2),
        "max_rss_growth_mib": round(rss_growth, 1),
    }
    print("hostile-frames", json.dumps(report))
    assert during, "the honest players kept acting during the attack"
    assert max(during) < DELAY_BOUND, report
    assert rss_growth < 200, report
