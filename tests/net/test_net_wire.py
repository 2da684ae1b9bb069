"""The wire codec: every frame is size-limited and validated before a session sees it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domicile_p2p.net import schema, wire
from domicile_p2p.net.errors import WireError

REPO = Path(__file__).resolve().parents[2]
KEY = "ab" * 32
PROOF = "cd" * 64


def join(**changes: object) -> dict[str, object]:
    message: dict[str, object] = {
        "type": "join",
        "protocol": wire.PROTOCOL,
        "table": 7,
        "key": KEY,
        "name": "Ada",
        "role": "investigator",
        "pake": "41" + "00" * 32,
    }
    message.update(changes)
    return message


def test_every_message_round_trips() -> None:
    messages: list[wire.ClientMessage | wire.HostMessage] = [
        wire.Join(wire.PROTOCOL, 7, KEY, "Ada", wire.Role.GHOST, "41" + "00" * 32),
        wire.Confirm(KEY, PROOF),
        wire.Resume(wire.PROTOCOL, 3, KEY, PROOF, 12),
        wire.Act({"kind": "lock", "n": 1}),
        wire.Fetch(4),
        wire.Seen(2, 3, 1),
    ]
    for message in messages:
        assert wire.decode_client(wire.text(message)) == message
    replies: list[wire.HostMessage] = [
        wire.Welcome(wire.PROTOCOL, KEY),
        wire.PakeReply("42" + "00" * 32, KEY),
        wire.Seated(7, 0, 3),
        wire.Lobby(
            7,
            "Friday",
            wire.TableState.LOBBY,
            "normal",
            [wire.SeatStatus(0, "Ada", KEY, bot=False, connected=True)],
        ),
        wire.Events(0, [{"seq": 0}]),
        wire.Error(wire.ErrorCode.RULE, "not now", fatal=False),
        wire.AllSeen(1, 7, 2),
    ]
    for reply in replies:
        assert wire.decode_host(wire.text(reply)) == reply


@pytest.mark.parametrize(
    ("frame", "code", "reason"),
    [
        (b"{}", "bad-frame", "binary frames"),
        ("not json", "bad-frame", "not a JSON message"),
        ("[1, 2]", "bad-message", "Expected `object`"),
        (json.dumps({"type": "shout"}), "bad-message", "Invalid value 'shout'"),
        (json.dumps({"type": "welcome", "protocol": 1, "nonce": KEY}), "bad-message", "type"),
        (json.dumps(join(key="AB" * 32)), "bad-message", "key"),
        # A hex field ending in a line feed is refused, as the JSON Schemas say (Python's `$`
        # alone would let it through: canonical.whole_string).
        (json.dumps(join(key=KEY + "\n")), "bad-message", "key"),
        (
            json.dumps({"type": "confirm", "mac": KEY, "proof": KEY * 2 + "\n"}),
            "bad-message",
            "proof",
        ),
        (json.dumps(join(table=0)), "bad-message", "table"),
        (json.dumps(join(name="")), "bad-message", "name"),
        (json.dumps(join(name="x" * 41)), "bad-message", "name"),
        (json.dumps(join(role="king")), "bad-message", "role"),
        (json.dumps(join(extra=1)), "bad-message", "unknown field `extra`"),
        (json.dumps({"type": "fetch", "since": -1}), "bad-message", "since"),
        (json.dumps({"type": "fetch", "since": 1.5}), "bad-message", "since"),
        ('{"type":"act","action":{"t":"' + "x" * wire.MAX_FRAME + '"}}', "too-large", "over"),
        (json.dumps({"type": "seen", "game": 1, "day": 2}), "bad-message", "stage"),
        (json.dumps({"type": "seen", "game": 1, "day": 0, "stage": 1}), "bad-message", "day"),
        (json.dumps({"type": "seen", "game": 1, "day": 2, "stage": 3}), "bad-message", "stage"),
        (json.dumps({"type": "seen", "game": 0, "day": 2, "stage": 1}), "bad-message", "game"),
        (json.dumps({"type": "seen", "game": 1, "day": "2", "stage": 1}), "bad-message", "day"),
        (
            json.dumps({"type": "seen", "game": 1, "day": 2, "stage": 1, "seat": 1}),
            "bad-message",
            "unknown field `seat`",
        ),
        # The host's word is not a client's to send.
        (json.dumps({"type": "all-seen", "game": 1, "day": 2, "stage": 1}), "bad-message", "type"),
    ],
    ids=lambda value: str(value)[:30],
)
def test_bad_frames_are_typed_errors(frame: str | bytes, code: str, reason: str) -> None:
    with pytest.raises(WireError, match=reason) as caught:
        wire.decode_client(frame)
    assert caught.value.code == code


def test_deeply_nested_json_is_refused_without_a_recursion_error() -> None:
    deep = '{"type":"act","action":{"a":' + "[" * 30000 + "]" * 30000 + "}}"
    with pytest.raises(WireError):
        wire.decode_client(deep)


def test_the_host_never_sends_a_frame_over_the_limit() -> None:
    with pytest.raises(ValueError, match="over"):
        wire.encode(wire.Events(0, [{"blob": "x" * wire.MAX_FRAME}]))


def test_published_schemas_are_up_to_date() -> None:
    """Regenerate with: make vectors"""
    directory = REPO / "protocol" / "schema" / "wire"
    for name, text in schema.schemas().items():
        path = directory / name
        assert path.exists(), f"{path} is missing: run make vectors"
        assert path.read_text(encoding="utf-8") == text, f"{path} is out of date"


def test_schemas_describe_every_message_type() -> None:
    generated = {name: json.loads(text) for name, text in schema.schemas().items()}
    client = generated["client-to-host.schema.json"]["discriminator"]["mapping"]
    host = generated["host-to-client.schema.json"]["discriminator"]["mapping"]
    assert set(client) == {
        "join",
        "watch",
        "confirm",
        "resume",
        "act",
        "fetch",
        "head",
        "ready",
        "restore",
        "seen",
    }
    assert set(host) == {
        "welcome",
        "pake",
        "lobby",
        "seated",
        "watching",
        "events",
        "error",
        "peer-head",
        "all-seen",
    }


def test_the_wire_schema_tool_reports_missing_changed_and_stray_files(tmp_path: Path) -> None:
    from protocol_tools import wire_schema_export

    assert wire_schema_export.stale(tmp_path) == sorted(schema.schemas())
    wire_schema_export.write(tmp_path)
    assert wire_schema_export.stale(tmp_path) == []
    (tmp_path / "client-to-host.schema.json").write_text("{}", encoding="utf-8")
    (tmp_path / "old.schema.json").write_text("{}", encoding="utf-8")
    assert wire_schema_export.stale(tmp_path) == ["client-to-host.schema.json", "old.schema.json"]
