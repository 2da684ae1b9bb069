"""Signed actions and events: parsing, canonical bytes, signatures and chain links.

A player signs an action; the host orders it into the transcript as an
event and signs the event.  Both are canonical JSON objects
(``domicile_p2p.canonical``), and every signature covers a length-prefixed
frame (``fairness.commit.frame``) with its own domain string:

- a player's signature: ``Ed25519(seat key, frame("domicile-p2p/v1/action",
  canonical({"body", "counter", "game", "kind", "seat"})))``;
- the host's signature: ``Ed25519(host key, frame("domicile-p2p/v1/event",
  game_id, canonical(event without "host_sig")))``;
- the chain: ``prev`` of event ``n + 1`` is ``H("domicile-p2p/v1/event-link",
  line_n)`` where ``line_n`` is the canonical JSON of event ``n``, host
  signature included; event 0 has 32 zero bytes.

An event holds its own canonical ``line`` so that nothing is encoded twice
(``Event.create`` encodes the event once, before it is signed, and puts the
signature into those bytes).
"""

from __future__ import annotations

from typing import Any, Final

import msgspec

from domicile_p2p.canonical import CanonicalError, canonical_object, decode, encode
from domicile_p2p.fairness.commit import frame, tagged_hash
from domicile_p2p.identity import SIGNATURE_BYTES, Identity, PublicKey
from domicile_p2p.rules.records import Record
from domicile_p2p.rules.records import set_field as _set
from domicile_p2p.transcript.errors import MalformedEvent
from domicile_p2p.transcript.schema import (
    BODY_TYPES,
    HOST_KINDS,
    ActionEventRecord,
    Body,
    HostEventRecord,
    Kind,
    SignedActionRecord,
)

ACTION_DOMAIN: Final = "domicile-p2p/v1/action"
EVENT_DOMAIN: Final = "domicile-p2p/v1/event"
LINK_DOMAIN: Final = "domicile-p2p/v1/event-link"
GENESIS_PREV: Final = "00" * 32
"""``prev`` of event 0: there is no previous event."""

_HOST_SIG_KEY: Final = b'"host_sig":"'
_BODY_KEY: Final = b'{"body":'

MAX_EVENT_BYTES: Final = 64 * 1024
"""No honest event comes near this (the genesis, the largest, is a few KiB)."""


def _malformed(what: str, exc: Exception) -> MalformedEvent:
    return MalformedEvent(f"{what}: {exc}")


def _kind(value: object) -> Kind:
    if isinstance(value, str):
        try:
            return Kind(value)
        except ValueError:
            pass
    raise MalformedEvent(f"unknown event kind {value!r}")


def parse_body(kind: Kind, body: object) -> Body:
    """The body of a ``kind`` event, validated against its schema."""
    try:
        return msgspec.convert(body, BODY_TYPES[kind])
    except msgspec.ValidationError as exc:
        raise _malformed(f"bad {kind.value} body", exc) from None


def body_value(body: Body) -> dict[str, Any]:
    """A body as the JSON object that is signed and sent."""
    value: dict[str, Any] = msgspec.to_builtins(body)
    return value


def _strict_json(data: bytes, what: str) -> dict[str, Any]:
    if len(data) > MAX_EVENT_BYTES:
        raise MalformedEvent(f"{what} of {len(data)} bytes is over {MAX_EVENT_BYTES}")
    quick = canonical_object(data)
    if quick is not None:
        return quick
    # Not proven canonical by the quick test: the full one says exactly why.
    try:
        value = decode(data)
    except CanonicalError as exc:
        raise _malformed(f"{what} is not valid JSON", exc) from None
    if not isinstance(value, dict):
        raise MalformedEvent(f"{what} is not a JSON object")
    if encode(value) != data:
        raise MalformedEvent(f"{what} is not in canonical form (protocol/SPEC.md, 'Encoding')")
    return value


def _canonical(value: object, what: str) -> bytes:
    try:
        return encode(value)
    except CanonicalError as exc:
        raise _malformed(f"{what} has no canonical encoding", exc) from None


def action_message(game: str, seat: int, counter: int, kind: str, body: object) -> bytes:
    """The bytes a player signs (see the module docstring)."""
    core = {"body": body, "counter": counter, "game": game, "kind": kind, "seat": seat}
    return frame(ACTION_DOMAIN, _canonical(core, "the action"))


