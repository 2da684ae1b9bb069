"""The guards' pure parts, one by one: the setup clock, the bounded outbox, heads, blame."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from hostile_support import in_play, seated

from domicile_p2p.identity import Identity
from domicile_p2p.net.guard_blame import blamed, headline
from domicile_p2p.net.guard_heads import (
    MAX_PENDING,
    ForgedHead,
    HeadClaim,
    HeadWatch,
    head_phrase,
    host_check,
)
from domicile_p2p.net.guard_outbox import BoundedOutbox, OutboxLimits, send_within
from domicile_p2p.net.guard_setup import SetupWatch
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


async def test_the_outbox_is_bounded_in_frames_and_bytes_and_frees_what_is_sent() -> None:
    box: BoundedOutbox[str] = BoundedOutbox(OutboxLimits(frames=3, bytes=10))
    assert box.put("aaaa", 4) and box.put("bbbb", 4)
    assert not box.put("ccc", 3), "over the byte bound"
    assert box.put("cc", 2) and not box.put("d", 1), "over the frame bound"
    box.force("close")
    assert box.queued_frames == 4 and box.queued_bytes == 10 and box.peak_bytes == 10
    item, size = await box.get()
    assert item == "aaaa" and box.queued_bytes == 10, "bytes count until written"
    box.sent(size)
    assert box.queued_bytes == 6
    assert not box.put("e", 1), "three frames still queued (the close among them)"
    _item, size = await box.get()
    box.sent(size)
    assert box.queued_bytes == 2 and box.put("e", 1)


async def test_a_send_that_never_completes_gives_up_after_its_timeout() -> None:
    never = asyncio.get_running_loop().create_future()
    assert not await send_within(never, 0.01)
    assert await send_within(asyncio.sleep(0), 1.0)


def test_heads_are_signed_checked_and_kept_until_their_event_arrives(tmp_path: Path) -> None:
    table = seated(tmp_path, investigators=1)
    table.network.run(table.peers, until=in_play(table.peers))
    investigator = table.peers[1]
    record = investigator.session.player.replica
    assert record is not None
    game_id = record.table.game_id
    keys = record.table.seat_keys
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
