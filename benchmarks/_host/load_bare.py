"""The load generator against the anchor: the same tables, pace and stamps, no protocol.

A seat joins by naming its table and seat; an action is a chat-sized frame
that the anchor wraps like an ``events`` frame and broadcasts to the seven.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable

from websockets.asyncio.client import connect

from domicile_p2p.net.adapters.tls import client_context

from .layout import SEATS
from .load_table import Frame, FrameHandler, Pacer, TableLoad, at_pace, chatter

EVENT_PAD = 430
"""Bytes of padding in the anchor's frames: a real event of a 6-investigator game is ~490 bytes."""


async def join_seat(table: TableLoad, seat: int) -> None:
    websocket = await connect(
        table.spec["url"],
        ssl=client_context(),
        compression=None,
        proxy=None,
        open_timeout=60,
        ping_interval=10,
        ping_timeout=20,
        max_size=64 * 1024,
        local_addr=(table.plan["source"], 0),
    )
    await websocket.send(json.dumps({"table": table.spec["key"], "seat": seat}))
    await asyncio.wait_for(websocket.recv(), 60)  # the welcome
    table.connections[seat] = websocket


def frames(table: TableLoad) -> FrameHandler:
    def on_frame(frame: str | bytes, parsed: Frame) -> None:
        if parsed.type == "events":
            table.counted(len(parsed.events))

    return on_frame


async def _drive(table: TableLoad, pace: float, rate: float, stop: float) -> None:
    """Human pace (one action of the table every ``pace`` s), or saturation when it is 0."""
    pad = "x" * EVENT_PAD

    async def send(seat: int) -> None:
        table.counters[seat] += 1
        counter = table.counters[seat]
        table.sent(seat, counter)
        await table.connections[seat].send(
            f'{{"seat":{seat},"counter":{counter},"kind":"chat","pad":"{pad}"}}'
        )

    if pace > 0:

        async def act(turn: int) -> bool:
            await send(turn % SEATS)
            return True

        await at_pace(table, pace, stop, act)
        return

    def sender(seat: int) -> Callable[[], Awaitable[None]]:
        return lambda: send(seat)

    await asyncio.gather(
        *(chatter(table, seat, rate, stop, sender(seat)) for seat in range(1, SEATS))
    )


def pacer(pace: float) -> Pacer:
    """The anchor's tables are driven by one function at either pace."""
    return _drive