class SignedAction(Record):
    """An action as a player sends it to the host: what it does, signed by its seat's key."""

    game: str
    seat: int
    counter: int
    kind: Kind
    body: Body
    sig: str
    value: dict[str, Any]

    __slots__ = ("body", "counter", "game", "kind", "seat", "sig", "value")
    __match_args__ = ("game", "seat", "counter", "kind", "body", "sig", "value")
    __record_fields__ = ("game", "seat", "counter", "kind", "body", "sig", "value")
    __record_hidden__ = frozenset(("value",))

    def __init__(
        self,
        game: str,
        seat: int,
        counter: int,
        kind: Kind,
        body: Body,
        sig: str,
        value: dict[str, Any],
    ) -> None:
        _set(self, "game", game)
        _set(self, "seat", seat)
        _set(self, "counter", counter)
        _set(self, "kind", kind)
        _set(self, "body", body)
        _set(self, "sig", sig)
        _set(self, "value", value)

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__qualname__}("
            f"game={self.game!r}, "
            f"seat={self.seat!r}, "
            f"counter={self.counter!r}, "
            f"kind={self.kind!r}, "
            f"body={self.body!r}, "
            f"sig={self.sig!r})"
        )

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return (self.game, self.seat, self.counter, self.kind, self.body, self.sig) == (
                other.game,
                other.seat,
                other.counter,
                other.kind,
                other.body,
                other.sig,
            )
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.game, self.seat, self.counter, self.kind, self.body, self.sig))

    @classmethod
    def create(
        cls, identity: Identity, *, game: str, seat: int, counter: int, kind: Kind, body: Body
    ) -> SignedAction:
        """Sign ``body`` as action number ``counter`` of ``seat`` in game ``game``."""
        plain = body_value(body)
        signature = identity.sign(action_message(game, seat, counter, kind.value, plain)).hex()
        value = {
            "body": plain,
            "counter": counter,
            "game": game,
            "kind": kind.value,
            "seat": seat,
            "sig": signature,
        }
        return cls.from_value(value)

    @classmethod
    def from_value(cls, value: object) -> SignedAction:
        """A signed action from its JSON object (as it arrives in a wire message)."""
        if not isinstance(value, dict):
            raise MalformedEvent("a signed action is a JSON object")
        kind = _kind(value.get("kind"))
        if kind in HOST_KINDS:
            raise MalformedEvent(f"{kind.value} is a statement of the host, not a player action")
        try:
            record = msgspec.convert(value, SignedActionRecord)
        except msgspec.ValidationError as exc:
            raise _malformed("not a signed action", exc) from None
        body = parse_body(kind, record.body)
        return cls(record.game, record.seat, record.counter, kind, body, record.sig, value)

    @classmethod
    def from_json(cls, data: bytes) -> SignedAction:
        """A signed action from its canonical JSON bytes."""
        return cls.from_value(_strict_json(data, "the signed action"))

    def to_json(self) -> bytes:
        return _canonical(self.value, "the signed action")

    def message(self) -> bytes:
        """The bytes ``sig`` signs."""
        return action_message(
            self.game, self.seat, self.counter, self.kind.value, self.value["body"]
        )

    def signature_valid(self, key: PublicKey) -> bool:
        try:
            signature = bytes.fromhex(self.sig)
        except ValueError:
            return False
        return key.verifies(signature, self.message())


def _with_host_sig(core_bytes: bytes, host_sig: str) -> bytes:
    """The canonical event: ``core_bytes`` (the canonical event without ``host_sig``) with
    its ``"host_sig":"<hex>"`` member put in, instead of encoding the event again.

    Keys are sorted, and ``host_sig`` comes after ``body`` and ``counter`` and just before
    ``kind``, which every event has: the member goes in front of the last ``,"kind":``.
    That text is never inside a string (strings escape their quotes), and nothing after
    the event's own ``kind`` member is an object, so the last one is the event's.  The
    inverse of :meth:`Event._core_bytes`.
    """
    at = core_bytes.rfind(b',"kind":')
    if at < 0:
        raise MalformedEvent("an event has a kind")
    return b"".join(
        (core_bytes[:at], b',"host_sig":"', host_sig.encode("ascii"), b'"', core_bytes[at:])
    )


