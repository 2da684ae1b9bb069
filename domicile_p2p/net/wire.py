"""The wire messages between a client and the host, and their codec.

Every websocket frame is one JSON object, a msgspec Struct tagged by its
``type`` field.  :func:`decode_client` / :func:`decode_host` accept exactly
the messages of one direction and nothing else: a frame over
:data:`MAX_FRAME` bytes, a binary frame, a frame that is not JSON, an
unknown ``type``, a missing or unknown field or a value outside its range is
a :class:`~domicile_p2p.net.errors.WireError` naming why, and never reaches
a session.  The JSON Schemas in ``protocol/schema/wire/`` are generated from
these classes (``make vectors``) and ``protocol/WIRE.md``
describes the conversation.

Bytes travel as lower-case hex.  Transcript values (signed actions and
events) travel as JSON objects here and are parsed and checked by the
transcript layer, which owns their format.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from enum import StrEnum
from typing import Annotated, Any, Final

import msgspec

from domicile_p2p.canonical import whole_string
from domicile_p2p.net.errors import WireError
from domicile_p2p.net.join.codes import MAX_TABLES

PROTOCOL: Final = 1
"""Version of this wire protocol (``Welcome``/``Join``/``Resume`` carry it)."""

MAX_FRAME: Final = 64 * 1024
"""Largest frame either side accepts, in bytes (websockets' ``max_size``)."""

MAX_EVENTS_PER_FRAME: Final = 64

Hex32 = Annotated[
    str, msgspec.Meta(pattern=whole_string("[0-9a-f]{64}"), description="32 bytes, hex")
]
Hex64 = Annotated[
    str, msgspec.Meta(pattern=whole_string("[0-9a-f]{128}"), description="64 bytes, hex")
]
PakeMessage = Annotated[
    str,
    msgspec.Meta(
        pattern=whole_string("[0-9a-f]{66}"), description="a SPAKE2 message (33 bytes), hex"
    ),
]
Nameplate = Annotated[
    int, msgspec.Meta(ge=1, le=MAX_TABLES, description="which of the host's tables")
]
Count = Annotated[int, msgspec.Meta(ge=0, le=2**53 - 1)]
Seconds = Annotated[float, msgspec.Meta(ge=0, le=86_400, description="a duration in seconds")]
Seat = Annotated[int, msgspec.Meta(ge=0, le=6, description="0 is the Ghost, 1-6 investigators")]
GameNumber = Annotated[
    int, msgspec.Meta(ge=1, le=2**53 - 1, description="which of the table's games (1: its first)")
]
Day = Annotated[int, msgspec.Meta(ge=1, le=99, description="a day of the game (1: its first)")]
Stage = Annotated[int, msgspec.Meta(ge=1, le=2, description="the game's stage: 1 or 2")]
PlayerName = Annotated[str, msgspec.Meta(min_length=1, max_length=40)]
Text = Annotated[str, msgspec.Meta(max_length=500)]
Object = dict[str, Any]


class Role(StrEnum):
    GHOST = "ghost"
    INVESTIGATOR = "investigator"
    ANY = "any"


class TableState(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    ENDED = "ended"


class Starts(StrEnum):
    """When a table's game begins (the lobby says so, for the players' screens)."""

    FULL = "full"  # as soon as every seat is held
    OWNER = "owner"  # when the host's owner starts it, or when every seat is held by a person
    WAIT = "wait"  # once every seat is held and the host's lobby wait is over


class ErrorCode(StrEnum):
    """Why the host refused a message.  Fatal ones are followed by closing the connection."""

    BAD_FRAME = "bad-frame"  # not a JSON object, or a binary frame
    TOO_LARGE = "too-large"  # over MAX_FRAME
    BAD_MESSAGE = "bad-message"  # JSON, but not a valid message
    UNEXPECTED = "unexpected"  # a valid message at the wrong moment
    PROTOCOL_VERSION = "protocol-version"
    UNKNOWN_TABLE = "unknown-table"
    WRONG_CODE = "wrong-code"
    RATE_LIMITED = "rate-limited"
    TABLE_FULL = "table-full"
    GAME_STARTED = "game-started"  # the game has begun: its seats are fixed
    ROLE_TAKEN = "role-taken"
    NOT_SEATED = "not-seated"
    BAD_PROOF = "bad-proof"  # the identity signature over the challenge is wrong
    BAD_SIGNATURE = "bad-signature"
    REPLAY = "replay"  # an action counter already used
    NOT_YOUR_SEAT = "not-your-seat"
    RULE = "rule"  # the rules engine refused the action (out of turn, illegal move)
    BAD_ACTION = "bad-action"  # not a well-formed signed action
    FLOOD = "flood"
    SUPERSEDED = "superseded"  # the same player connected again elsewhere
    TAKEN_OVER = "taken-over"  # a person took this bot's seat (in the lobby)
    SHUTTING_DOWN = "shutting-down"
    GAME_OVER = "game-over"
    CHAT_LIMIT = "chat-limit"  # over this seat's chat rate or its characters for the game
    SPECTATORS_FULL = "spectators-full"  # the table has as many spectators as it takes
    SPECTATOR = "spectator"  # a spectator sent an action (or a chat, or a chain head)


class _Message(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type"):
    pass


# ----------------------------------------------------------------- client -> host


class Join(_Message, frozen=True, tag="join"):
    """Take a seat at table ``table`` with the code's PAKE (first of two messages)."""

    protocol: int
    table: Nameplate
    key: Hex32
    name: PlayerName
    role: Role
    pake: PakeMessage
    seat: Seat | None = None
    bot: bool = False
    have: Count = 0


class Watch(_Message, frozen=True, tag="watch"):
    """Watch table ``table`` without a seat, with the code's PAKE (first of two messages).

    The same PAKE as :class:`Join`, answered by the same :class:`PakeReply` and
    :class:`Confirm`; the host then answers :class:`Watching` and sends the events
    from ``have`` on, and every later one, as it does to the seats.
    """

    protocol: int
    table: Nameplate
    key: Hex32
    name: PlayerName
    pake: PakeMessage
    have: Count = 0


class Confirm(_Message, frozen=True, tag="confirm"):
    """The client's PAKE confirmation and its signature over the host's challenge."""

    mac: Hex32
    proof: Hex64


class Resume(_Message, frozen=True, tag="resume"):
    """Take back a seat already held by ``key`` (no code: the pinned certificate suffices)."""

    protocol: int
    table: Nameplate
    key: Hex32
    proof: Hex64
    have: Count


class Act(_Message, frozen=True, tag="act"):
    """One signed action of this player's seat."""

    action: Object


class Fetch(_Message, frozen=True, tag="fetch"):
    """Send me the events from ``since`` (0-based sequence number) on."""

    since: Count


class Ready(_Message, frozen=True, tag="ready"):
    """In the lobby of a table's next game (a rematch): this seat is (or is no longer) ready."""

    ready: bool


class Head(_Message, frozen=True, tag="head"):
    """This seat's chain head after event ``seq``, signed (``sessions/guards/heads.py``)."""

    seq: Count
    head: Hex32
    sig: Hex64


class Restore(_Message, frozen=True, tag="restore"):
    """Events ``start``, ``start+1``, ... of the table's game that the host lost and this
    client holds (the host's log was rolled back; section 8): each is signed by the host
    itself (and by its author), so the host checks them as any replica would."""

    start: Count
    events: Annotated[list[Object], msgspec.Meta(min_length=1, max_length=MAX_EVENTS_PER_FRAME)]


class Seen(_Message, frozen=True, tag="seen"):
    """This seat's person has seen every séance of the table's game ``game`` before its
    round ``day``, ``stage`` (the round the last séance moved the game on to): the host
    turns that round's sand-glass once every seated person has said so, and
    ``SEANCE_SEEN_WITHIN`` after the séance at the latest.  Optional: a client that never
    sends it is waited for that long.  A bot's seat never sends it (nor is waited for)."""

    game: GameNumber
    day: Day
    stage: Stage


ClientMessage = Join | Watch | Confirm | Resume | Act | Fetch | Head | Ready | Restore | Seen


# ----------------------------------------------------------------- host -> client


class Welcome(_Message, frozen=True, tag="welcome"):
    """First frame of every connection: the protocol and this connection's challenge."""

    protocol: int
    nonce: Hex32


class PakeReply(_Message, frozen=True, tag="pake"):
    pake: PakeMessage
    mac: Hex32


class SeatStatus(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    seat: Seat
    name: PlayerName | None
    key: Hex32 | None
    bot: bool
    connected: bool
    ready: bool = True
    """In the lobby of a table's next game: whether the seat's player said ready (a bot
    always is).  Absent (true) in a table's first lobby, where taking a seat is enough."""
    browser: bool = False
    """The seat is played in a browser, through a client the host runs for it (``domicile
    host --browser-seats``): its player trusts the host with it.  Absent (false) for every
    other seat."""


class Lobby(_Message, frozen=True, tag="lobby", omit_defaults=True):
    """Who sits where; sent to everyone at the table whenever it changes.

    ``starts`` says when the game begins; until then a person who joins may
    take a seat a bot holds (``bot``).  ``game`` counts the table's games: 1 for
    its first, 2 for the lobby (and game) of its first rematch, and so on.
    """

    table: Nameplate
    name: PlayerName
    state: TableState
    difficulty: str
    seats: list[SeatStatus]
    starts: Starts = Starts.FULL
    game: GameNumber = 1
    ready_timeout: Seconds | None = None
    """In the lobby of a table's next game: seconds (from the lobby's opening, or from the
    owner moving the seats round) after which a person's seat that is not ready is freed.
    Absent elsewhere."""
    watchers: list[PlayerName] = msgspec.field(default_factory=list)
    """The names of the people watching the table without a seat, as they gave them (absent:
    nobody watches); the lobby is sent again when one comes or goes."""


class Seated(_Message, frozen=True, tag="seated", omit_defaults=True):
    """The handshake is over: this connection plays ``seat`` at ``table``.

    Sent again to a seated connection when its table opens the lobby of its next
    game (``game`` one higher, ``events`` 0: the next events start a new transcript
    at its genesis) and when the owner moves the seats round in that lobby.
    """

    table: Nameplate
    seat: Seat
    events: Count
    game: GameNumber = 1


class Watching(_Message, frozen=True, tag="watching", omit_defaults=True):
    """The handshake is over: this connection watches ``table`` (no seat: it cannot act).

    Sent again to a spectator when its table opens the lobby of its next game
    (``game`` one higher, ``events`` 0: the next events start a new transcript at its
    genesis), as :class:`Seated` is to the seats.
    """

    table: Nameplate
    events: Count
    game: GameNumber = 1


class Events(_Message, frozen=True, tag="events"):
    """Transcript events ``start``, ``start + 1``, ... in order."""

    start: Count
    events: list[Object]


class Error(_Message, frozen=True, tag="error"):
    """A refusal.  ``fatal`` means the host closes this connection next."""

    code: ErrorCode
    message: Text
    fatal: bool = False


class PeerHead(_Message, frozen=True, tag="peer-head"):
    """Another seat's signed chain head, relayed by the host for this client to compare."""

    seat: Seat
    seq: Count
    head: Hex32
    sig: Hex64


class AllSeen(_Message, frozen=True, tag="all-seen"):
    """Every seated person has seen the séance that moved game ``game`` on to round
    ``day``, ``stage`` (each sent ``seen``): the round's sand-glass turns now, or at its
    give if that comes later, rather than ``SEANCE_SEEN_WITHIN`` after the séance.  Sent
    to everyone at the table (seats and spectators) at most once a round, and only before
    that wait is over."""

    game: GameNumber
    day: Day
    stage: Stage


HostMessage = Welcome | PakeReply | Lobby | Seated | Watching | Events | Error | PeerHead | AllSeen

_any_decoder: Final = msgspec.json.Decoder()
_client_decoder: Final = msgspec.json.Decoder(ClientMessage)
_host_decoder: Final = msgspec.json.Decoder(HostMessage)
_encoder: Final = msgspec.json.Encoder()


_FRAME_HEADROOM: Final = 512
"""Bytes kept free in a frame of events for its envelope."""


def event_frames(start: int, events: Sequence[Mapping[str, Any]]) -> Iterator[Events]:
    """``events`` (numbered from ``start``) split into frames under :data:`MAX_FRAME`: the
    host's ``events`` to a client, and a client's ``restore`` to the host alike."""
    batch: list[Mapping[str, Any]] = []
    size = 0
    first = start
    for offset, event in enumerate(events):
        event_size = len(msgspec.json.encode(event)) + 1
        if batch and (
            size + event_size > MAX_FRAME - _FRAME_HEADROOM or len(batch) >= MAX_EVENTS_PER_FRAME
        ):
            yield Events(first, [dict(e) for e in batch])
            batch, size, first = [], 0, start + offset
        batch.append(event)
        size += event_size
    if batch:
        yield Events(first, [dict(e) for e in batch])


def encode(message: ClientMessage | HostMessage) -> bytes:
    data = _encoder.encode(message)
    if len(data) > MAX_FRAME:
        # Our own bug (the event batching keeps frames small): never send it.
        raise ValueError(f"{type(message).__name__} is {len(data)} bytes, over {MAX_FRAME}")
    return data


def _decode(decoder: msgspec.json.Decoder[Any], frame: str | bytes) -> Any:
    # websockets hands text frames over as str and binary frames as bytes.
    if not isinstance(frame, str):
        raise WireError(ErrorCode.BAD_FRAME, "binary frames are not part of the protocol")
    data = frame.encode("utf-8", errors="surrogatepass")
    if len(data) > MAX_FRAME:
        raise WireError(ErrorCode.TOO_LARGE, f"frame of {len(data)} bytes over {MAX_FRAME}")
    try:
        message = decoder.decode(data)
    except msgspec.ValidationError as exc:
        raise WireError(ErrorCode.BAD_MESSAGE, f"invalid message: {exc}") from None
    except msgspec.DecodeError as exc:
        raise WireError(ErrorCode.BAD_FRAME, f"not a JSON message: {exc}") from None
    except RecursionError:
        raise WireError(ErrorCode.BAD_FRAME, "JSON nested too deeply") from None
    duplicate = _duplicate_key(data)
    if duplicate is not None:
        raise WireError(ErrorCode.BAD_MESSAGE, f"the key {duplicate!r} appears twice in an object")
    return message


def _duplicate_key(data: bytes) -> str | None:
    """A key that appears twice in one object of ``data`` (valid JSON), or ``None``.

    msgspec keeps the last of two equal keys, so a frame could mean one thing to
    us and another to a client parsing it otherwise.  The fast path: a frame that
    re-encodes to exactly its own bytes has no duplicate (a dropped pair would be
    missing from the re-encoding); every frame a msgspec peer sends is one.  Any
    other frame (spaces, escapes, another encoder, a duplicate) is parsed once
    more, pair by pair, by the standard library.
    """
    if _encoder.encode(_any_decoder.decode(data)) == data:
        return None
    found: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [key for key, _ in items]
        if len(set(keys)) != len(keys) and not found:
            found.append(next(key for index, key in enumerate(keys) if key in keys[:index]))
        return dict(items)

    json.loads(data, object_pairs_hook=pairs)
    return found[0] if found else None


def decode_client(frame: str | bytes) -> ClientMessage:
    """A client's frame as a message, or a :class:`WireError`."""
    message: ClientMessage = _decode(_client_decoder, frame)
    return message


def decode_host(frame: str | bytes) -> HostMessage:
    """The host's frame as a message, or a :class:`WireError`."""
    message: HostMessage = _decode(_host_decoder, frame)
    return message


def text(message: ClientMessage | HostMessage) -> str:
    """A message as the text frame websockets sends."""
    return encode(message).decode("utf-8")


SCHEMA_TYPES: Final[dict[str, Any]] = {
    "client-to-host": ClientMessage,
    "host-to-client": HostMessage,
}
