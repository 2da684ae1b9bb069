"""A fake link between one HostSession and many PeerSessions (h11's ConnectionPair style).

Every frame goes through the real codec (``wire.text`` / ``decode_*``), and
the host's effects are carried out in order, as the asyncio adapters do, so
the sessions are tested exactly as they run, minus sockets and clocks.
"""

from __future__ import annotations

import secrets
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from domicile_p2p.fairness.commit import GAME_ID_BYTES
from domicile_p2p.identity import Identity
from domicile_p2p.net.adapters.bot import BotBrain
from domicile_p2p.net.adapters.seat_secrets import SeatSecrets
from domicile_p2p.net.errors import WireError
from domicile_p2p.net.join.codes import JoinCode
from domicile_p2p.net.sessions.effects import (
    ActionRefused,
    Close,
    GameFinished,
    HostEffect,
    Log,
    PeerEffect,
    Persist,
    Pin,
    SecretNeeded,
    Send,
    TableChanged,
    Transmit,
)
from domicile_p2p.net.sessions.game import HostedGame
from domicile_p2p.net.sessions.host import HostLimits, HostSession
from domicile_p2p.net.sessions.peer import PeerSession
from domicile_p2p.net.sessions.room import Room, RoomConfig, SeatHolder
from domicile_p2p.net.wire import (
    ClientMessage,
    Error,
    Role,
    Starts,
    decode_client,
    decode_host,
    text,
)
from domicile_p2p.packs import load_default_pack
from domicile_p2p.rules import Difficulty

FINGERPRINT = bytes(range(32))
CODE = JoinCode(4, "raven", "lantern")


def make_room(
    host: Identity,
    *,
    investigators: int = 2,
    code: JoinCode = CODE,
    difficulty: Difficulty = Difficulty.EASY,
    bot_seats: frozenset[int] = frozenset(),
    starts: Starts = Starts.FULL,
    lobby_wait: float = 0.0,
    timer: int | None = None,
) -> Room:
    config = RoomConfig(code.nameplate, code, "Test table", investigators, difficulty, timer)
    pack = load_default_pack()

    def start(holders: Sequence[SeatHolder]) -> HostedGame:
        return HostedGame.start(
            host, config, holders, pack, game_id=secrets.token_bytes(GAME_ID_BYTES)
        )

    return Room(config, start, bot_seats=bot_seats, starts=starts, lobby_wait=lobby_wait)


@dataclass
class Peer:
    session: PeerSession
    brain: BotBrain
    secrets: SeatSecrets
    connection: int | None = None
    inbox: deque[str] = field(default_factory=deque)
    pins: list[bytes] = field(default_factory=list)
    refusals: list[ActionRefused] = field(default_factory=list)
    logs: list[dict[str, Any]] = field(default_factory=list)
    error: Exception | None = None


