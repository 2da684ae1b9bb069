"""A spectator at a networked table: a :class:`PeerSession` that watches, over a live client.

The spectator proves the code as a player does and then only listens: its
replica checks every event the host sends (and every chain head relayed),
and :func:`watch_table` hands each new event to ``on_event`` as it is
accepted, live.  At the end the whole transcript is verified, as a bot's is.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from domicile_p2p.net.adapters.bot import BotOutcome, outcome_of
from domicile_p2p.net.adapters.client import PeerClient
from domicile_p2p.transcript import Event

EventSink = Callable[[Event], None]


async def watch_table(client: PeerClient, on_event: EventSink | None = None) -> BotOutcome:
    """Watch until the game is over (or a fatal error, raised); the verified transcript."""
    if not client.session.watch:
        raise ValueError("watch_table takes a spectator's session (PeerSession(watch=True))")
    runner = asyncio.create_task(client.run())
    shown = 0
    seen = -1
    try:
        while True:
            waiter = asyncio.create_task(client.wait_changed(seen))
            done, _ = await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
            shown = _show(client, shown, on_event)
            if runner in done:
                waiter.cancel()
                runner.result()  # re-raises the fatal error that ended the connection
                break
            seen = waiter.result()
    finally:
        if not runner.done():
            runner.cancel()
    return outcome_of(client.session)


def _show(client: PeerClient, shown: int, on_event: EventSink | None) -> int:
    """Hand the events accepted since ``shown`` to ``on_event``; how many are shown now."""
    replica = client.session.player.replica
    if replica is None:
        return shown
    events = replica.events
    if on_event is not None:
        for event in events[shown:]:
            on_event(event)
    return len(events)
