"""A player's side of the protocol, sans I/O: host messages in, messages to send out.

Theory of operation
-------------------
:class:`PeerSession` lives as long as the player's seat, across any number
of connections.  The adapter (``adapters/client.py``) calls::

    connection_made(fingerprint, pinned)   a TLS connection is up; fingerprint as seen
    receive(message)                       a decoded host message
    connection_lost()                      the connection dropped
    submit(signed_action)                  the player (or the protocol) acts
    secret_kept(secret)                    the seat's secret, after a SecretNeeded effect

and carries out the returned effects (``effects.py``) in order.  Fatal
conditions are raised as typed errors (``net/errors.py``): the adapter must not
retry them.

Each connection goes::

    WELCOME   waiting for the host's Welcome(nonce).  With a seat already held
              and a pinned certificate, send Resume (a signature over the
              nonce); otherwise send Join with the code's PAKE message.
    PAKE      waiting for the host's PAKE reply.  Its confirmation must verify
              (else WrongCode: wrong code, or a relay with another certificate);
              then the fingerprint is pinned and Confirm goes out.
    SEATING   waiting for Seated (or, after a Resume the host does not know,
              NOT_SEATED: fall back to Join when the code is known).
    SEATED    events arrive in order and are checked by the seat's replica;
              a gap asks for the missing ones (Fetch), an event that differs
              from one already held is the host rewriting history (BadEvent).
              After each checkpoint event it signs its chain head (Head); the
              others' heads come relayed (PeerHead) and must match its own
              (``guards/heads.py``: else SplitHistory, the host cheated).
              A host that says it holds fewer events than this client lost
              them (its log was rolled back): the client hands them back
              (Restore), and a host that refuses them is a BadEvent.

A *spectator* (``watch=True``) goes the same way with Watch instead of Join
and Watching instead of Seated, and never Resume (it holds no seat, so every
connection proves the code again).  It checks every event and every relayed
head exactly as a seat does, but signs nothing: it has no secret, no head of
its own and no action to send.

A table may play several games in a row (a rematch, WIRE.md section 6b).
A seated connection that gets ``Seated`` again, for the table's next
``game``, starts a fresh replica for it (the finished game's stays in
:attr:`PeerSession.past_games`); in that lobby it may say it is ready
(:meth:`PeerSession.set_ready`), and a ``Seated`` for the same game before
its genesis moves it to another seat (the owner rotated the roles).  The
session stays for ``games`` games (``None``: as many as the table plays).

Once the genesis names this seat, the session asks for the seat's secret
(SecretNeeded): the adapter keeps it in the player's data dir, drawing a
fresh one the first time, and hands it back (``secret_kept``).  The session
itself never touches a file or draws randomness.

At most one action is in flight.  When a connection drops before its event
came back, the action is sent again after the next catch-up unless the
catch-up shows the host applied it (its counter is in the replica): nothing
a player did is lost, and nothing is applied twice.
"""

from __future__ import annotations

from enum import Enum
from typing import Final

from domicile_p2p.identity import Identity
from domicile_p2p.net.errors import BadEvent, HostMisbehaved, Refused, Unreachable, WrongCode
from domicile_p2p.net.join.auth import sign_proof
from domicile_p2p.net.join.codes import JoinCode
from domicile_p2p.net.join.pake import Binding, ClientPake
from domicile_p2p.net.sessions.effects import (
    ActionRefused,
    Log,
    PeerEffect,
    Pin,
    SecretNeeded,
    Transmit,
)
from domicile_p2p.net.sessions.guards.heads import HeadClaim, HeadWatch
from domicile_p2p.net.sessions.seat import SeatPlayer
from domicile_p2p.net.wire import (
    PROTOCOL,
    Act,
    AllSeen,
    Confirm,
    Error,
    ErrorCode,
    Events,
    Fetch,
    Head,
    HostMessage,
    Join,
    Lobby,
    PakeReply,
    PeerHead,
    Ready,
    Restore,
    Resume,
    Role,
    Seated,
    Seen,
    Watch,
    Watching,
    Welcome,
    event_frames,
)
from domicile_p2p.transcript import Event, MalformedEvent, Replica, SignedAction

