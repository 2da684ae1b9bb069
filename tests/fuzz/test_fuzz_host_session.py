"""Stateful fuzzing of the host's session: honest bots, liars and junk, all at one table.

A hypothesis state machine drives one :class:`HostSession` (over the fake
link, through the real codec) with a Ghost and two investigators playing
honestly, while the rules also make any of them, or a stranger, send junk
frames, messages out of place, mutated and replayed signed actions, drop
and come back, and let time pass.  After every step:

- the host never raised (any exception fails the run);
- the host's events are exactly what it persisted, and a replica fed with
  them accepts every one: state changes only through legal, checked events;
- a refused frame changed nothing.

At the end the table is played out and the whole transcript verifies.

Budget: ``DOMICILE_FUZZ_EXAMPLES`` (default 12) and ``DOMICILE_FUZZ_STEPS``
(default 40) for ``make test``; ``make fuzz`` runs it with a large budget.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, settings
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from net_support import CODE, FakeNetwork, Peer, make_peer

from domicile_p2p import canonical
from domicile_p2p.identity import Identity
from domicile_p2p.net import wire
from domicile_p2p.net.adapters.key_files import write_private_file
from domicile_p2p.net.sessions.game import HostedGame
from domicile_p2p.net.sessions.host import HostLimits
from domicile_p2p.net.sessions.room import Room, RoomConfig, SeatHolder
from domicile_p2p.packs import load_default_pack
from domicile_p2p.rules import Difficulty
from domicile_p2p.transcript import Event, Replica, SignedAction
from domicile_p2p.transcript.verify import verify

EXAMPLES = int(os.environ.get("DOMICILE_FUZZ_EXAMPLES", "12"))
STEPS = int(os.environ.get("DOMICILE_FUZZ_STEPS", "40"))
INVESTIGATORS = 2
SEATS = INVESTIGATORS + 1

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
message_types = st.sampled_from(
    ["join", "watch", "confirm", "resume", "act", "fetch", "head", "hello", ""]
)
hex_like = st.sampled_from(["", "00", "zz", "ab" * 16, "00" * 32, "ff" * 64, "41" + "11" * 32])
junk_frames = st.one_of(
    st.binary(max_size=120),
    st.text(max_size=120),
    json_values.map(lambda value: canonical_or_repr(value)),
    st.builds(
        lambda kind, fields: canonical_or_repr({"type": kind, **fields}),
        message_types,
        st.dictionaries(
            st.sampled_from(
                [
                    "protocol",
                    "table",
                    "key",
                    "name",
                    "role",
                    "pake",
                    "mac",
                    "proof",
                    "have",
                    "since",
                    "action",
                    "seat",
                    "bot",
                ]
            ),
            json_values | hex_like,
            max_size=6,
        ),
    ),
    st.builds(lambda depth: "[" * depth + "]" * depth, st.integers(min_value=100, max_value=3000)),
)


def canonical_or_repr(value: Any) -> str:
    try:
        return canonical.encode(value).decode()
    except Exception:
        return repr(value)


MUTATIONS = ("counter+1", "counter-1", "counter=0", "seat", "kind", "sig", "game", "body", "drop")
ACTION_FIELDS = ("body", "counter", "game", "kind", "seat", "sig")


@dataclass(frozen=True)
class Mutation:
    """How to spoil a signed action; every value is drawn up front, whatever the table's state."""

    how: str
    seat: int
    kind: str
    game: str
    body: Any
    field: str

    def apply(self, value: dict[str, Any]) -> dict[str, Any]:
        changed = dict(value)
        match self.how:
            case "counter+1":
                changed["counter"] = value["counter"] + 1
            case "counter-1":
                changed["counter"] = value["counter"] - 1
            case "counter=0":
                changed["counter"] = 0
            case "seat":
                changed["seat"] = self.seat
            case "kind":
                changed["kind"] = self.kind
            case "sig":
                flip = "0" if value["sig"][0] != "0" else "1"
                changed["sig"] = flip + value["sig"][1:]
            case "game":
                changed["game"] = self.game
            case "body":
                changed["body"] = self.body
            case "drop":
                changed.pop(self.field, None)
        return changed


mutations = st.builds(
    Mutation,
    st.sampled_from(MUTATIONS),
    st.integers(min_value=-1, max_value=7),
    st.sampled_from(["give", "lock", "chat", "seance", "reveal", "genesis", "x"]),
    hex_like,
    json_values,
    st.sampled_from(ACTION_FIELDS),
)


def fixed_key(label: int) -> Identity:
    """Keys, game id and secrets are fixed, so hypothesis replays a failing run exactly."""
    return Identity.from_private_bytes(bytes([label]) * 32)


GAME_ID = bytes(range(16))


def fixed_room(host: Identity) -> Room:
    pack = load_default_pack()
    config = RoomConfig(CODE.nameplate, CODE, "Fuzz table", INVESTIGATORS, Difficulty.EASY)

    def start(holders: Sequence[SeatHolder]) -> HostedGame:
        return HostedGame.start(host, config, holders, pack, game_id=GAME_ID)

    return Room(config, start)


