"""A descriptor flood against a real host under a small ``ulimit -n``: the honest game still
starts, finishes, is written and verifies, and the host stays up.

``domicile host`` runs in a subprocess with its own RLIMIT_NOFILE (160 in ``make test``,
1024 in ``make soak``) and its default caps, which follow from that limit.  A flooder
holds more connections than that (200; 1,100 in ``make soak``) from 127.0.0.2 on,
reopening each one the host closes, for as long as the game lasts.  Once the host is
full, two honest bots join from 127.0.0.1 and play a whole game beside the flood.
Before issue 16 the host exited at the game's first event (``persist-failed … Too many
open files``).  Every loop is bounded in count and time.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from pathlib import Path
from typing import Any

import pytest
from flood_support import FloodedHost, flood_connection, honest_pair, open_descriptors
from live_support import same_transcripts

from domicile_p2p.cli.host import DESCRIPTORS_KEPT, DESCRIPTORS_PER_TABLE
from domicile_p2p.net.adapters.bot import BotOutcome
from domicile_p2p.net.adapters.client import Backoff
from domicile_p2p.net.join.codes import JoinCode
from domicile_p2p.transcript.verify import verify

CODE = JoinCode(7, "owl", "quill")
NOFILE = int(os.environ.get("DOMICILE_SOAK_NOFILE", "160"))
FLOOD = int(os.environ.get("DOMICILE_SOAK_FLOOD", "200"))
GAME_SECONDS = 600.0
"""The whole test's bound (a game takes seconds; the flood stops with it)."""


class Holder:
    """Keeps up to ``count`` idle connections open, reopening each one the host closes."""

    def __init__(self, port: int, count: int) -> None:
        self.port = port
        self.count = count
        self.open = 0
        self.opened = 0
        self.failed = 0
        self._stop = asyncio.Event()
        self._tasks = [asyncio.ensure_future(self._hold(index)) for index in range(count)]

    async def _hold(self, index: int) -> None:
        deadline = time.monotonic() + GAME_SECONDS
        for _attempt in range(10_000):
            if self._stop.is_set() or time.monotonic() > deadline:
                return
            try:
                websocket = await flood_connection(self.port, index, timeout=15)
            except Exception:
                self.failed += 1
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._stop.wait(), 0.2)
                continue
            self.opened += 1
            self.open += 1
            try:
                stop = asyncio.ensure_future(self._stop.wait())
                closed = asyncio.ensure_future(websocket.wait_closed())
                await asyncio.wait({stop, closed}, return_when=asyncio.FIRST_COMPLETED)
                stop.cancel()
                closed.cancel()
            finally:
                self.open -= 1
                websocket.transport.abort()

    async def stop(self) -> None:
        self._stop.set()
        await asyncio.gather(*self._tasks, return_exceptions=True)


async def _while_alive(host: FloodedHost, playing: asyncio.Future[list[BotOutcome]]) -> Any:
    """``playing``'s result, failing at once if the host exits first (bounded)."""
    for _ in range(int(GAME_SECONDS / 0.5)):
        done, _pending = await asyncio.wait({playing}, timeout=0.5)
        if done:
            return playing.result()
        if not host.alive():
            playing.cancel()
            host.read()
            raise AssertionError(f"the host exited: {host.records[-3:]}")
    playing.cancel()
    raise AssertionError(f"the game did not end within {GAME_SECONDS} s")


@pytest.mark.slow
async def test_a_descriptor_flood_under_a_small_ulimit_leaves_the_honest_game_whole(
    tmp_path: Path,
) -> None:
    host = FloodedHost(
        tmp_path / "host", "--investigators", "1", "--code", str(CODE), nofile=NOFILE
    )
    holder: Holder | None = None
    try:
        await host.start()
        cap = NOFILE - DESCRIPTORS_KEPT - DESCRIPTORS_PER_TABLE
        holder = Holder(host.port, FLOOD)
        most = 0
        for _ in range(1200):  # until the flood fills the host (bounded: 2 minutes)
            most = max(most, open_descriptors(host.pid))
            if most >= cap:
                break
            await asyncio.sleep(0.1)
        print(f"the flood holds {holder.open}; the host {most} descriptors of {NOFILE}")
        assert most >= cap, "the flood filled the host up to its cap"
        bots = honest_pair(tmp_path, host.port, CODE, Backoff(first=0.2, cap=2.0, attempts=200))
        outcomes = await _while_alive(host, asyncio.gather(*(bot.play() for bot in bots)))
        ended = await host.wait_for("game-ended", GAME_SECONDS)
        assert host.alive(), "the host stays up"
        print(
            f"the game ended under the flood: {holder.opened} flood connections opened, "
            f"{holder.failed} failed; {len(host.named('accept-failed'))} accept-failed lines"
        )
    finally:
        if holder is not None:
            await holder.stop()
        code = await host.stop()
    assert code == 0, host.records[-5:]
    assert all(outcome.valid for outcome in outcomes), [o.report.summary for o in outcomes]
    assert same_transcripts(outcomes)
    assert ended["verified"]
    assert verify(Path(ended["transcript"])).valid
    assert not host.named("failed") and not host.named("persist-failed")
    assert not [r for r in host.records if r["event"] == "not-json"], "no traceback"
