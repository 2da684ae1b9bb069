"""A live join flood: joins with a malformed PAKE element from hundreds of loopback addresses,
as fast as a few workers can send them, beside an honest game that must finish and verify.

Each malformed element counts as a failed guess of its address, and the whole host
computes at most ``join_rate`` PAKE replies a second after a burst of ``join_burst``
(``HostLimits``), so the flood's PAKE work is bounded however it is spread: the host's
log must show no more malformed joins looked at than that budget allows for the time
the flood lasted.  The host's CPU share during the flood is printed (``make soak``'s
figure in SECURITY.md), not asserted: it depends on the machine and its load.

``make test`` floods for 5 seconds; ``make soak`` for 60 (``DOMICILE_SOAK_JOIN_SECONDS``).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import time
from pathlib import Path

import pytest
from flood_support import FloodedHost, cpu_seconds, flood_connection, honest_pair
from live_support import same_transcripts

from domicile_p2p.net import wire
from domicile_p2p.net.join.codes import JoinCode
from domicile_p2p.net.sessions.host import HostLimits
from domicile_p2p.net.wire import Role
from domicile_p2p.transcript.verify import verify

CODE = JoinCode(4, "owl", "quill")
SECONDS = float(os.environ.get("DOMICILE_SOAK_JOIN_SECONDS", "5"))
WORKERS = 8
ADDRESSES = 600
"""Source addresses the flood cycles through (each is allowed 5 failures a minute)."""


def _malformed_join() -> wire.Join:
    """A join whose PAKE element has the right length and is no point of the curve."""
    malformed = "ff" + secrets.token_hex(32)
    return wire.Join(
        wire.PROTOCOL, CODE.nameplate, secrets.token_hex(32), "Flood", Role.ANY, malformed
    )


class JoinFlood:
    """``WORKERS`` loops of connect, Welcome, a join with a malformed PAKE, the answer."""

    def __init__(self, port: int, seconds: float) -> None:
        self.port = port
        self.deadline = time.monotonic() + seconds
        self.sent = 0
        self.answers: dict[str, int] = {}
        self._next = 0
        self._tasks = [asyncio.ensure_future(self._worker()) for _ in range(WORKERS)]

    async def _worker(self) -> None:
        for _attempt in range(1_000_000):
            if time.monotonic() > self.deadline:
                return
            index, self._next = self._next, self._next + 1
            # One connection from each address in turn (flood_support: 60 an address).
            address_index = (index % ADDRESSES) * 60
            try:
                websocket = await flood_connection(self.port, address_index, timeout=10)
            except Exception:
                self._count("no-connection")
                continue
            try:
                await websocket.send(wire.text(_malformed_join()))
                self.sent += 1
                reply = wire.decode_host(await asyncio.wait_for(websocket.recv(), 10))
                self._count(reply.code.value if isinstance(reply, wire.Error) else reply.type)
            except Exception:
                self._count("closed")
            finally:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(websocket.close(), 2)
                websocket.transport.abort()

    def _count(self, what: str) -> None:
        self.answers[what] = self.answers.get(what, 0) + 1

    async def wait(self) -> None:
        await asyncio.gather(*self._tasks, return_exceptions=True)


@pytest.mark.slow
async def test_a_join_flood_from_many_addresses_leaves_the_honest_game_whole(
    tmp_path: Path,
) -> None:
    host = FloodedHost(tmp_path / "host", "--investigators", "1", "--code", str(CODE))
    flood: JoinFlood | None = None
    try:
        await host.start()
        started, cpu_before = time.monotonic(), cpu_seconds(host.pid)
        flood = JoinFlood(host.port, SECONDS)
        await asyncio.sleep(min(2.0, SECONDS / 2))
        bots = honest_pair(tmp_path, host.port, CODE)
        outcomes = await asyncio.wait_for(asyncio.gather(*(bot.play() for bot in bots)), 600)
        game_over = time.monotonic() - started
        await flood.wait()
        elapsed = time.monotonic() - started
        cpu = cpu_seconds(host.pid) - cpu_before
        ended = await host.wait_for("game-ended", 60)
        repeated = await _malformed_joins_from_one_address(
            host.port, HostLimits().join_failures + 2
        )
        # Those joins are looked at too: the budget below runs until they are answered.
        budgeted = time.monotonic() - started
        assert host.alive()
        print(
            f"join flood: {flood.sent} malformed joins in {elapsed:.1f} s "
            f"({flood.sent / elapsed:.0f}/s, {WORKERS} workers, {ADDRESSES} addresses): "
            f"{flood.answers}; host CPU {cpu:.1f} s ({100 * cpu / elapsed:.0f}% of one core); "
            f"the honest game took {game_over:.1f} s from the flood's start"
        )
    finally:
        if flood is not None:
            flood.deadline = 0.0
            await flood.wait()
        await host.stop()
    assert all(outcome.valid for outcome in outcomes), [o.report.summary for o in outcomes]
    assert same_transcripts(outcomes)
    assert ended["verified"] and verify(Path(ended["transcript"])).valid
    assert flood.sent > 0
    looked_at = [r for r in host.named("rejected") if "PAKE message is malformed" in r["reason"]]
    limits = HostLimits()
    assert 0 < len(looked_at) <= limits.join_burst + limits.join_rate * budgeted
    # Counted as failed guesses: from one address, the sixth malformed join within the
    # minute is refused before any PAKE work (the fake-link tests count every one).
    assert repeated[: limits.join_failures] == ["bad-message"] * limits.join_failures
    assert repeated[limits.join_failures :] == ["rate-limited"] * 2


async def _malformed_joins_from_one_address(port: int, count: int) -> list[str]:
    """``count`` malformed joins in a row from one address: the code of each answer."""
    answers = []
    for _ in range(count):
        websocket = await flood_connection(port, ADDRESSES * 60, timeout=30)
        try:
            await websocket.send(wire.text(_malformed_join()))
            reply = wire.decode_host(await asyncio.wait_for(websocket.recv(), 30))
            answers.append(reply.code.value if isinstance(reply, wire.Error) else reply.type)
        finally:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(websocket.close(), 2)
            websocket.transport.abort()
    return answers
