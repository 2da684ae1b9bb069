"""Mutated transcripts: ``verify`` never accepts one and never crashes.

Three kinds of mutation of an honest game:

- bytes: any byte changed, inserted or deleted, anywhere in the file;
- a field: one value anywhere in one event changed, dropped or added, the
  event re-encoded canonically (so the change is to content, not layout);
- a field, re-signed: the same, but then signed again by the host and the
  whole chain after it rebuilt, as a cheating host could (it does not hold
  the players' keys).
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from transcript_support import honest_game, seating, transcript

from domicile_p2p.canonical import CanonicalError, encode
from domicile_p2p.fairness.commit import frame, tagged_hash
from domicile_p2p.transcript.codec import EVENT_DOMAIN, LINK_DOMAIN
from domicile_p2p.transcript.verify import verify

GAMES = [(1, 2), (4, 1), (6, 2)]
HEX = set("0123456789abcdef")


def _mutate(value: Any, data: st.DataObject) -> Any:
    if isinstance(value, dict) and value:
        key = data.draw(st.sampled_from(sorted(value)))
        match data.draw(st.integers(0, 7)):
            case 0:
                return {k: v for k, v in value.items() if k != key}
            case 1:
                return {**value, "extra": 0}
            case _:
                return {**value, key: _mutate(value[key], data)}
    if isinstance(value, list) and value:
        index = data.draw(st.integers(0, len(value) - 1))
        match data.draw(st.integers(0, 5)):
            case 0:
                return value[:index] + value[index + 1 :]
            case 1:
                return [*value[: index + 1], value[index], *value[index + 1 :]]
            case _:
                return [*value[:index], _mutate(value[index], data), *value[index + 1 :]]
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + data.draw(st.integers(-3, 3).filter(bool))
    if isinstance(value, str):
        if value and set(value) <= HEX:
            at = data.draw(st.integers(0, len(value) - 1))
            digit = data.draw(st.sampled_from(sorted(HEX - {value[at]})))
            return value[:at] + digit + value[at + 1 :]
        return data.draw(st.sampled_from([value + "x", "", value[:-1], value.upper()]))
    return data.draw(st.sampled_from([0, "", [], {}]))


def _rechain(values: list[dict[str, Any]], start: int, seed: int, investigators: int) -> bytes:
    """Sign every event from ``start`` on again with the host's key, relinking the chain."""
    host = seating(seed, investigators).host
    game_id = bytes.fromhex(values[0]["body"]["game"])
    lines = [encode(v) for v in values[:start]]
    for index in range(start, len(values)):
        core = {k: v for k, v in values[index].items() if k != "host_sig"}
        if index > start:
            core["prev"] = tagged_hash(LINK_DOMAIN, lines[-1]).hex()
        signature = host.sign(frame(EVENT_DOMAIN, game_id, encode(core))).hex()
        lines.append(encode({**core, "host_sig": signature}))
    return b"".join(line + b"\n" for line in lines)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_no_mutated_transcript_is_accepted(data: st.DataObject) -> None:
    game = data.draw(st.sampled_from(GAMES))
    events = honest_game(*game)
    honest = transcript(events)
    mode = data.draw(st.sampled_from(["bytes", "field", "field re-signed"]))
    if mode == "bytes":
        at = data.draw(st.integers(0, len(honest) - 1))
        cut = data.draw(st.integers(0, 3))
        insert = data.draw(st.binary(min_size=0, max_size=3))
        mutated = honest[:at] + insert + honest[at + cut :]
    else:
        first = 1 if mode == "field re-signed" else 0
        index = data.draw(st.integers(first, len(events) - 1))
        values = [dict(event.value) for event in events]
        values[index] = _mutate(values[index], data)
        try:
            if mode == "field":
                mutated = b"".join(encode(v) + b"\n" for v in values)
            else:
                mutated = _rechain(values, index, *game)
        except CanonicalError:
            assume(False)
    assume(mutated != honest)
    report = verify(mutated)
    assert not report.valid, (mode, report.summary)
    assert report.error is not None