class Event(Record):
    """One line of the transcript: a host statement, or a player's action the host ordered.

    ``seat``, ``counter`` and ``sig`` are ``None`` for host statements.
    ``line`` is the event's canonical JSON (no newline): what the next
    event's ``prev`` hashes and what a transcript file holds.
    """

    seq: int
    prev: str
    kind: Kind
    body: Body
    seat: int | None
    counter: int | None
    sig: str | None
    host_sig: str
    line: bytes
    value: dict[str, Any]
    _link: list[bytes]

    __slots__ = (
        "_link",
        "body",
        "counter",
        "host_sig",
        "kind",
        "line",
        "prev",
        "seat",
        "seq",
        "sig",
        "value",
    )
    __match_args__ = (
        "seq",
        "prev",
        "kind",
        "body",
        "seat",
        "counter",
        "sig",
        "host_sig",
        "line",
        "value",
    )
    __record_fields__ = (
        "seq",
        "prev",
        "kind",
        "body",
        "seat",
        "counter",
        "sig",
        "host_sig",
        "line",
        "value",
        "_link",
    )
    __record_hidden__ = frozenset(("line", "value", "_link"))

    def __init__(
        self,
        seq: int,
        prev: str,
        kind: Kind,
        body: Body,
        seat: int | None,
        counter: int | None,
        sig: str | None,
        host_sig: str,
        line: bytes,
        value: dict[str, Any],
    ) -> None:
        _set(self, "seq", seq)
        _set(self, "prev", prev)
        _set(self, "kind", kind)
        _set(self, "body", body)
        _set(self, "seat", seat)
        _set(self, "counter", counter)
        _set(self, "sig", sig)
        _set(self, "host_sig", host_sig)
        _set(self, "line", line)
        _set(self, "value", value)
        _set(self, "_link", list())

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__qualname__}("
            f"seq={self.seq!r}, "
            f"prev={self.prev!r}, "
            f"kind={self.kind!r}, "
            f"body={self.body!r}, "
            f"seat={self.seat!r}, "
            f"counter={self.counter!r}, "
            f"sig={self.sig!r}, "
            f"host_sig={self.host_sig!r})"
        )

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return (
                self.seq,
                self.prev,
                self.kind,
                self.body,
                self.seat,
                self.counter,
                self.sig,
                self.host_sig,
            ) == (
                other.seq,
                other.prev,
                other.kind,
                other.body,
                other.seat,
                other.counter,
                other.sig,
                other.host_sig,
            )
        return NotImplemented

    def __hash__(self) -> int:
        return hash(
            (
                self.seq,
                self.prev,
                self.kind,
                self.body,
                self.seat,
                self.counter,
                self.sig,
                self.host_sig,
            )
        )

    @property
    def is_host_statement(self) -> bool:
        return self.seat is None

    @classmethod
    def from_json(cls, line: bytes) -> Event:
        """An event from one transcript line (canonical JSON, no newline)."""
        return cls._from_checked_value(_strict_json(line, "the event"), line)

    @classmethod
    def from_value(cls, value: object) -> Event:
        """An event from its JSON object (as it arrives in a wire message)."""
        if not isinstance(value, dict):
            raise MalformedEvent("an event is a JSON object")
        line = _canonical(value, "the event")
        if len(line) > MAX_EVENT_BYTES:
            raise MalformedEvent(f"the event of {len(line)} bytes is over {MAX_EVENT_BYTES}")
        return cls._from_checked_value(value, line)

    @classmethod
    def _from_checked_value(cls, value: dict[str, Any], line: bytes) -> Event:
        kind = _kind(value.get("kind"))
        try:
            if kind in HOST_KINDS:
                host = msgspec.convert(value, HostEventRecord)
                body = parse_body(kind, host.body)
                return cls(
                    host.seq, host.prev, kind, body, None, None, None, host.host_sig, line, value
                )
            record = msgspec.convert(value, ActionEventRecord)
        except msgspec.ValidationError as exc:
            raise _malformed(f"not a well-formed {kind.value} event", exc) from None
        body = parse_body(kind, record.body)
        return cls(
            record.seq,
            record.prev,
            kind,
            body,
            record.seat,
            record.counter,
            record.sig,
            record.host_sig,
            line,
            value,
        )

    @classmethod
    def create(
        cls,
        host: Identity,
        *,
        game_id: bytes,
        seq: int,
        prev: str,
        statement: tuple[Kind, Body] | None = None,
        action: SignedAction | None = None,
    ) -> Event:
        """Order a host ``statement`` or a player's ``action`` as event ``seq`` and sign it."""
        core: dict[str, Any] = {"prev": prev, "seq": seq}
        if action is not None and statement is None:
            core.update(
                kind=action.kind.value,
                body=action.value["body"],
                seat=action.seat,
                counter=action.counter,
                sig=action.sig,
            )
        elif statement is not None and action is None:
            kind, body = statement
            if kind not in HOST_KINDS:
                raise ValueError(f"{kind.value} is a player action, not a host statement")
            core.update(kind=kind.value, body=body_value(body))
        else:
            raise ValueError("an event holds either a host statement or a player action")
        core_bytes = _canonical(core, "the event")
        host_sig = host.sign(frame(EVENT_DOMAIN, game_id, core_bytes)).hex()
        line = _with_host_sig(core_bytes, host_sig)
        if len(line) > MAX_EVENT_BYTES:
            raise MalformedEvent(f"the event of {len(line)} bytes is over {MAX_EVENT_BYTES}")
        return cls._from_checked_value({**core, "host_sig": host_sig}, line)

    def host_message(self, game_id: bytes) -> bytes:
        """The bytes ``host_sig`` signs."""
        return frame(EVENT_DOMAIN, game_id, self._core_bytes())

    def _core_bytes(self) -> bytes:
        # ``line`` is canonical, so the canonical encoding of the event without
        # ``host_sig`` is ``line`` without its ``"host_sig":"<128 hex>",`` member:
        # keys are sorted, ``host_sig`` is never the last one, and no earlier
        # member can hold that text (the body's keys are fixed and its strings
        # escape their quotes).  Cutting it out saves encoding the event again.
        at = self.line.rfind(_HOST_SIG_KEY)
        end = at + len(_HOST_SIG_KEY) + 2 * SIGNATURE_BYTES + len(b'",')
        if at > 0 and self.line[end - 2 : end] == b'",':
            return self.line[:at] + self.line[end:]
        core = {key: item for key, item in self.value.items() if key != "host_sig"}
        return encode(core)

    def host_signature_valid(self, key: PublicKey, game_id: bytes) -> bool:
        return key.verifies(bytes.fromhex(self.host_sig), self.host_message(game_id))

    def action_message(self, game: str) -> bytes:
        """The bytes the player's ``sig`` signs, in game ``game`` (not for host statements).

        The same bytes as ``self.action(game).message()``, cut from ``line``
        instead of encoded again.
        """
        return frame(ACTION_DOMAIN, self._action_core(game))

    def _action_core(self, game: str) -> bytes:
        seat, counter = self.seat, self.counter
        if seat is None or counter is None:
            raise ValueError(f"event {self.seq} is a statement of the host")
        kind = self.kind.value
        # ``line`` is canonical, so its keys come in the order body, counter, host_sig,
        # kind, prev, seat, seq, sig: ``{"body":`` and the body's canonical bytes, then
        # members whose spelling the parsed fields fix (integers, and strings the schema
        # holds to hex or to a kind's name, which never need escaping).  When ``line``
        # ends with exactly that spelling, the body's bytes are what lies between, and
        # the action's canonical core is spelled around them.
        tail = (
            f',"counter":{counter},"host_sig":"{self.host_sig}","kind":"{kind}",'
            f'"prev":"{self.prev}","seat":{seat},"seq":{self.seq},"sig":"{self.sig}"}}'
        ).encode()
        line = self.line
        if line.startswith(_BODY_KEY) and line.endswith(tail) and game.isascii() and game.isalnum():
            body = line[len(_BODY_KEY) : len(line) - len(tail)]
            rest = f',"counter":{counter},"game":"{game}","kind":"{kind}","seat":{seat}}}'
            return b"".join((_BODY_KEY, body, rest.encode()))
        body_value = self.value["body"]
        core = {"body": body_value, "counter": counter, "game": game, "kind": kind, "seat": seat}
        return _canonical(core, "the action")

    def player_signature_valid(self, key: PublicKey, game: str) -> bool:
        """The player's ``sig`` verifies under ``key`` (for game ``game``)."""
        if self.sig is None:
            raise ValueError(f"event {self.seq} is a statement of the host")
        try:
            signature = bytes.fromhex(self.sig)
        except ValueError:
            return False
        return key.verifies(signature, self.action_message(game))

    def action(self, game: str) -> SignedAction:
        """The player's signed action inside this event (not for host statements)."""
        if self.seat is None or self.counter is None or self.sig is None:
            raise ValueError(f"event {self.seq} is a statement of the host")
        value = {
            "body": self.value["body"],
            "counter": self.counter,
            "game": game,
            "kind": self.kind.value,
            "seat": self.seat,
            "sig": self.sig,
        }
        return SignedAction(game, self.seat, self.counter, self.kind, self.body, self.sig, value)

    def link(self) -> bytes:
        """``H("domicile-p2p/v1/event-link", line)``: the next event's ``prev``."""
        if not self._link:  # computed once: the chain, the replica and verify all ask
            self._link.append(tagged_hash(LINK_DOMAIN, self.line))
        return self._link[0]
