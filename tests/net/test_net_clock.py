"""The host's clocks: a wait for a deadline ends when it should, and a cancel stops it."""

from __future__ import annotations

import asyncio

import pytest

from domicile_p2p.net.adapters.clock import LoopClock, SteppedClock


@pytest.mark.parametrize("clock", [LoopClock(), SteppedClock()], ids=["loop", "stepped"])
async def test_a_wait_cancelled_as_it_is_woken_stays_cancelled(clock: LoopClock) -> None:
    """A host closing cancels its clock task; the wake may come in the same turn.  With
    ``asyncio.wait_for`` (Python 3.11) the wake won, the cancel was lost, and the task
    waited again for ever: a closing host hung."""
    woken = asyncio.Event()
    waiting = asyncio.ensure_future(clock.wait(woken, clock.now() + 60))
    for _ in range(3):
        await asyncio.sleep(0)  # it waits now, and so does what it waits on
    woken.set()
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting


async def test_the_loops_clock_wakes_at_its_deadline_or_when_woken() -> None:
    clock = LoopClock()
    woken = asyncio.Event()
    start = clock.now()
    await clock.wait(woken, start + 0.05)
    assert clock.now() >= start + 0.05
    await clock.wait(woken, start - 1)  # a deadline passed already: no wait at all
    woken.set()
    await asyncio.wait_for(clock.wait(woken, None), 5)  # woken: returns without a deadline
