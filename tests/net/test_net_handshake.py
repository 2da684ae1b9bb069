"""The handshake on its own, from Welcome to a seat or a place to watch (``handshake.py``)."""

from __future__ import annotations

from dataclasses import dataclass

from net_support import CODE, FINGERPRINT, make_room

from domicile_p2p.identity import Identity
from domicile_p2p.net.join.auth import sign_proof
from domicile_p2p.net.join.codes import JoinCode
from domicile_p2p.net.join.pake import Binding, ClientPake
from domicile_p2p.net.sessions.connection import Connection, Phase, Refusals
from domicile_p2p.net.sessions.effects import Close, ConnectionId, HostEffect, Log, Send
from domicile_p2p.net.sessions.handshake import NONCE_BYTES, Entry, Handshake
from domicile_p2p.net.sessions.limits import HostLimits
from domicile_p2p.net.sessions.room import Room
from domicile_p2p.net.wire import (
    PROTOCOL,
    Confirm,
    Error,
    ErrorCode,
    Join,
    PakeReply,
    Resume,
    Role,
    Watch,
    Welcome,
)


@dataclass
class Door:
    handshake: Handshake
    connections: dict[ConnectionId, Connection]
    room: Room
    forgotten: list[ConnectionId]

    def open(self, connection: int, remote: str = "10.0.0.7:5000", now: float = 0.0) -> Connection:
        state, effects = self.handshake.open(ConnectionId(connection), remote, now, counted=True)
        self.connections[state.id] = state
        if not state.closing:
            assert effects[-1] == Send(state.id, Welcome(PROTOCOL, state.nonce.hex()))
        return state


def _door(limits: HostLimits | None = None) -> Door:
    limits = limits or HostLimits()
    room = make_room(Identity.generate())
    connections: dict[ConnectionId, Connection] = {}
    forgotten: list[ConnectionId] = []

    def forget(state: Connection) -> None:
        forgotten.append(state.id)
        handshake.forget(state)

    handshake = Handshake(
        {room.nameplate: room},
        FINGERPRINT,
        limits,
        nonce=lambda size: bytes([len(connections)]) * size,
        connections=connections,
        refusals=Refusals(limits.max_bad_frames, forget),
    )
    return Door(handshake, connections, room, forgotten)


def _pake(state: Connection, identity: Identity, code: JoinCode = CODE) -> ClientPake:
    binding = Binding(code.nameplate, FINGERPRINT, identity.public_key.raw, state.nonce)
    return ClientPake(code, binding)


def _join(identity: Identity, pake: ClientPake, *, name: str = "Ann") -> Join:
    return Join(PROTOCOL, CODE.nameplate, identity.public_hex, name, Role.ANY, pake.message.hex())


def _confirm(state: Connection, identity: Identity, pake: ClientPake, reply: PakeReply) -> Confirm:
    mac = pake.finish(bytes.fromhex(reply.pake), bytes.fromhex(reply.mac))
    proof = sign_proof(identity, state.nonce, FINGERPRINT, CODE.nameplate)
    return Confirm(mac.hex(), proof.hex())


def _sent(effects: list[HostEffect]) -> list[object]:
    return [effect.message for effect in effects if isinstance(effect, Send)]


def test_a_join_with_the_right_code_waits_its_turn_then_gets_its_seat() -> None:
    door = _door()
    state = door.open(1)
    assert len(state.nonce) == NONCE_BYTES
    assert door.handshake.deadline() == HostLimits().handshake_timeout
    ann = Identity.generate()
    pake = _pake(state, ann)
    assert door.handshake.join(state, _join(ann, pake), 0.0) == []
    assert state.phase is Phase.QUEUED
    [reply] = _sent(door.handshake.admit(0.0))
    assert isinstance(reply, PakeReply) and state.phase is Phase.CONFIRM
    entry = door.handshake.confirm(state, _confirm(state, ann, pake, reply), 0.0)
    assert isinstance(entry, Entry)
    assert (entry.how, entry.name, entry.room) == ("join", "Ann", door.room)
    assert entry.seat is not None and door.room.seat_of(ann.public_hex) == entry.seat
    door.handshake.settled(state)
    assert door.handshake.deadline() is None, "a connection in has no handshake deadline"
    assert state.join is None and state.reply is None


def test_a_watch_with_the_right_code_enters_without_a_seat() -> None:
    door = _door()
    state = door.open(1)
    eve = Identity.generate()
    pake = _pake(state, eve)
    watch = Watch(PROTOCOL, CODE.nameplate, eve.public_hex, "Eve", pake.message.hex(), have=3)
    door.handshake.join(state, watch, 0.0)
    [reply] = _sent(door.handshake.admit(0.0))
    assert isinstance(reply, PakeReply)
    entry = door.handshake.confirm(state, _confirm(state, eve, pake, reply), 0.0)
    assert entry == Entry(door.room, "watch", "Eve", 3)
    assert door.room.seat_of(eve.public_hex) is None


