"""Signed actions and events: one canonical spelling, exact schemas, signatures and links."""

from __future__ import annotations

import hashlib
import json
import typing
from dataclasses import replace
from typing import Any

import pytest
from transcript_support import honest_game

from domicile_p2p.canonical import encode
from domicile_p2p.fairness.commit import frame
from domicile_p2p.identity import Identity
from domicile_p2p.transcript import Event, MalformedEvent, SignedAction
from domicile_p2p.transcript.codec import (
    ACTION_DOMAIN,
    EVENT_DOMAIN,
    GENESIS_PREV,
    LINK_DOMAIN,
    MAX_EVENT_BYTES,
)
from domicile_p2p.transcript.schema import (
    BODY_TYPES,
    GHOST_KINDS,
    HOST_KINDS,
    INVESTIGATOR_KINDS,
    AbortBody,
    ChatBody,
    GameOverBody,
    HostKindName,
    Kind,
    PlaceBody,
    PlayerKindName,
)

PLAYER = Identity.from_private_bytes(bytes([1]) * 32)
HOST = Identity.from_private_bytes(bytes([2]) * 32)
GAME = "ab" * 16


def action(**changes: Any) -> dict[str, Any]:
    signed = SignedAction.create(
        PLAYER, game=GAME, seat=1, counter=4, kind=Kind.PLACE, body=PlaceBody("char-01")
    )
    return {**signed.value, **changes}


def test_the_kind_lists_cover_every_kind_once() -> None:
    assert set(BODY_TYPES) == set(Kind)
    assert set(Kind) == HOST_KINDS | GHOST_KINDS | INVESTIGATOR_KINDS
    assert not HOST_KINDS & GHOST_KINDS and not GHOST_KINDS & INVESTIGATOR_KINDS
    assert set(typing.get_args(HostKindName)) == {k.value for k in HOST_KINDS}
    assert set(typing.get_args(PlayerKindName)) == {
        k.value for k in GHOST_KINDS | INVESTIGATOR_KINDS
    }


def test_a_signed_action_signs_its_framed_canonical_core() -> None:
    signed = SignedAction.from_value(action())
    core = {"body": {"card": "char-01"}, "counter": 4, "game": GAME, "kind": "place", "seat": 1}
    assert signed.message() == frame(ACTION_DOMAIN, encode(core))
    assert signed.signature_valid(PLAYER.public_key)
    assert not signed.signature_valid(HOST.public_key)
    assert SignedAction.from_json(signed.to_json()) == signed


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"kind": "teleport"}, "unknown event kind"),
        ({"kind": "genesis"}, "statement of the host"),
        ({"seat": True}, "not a signed action"),
        ({"seat": 7}, "not a signed action"),
        ({"counter": 0}, "not a signed action"),
        ({"game": "AB" * 16}, "not a signed action"),
        ({"sig": "00"}, "not a signed action"),
        ({"extra": 1}, "not a signed action"),
        ({"body": {"card": "char-01", "x": 1}}, "bad place body"),
        ({"body": {"card": "Char 01"}}, "bad place body"),
        ({"body": {}}, "bad place body"),
    ],
)
def test_a_malformed_action_says_why(change: dict[str, Any], why: str) -> None:
    with pytest.raises(MalformedEvent, match=why):
        SignedAction.from_value(action(**change))


def test_a_missing_field_is_malformed() -> None:
    value = action()
    del value["counter"]
    with pytest.raises(MalformedEvent):
        SignedAction.from_value(value)


@pytest.mark.parametrize(
    "data",
    [
        b"not json",
        b"[]",
        b'{"a":1.5}',
        json.dumps(action(), indent=1).encode(),
        encode(action())[:-1],
        b'{"kind":"place","kind":"lock"}',
        b" " + encode(action()),
    ],
)
def test_action_bytes_must_be_canonical_json(data: bytes) -> None:
    with pytest.raises(MalformedEvent):
        SignedAction.from_json(data)


def _event() -> Event:
    signed = SignedAction.from_value(action())
    return Event.create(HOST, game_id=bytes.fromhex(GAME), seq=3, prev="cd" * 32, action=signed)


def test_an_event_is_signed_by_the_host_over_its_framed_core() -> None:
    event = _event()
    core = {k: v for k, v in json.loads(event.line).items() if k != "host_sig"}
    assert event.host_message(bytes.fromhex(GAME)) == frame(
        EVENT_DOMAIN, bytes.fromhex(GAME), encode(core)
    )
    assert event.host_signature_valid(HOST.public_key, bytes.fromhex(GAME))
    assert not event.host_signature_valid(HOST.public_key, bytes(16))
    assert event.action(GAME).signature_valid(PLAYER.public_key)
    assert Event.from_json(event.line) == event
    assert Event.from_value(json.loads(event.line)).line == event.line


