"""The load generator against ``domicile host``: seven real clients per table.

Each seat joins with the table's code exactly as ``PeerSession`` does (TLS,
SPAKE2, identity proof) and then only reads and time-stamps frames.  One
shared replica per table checks every event (chain, signatures, rules) and
gives the seven seats' agents and ``make_policy`` bots the state to decide
on, so the load generator pays for one replica per table rather than seven.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from domicile_p2p.bots import make_policy
from domicile_p2p.identity import Identity
from domicile_p2p.net.adapters.tls import client_context, peer_fingerprint
from domicile_p2p.net.address import Address
from domicile_p2p.net.join.codes import parse_code
from domicile_p2p.net.sessions.effects import Transmit
from domicile_p2p.net.sessions.peer import PeerSession
from domicile_p2p.net.sessions.seat import SeatPlayer
from domicile_p2p.net.wire import MAX_FRAME, Act, Events, Role, decode_host, text
from domicile_p2p.packs import load_default_pack
from domicile_p2p.rules import RuleError
from domicile_p2p.transcript import Event, GhostAgent, InvestigatorAgent, Replica
from domicile_p2p.transcript.errors import AgentMisuse
from domicile_p2p.transcript.ledger import Step

from .layout import INVESTIGATORS, SEATS
from .load_table import Frame, FrameHandler, Pacer, TableLoad, at_pace, chatter

CHAT = "load {}: the candle gutters"


async def _dial(table: TableLoad, url: str) -> tuple[ClientConnection, bytes]:
    """A TLS websocket as ``client.open_websocket`` opens it, from this process's source address."""
    websocket = await connect(
        url,
        ssl=client_context(),
        max_size=MAX_FRAME,
        compression=None,
        proxy=None,
        open_timeout=60,
        ping_interval=10,
        ping_timeout=20,
        close_timeout=2,
        user_agent_header=None,
        local_addr=(table.plan["source"], 0),
    )
    return websocket, peer_fingerprint(websocket.transport.get_extra_info("ssl_object"))


async def join_seat(table: TableLoad, seat: int) -> None:
    """Connect and take ``seat`` with the code, as PeerSession does; leave the socket seated."""
    spec = table.spec
    identity = Identity.generate()
    table.identities[seat] = identity
    session = PeerSession(
        identity,
        spec["nameplate"],
        code=parse_code(spec["code"]),
        name=f"Load {seat}",
        role=Role.GHOST if seat == 0 else Role.INVESTIGATOR,
        seat=seat,
        bot=True,
    )
    websocket, fingerprint = await _dial(table, Address.parse(spec["url"]).url)
    effects = session.connection_made(fingerprint, False)
    while not session.seated:
        for effect in effects:
            if isinstance(effect, Transmit):
                await websocket.send(text(effect.message))
        frame = await asyncio.wait_for(websocket.recv(), 60)
        effects = session.receive(decode_host(frame))
    table.connections[seat] = websocket


def _start_game(table: TableLoad, genesis: dict[str, Any]) -> None:
    """The table's one replica, and each seat's agent and bot on it."""
    replica = Replica(Event.from_value(genesis))
    pack = load_default_pack()
    table.replica = replica
    for seat in range(SEATS):
        player = SeatPlayer(table.identities[seat])
        player.seat = seat
        player.replica = replica
        if seat == 0:
            player.agent = GhostAgent(table.identities[0], replica, os.urandom(32))
        else:
            player.agent = InvestigatorAgent(table.identities[seat], seat, replica, os.urandom(32))
        table.players.append(player)
        table.policies.append(make_policy(seat, pack, random.getrandbits(62)))


def frames(table: TableLoad) -> FrameHandler:
    """The frame handler of the table's one checking connection: events into the replica."""

    def on_frame(frame: str | bytes, parsed: Frame) -> None:
        if parsed.type != "events":
            return
        message = decode_host(frame)
        assert isinstance(message, Events)
        fresh = 0
        for offset, value in enumerate(message.events):
            seq = message.start + offset
            if table.replica is None:
                if seq == 0:
                    _start_game(table, value)
                    fresh += 1
                continue
            if seq == table.replica.next_seq:
                table.replica.receive_value(value)
                fresh += 1
        table.counted(fresh)
        table.notify()

    return on_frame


def _decide(table: TableLoad, chat_only: bool, turn: int) -> tuple[int, Any] | None:
    """The next action of the table (which seat sends it, signed), or None for now."""
    replica = table.replica
    if replica is None:
        return None
    order = [(turn + i) % SEATS for i in range(SEATS)]
    for seat in order:
        due = table.players[seat].due()
        if due is not None:
            return seat, due
    if replica.step is not Step.PLAY:
        return None
    if chat_only:
        seat = 1 + turn % INVESTIGATORS
        return seat, table.players[seat].agent.chat(CHAT.format(turn))
    for seat in order:
        player = table.players[seat]
        view = player.view()
        if view is None:
            continue
        action = table.policies[seat].act(view)
        if action is None:
            continue
        try:
            return seat, player.play(action)
        except (RuleError, AgentMisuse) as exc:
            table.stats.refused.append(f"seat {seat}: {exc}")
    return None


async def _next_decision(
    table: TableLoad, chat_only: bool, turn: int, stop: float
) -> tuple[int, Any] | None:
    """Wait until the table has something to do (see :func:`_decide`); None at ``stop``."""
    found: list[tuple[int, Any]] = []

    def decided() -> bool:
        decision = _decide(table, chat_only, turn)
        if decision is not None:
            found.append(decision)
        return decision is not None

    return found[0] if await table.until(decided, stop) else None


async def _send(table: TableLoad, seat: int, action: Any) -> None:
    table.sent(seat, action.counter)
    await table.connections[seat].send(text(Act(action.value)))


async def _human_pace(table: TableLoad, pace: float, rate: float, stop: float) -> None:
    """One action of the table every ``pace`` seconds, the bots playing the game."""

    async def act(turn: int) -> bool:
        chosen = await _next_decision(table, False, turn, stop)
        if chosen is None:
            return False
        await _send(table, *chosen)
        return True

    await at_pace(table, pace, stop, act)


async def _saturate(table: TableLoad, pace: float, rate: float, stop: float) -> None:
    """The setup as fast as it goes, then every investigator chats at ``rate``/s."""
    turn = 0
    while time.monotonic() < stop:
        if not await table.until(lambda: not table.in_flight(), stop):
            return
        if table.replica is not None and table.replica.step is Step.PLAY:
            break
        chosen = await _next_decision(table, True, turn, stop)
        if chosen is None:
            return
        await _send(table, *chosen)
        turn += 1

    def talker(seat: int) -> Callable[[], Awaitable[None]]:
        agent = table.players[seat].agent
        said = itertools.count()

        async def send() -> None:
            await _send(table, seat, agent.chat(CHAT.format(next(said))))

        return send

    await asyncio.gather(
        *(chatter(table, seat, rate, stop, talker(seat)) for seat in range(1, SEATS))
    )


def pacer(pace: float) -> Pacer:
    """How a phase drives a table: at human ``pace``, or saturation when ``pace`` is 0."""
    return _human_pace if pace > 0 else _saturate
