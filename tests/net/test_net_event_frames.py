"""How the host splits a run of events into ``events`` frames (``event_frames``)."""

from __future__ import annotations

import msgspec

from domicile_p2p.net.sessions.host import event_frames
from domicile_p2p.net.wire import MAX_EVENTS_PER_FRAME, MAX_FRAME, Events, text


def _event(seq: int, size: int = 100) -> dict[str, object]:
    return {"seq": seq, "kind": "chat", "body": {"text": "x" * size}}


def test_one_event_is_one_frame_whoever_measures_it() -> None:
    event = _event(7, size=MAX_FRAME)  # over a frame on its own: still sent, alone
    assert list(event_frames(7, [event])) == [Events(7, [event])]


def test_a_run_of_events_is_split_in_order_under_the_frame_bounds() -> None:
    events = [_event(seq, size=900 + 97 * (seq % 40)) for seq in range(3, 3 + 500)]
    frames = list(event_frames(3, events))
    assert len(frames) > 1
    assert [e for frame in frames for e in frame.events] == events
    starts = [frame.start for frame in frames]
    assert starts == [3 + sum(len(f.events) for f in frames[:i]) for i in range(len(frames))]
    for frame in frames:
        assert len(frame.events) <= MAX_EVENTS_PER_FRAME
        assert len(text(frame).encode()) <= MAX_FRAME
    assert all(len(msgspec.json.encode(frame)) <= MAX_FRAME for frame in frames)
