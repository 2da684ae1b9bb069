"""Attackers for the hostile suite: a table on the fake link, a rogue host's pen, a lying Ghost.

The fake link (``tests/net/net_support.py``) runs the real sessions and the
real codec with no sockets; here we add what an attacker holds:

- the host's identity key, to sign events a modified host would send
  (:func:`forge`), and a way to push any frame to one peer (:func:`push`);
- :class:`LyingGhost`, a modified Ghost client: it plays like the bot, but
  lies at one séance (a false "correct", a false "wrong") or reveals a
  wrong seed.
"""

from __future__ import annotations

import asyncio
import os
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from net_support import FakeNetwork, Peer, make_peer, make_room
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from domicile_p2p.fairness.commit import CULPRIT_SLOT, column_slot
from domicile_p2p.fairness.deal import deal_secrets
from domicile_p2p.identity import Identity
from domicile_p2p.net import wire
from domicile_p2p.net.adapters.tls import client_context
from domicile_p2p.net.sessions.game import HostedGame
from domicile_p2p.net.sessions.host import HostLimits
from domicile_p2p.rules import (
    Action,
    CulpritSeance,
    Difficulty,
    GameState,
    Lock,
    Place,
    Seance,
    apply,
    new_game,
)
from domicile_p2p.transcript import Event, GhostAgent, SignedAction
from domicile_p2p.transcript.codec import GENESIS_PREV
from domicile_p2p.transcript.schema import (
    Body,
    CulpritSeanceBody,
    Kind,
    RevealBody,
    SeanceBody,
    VerdictBody,
)
from domicile_p2p.transcript.verify import verify


@dataclass
class HostileTable:
    network: FakeNetwork
    peers: list[Peer]
    host: Identity
    nameplate: int

    @property
    def game(self) -> HostedGame:
        game = self.network.host.rooms[self.nameplate].game
        assert isinstance(game, HostedGame)
        return game

    def lines(self) -> tuple[bytes, ...]:
        """The host's transcript, as canonical lines."""
        return tuple(event.line for event in self.game.event_objects)


def seated(
    tmp: Path,
    investigators: int = 2,
    *,
    limits: HostLimits | None = None,
    difficulty: Difficulty = Difficulty.EASY,
) -> HostileTable:
    """A full table of bots on the fake link (the game has begun), with the host's key at hand."""
    host = Identity.generate()
    room = make_room(host, investigators=investigators, difficulty=difficulty)
    network = FakeNetwork([room], limits=limits)
    peers = [
        make_peer(tmp / f"seat{seat}", seat=seat, name=f"Bot {seat}", seed=seat)
        for seat in range(investigators + 1)
    ]
    for peer in peers:
        network.join(peer)
        network.deliver()
    return HostileTable(network, peers, host, room.nameplate)


def in_play(peers: Sequence[Peer]) -> Callable[[], bool]:
    return lambda: all(p.session.player.playing and p.session.ready for p in peers)


def finish(table: HostileTable, peers: Sequence[Peer] | None = None) -> None:
    """Play the game out: every peer ends with the host's transcript, and it verifies."""
    players = list(peers if peers is not None else table.peers)
    table.network.run(players)
    assert all(peer.error is None for peer in players), [peer.error for peer in players]
    assert all(peer.session.finished for peer in players)
    for peer in players:
        replica = peer.session.player.replica
        assert replica is not None
        assert tuple(event.line for event in replica.events) == table.lines()
    report = verify(list(table.game.event_objects))
    assert report.valid, report.summary


def forge(
    table: HostileTable,
    *,
    action: SignedAction | None = None,
    statement: tuple[Kind, Body] | None = None,
    after: Sequence[Event] | None = None,
) -> Event:
    """An event signed with the host's key on top of ``after`` (default: the host's transcript).

    This is what a modified host can do: sign anything, in any order.
    """
    history = list(after if after is not None else table.game.event_objects)
    prev = history[-1].link().hex() if history else GENESIS_PREV
    return Event.create(
        table.host,
        game_id=table.game.game_table.table_setup.game_id,
        seq=len(history),
        prev=prev,
        action=action,
        statement=statement,
    )


def push(table: HostileTable, peer: Peer, start: int, events: Sequence[Event]) -> None:
    """Queue an Events frame for ``peer`` as if the host had sent it."""
    assert peer.connection is not None
    frame = wire.text(wire.Events(start, [dict(event.value) for event in events]))
    table.network.to_peer.setdefault(peer.connection, deque()).append(frame)


def error_reply(table: HostileTable, peer: Peer) -> wire.Error:
    """The one error the host sent ``peer`` since the last look."""
    assert peer.connection is not None
    errors = [m for m in table.network.replies(peer.connection) if isinstance(m, wire.Error)]
    assert len(errors) == 1, errors
    return errors[0]