_ACTION_ERRORS: Final = frozenset(
    {
        ErrorCode.BAD_SIGNATURE,
        ErrorCode.REPLAY,
        ErrorCode.NOT_YOUR_SEAT,
        ErrorCode.RULE,
        ErrorCode.BAD_ACTION,
        ErrorCode.UNEXPECTED,
        ErrorCode.GAME_OVER,
        ErrorCode.CHAT_LIMIT,
    }
)


class _Phase(Enum):
    OFFLINE = "offline"
    WELCOME = "welcome"
    PAKE = "pake"
    SEATING = "seating"
    SEATED = "seated"


class PeerSession:
    """One player's seat at one table (see the module docstring)."""

    def __init__(
        self,
        identity: Identity,
        nameplate: int,
        *,
        code: JoinCode | None,
        name: str,
        role: Role = Role.ANY,
        seat: int | None = None,
        bot: bool = False,
        watch: bool = False,
        games: int | None = 1,
    ) -> None:
        if code is not None and code.nameplate != nameplate:
            raise ValueError("the code is for another table than the one asked for")
        self.identity = identity
        self.nameplate = nameplate
        self.code = code
        self.name = name
        self.role = role
        self.seat_wish = seat
        self.bot = bot
        self.watch = watch
        """A spectator: it watches the table without a seat (see the module docstring)."""
        self.games = games
        """How many of the table's games this seat stays for (``None``: every one)."""
        self.game: int | None = None
        """Which of the table's games this seat is in (the host's ``Seated`` says)."""
        self.past_games: list[Replica] = []
        """The replicas of the games this seat played here before the current one."""
        self.player = SeatPlayer(identity, spectator=watch)
        self.heads = HeadWatch()
        self.lobby: Lobby | None = None
        self.all_seen: AllSeen | None = None
        """The host's last word that everyone at the table has seen a séance (its round's
        sand-glass turns then: ``guards/sandglass.py``)."""
        self.in_flight: SignedAction | None = None
        self._phase = _Phase.OFFLINE
        self._fingerprint = b""
        self._pinned = False
        self._nonce = b""
        self._pake: ClientPake | None = None
        self._host_events = 0
        self._fetching = False
        self._restoring = False
        """Events this client holds and the host lost are being handed back (WIRE.md 8)."""
        self._resend = False
        self._secret_asked = False

    # ------------------------------------------------------------- queries

    @property
    def seat(self) -> int | None:
        return self.player.seat

    @property
    def connected(self) -> bool:
        return self._phase is not _Phase.OFFLINE

    @property
    def seated(self) -> bool:
        return self._phase is _Phase.SEATED

    @property
    def caught_up(self) -> bool:
        return (
            self.seated
            and self.player.held >= self._host_events
            and not self._fetching
            and not self._restoring
        )

    @property
    def ready(self) -> bool:
        """Seated, up to date, and no action of ours is waiting for its event."""
        return self.caught_up and self.in_flight is None

    @property
    def finished(self) -> bool:
        """The current game is over."""
        return self.player.finished

    @property
    def done(self) -> bool:
        """The seat has played every game it stays for: the session has nothing more to do."""
        return self.finished and self.games is not None and len(self.past_games) + 1 >= self.games

    def set_ready(self, ready: bool) -> list[PeerEffect]:
        """Say this seat is (or is no longer) ready for the table's next game (in its lobby)."""
        if self._phase is not _Phase.SEATED or self.watch:
            return []
        return [Transmit(Ready(ready))]

    def seen(self, day: int, stage: int) -> list[PeerEffect]:
        """This seat's person has seen every séance before round ``day``, ``stage`` of the
        game under way (the host turns that round's glass once every person has)."""
        if self._phase is not _Phase.SEATED or self.watch or self.game is None:
            return []
        return [Transmit(Seen(self.game, day, stage))]

    # ------------------------------------------------------------- inputs

    def connection_made(self, fingerprint: bytes, pinned: bool) -> list[PeerEffect]:
        self._phase = _Phase.WELCOME
        self._fingerprint = fingerprint
        self._pinned = pinned
        self._fetching = False
        self._restoring = False
        self._resend = self.in_flight is not None
        return []

    def connection_lost(self) -> None:
        self._phase = _Phase.OFFLINE
        self._pake = None

    def receive(self, message: HostMessage) -> list[PeerEffect]:
        match message:
            case Error():
                return self._error(message)
            case Welcome() if self._phase is _Phase.WELCOME:
                return self._welcome(message)
            case PakeReply() if self._phase is _Phase.PAKE:
                return self._pake_reply(message)
            case Seated() if self._phase is _Phase.SEATING and not self.watch:
                return self._seated(message)
            case Watching() if self._phase is _Phase.SEATING and self.watch:
                return self._watching(message)
            case Seated() if self._phase is _Phase.SEATED and not self.watch:
                return self._moved(message)
            case Watching() if self._phase is _Phase.SEATED and self.watch:
                return self._next_watched(message)
            case Lobby() if self._phase is _Phase.SEATED:
                self.lobby = message
                return []
            case Events() if self._phase is _Phase.SEATED:
                return self._events(message)
            case PeerHead() if self._phase is _Phase.SEATED:
                return self._peer_head(message)
            case AllSeen() if self._phase is _Phase.SEATED:
                self.all_seen = message
                return []
        raise HostMisbehaved(
            f"the host sent {type(message).__name__} while this client was at {self._phase.value}"
        )

    def submit(self, action: SignedAction) -> list[PeerEffect]:
        """Send a signed action of this seat (one at a time: wait for :attr:`ready`)."""
        if self.watch:
            raise RuntimeError("a spectator holds no seat: it cannot act")
        if self.in_flight is not None:
            raise RuntimeError("an action is already waiting for its event")
        self.in_flight = action
        if self._phase is _Phase.SEATED:
            return [Transmit(Act(action.value))]
        self._resend = True  # goes out after the next catch-up
        return []

    def secret_kept(self, secret: bytes) -> list[PeerEffect]:
        """The seat's secret, loaded or drawn and kept by the adapter (after ``SecretNeeded``)."""
        self.player.keep_secret(secret)
        return []

    # ------------------------------------------------------------- handshake

    def _welcome(self, message: Welcome) -> list[PeerEffect]:
        if message.protocol != PROTOCOL:
            raise Refused(
                ErrorCode.PROTOCOL_VERSION,
                f"the host speaks protocol {message.protocol}, this client {PROTOCOL}",
            )
        self._nonce = bytes.fromhex(message.nonce)
        if self.player.seat is not None and self._pinned:
            self._phase = _Phase.SEATING
            return [Transmit(self._resume_message())]
        return self._join()

    def _resume_message(self) -> Resume:
        proof = sign_proof(self.identity, self._nonce, self._fingerprint, self.nameplate)
        return Resume(
            PROTOCOL,
            self.nameplate,
            self.identity.public_hex,
            proof.hex(),
            self.player.held,
        )

    def _join(self) -> list[PeerEffect]:
        if self.code is None:
            raise Refused(
                ErrorCode.NOT_SEATED,
                "this host does not know this player and no table code was given",
            )
        binding = Binding(
            self.nameplate, self._fingerprint, self.identity.public_key.raw, self._nonce
        )
        self._pake = ClientPake(self.code, binding)
        self._phase = _Phase.PAKE
        if self.watch:
            watch = Watch(
                protocol=PROTOCOL,
                table=self.nameplate,
                key=self.identity.public_hex,
                name=self.name,
                pake=self._pake.message.hex(),
                have=self.player.held,
            )
            return [Transmit(watch)]
        return [
            Transmit(
                Join(
                    protocol=PROTOCOL,
                    table=self.nameplate,
                    key=self.identity.public_hex,
                    name=self.name,
                    role=self.role,
                    pake=self._pake.message.hex(),
                    seat=self.seat_wish if self.player.seat is None else self.player.seat,
                    bot=self.bot,
                    have=self.player.held,
                )
            )
        ]

    def _pake_reply(self, message: PakeReply) -> list[PeerEffect]:
        assert self._pake is not None
        mac = self._pake.finish(bytes.fromhex(message.pake), bytes.fromhex(message.mac))
        self._pake = None
        proof = sign_proof(self.identity, self._nonce, self._fingerprint, self.nameplate)
        self._phase = _Phase.SEATING
        return [
            Pin(self._fingerprint),
            Log("pake-confirmed", {"table": self.nameplate}),
            Transmit(Confirm(mac.hex(), proof.hex())),
        ]

    def _seated(self, message: Seated) -> list[PeerEffect]:
        if message.table != self.nameplate:
            raise HostMisbehaved(f"the host seated this client at table {message.table}")
        moved_on = self._game_of(message)
        if self.player.seat is not None and message.seat != self.player.seat:
            raise HostMisbehaved(
                f"the host moved this client from seat {self.player.seat} to {message.seat}"
            )
        self.player.seat = message.seat
        return moved_on + self._handshake_over(
            message.events, bool(moved_on), "seated", {"seat": message.seat}
        )

    def _moved(self, message: Seated) -> list[PeerEffect]:
        """``Seated`` on a seated connection: the table's next game, or another seat in
        its lobby (before the genesis, when keys are not bound yet)."""
        if message.table != self.nameplate:
            raise HostMisbehaved(f"the host moved this client to table {message.table}")
        effects = self._game_of(message)
        if (not effects and self.player.replica is not None) or message.events:
            raise HostMisbehaved(f"the host moved this client in the middle of game {self.game}")
        self.player.seat = message.seat
        effects.append(
            Log("seated", {"table": self.nameplate, "seat": message.seat, "game": self.game})
        )
        return effects

    def _game_of(self, message: Seated | Watching) -> list[PeerEffect]:
        """Follow the host to the table's next game when ``message`` is for one."""
        if self.game is None:
            self.game = message.game
            return []
        if message.game < self.game:
            raise HostMisbehaved(
                f"the host went back from the table's game {self.game} to game {message.game}"
            )
        if message.game == self.game:
            return []
        if self.player.replica is not None:
            self.past_games.append(self.player.replica)
        finished = self.player.finished
        self.player = SeatPlayer(self.identity, spectator=self.watch)
        self.heads = HeadWatch()
        self.in_flight = None
        self._resend = False
        self._fetching = False
        self._host_events = 0
        self._secret_asked = False
        previous, self.game = self.game, message.game
        return [
            Log(
                "next-game",
                {
                    "table": self.nameplate,
                    "game": message.game,
                    "previous": previous,
                    "previous_finished": finished,
                },
            )
        ]

    def _watching(self, message: Watching) -> list[PeerEffect]:
        if message.table != self.nameplate:
            raise HostMisbehaved(f"the host let this client watch table {message.table}")
        moved_on = self._game_of(message)
        return moved_on + self._handshake_over(message.events, bool(moved_on), "watching", {})

    def _next_watched(self, message: Watching) -> list[PeerEffect]:
        """``Watching`` on a watching connection: the table's next game begins (its lobby)."""
        if message.table != self.nameplate:
            raise HostMisbehaved(f"the host moved this spectator to table {message.table}")
        effects = self._game_of(message)
        if not effects or message.events:
            raise HostMisbehaved(f"the host moved this spectator in the middle of game {self.game}")
        effects.append(Log("watching", {"table": self.nameplate, "game": self.game}))
        return effects

    def _handshake_over(
        self, events: int, moved_on: bool, log: str, fields: dict[str, object]
    ) -> list[PeerEffect]:
        """Catch up from the host's ``events``; from the start of a game this client holds
        nothing of yet (``moved_on``): the host sends only from what the client said it had,
        which was of the game before."""
        effects = self._caught_up_from(events, log, fields)
        if moved_on and events:
            self._fetching = True
            effects.append(Transmit(Fetch(0)))
        return effects

    def _caught_up_from(self, events: int, log: str, fields: dict[str, object]) -> list[PeerEffect]:
        """The handshake is over and the host holds ``events``: catch up from there.

        A host that holds fewer events of this game than this client lost them (its log
        was rolled back): the client hands them back (``Restore``), each signed by the
        host itself, and the host checks them; one that refuses them lost or rewrote
        history (:class:`BadEvent`).
        """
        held = self.player.held
        behind = events < held
        if behind and events == 0:
            raise BadEvent(
                f"the host has no event of this game, but this client holds {held}: "
                "the host lost the game"
            )
        self._phase = _Phase.SEATED
        self._host_events = events
        effects: list[PeerEffect] = [
            Log(log, {"table": self.nameplate, **fields, "events": events})
        ]
        if behind:
            self._restoring = True
            replica = self.player.replica
            assert replica is not None  # it holds events
            lost = [event.value for event in replica.events[events:]]
            effects.append(Log("host-behind", {"host_events": events, "held": held}))
            effects += [
                Transmit(Restore(frame.start, frame.events)) for frame in event_frames(events, lost)
            ]
        return effects + self._after_events()

    # ------------------------------------------------------------- play

    def _events(self, message: Events) -> list[PeerEffect]:
        effects: list[PeerEffect] = []
        for offset, value in enumerate(message.events):
            seq = message.start + offset
            held = self.player.held
            if seq < held:
                self._same_as_held(seq, value)
            elif seq == held:
                self.player.receive(value)
            else:
                if not self._fetching:
                    self._fetching = True
                    effects.append(Log("gap", {"expected": held, "got": seq}))
                    effects.append(Transmit(Fetch(held)))
                break
        else:
            if self._fetching and self.player.held >= message.start:
                self._fetching = False
        self._host_events = max(self._host_events, message.start + len(message.events))
        if self._restoring and self._host_events >= self.player.held:
            self._restoring = False  # the host took back every event it had lost
            effects.append(Log("host-restored", {"events": self._host_events}))
        return effects + self._secret_due() + self._heads_due() + self._after_events()

    def _secret_due(self) -> list[PeerEffect]:
        """Ask for the seat's secret once, as soon as the genesis has named the seat."""
        player = self.player
        if self._secret_asked or not player.needs_secret:
            return []
        replica, seat = player.replica, player.seat
        assert replica is not None and seat is not None
        self._secret_asked = True
        return [SecretNeeded(replica.game_id, seat)]

    def _heads_due(self) -> list[PeerEffect]:
        """Sign the chain head after each new checkpoint event; check the claims it reached."""
        replica, seat = self.player.replica, self.player.seat
        if replica is None or seat is None:
            return []
        self.heads.caught_up(replica)
        return [
            Transmit(Head(claim.seq, claim.head.hex(), claim.sig.hex()))
            for claim in self.heads.due(self.identity, seat, replica)
        ]

    def _peer_head(self, message: PeerHead) -> list[PeerEffect]:
        """Another seat's head: the same history as ours, or the host split them (raises)."""
        replica = self.player.replica
        if replica is not None:
            claim = HeadClaim(
                message.seat, message.seq, bytes.fromhex(message.head), bytes.fromhex(message.sig)
            )
            self.heads.receive(replica, claim)
        return []

    def _same_as_held(self, seq: int, value: object) -> None:
        try:
            line = Event.from_value(value).line
        except MalformedEvent as exc:
            raise BadEvent(f"the host resent event {seq} malformed: {exc}") from None
        if line != self.player.line(seq):
            raise BadEvent(f"the host sent a different event {seq} than before: it rewrote history")

    def _after_events(self) -> list[PeerEffect]:
        action = self.in_flight
        if action is None:
            return []
        if action.counter <= self.player.last_counter():
            self.in_flight = None  # the host applied it: its event is in the replica
            self._resend = False
            return []
        if self._resend and self.caught_up:
            self._resend = False
            return [
                Log("resend", {"counter": action.counter}),
                Transmit(Act(action.value)),
            ]
        return []

    # ------------------------------------------------------------- refusals

    def _error(self, message: Error) -> list[PeerEffect]:
        code = message.code
        if message.fatal:
            if code is ErrorCode.WRONG_CODE:
                raise WrongCode()
            if code is ErrorCode.SHUTTING_DOWN:
                raise Unreachable("the host is shutting down")
            raise Refused(code, message.message)
        if code is ErrorCode.NOT_SEATED and self._phase is _Phase.SEATING and self.code:
            return [Log("resume-refused", {"table": self.nameplate}), *self._join()]
        if code is ErrorCode.NOT_SEATED:
            raise Refused(code, message.message)
        if self._restoring and code is ErrorCode.BAD_MESSAGE:
            raise BadEvent(
                f"the host lost events this client holds and refused them back: {message.message}"
            )
        if code in _ACTION_ERRORS and self.in_flight is not None:
            self.in_flight = None
            self._resend = False
            agent = self.player.agent
            if agent is not None:
                agent.resync()
            return [
                Log("action-refused", {"code": code.value, "reason": message.message}),
                ActionRefused(code.value, message.message),
            ]
        return [Log("host-error", {"code": code.value, "reason": message.message})]