def test_the_link_hashes_the_whole_line() -> None:
    event = _event()
    expected = hashlib.sha256(frame(LINK_DOMAIN, event.line)).digest()
    assert event.link() == expected
    assert GENESIS_PREV == "00" * 32


def test_a_host_statement_has_no_player_part() -> None:
    event = Event.create(
        HOST,
        game_id=bytes.fromhex(GAME),
        seq=9,
        prev="00" * 32,
        statement=(Kind.GAME_OVER, GameOverBody("won", 5)),
    )
    assert event.is_host_statement and event.seat is None
    assert b'"seat"' not in event.line
    with pytest.raises(ValueError):
        event.action(GAME)
    value = json.loads(event.line)
    with pytest.raises(MalformedEvent):
        Event.from_value({**value, "seat": 1})


def test_an_event_holds_a_statement_or_an_action_not_both() -> None:
    signed = SignedAction.from_value(action())
    with pytest.raises(ValueError):
        Event.create(HOST, game_id=bytes(16), seq=1, prev=GENESIS_PREV)
    with pytest.raises(ValueError):
        Event.create(
            HOST,
            game_id=bytes(16),
            seq=1,
            prev=GENESIS_PREV,
            statement=(Kind.PLACE, PlaceBody("char-01")),
        )
    with pytest.raises(ValueError):
        Event.create(
            HOST,
            game_id=bytes(16),
            seq=1,
            prev=GENESIS_PREV,
            action=signed,
            statement=(Kind.GAME_OVER, GameOverBody("won", 5)),
        )


def test_an_oversized_event_is_refused() -> None:
    value = json.loads(_event().line)
    value["body"] = {"card": "x" * MAX_EVENT_BYTES}
    with pytest.raises(MalformedEvent, match="over"):
        Event.from_value(value)
    with pytest.raises(MalformedEvent, match="over"):
        Event.from_json(encode(value))


@pytest.mark.parametrize("value", [[], "event", 3])
def test_an_event_must_be_an_object(value: object) -> None:
    with pytest.raises(MalformedEvent):
        Event.from_value(value)


def test_the_host_signed_core_is_the_canonical_event_without_its_signature() -> None:
    from transcript_support import honest_game

    for event in honest_game(1, 2):
        core = {k: v for k, v in event.value.items() if k != "host_sig"}
        assert event._core_bytes() == encode(core)


def test_an_events_action_message_is_the_signed_actions_message() -> None:
    """Cut from the event's line, the bytes are those the player signed, for every kind."""
    for seed, investigators in ((1, 2), (4, 1), (6, 2)):
        events = honest_game(seed, investigators)
        game = events[0].value["body"]["game"]
        actions = [event for event in events if event.seat is not None]
        assert {event.kind for event in actions} >= {Kind.PLACE, Kind.GIVE, Kind.SEANCE}
        for event in actions:
            signed = event.action(game)
            assert event.action_message(game) == signed.message()
            assert event.player_signature_valid(PLAYER.public_key, game) is False
            # A field that no longer matches the line: the message follows the field.
            moved = replace(event, counter=(event.counter or 0) + 1)
            assert moved.action_message(game) == moved.action(game).message()
        # Another game id (the message names it): still the canonical core.
        other = "cd" * 16
        assert actions[0].action_message(other) == actions[0].action(other).message()
    with pytest.raises(ValueError, match="statement of the host"):
        events[0].action_message(game)


@pytest.mark.parametrize("text", ['a","kind":"abort', ',"kind":', 'say "kind"'])
def test_a_created_event_is_the_canonical_encoding_of_its_value(text: str) -> None:
    # Event.create encodes the event once and puts its signature into those bytes.
    chat = SignedAction.create(
        PLAYER, game=GAME, seat=1, counter=4, kind=Kind.CHAT, body=ChatBody(text)
    )
    said = Event.create(HOST, game_id=bytes.fromhex(GAME), seq=3, prev="cd" * 32, action=chat)
    aborted = Event.create(
        HOST,
        game_id=bytes.fromhex(GAME),
        seq=4,
        prev="ef" * 32,
        statement=(Kind.ABORT, AbortBody(text, (1, 2))),
    )
    for event in (said, aborted, *honest_game(1, 2)):
        assert event.line == encode(event.value)
        assert Event.from_json(event.line) == event