def act_frame(action: SignedAction | dict[str, Any]) -> str:
    value = action.value if isinstance(action, SignedAction) else action
    return wire.text(wire.Act(dict(value)))


# --------------------------------------------------------------------------- the lying Ghost


class LyingGhost(GhostAgent):
    """A modified Ghost client: honest, except for one lie (``mode``).

    - ``"false-correct"``: at the first séance where a marker is wrong, calls it
      correct, showing the opening of the card that is really there;
    - ``"false-wrong"``: at the first séance where a marker is right, calls every
      verdict wrong (no opening to show, so no peer can tell before the reveal);
    - ``"bad-seed"``: plays honestly and reveals a seed of its own at the end.

    Its own secret state follows its lies (a lie is applied as the public state
    sees it), so it can go on playing as if nothing happened.
    """

    def __init__(self, honest: GhostAgent, mode: str) -> None:
        super().__init__(honest.identity, honest.replica, honest.seed)
        self.mode = mode
        self.lie: SignedAction | None = None

    @property
    def state(self) -> GameState:
        ledger = self.replica.ledger
        if self._secret is None:
            self._secret = self._fresh()
            self._applied = 0
        for seq, action in ledger.moves[self._applied :]:
            self._secret = self._apply(seq, action, self._secret)
        self._applied = len(ledger.moves)
        return self._secret

    def _fresh(self) -> GameState:
        tableau = self.replica.ledger.tableau
        assert tableau is not None
        setup = deal_secrets(self._key(), self.replica.config, tableau)
        return new_game(self.replica.config, tableau, setup)

    def _apply(self, seq: int, action: Action, state: GameState) -> GameState:
        event = self.replica.events[seq]
        if self.lie is not None and event.counter == self.lie.counter and event.seat == 0:
            blind = apply(replace(state, secrets=None), action)
            return replace(blind, secrets=state.secrets)
        return apply(state, action)

    def sign_move(self, action: Action) -> SignedAction:
        if self.lie is None and self.mode != "bad-seed":
            lie = None
            if isinstance(action, Seance):
                lie = self._lie(action)
            elif isinstance(action, CulpritSeance) and action.correct == (
                self.mode == "false-wrong"
            ):
                # Stage Two: the accusation called the other way (a false "correct" shows
                # the culprit's real opening, which is not the accused card).
                opening = None if action.correct else self._opening(CULPRIT_SLOT)
                lie = self.sign(Kind.CULPRIT_SEANCE, CulpritSeanceBody(not action.correct, opening))
            if lie is not None:
                self.lie = lie
                return lie
        return super().sign_move(action)

    def _lie(self, truth: Seance) -> SignedAction | None:
        state = self.state
        if self.mode == "false-wrong":
            if not any(verdict.correct for verdict in truth.verdicts):
                return None
            verdicts = tuple(
                VerdictBody(v.seat, False, None)
                for v in sorted(truth.verdicts, key=lambda v: v.seat)
            )
            return self.sign(Kind.SEANCE, SeanceBody(verdicts))
        # A wrong marker on a card still in the tableau (one already found cannot be called
        # correct by the public rules, before any opening is even looked at).
        found = {state.investigator(v.seat).marker for v in truth.verdicts if v.correct}
        wrong = [
            v
            for v in truth.verdicts
            if not v.correct
            and state.investigator(v.seat).marker in state.tableau.all_cards
            and state.investigator(v.seat).marker not in found
        ]
        if not wrong:
            return None
        bodies = []
        for verdict in sorted(truth.verdicts, key=lambda v: v.seat):
            seeking = state.investigator(verdict.seat).seeking
            assert seeking is not None
            opening = self._opening(column_slot(verdict.seat, seeking))
            if verdict is wrong[0]:
                # The real card's opening: it opens the commitment, but shows another card.
                bodies.append(VerdictBody(verdict.seat, True, opening))
            else:
                bodies.append(
                    VerdictBody(verdict.seat, verdict.correct, opening if verdict.correct else None)
                )
        return self.sign(Kind.SEANCE, SeanceBody(tuple(bodies)))

    def reveal(self) -> SignedAction:
        if self.mode != "bad-seed":
            return super().reveal()
        self.lie = self.sign(Kind.REVEAL, RevealBody(os.urandom(32).hex()))
        return self.lie


def install_liar(peer: Peer, mode: str) -> LyingGhost:
    """Swap the Ghost peer's honest agent for a :class:`LyingGhost` (after the genesis)."""
    player = peer.session.player
    assert isinstance(player.agent, GhostAgent)
    liar = LyingGhost(player.agent, mode)
    player.agent = liar
    return liar


# --------------------------------------------------------------------------- live tables


