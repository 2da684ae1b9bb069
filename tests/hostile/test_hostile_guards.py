"""The guards' pure parts, one by one: the setup clock, the bounded outbox, heads, blame."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from hostile_support import in_play, seated
from websockets.protocol import State

from domicile_p2p.identity import Identity
from domicile_p2p.net.adapters.outbox import DirectOutbox, OutboxLimits
from domicile_p2p.net.sessions.guards.blame import blamed, headline
from domicile_p2p.net.sessions.guards.heads import (
    MAX_PENDING,
    ForgedHead,
    HeadClaim,
    HeadWatch,
    head_phrase,
    host_check,
)
from domicile_p2p.net.sessions.guards.setup import SetupWatch
from domicile_p2p.transcript import Check, Violation
from domicile_p2p.transcript.ledger import Step


def test_the_setup_clock_starts_with_each_step_and_forgets_the_game() -> None:
    watch = SetupWatch(10.0)
    watch.observe(1, None, 0.0)
    assert watch.deadline() is None
    watch.observe(1, Step.COMMITMENTS, 1.0)
    watch.observe(1, Step.COMMITMENTS, 5.0)  # progress by others does not extend it
    assert watch.deadline() == 11.0 and watch.expired(10.9) == []
    watch.observe(1, Step.REVEALS, 6.0)  # a new step, a new deadline
    watch.observe(2, Step.SLOT_COMMITMENTS, 2.0)
    assert watch.deadline() == 12.0
    assert watch.expired(16.0) == [1, 2]
    watch.forget(2)
    watch.observe(1, Step.PLAY, 7.0)
    assert watch.deadline() is None and watch.expired(100.0) == []
    with pytest.raises(ValueError, match="positive"):
        SetupWatch(0)


class _FakeTransport:
    """A transport that keeps what it is given (its reader took nothing in yet)."""

    def __init__(self) -> None:
        self.buffered = 0
        self.limits: tuple[int, int] | None = None

    def set_write_buffer_limits(self, high: int, low: int) -> None:
        self.limits = (high, low)

    def get_write_buffer_size(self) -> int:
        return self.buffered


class _FakeWebsocket:
    """What DirectOutbox uses of a websockets connection: protocol, send_data, flow control."""

    def __init__(self) -> None:
        self.transport = _FakeTransport()
        self.protocol = self
        self.state = State.OPEN
        self.frames: list[bytes] = []
        self.unsent = 0
        self.paused = False
        self.resumed = asyncio.Event()

    def send_text(self, frame: bytes) -> None:
        self.frames.append(frame)
        self.unsent += len(frame)

    def send_data(self) -> None:
        self.transport.buffered += self.unsent
        self.unsent = 0
        high, _low = self.transport.limits or (0, 0)
        self.paused = self.transport.buffered >= high

    async def drain(self) -> None:
        if self.paused:
            await self.resumed.wait()


async def test_the_direct_outbox_drops_a_client_over_its_byte_bound_once() -> None:
    websocket = _FakeWebsocket()
    reasons: list[str] = []
    box = DirectOutbox(websocket, OutboxLimits(bytes=10, watch_at=1000), reasons.append)
    assert websocket.transport.limits == (1000, 250), "the drain clock's start and finish"
    assert box.write([b"aaaa"]) and box.write([b"bbbb"])
    assert box.queued_bytes == 8 and reasons == []
    assert not box.write([b"ccc"]), "over the byte bound"
    assert reasons == ["its outbox is full"] and box.peak_bytes == 11
    assert not box.write([b"d"]) and len(websocket.frames) == 3, "nothing more once over"
    assert reasons == ["its outbox is full"], "said once"


async def test_a_batch_of_frames_goes_no_further_past_the_byte_bound_than_one_frame() -> None:
    websocket = _FakeWebsocket()
    reasons: list[str] = []
    box = DirectOutbox(websocket, OutboxLimits(bytes=10, watch_at=1000), reasons.append)
    assert box.write([b"aaaa", b"bbbb"]) and box.queued_bytes == 8, "within the bound: together"
    assert not box.write([b"ccc", b"dd", b"e"]), "the frame that crossed it was the last"
    assert websocket.frames[2:] == [b"ccc"] and box.peak_bytes == 11
    assert reasons == ["its outbox is full"]


async def test_the_direct_outbox_gives_a_paused_client_its_timeout_to_drain() -> None:
    websocket = _FakeWebsocket()
    reasons: list[str] = []
    box = DirectOutbox(
        websocket, OutboxLimits(bytes=100, watch_at=4, send_timeout=0.05), reasons.append
    )
    assert box.write([b"aaaa"]) and websocket.paused
    websocket.resumed.set()  # it reads again in time
    await asyncio.sleep(0.1)
    assert reasons == []

    stuck = _FakeWebsocket()
    box = DirectOutbox(
        stuck, OutboxLimits(bytes=100, watch_at=4, send_timeout=0.05), reasons.append
    )
    assert box.write([b"aaaa"])
    await asyncio.sleep(0.2)
    assert reasons == ["it stopped reading"] and not box.write([b"b"])


async def test_the_direct_outbox_skips_a_connection_that_is_closing() -> None:
    websocket = _FakeWebsocket()
    websocket.state = State.CLOSING
    reasons: list[str] = []
    box = DirectOutbox(websocket, OutboxLimits(bytes=1), reasons.append)
    assert box.write([b"far too long for the bound"]) and websocket.frames == []
    assert reasons == []


def test_heads_are_signed_checked_and_kept_until_their_event_arrives(tmp_path: Path) -> None:
    table = seated(tmp_path, investigators=1)
    table.network.run(table.peers, until=in_play(table.peers))
    investigator = table.peers[1]
    record = investigator.session.player.replica
    assert record is not None
    game_id = record.table_setup.game_id
    keys = record.table_setup.seat_keys
    events = table.game.event_objects
    last = len(events) - 1
    mine = HeadClaim.sign(investigator.session.identity, game_id, 1, last, events[last].link())
    assert host_check(events, keys, game_id, 1, mine) is None
    assert "not yours" in str(host_check(events, keys, game_id, 0, mine))
    later = HeadClaim.sign(investigator.session.identity, game_id, 1, last + 5, bytes(32))
    assert "no event" in str(host_check(events, keys, game_id, 1, later))
    stranger = HeadClaim.sign(Identity.generate(), game_id, 1, last, events[last].link())
    assert "signature" in str(host_check(events, keys, game_id, 1, stranger))
    assert not HeadClaim(1, last, b"short", mine.sig).valid(keys[1], game_id)

    watch = HeadWatch()
    watch.receive(record, later)  # not there yet: kept
    for seq in range(MAX_PENDING + 5):
        watch.receive(
            record,
            HeadClaim.sign(investigator.session.identity, game_id, 1, last + 10 + seq, bytes(32)),
        )
    assert len(watch._pending) == MAX_PENDING, "a flood of heads cannot grow a peer's memory"
    with pytest.raises(ForgedHead, match="not at this table"):
        watch.receive(record, HeadClaim(9, 0, bytes(32), bytes(64)))
    assert len(head_phrase(events[last].link()).split()) == 6


def test_blame_names_the_party_first() -> None:
    ghost = Violation(7, "ghost", Check.VERDICTS, "it lied")
    host = Violation(3, "host", Check.HASH_CHAIN, "it rewrote")
    seat = Violation(5, "seat 2", Check.PUBLIC_RULES, "out of turn")
    assert headline(ghost) == "the Ghost cheated at event 7 (séance verdicts)"
    assert headline(host) == "the host broke the protocol at event 3 (hash chain)"
    assert headline(seat).startswith("seat 2 cheated at event 5 (public rules), and the host")
    cheat = blamed(ghost)
    assert cheat.ghost_cheated and not cheat.host_cheated and cheat.seq == 7
    assert str(cheat).endswith(": it lied") and cheat.violation is ghost
    assert blamed(host).host_cheated