def test_a_wrong_code_is_refused_and_counted_against_its_address() -> None:
    door = _door(HostLimits(join_failures=1))
    state = door.open(1)
    mallory = Identity.generate()
    wrong = JoinCode(CODE.nameplate, "wrong", "guess")
    pake = _pake(state, mallory, wrong)
    door.handshake.join(state, _join(mallory, pake), 0.0)
    [reply] = _sent(door.handshake.admit(0.0))
    assert isinstance(reply, PakeReply)
    refused = door.handshake.confirm(state, Confirm("00" * 32, "00" * 64), 0.0)
    assert isinstance(refused, list)
    [error] = _sent(refused)
    assert error == Error(ErrorCode.WRONG_CODE, "wrong table code", fatal=True)
    assert state.closing and state.log_fields["failures"] == 1 and door.forgotten == [1]
    again = door.open(2)
    [error] = _sent(door.handshake.join(again, _join(mallory, _pake(again, mallory)), 1.0))
    assert isinstance(error, Error) and error.code == ErrorCode.RATE_LIMITED
    assert error.fatal, "the address is over its failures: its next join is refused"


def test_a_join_for_another_protocol_or_an_unknown_table_is_refused() -> None:
    door = _door()
    ann = Identity.generate()
    state = door.open(1)
    old = Join(PROTOCOL + 1, CODE.nameplate, ann.public_hex, "Ann", Role.ANY, "00" * 33)
    [error] = _sent(door.handshake.join(state, old, 0.0))
    assert isinstance(error, Error) and error.code == ErrorCode.PROTOCOL_VERSION
    state = door.open(2)
    elsewhere = Join(PROTOCOL, CODE.nameplate + 1, ann.public_hex, "Ann", Role.ANY, "00" * 33)
    [error] = _sent(door.handshake.join(state, elsewhere, 0.0))
    assert isinstance(error, Error) and error.code == ErrorCode.UNKNOWN_TABLE
    assert door.handshake.deadline() is None, "both are gone from the deadline"


def test_a_resume_takes_back_a_held_seat_and_a_key_with_none_is_told_without_a_close() -> None:
    door = _door()
    ann, bob = Identity.generate(), Identity.generate()
    seat = door.room.take_seat(ann.public_hex, "Ann", Role.ANY).seat
    state = door.open(1)

    def resume(identity: Identity) -> Resume:
        proof = sign_proof(identity, state.nonce, FINGERPRINT, CODE.nameplate)
        return Resume(PROTOCOL, CODE.nameplate, identity.public_hex, proof.hex(), have=5)

    told = door.handshake.resume(state, resume(bob), 0.0)
    assert isinstance(told, list) and not state.closing
    assert _sent(told) == [Error(ErrorCode.NOT_SEATED, "your key holds no seat at this table")]
    assert door.handshake.resume(state, resume(ann), 0.0) == Entry(
        door.room, "resume", "Ann", 5, seat
    )
    forged = Resume(PROTOCOL, CODE.nameplate, ann.public_hex, "00" * 64, have=0)
    [error] = _sent(door.handshake.resume(door.open(2), forged, 0.0))
    assert error == Error(ErrorCode.BAD_PROOF, "the identity proof does not verify", fatal=True)


def test_a_handshake_past_its_deadline_is_refused_and_one_gone_after_the_pake_is_a_wrong_code() -> (
    None
):
    limits = HostLimits(handshake_timeout=10.0)
    door = _door(limits)
    slow = door.open(1, now=0.0)
    ann = Identity.generate()
    gone = door.open(2, remote="10.0.0.8:5000", now=5.0)
    door.handshake.join(gone, _join(ann, _pake(gone, ann)), 5.0)
    door.handshake.admit(5.0)
    assert gone.phase is Phase.CONFIRM
    assert door.handshake.overdue(9.9) == []
    overdue = door.handshake.overdue(10.0)
    assert [effect for effect in overdue if isinstance(effect, Close)] == [
        Close(slow.id, 1008, ErrorCode.UNEXPECTED.value)
    ]
    assert door.handshake.deadline() == 15.0
    [left] = door.handshake.left(gone, 6.0)
    assert isinstance(left, Log) and left.fields["code"] == ErrorCode.WRONG_CODE.value
    assert left.fields["failures"] == 1
    assert door.handshake.deadline() is None


def test_a_full_host_makes_the_oldest_connection_not_yet_in_give_way() -> None:
    door = _door(HostLimits(max_connections=2))
    first, second = door.open(1, "10.0.0.1:1"), door.open(2, "10.0.0.2:1")
    third = door.open(3, "10.0.0.3:1")
    assert first.closing and not second.closing and not third.closing
    door.handshake.settled(second)
    door.handshake.settled(third)
    fourth = door.open(4, "10.0.0.4:1")
    assert fourth.closing, "nobody left to give way: the newcomer is refused"