@dataclass
class Dials:
    """What each dial of a live client ended with (``"ok"`` or the error's class name)."""

    results: list[str]

    def count(self, what: str) -> int:
        return self.results.count(what)


def counted(bot: Any) -> Dials:
    """Record the outcome of every dial ``bot`` (a ``live_support.NetworkBot``) makes."""
    dials = Dials([])
    inner = bot.client._dial

    async def dial() -> Any:
        try:
            dialed = await inner()
        except Exception as exc:
            dials.results.append(type(exc).__name__)
            raise
        dials.results.append("ok")
        return dialed

    bot.client._dial = dial
    return dials


class Records(list[dict[str, Any]]):
    """A host's log records, as the headless host would print them."""

    def __call__(self, event: str, fields: Any) -> None:
        self.append({"event": event, **fields})

    def __bool__(self) -> bool:
        return True  # a log sink, even before its first record (``log or default``)

    def named(self, event: str) -> list[dict[str, Any]]:
        return [record for record in self if record["event"] == event]


async def raw_connection(port: int) -> Any:
    """A bare TLS websocket to the host on 127.0.0.1: an attacker's own client."""
    return await connect(
        f"wss://127.0.0.1:{port}",
        ssl=client_context(),
        compression=None,
        proxy=None,
        open_timeout=10,
        max_size=None,
    )


async def send_all_and_listen(port: int, frames: Sequence[str | bytes]) -> tuple[list[str], int]:
    """Send ``frames`` on a new connection, then read until the host closes it.

    Returns the error codes the host sent (``"fatal:<code>"`` for a fatal one)
    and the close code.
    """
    websocket = await raw_connection(port)
    codes: list[str] = []
    try:
        wire.decode_host(await websocket.recv())  # the Welcome
        for frame in frames:
            try:
                await websocket.send(frame)
            except ConnectionClosed:
                break
        while True:
            message = wire.decode_host(await websocket.recv())
            if isinstance(message, wire.Error):
                codes.append(f"fatal:{message.code}" if message.fatal else str(message.code))
    except ConnectionClosed:
        pass
    finally:
        await websocket.close()
    assert websocket.close_code is not None
    return codes, websocket.close_code


class LatencyProbe:
    """Times each action of a live bot from its sending to its event coming back."""

    def __init__(self, bot: Any) -> None:
        self.samples: list[tuple[float, float]] = []
        """``(sent at, seconds)`` for each action (the event loop's clock)."""
        self._bot = bot
        self._watchers: set[asyncio.Task[None]] = set()
        inner = bot.client.submit

        async def submit(action: SignedAction) -> None:
            sent = asyncio.get_running_loop().time()
            await inner(action)
            watcher = asyncio.ensure_future(self._watch(action, sent))
            self._watchers.add(watcher)
            watcher.add_done_callback(self._watchers.discard)

        bot.client.submit = submit

    async def _watch(self, action: SignedAction, sent: float) -> None:
        session = self._bot.session
        loop = asyncio.get_running_loop()
        while session.player.last_counter() < action.counter and not session.finished:
            if loop.time() - sent > 30:
                return
            await asyncio.sleep(0.002)
        self.samples.append((sent, loop.time() - sent))

    def during(self, start: float, end: float) -> list[float]:
        return [seconds for sent, seconds in self.samples if start <= sent <= end]


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


class Blunder:
    """An investigator's brain that, once, puts its marker on a card it is not (the truth known
    from the Ghost's secrets) and locks it there: a séance with a wrong marker is sure to come."""

    def __init__(self, peer: Peer, ghost: Peer) -> None:
        self.peer = peer
        self.ghost = ghost
        self.brain = peer.brain
        self.placed = False
        self.done = False

    def refused(self) -> None:
        self.brain.refused()

    def decide(self) -> SignedAction | None:
        action = self.brain.decide()
        if self.done or action is None or action.kind not in (Kind.PLACE, Kind.LOCK):
            return action
        seat = self.peer.session.seat
        agent = self.peer.session.player.agent
        assert seat is not None and agent is not None
        agent.resync()
        if self.placed:
            self.done = True
            return agent.sign_move(Lock(seat))
        if action.kind is not Kind.PLACE:
            return action
        secret = self.ghost.session.player.agent
        assert isinstance(secret, GhostAgent)
        state = secret.state
        assert state.secrets is not None
        seeking = state.investigator(seat).seeking
        assert seeking is not None
        # Nobody's card: not this seat's, and not one another seat may find at the same séance.
        columns = {state.secrets.column(s).card(seeking) for s in state.config.seats}
        wrong = [c for c in state.tableau.cards(seeking) if c not in columns]
        self.placed = True
        return agent.sign_move(Place(seat, wrong[0]))


def blunder(peer: Peer, ghost: Peer) -> None:
    peer.brain = Blunder(peer, ghost)  # type: ignore[assignment]