class FakeNetwork:
    """One host session, any number of peers, and a clock that only moves when told."""

    def __init__(self, rooms: Iterable[Room], *, limits: HostLimits | None = None) -> None:
        self.host = HostSession(rooms, FINGERPRINT, limits=limits, nonce=secrets.token_bytes)
        self.now = 0.0
        self.persisted: dict[int, list[bytes]] = {}
        self.logs: list[dict[str, Any]] = []
        self.finished: list[str] = []
        self.closed: dict[int, tuple[int, str]] = {}
        self.to_peer: dict[int, deque[str]] = {}
        self.peers: dict[int, Peer] = {}
        self._next = 1

    # ----------------------------------------------------------------- host side

    def apply(self, effects: Sequence[HostEffect]) -> None:
        for effect in effects:
            match effect:
                case Send(connection, message):
                    if connection not in self.closed:
                        self.to_peer.setdefault(connection, deque()).append(text(message))
                case Close(connection, code, reason):
                    self.closed[connection] = (code, reason)
                case Persist(nameplate, lines):
                    self.persisted.setdefault(nameplate, []).extend(lines)
                case Log(event, fields):
                    self.logs.append({"event": event, **fields})
                case GameFinished(_nameplate, game_id):
                    self.finished.append(game_id)
                case TableChanged():
                    pass

    def open(self, remote: str = "10.0.0.7:5000") -> int:
        connection = self._next
        self._next += 1
        self.apply(self.host.connect(connection, remote, self.now))
        return connection

    def frame(self, connection: int, frame: str | bytes) -> None:
        """A raw frame from a client, decoded as the server adapter does."""
        try:
            message: ClientMessage = decode_client(frame)
        except WireError as error:
            self.apply(self.host.reject_frame(connection, error, self.now))
            return
        self.apply(self.host.receive(connection, message, self.now))

    def drop(self, connection: int) -> None:
        self.apply(self.host.disconnect(connection, self.now))
        self.to_peer.pop(connection, None)
        peer = self.peers.pop(connection, None)
        if peer is not None:
            peer.session.connection_lost()
            peer.connection = None

    def replies(self, connection: int) -> list[Any]:
        frames = self.to_peer.get(connection, deque())
        messages = [decode_host(frame) for frame in frames]
        frames.clear()
        return messages

    def take_errors(self, connection: int) -> list[Error]:
        """The error replies queued for ``connection``; its other frames stay queued."""
        errors: list[Error] = []
        kept: deque[str] = deque()
        for frame in self.to_peer.get(connection, deque()):
            message = decode_host(frame)
            if isinstance(message, Error):
                errors.append(message)
            else:
                kept.append(frame)
        self.to_peer[connection] = kept
        return errors

    def logged(self, event: str) -> list[dict[str, Any]]:
        return [record for record in self.logs if record["event"] == event]

    # ----------------------------------------------------------------- peers

    def join(self, peer: Peer, *, fingerprint: bytes = FINGERPRINT, pinned: bool = False) -> int:
        connection = self.open()
        peer.connection = connection
        self.peers[connection] = peer
        self._peer_apply(peer, peer.session.connection_made(fingerprint, pinned))
        return connection

    def apply_peer(self, peer: Peer, effects: Sequence[PeerEffect]) -> None:
        """Carry out what a peer's session returned (as the client adapter does)."""
        self._peer_apply(peer, effects)

    def _peer_apply(self, peer: Peer, effects: Sequence[PeerEffect]) -> None:
        for effect in effects:
            match effect:
                case Transmit(message):
                    assert peer.connection is not None
                    self.frame(peer.connection, text(message))
                case Pin(fingerprint):
                    peer.pins.append(fingerprint)
                case SecretNeeded(game_id, seat):
                    secret = peer.secrets.for_seat(game_id, seat)
                    self._peer_apply(peer, peer.session.secret_kept(secret))
                case ActionRefused():
                    peer.refusals.append(effect)
                    peer.brain.refused()
                case Log(event, fields):
                    peer.logs.append({"event": event, **fields})

    def deliver(self, only: Iterable[int] | None = None) -> bool:
        """Deliver every queued host frame to its peer; True if anything moved.

        A peer that hits a fatal error hangs up, as the client adapter does.
        """
        moved = False
        chosen = set(only) if only is not None else None
        for connection, frames in list(self.to_peer.items()):
            if chosen is not None and connection not in chosen:
                continue
            peer = self.peers.get(connection)
            while frames and peer is not None and peer.error is None:
                moved = True
                message = decode_host(frames.popleft())
                try:
                    effects = peer.session.receive(message)
                except Exception as exc:  # a fatal condition for that peer, checked by tests
                    peer.error = exc
                    break
                self._peer_apply(peer, effects)
            if peer is not None and (connection in self.closed or peer.error is not None):
                self.drop(connection)
        return moved

    def step_bots(self, peers: Iterable[Peer]) -> bool:
        acted = False
        for peer in peers:
            if peer.connection is None or peer.error is not None:
                continue
            action = peer.brain.decide()
            if action is not None:
                acted = True
                self._peer_apply(peer, peer.session.submit(action))
        return acted

    def run(
        self,
        peers: Sequence[Peer],
        *,
        until: Callable[[], bool] | None = None,
        limit: int = 20_000,
    ) -> None:
        """Deliver and let the bots act until nothing moves, or ``until()`` holds."""
        for _ in range(limit):
            self.now += 1.0
            moved = self.deliver()
            if until is not None and until():
                return
            acted = self.step_bots(peers)
            if not moved and not acted:
                if until is not None:
                    raise AssertionError("the game settled before the condition held")
                return
        raise AssertionError("the game did not settle")


def make_peer(
    data_dir: Path,
    *,
    code: JoinCode | None = CODE,
    role: Role = Role.ANY,
    seat: int | None = None,
    name: str = "Bot",
    identity: Identity | None = None,
    seed: int | None = None,
    bot: bool = True,
    watch: bool = False,
    games: int | None = 1,
) -> Peer:
    """A bot's peer; with ``watch``, a spectator's (its brain never finds a move)."""
    identity = identity or Identity.generate()
    session = PeerSession(
        identity,
        (code or CODE).nameplate,
        code=code,
        name=name,
        role=role,
        seat=seat,
        bot=bot,
        watch=watch,
        games=games,
    )
    brain = BotBrain(session, seed=seed if seed is not None else secrets.randbits(32))
    return Peer(session, brain, SeatSecrets(data_dir))


def seated_table(
    tmp: Path,
    investigators: int = 2,
    *,
    limits: HostLimits | None = None,
    timer: int | None = None,
) -> tuple[FakeNetwork, list[Peer]]:
    """A fake network with a full table of bots, every seat joined (the game has begun)."""
    network = FakeNetwork(
        [make_room(Identity.generate(), investigators=investigators, timer=timer)],
        limits=limits,
    )
    peers = [
        make_peer(tmp / f"seat{seat}", seat=seat, name=f"Bot {seat}")
        for seat in range(investigators + 1)
    ]
    for peer in peers:
        network.join(peer)
        network.deliver()
    return network, peers


@dataclass(frozen=True)
class StartedRoom:
    """A room whose game has begun, with the keys of its host and of every seat."""

    room: Room
    host: Identity
    seats: list[Identity]


def started_room(investigators: int = 1, *, timer: int | None = None) -> StartedRoom:
    """A room of ``investigators`` + 1 seats, every seat held, its game begun (for the
    host's parts on their own, without a session)."""
    host = Identity.generate()
    room = make_room(host, investigators=investigators, timer=timer)
    seats = [Identity.generate() for _ in range(investigators + 1)]
    for seat, identity in enumerate(seats):
        room.take_seat(identity.public_hex, f"Seat {seat}", Role.ANY, seat)
    room.start()
    return StartedRoom(room, host, seats)
