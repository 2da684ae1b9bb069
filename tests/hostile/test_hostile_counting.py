"""Counting and bounds: refused messages close a connection, duplicate keys are
malformed, and a seat's chat is bounded in rate and in characters per game.

Each attack runs on the fake link against the real host session and codec;
the honest game goes on beside it and its transcript verifies at the end.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hostile_support import HostileTable, act_frame, finish, in_play, seated

from domicile_p2p.net import wire
from domicile_p2p.net.errors import WireError
from domicile_p2p.net.sessions.host import HostLimits
from domicile_p2p.transcript import Kind, SignedAction
from domicile_p2p.transcript.schema import ChatBody


def _errors(table: HostileTable, connection: int) -> list[wire.Error]:
    return [m for m in table.network.replies(connection) if isinstance(m, wire.Error)]


def test_every_refused_act_counts_and_the_sixth_closes_the_connection(tmp_path: Path) -> None:
    table = seated(tmp_path, investigators=2)
    table.network.run(table.peers, until=in_play(table.peers))
    _ghost, first, second = table.peers
    assert first.connection is not None
    connection = first.connection
    game = first.session.player.replica.game_id
    as_second = SignedAction.create(
        first.session.identity,
        game=game,
        seat=2,
        counter=second.session.player.agent.next_counter,
        kind=Kind.CHAT,
        body=ChatBody("I am seat 2, honestly"),
    )
    before = table.lines()
    errors: list[wire.Error] = []
    for _ in range(13):  # the attack of issue 16: 13 in a row used to leave it open
        if connection in table.network.closed:
            break
        table.network.now += 5.0  # slower than any rate limit: only the count closes it
        table.network.frame(connection, act_frame(as_second))
        errors += _errors(table, connection)
    assert [e.code for e in errors] == ["not-your-seat"] * 6
    assert [e.fatal for e in errors] == [False] * 5 + [True]
    assert table.network.closed[connection][1] == "not-your-seat"
    assert table.lines() == before
    # The player comes back (its own key) and the game finishes for everyone.
    table.network.drop(connection)
    table.network.join(first, pinned=True)
    table.network.deliver()
    finish(table)


def test_an_accepted_action_starts_the_count_again(tmp_path: Path) -> None:
    table = seated(tmp_path, investigators=1)
    table.network.run(table.peers, until=in_play(table.peers))
    investigator = table.peers[1]
    agent = investigator.session.player.agent
    assert agent is not None and investigator.connection is not None
    for round_ in range(2):
        for _ in range(5):  # five refusals: not yet closed
            table.network.frame(investigator.connection, '{"type":"head"}')
        chat = agent.sign(Kind.CHAT, ChatBody(f"still here ({round_})"))
        table.network._peer_apply(investigator, investigator.session.submit(chat))
        table.network.deliver()
        assert investigator.connection not in table.network.closed
    finish(table)


@pytest.mark.parametrize(
    ("frame", "key"),
    [
        ('{"type":"fetch","since":0,"since":5}', "since"),
        ('{"type":"fetch","type":"fetch","since":0}', "type"),
        (
            '{ "type": "act", "action": {"kind": "chat", "body": {"text": "a", "text": "b"}} }',
            "text",
        ),
    ],
)
def test_duplicate_keys_are_malformed_at_any_depth(frame: str, key: str) -> None:
    with pytest.raises(WireError) as refused:
        wire.decode_client(frame)
    assert refused.value.code == "bad-message"
    assert f"{key!r} appears twice" in str(refused.value)


def test_frames_without_duplicates_decode_whatever_their_spacing() -> None:
    # Other encoders (spaces, escapes, key order) take the slow path, and pass.
    assert wire.decode_client('{ "since" : 3 , "type" : "fetch" }') == wire.Fetch(3)
    assert wire.decode_client('{"type":"f\\u0065tch","since":3}') == wire.Fetch(3)
    act = '{"type":"act","action":{"a":{"k":1},"b":{"k":2}}}'
    assert wire.decode_client(act) == wire.Act({"a": {"k": 1}, "b": {"k": 2}})


def test_a_duplicate_key_on_the_wire_is_refused_and_counted(tmp_path: Path) -> None:
    table = seated(tmp_path, investigators=1)
    table.network.run(table.peers, until=in_play(table.peers))
    investigator = table.peers[1]
    assert investigator.connection is not None
    before = table.lines()
    table.network.frame(investigator.connection, '{"type":"fetch","since":0,"since":0}')
    [error] = _errors(table, investigator.connection)
    assert error.code == "bad-message" and not error.fatal
    assert table.lines() == before
    finish(table)


def _chat(table: HostileTable, seat: int, text: str) -> str | None:
    """Seat ``seat`` chats ``text`` as its client would; the refusal's code, or None."""
    peer = table.peers[seat]
    agent = peer.session.player.agent
    assert agent is not None
    refused = len(peer.refusals)
    table.network._peer_apply(peer, peer.session.submit(agent.sign(Kind.CHAT, ChatBody(text))))
    table.network.deliver()
    assert peer.session.in_flight is None
    return peer.refusals[-1].code if len(peer.refusals) > refused else None


def test_a_seats_chat_is_bounded_in_rate_and_in_characters_per_game(tmp_path: Path) -> None:
    limits = replace(HostLimits(), chat_burst=3, chat_rate=0.5, chat_characters=1_000)
    table = seated(tmp_path, investigators=2, limits=limits)
    table.network.run(table.peers, until=in_play(table.peers))
    network = table.network
    # The rate: a burst of 3, then one every 2 s (the fake clock moves only when told).
    assert [_chat(table, 1, f"hello {n}") for n in range(4)] == [None, None, None, "chat-limit"]
    [refusal] = [r for r in network.logged("rejected") if r["code"] == "chat-limit"]
    assert "at most 3 messages at once and 0.5 a second" in refusal["reason"]
    network.now += 2.0
    assert _chat(table, 1, "after a pause") is None
    # The characters: 1,000 per seat per game, counted on accepted chats only.
    network.now += 10.0
    long = "x" * 500
    sent = sum(len(t) for t in ("hello 0", "hello 1", "hello 2", "after a pause"))
    assert [_chat(table, 1, long), _chat(table, 1, long)] == [None, "chat-limit"]
    refusal = network.logged("rejected")[-1]
    assert f"has sent {sent + 500} of its 1000 characters" in refusal["reason"]
    # Another seat has its own budget; the refused chats never reached the transcript.
    network.now += 10.0
    assert _chat(table, 2, long) is None
    chats = [e for e in table.game.event_objects if e.kind is Kind.CHAT]
    assert [(e.seat, len(e.body.text)) for e in chats][-2:] == [
        (1, 500),
        (2, 500),
    ]
    finish(table)
