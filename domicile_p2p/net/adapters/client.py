"""The asyncio adapter of :class:`~domicile_p2p.net.sessions.peer.PeerSession`.

It dials (a TLS websocket, or an in-process link to a host in the same
process), checks the certificate against the pin, pumps frames and effects
(pins and the seat's secret go to the player's data dir), and reconnects by
itself with backoff when the connection drops.

The reconnect loop is our own, on purpose: websockets' reconnecting
``connect`` iterator retries every ``OSError`` forever, and a certificate
mismatch or a wrong code must never be retried.  Here only
:class:`~domicile_p2p.net.errors.Unreachable` conditions (refused or
dropped connections, timeouts, a host shutting down) are retried, a bounded
number of times; every other error ends :meth:`PeerClient.run`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import socket
import ssl
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Protocol

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from domicile_p2p.net.adapters.pins import PinStore
from domicile_p2p.net.adapters.seat_secrets import SecretKeeper
from domicile_p2p.net.adapters.tls import client_context, peer_fingerprint
from domicile_p2p.net.address import Address
from domicile_p2p.net.errors import HostMisbehaved, NetError, Unreachable
from domicile_p2p.net.join.pins import matches_pin
from domicile_p2p.net.sessions.effects import (
    ActionRefused,
    Log,
    PeerEffect,
    Pin,
    SecretNeeded,
    Transmit,
)
from domicile_p2p.net.sessions.peer import PeerSession
from domicile_p2p.net.wire import MAX_FRAME, decode_host, text
from domicile_p2p.transcript import SignedAction

_logger = logging.getLogger(__name__)

OPEN_TIMEOUT: Final = 10.0


class Transport(Protocol):
    async def send(self, frame: str) -> None: ...

    async def recv(self) -> str | bytes: ...

    async def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Dialed:
    transport: Transport
    fingerprint: bytes
    pinned: bool


Dialer = Callable[[], Awaitable[Dialed]]
LogSink = Callable[[str, Mapping[str, Any]], None]


class _WebsocketTransport:
    def __init__(self, websocket: ClientConnection) -> None:
        self.websocket = websocket

    async def send(self, frame: str) -> None:
        await self.websocket.send(frame)

    async def recv(self) -> str | bytes:
        return await self.websocket.recv()

    async def close(self) -> None:
        await self.websocket.close()


async def open_websocket(
    address: Address, context: ssl.SSLContext | None = None
) -> tuple[ClientConnection, bytes]:
    """A TLS 1.3 websocket to ``address`` and the fingerprint of the certificate it showed."""
    try:
        websocket = await connect(
            address.url,
            ssl=context or client_context(),
            max_size=MAX_FRAME,
            compression=None,
            proxy=None,  # never through an HTTP proxy from the environment
            open_timeout=OPEN_TIMEOUT,
            ping_interval=10,
            ping_timeout=20,
            close_timeout=2,
            user_agent_header=None,
        )
    except (OSError, TimeoutError, InvalidHandshake, ConnectionClosed) as exc:
        raise Unreachable(unreachable_reason(address, exc)) from None
    except InvalidURI as exc:
        raise Unreachable(f"not a websocket address: {exc}") from None
    ssl_object = websocket.transport.get_extra_info("ssl_object")
    try:
        fingerprint = peer_fingerprint(ssl_object)
    except ValueError as exc:
        await websocket.close()
        raise HostMisbehaved(f"{address}: {exc}") from None
    return websocket, fingerprint


def unreachable_reason(address: Address, error: BaseException) -> str:
    """Why ``address`` could not be reached, in words a player reads (never an errno)."""
    where = address.pin_key
    match error:
        case ConnectionRefusedError():
            return f"nobody answers at {where} — is the host running?"
        case TimeoutError():
            return (
                f"no answer from {where} within {OPEN_TIMEOUT:g} s — "
                "is the address right, and the host on this network?"
            )
        case socket.gaierror():
            return f"no computer is called {address.host!r} on this network — check the address"
        case ssl.SSLError():
            return f"{where} answered, but not as a Domicile table (no TLS handshake)"
        case InvalidHandshake():
            return f"{where} answered, but it is not a Domicile table"
        case ConnectionClosed() | ConnectionResetError() | ConnectionAbortedError():
            return f"{where} hung up while the connection opened — is the host shutting down?"
        case OSError(strerror=str(words)):
            return f"cannot reach {where}: {words[:1].lower()}{words[1:]}"
    return f"cannot reach {where}"


def websocket_dialer(address: Address, pins: PinStore, expected: bytes | None = None) -> Dialer:
    """Dial ``address``; refuse a certificate that differs from the pin (or ``expected``)."""

    async def dial() -> Dialed:
        websocket, fingerprint = await open_websocket(address)
        try:
            matches_pin(address.pin_key, expected, fingerprint)  # what the caller expects
            pinned = pins.check(address.pin_key, fingerprint)
        except NetError:
            await websocket.close()
            raise
        return Dialed(_WebsocketTransport(websocket), fingerprint, pinned)

    return dial


@dataclass(frozen=True, slots=True)
class Backoff:
    """Delays between reconnection attempts: doubling from ``first`` up to ``cap``."""

    first: float = 0.25
    cap: float = 5.0
    attempts: int | None = 20
    """Failed attempts in a row before giving up, once the client had been seated
    (``None``: never give up, as a person waiting for their host to come back)."""
    first_attempts: int = 6
    """The same before the first seat: a host that was never reached is likely a typo."""
    jitter: float = 0.5
    """The share of each delay drawn at random (0: none; 1: anywhere from 0 to the delay),
    so the clients of a host that restarts do not all dial it again in the same instant."""

    def delay(self, attempt: int) -> float:
        """The delay before ``attempt`` without jitter (its upper bound)."""
        # The exponent stops growing long after the cap is reached: 2.0 ** 1024 overflows,
        # and an endless wait (``attempts`` None) gets there after 85 minutes at 5 s.
        return float(min(self.cap, self.first * 2.0 ** min(64, max(0, attempt - 1))))

    def jittered(self, attempt: int, draw: float) -> float:
        """The delay before ``attempt`` given ``draw``, a uniform number in [0, 1): from
        ``(1 - jitter) * delay`` (draw 0) up to the delay itself."""
        return self.delay(attempt) * (1.0 - self.jitter * (1.0 - draw))


class PeerClient:
    """Keeps a :class:`PeerSession` connected until its games are over (or a fatal error)."""

    def __init__(
        self,
        session: PeerSession,
        dial: Dialer,
        secrets: SecretKeeper,
        *,
        pins: PinStore | None = None,
        pin_key: str | None = None,
        backoff: Backoff | None = None,
        log: LogSink | None = None,
        draw: Callable[[], float] = random.random,
    ) -> None:
        self.session = session
        self._dial = dial
        self._secrets = secrets
        self._pins = pins
        self._pin_key = pin_key
        self._backoff = backoff or Backoff()
        self._draw = draw  # the backoff's jitter, injected so a test can fix it
        self._log = log or (lambda event, fields: _logger.info("%s %s", event, dict(fields)))
        self._transport: Transport | None = None
        self._version = 0
        self._changed = asyncio.Event()
        self._progressed = False
        self._ever_seated = False
        self.refusals: list[ActionRefused] = []
        self.connections = 0

    # ------------------------------------------------------------- for the driver

    @property
    def was_seated(self) -> bool:
        """The host seated this client at least once (so a refusal now is news, not a typo)."""
        return self._ever_seated or self._progressed

    @property
    def version(self) -> int:
        """Goes up whenever something arrived that the driver may want to look at."""
        return self._version

    async def wait_changed(self, seen: int) -> int:
        """Wait until :attr:`version` is past ``seen``; returns the new version."""
        while self._version <= seen:
            self._changed.clear()
            await self._changed.wait()
        return self._version

    def _bump(self) -> None:
        self._version += 1
        self._changed.set()

    async def submit(self, action: SignedAction) -> None:
        await self._apply(self.session.submit(action))

    async def set_ready(self, ready: bool) -> None:
        """Say this seat is (not) ready for the table's next game (in its lobby)."""
        await self._apply(self.session.set_ready(ready))

    async def seen(self, day: int, stage: int) -> None:
        """Say this seat's person has seen every séance before round ``day``, ``stage``
        (the host turns that round's sand-glass once every person has: WIRE.md §6c)."""
        await self._apply(self.session.seen(day, stage))

    # ------------------------------------------------------------- the loop

    async def run(self) -> None:
        """Play until the session is done (its games are over).  Raises the fatal
        :class:`NetError` that stopped it."""
        failures = 0
        try:
            while True:
                try:
                    dialed = await self._dial()
                    self.connections += 1
                    await self._pump(dialed)
                    return
                except (
                    Unreachable,
                    ConnectionError,
                    ConnectionClosed,
                    OSError,
                    TimeoutError,
                ) as exc:
                    reason = str(exc) or type(exc).__name__
                    self.session.connection_lost()
                    self._transport = None
                    self._bump()
                    if self._progressed:
                        failures = 0  # it was seated: this is a new outage, not the same one
                        self._ever_seated = True
                    failures += 1
                    backoff = self._backoff
                    limit = backoff.attempts if self._ever_seated else backoff.first_attempts
                    if limit is not None and failures > limit:
                        # The last reason as it was, in words: the player reads it once.
                        if isinstance(exc, Unreachable):
                            raise
                        raise Unreachable(f"the connection to the host failed: {reason}") from None
                    delay = backoff.jittered(failures, self._draw())
                    self._log("reconnecting", {"in": delay, "attempt": failures, "reason": reason})
                    await asyncio.sleep(delay)
        finally:
            self._bump()

    async def _pump(self, dialed: Dialed) -> None:
        self._progressed = False
        transport = dialed.transport
        self._transport = transport
        try:
            await self._apply(self.session.connection_made(dialed.fingerprint, dialed.pinned))
            while not self.session.done:
                frame = await transport.recv()
                try:
                    message = decode_host(frame)
                except NetError as exc:
                    raise HostMisbehaved(f"the host sent an invalid frame: {exc}") from None
                effects = self.session.receive(message)
                if self.session.seated:
                    self._progressed = True
                await self._apply(effects)
                self._bump()
        finally:
            self._transport = None
            with contextlib.suppress(Exception):
                await transport.close()

    async def _apply(self, effects: list[PeerEffect]) -> None:
        for effect in effects:
            match effect:
                case Transmit(message):
                    transport = self._transport
                    if transport is not None:
                        try:
                            await transport.send(text(message))
                        except (ConnectionClosed, ConnectionError, OSError):
                            # The connection dropped under us (a host killed mid-send): the
                            # pump sees it and reconnects, and the session sends again what
                            # is still in flight. Never a crash of the player's client.
                            self._transport = None
                case Pin(fingerprint):
                    if self._pins is not None and self._pin_key is not None:
                        self._pins.pin(self._pin_key, fingerprint)
                case SecretNeeded(game_id, seat):
                    secret = self._secrets.for_seat(game_id, seat)  # on disk before any commit
                    await self._apply(self.session.secret_kept(secret))
                case ActionRefused():
                    self.refusals.append(effect)
                    self._log("action-refused", {"code": effect.code, "reason": effect.message})
                case Log(event, fields):
                    self._log(event, fields)