def fixed_secrets(directory: Path, seat: int) -> None:
    """The seat's seed or entropy, written where ``SeatSecrets`` looks before it makes one."""
    name = f"{GAME_ID.hex()}-ghost.seed" if seat == 0 else f"{GAME_ID.hex()}-seat{seat}.entropy"
    write_private_file(directory / "secrets" / name, bytes([100 + seat]) * 32)


class HostSessionMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.directory = Path(tempfile.mkdtemp(prefix="domicile-fuzz-"))
        self.host_key = fixed_key(1)
        room = fixed_room(self.host_key)
        self.nameplate = room.nameplate
        limits = HostLimits(max_bad_frames=8, message_rate=50.0, message_burst=100.0)
        self.network = FakeNetwork([room], limits=limits)
        counter = iter(range(1, 1 << 30))
        self.network.host._nonce = lambda size: next(counter).to_bytes(size, "big")
        self.peers: list[Peer] = []
        self.replica: Replica | None = None
        self.seen: list[Event] = []

    def teardown(self) -> None:
        shutil.rmtree(self.directory, ignore_errors=True)

    # ----------------------------------------------------------------- helpers

    @property
    def room(self) -> Any:
        return self.network.host.rooms[self.nameplate]

    def _events(self) -> list[dict[str, Any]]:
        game = self.room.game
        return [] if game is None else [dict(v) for v in game.events]

    def _connected(self, index: int) -> Peer | None:
        peer = self.peers[index]
        if peer.connection is None or peer.error is not None:
            return None
        return peer

    def _send(self, peer: Peer, frame: str | bytes, *, may_change: bool) -> None:
        before = len(self._events())
        assert peer.connection is not None
        self.network.frame(peer.connection, frame)
        if not may_change:
            assert len(self._events()) == before, "a refused frame changed the table"
        if peer.connection in self.network.closed:
            self.network.deliver()

    # ----------------------------------------------------------------- setup

    @initialize()
    def seat_everyone(self) -> None:
        for seat in range(SEATS):
            directory = self.directory / f"seat{seat}"
            fixed_secrets(directory, seat)
            peer = make_peer(directory, seat=seat, seed=seat, identity=fixed_key(10 + seat))
            self.peers.append(peer)
            self.network.join(peer)
            self.network.deliver()

    # ----------------------------------------------------------------- honest play

    @rule(steps=st.integers(min_value=1, max_value=25))
    def play(self, steps: int) -> None:
        for _ in range(steps):
            self.network.now += 0.5
            moved = self.network.deliver()
            acted = self.network.step_bots([p for p in self.peers if p.error is None])
            if not moved and not acted:
                return

    @rule(dt=st.floats(min_value=0.0, max_value=30.0))
    def time_passes(self, dt: float) -> None:
        self.network.now += dt
        self.network.apply(self.network.host.tick(self.network.now))
        self.network.deliver()

    @rule(index=st.integers(min_value=0, max_value=SEATS - 1))
    def drop(self, index: int) -> None:
        peer = self.peers[index]
        if peer.connection is not None:
            self.network.drop(peer.connection)

    @rule(index=st.integers(min_value=0, max_value=SEATS - 1), pinned=st.booleans())
    def come_back(self, index: int, pinned: bool) -> None:
        peer = self.peers[index]
        if peer.connection is not None and peer.error is None:
            return
        if peer.connection is not None:
            self.network.drop(peer.connection)
        peer.error = None
        self.network.now += 61.0  # past any rate limit its misdeeds earned
        self.network.join(peer, pinned=pinned)
        self.network.deliver()

    # ----------------------------------------------------------------- hostile input

    @rule(index=st.integers(min_value=0, max_value=SEATS - 1), frame=junk_frames)
    def junk(self, index: int, frame: str | bytes) -> None:
        peer = self._connected(index)
        if peer is not None:
            self._send(peer, frame, may_change=False)

    @rule(frames=st.lists(junk_frames, min_size=1, max_size=12), remote=st.integers(1, 4))
    def stranger(self, frames: list[str | bytes], remote: int) -> None:
        connection = self.network.open(f"10.9.9.{remote}:{40000 + remote}")
        before = len(self._events())
        for frame in frames:
            if connection in self.network.closed:
                break
            self.network.frame(connection, frame)
        assert len(self._events()) == before
        self.network.replies(connection)
        self.network.apply(self.network.host.disconnect(connection, self.network.now))

    @rule(frames=st.lists(junk_frames, max_size=4), act=st.booleans())
    def spectator(self, frames: list[str | bytes], act: bool) -> None:
        """Someone with the code watches: it holds the host's events, and nothing it sends
        (junk, or a seat's genuine action sent again) changes the table."""
        watcher = make_peer(self.directory / "watcher", name="Watcher", watch=True)
        connection = self.network.join(watcher)
        self.network.deliver()
        if watcher.error is not None or watcher.connection is None:
            return  # refused (its address's earlier misdeeds): nothing to watch
        held = (
            [event.line for event in watcher.session.player.replica.events]
            if (watcher.session.player.replica is not None)
            else []
        )
        assert held == [canonical.encode(e) for e in self._events()[: len(held)]]
        if act and self.seen:
            mine = next((e for e in self.seen if e.seat is not None), None)
            if mine is not None and self.replica is not None:
                replay = mine.action(self.replica.game_id)
                frames = [wire.text(wire.Act(dict(replay.value))), *frames]
        for frame in frames:
            if watcher.connection is None or connection in self.network.closed:
                break
            self._send(watcher, frame, may_change=False)
        if watcher.connection is not None:
            self.network.drop(watcher.connection)

    @rule(index=st.integers(min_value=0, max_value=SEATS - 1), mutation=mutations)
    def mutated_action(self, index: int, mutation: Mutation) -> None:
        peer = self._connected(index)
        if peer is None or not peer.session.ready:
            return
        action = peer.brain.decide()
        agent = peer.session.player.agent
        if action is None or agent is None:
            return
        agent.resync()
        changed = mutation.apply(dict(action.value))
        # A "mutation" that changed nothing (the same seat drawn) is the honest action itself.
        self._send(peer, wire.text(wire.Act(changed)), may_change=changed == action.value)

    @precondition(lambda self: len(self.seen) > 1)
    @rule(index=st.integers(min_value=0, max_value=SEATS - 1), pick=st.integers(0, 10_000))
    def replayed_action(self, index: int, pick: int) -> None:
        peer = self._connected(index)
        actions = [e for e in self.seen if e.seat is not None]
        if peer is None or not actions:
            return
        event = actions[pick % len(actions)]
        assert self.replica is not None
        replay: SignedAction = event.action(self.replica.game_id)
        self._send(peer, wire.text(wire.Act(dict(replay.value))), may_change=False)

    @rule(
        index=st.integers(min_value=0, max_value=SEATS - 1),
        start=st.integers(min_value=0, max_value=10_000),
        tamper=st.sampled_from(["none", "host_sig", "seq", "prev", "drop-body"]),
    )
    def restore_what_the_host_holds(self, index: int, start: int, tamper: str) -> None:
        """A seat hands back events the host holds (a liar changes one): nothing changes."""
        peer = self._connected(index)
        events = self._events()
        if peer is None or not events:
            return
        start %= len(events)
        values = events[start : start + 3]
        first = values[0]
        match tamper:
            case "host_sig":
                first["host_sig"] = "00" * 64
            case "seq":
                first["seq"] = first["seq"] + 1
            case "prev":
                first["prev"] = "ab" * 32
            case "drop-body":
                first.pop("body", None)
        self._send(peer, wire.text(wire.Restore(start, values)), may_change=False)

    @rule(
        index=st.integers(min_value=0, max_value=SEATS - 1),
        message=st.one_of(
            st.builds(wire.Fetch, st.integers(min_value=0, max_value=10_000)),
            st.builds(
                wire.Confirm,
                st.sampled_from(["00" * 32, "ab" * 32]),
                st.sampled_from(["00" * 64, "cd" * 64]),
            ),
            st.builds(
                wire.Resume,
                st.sampled_from([1, 2]),
                st.integers(min_value=1, max_value=9),
                st.sampled_from(["00" * 32, "ab" * 32]),
                st.sampled_from(["00" * 64]),
                st.integers(min_value=0, max_value=500),
            ),
        ),
    )
    def message_out_of_place(self, index: int, message: Any) -> None:
        peer = self._connected(index)
        if peer is not None:
            self._send(peer, wire.text(message), may_change=False)

    # ----------------------------------------------------------------- invariants

    @invariant()
    def events_are_persisted_and_every_one_checks(self) -> None:
        events = self._events()
        persisted = self.network.persisted.get(self.nameplate, [])
        assert list(persisted) == [canonical.encode(e) for e in events], (
            "the host persisted exactly its events, in order"
        )
        for value in events[len(self.seen) :]:
            event = Event.from_value(value)
            if self.replica is None:
                self.replica = Replica(event)
            else:
                self.replica.receive(event)
            self.seen.append(event)

    @invariant()
    def honest_peers_agree_with_the_host(self) -> None:
        events = self._events()
        for peer in self.peers:
            replica = peer.session.player.replica
            if replica is None:
                continue
            held = [e.line for e in replica.events]
            assert held == [canonical.encode(e) for e in events[: len(held)]]

    def check_the_end(self) -> None:
        """Everyone comes back and the game is played out: the transcript verifies."""
        for index in range(SEATS):
            self.come_back(index, True)
        self.network.run(self.peers)
        assert all(peer.error is None for peer in self.peers), [p.error for p in self.peers]
        game = self.room.game
        assert game is not None and game.ended
        report = verify(list(game.event_objects))
        assert report.valid, report.summary


class HostSessionGame(HostSessionMachine):
    def teardown(self) -> None:
        try:
            self.check_the_end()
        finally:
            super().teardown()


HostSessionGame.TestCase.settings = settings(
    max_examples=EXAMPLES,
    stateful_step_count=STEPS,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
TestHostSessionFuzz = HostSessionGame.TestCase
TestHostSessionFuzz.pytestmark = [pytest.mark.slow]
