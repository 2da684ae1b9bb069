"""A running host, as a library: ``await start_host(config)`` from any asyncio program.

``domicile host --headless`` is this plus signal handling and JSON log
lines; the Textual client embeds the same object to host from a player's
laptop.  A :class:`RunningHost` owns:

- the TLS certificate and the identity key in the data dir (the same
  fingerprint and host key after every restart);
- one :class:`~domicile_p2p.net.room.Room` per table, each with its code,
  its event log (every event fsync-ed before anyone sees it) and its mDNS
  advert (updated as seats fill, withdrawn at shutdown);
- the bots the host plays itself, each a full client over an in-process link
  with its own key and secrets in the host's data dir;
- ``--resume``: every unfinished table (and one that ended moments ago, for its players
  to fetch the end) comes back from its log with the same
  code, and the clients come back by themselves.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from domicile_p2p import canonical
from domicile_p2p.identity import Identity, load_or_create_identity
from domicile_p2p.net.address import Address
from domicile_p2p.net.bot import BotBrain, run_bot
from domicile_p2p.net.client import Backoff, Dialed, Dialer, PeerClient
from domicile_p2p.net.codes import JoinCode, free_nameplate, new_code
from domicile_p2p.net.discovery import Advertiser, TableAdvert, advertised_addresses
from domicile_p2p.net.errors import NetError, Unreachable
from domicile_p2p.net.game import HostedGame
from domicile_p2p.net.guard_outbox import OutboxLimits
from domicile_p2p.net.host_session import HostLimits, HostSession
from domicile_p2p.net.logs import LogSink
from domicile_p2p.net.peer_session import PeerSession
from domicile_p2p.net.room import Room, RoomConfig, SeatHolder
from domicile_p2p.net.seat import SeatSecrets
from domicile_p2p.net.server import HostServer
from domicile_p2p.net.store import HostStore, StoredTable
from domicile_p2p.net.tls import HostCertificate, load_or_create_certificate, server_context
from domicile_p2p.net.wire import Role, TableState
from domicile_p2p.packs import Pack, load_default_pack
from domicile_p2p.rules import DIFFICULTY_RULES, GHOST, MAX_INVESTIGATORS, Difficulty
from domicile_p2p.transcript.verify import verify

DEFAULT_PORT: Final = 47_470
RECENT_END: Final = 600.0
"""Seconds after its last event during which a finished game is still served on ``--resume``."""


class HostError(NetError):
    """The host cannot start as configured (a port in use, a bad option, a damaged file)."""


@dataclass(frozen=True, slots=True)
class HostConfig:
    data_dir: Path
    name: str = "Tortured Domicile"
    interface: str | None = None
    """The IPv4 address to listen and advertise on; ``None``: every interface."""
    port: int = DEFAULT_PORT
    tables: int = 1
    investigators: int = 3
    difficulty: Difficulty = Difficulty.NORMAL
    bot_seats: frozenset[int] = frozenset()
    """Investigator seats the host plays with bots."""
    ghost_bot: bool = False
    codes: tuple[JoinCode, ...] = ()
    """Codes for the first tables (the rest are drawn at random)."""
    resume: bool = False
    bot_delay: float = 0.0
    advertise: bool = True
    pack: Pack | None = None
    limits: HostLimits = field(default_factory=HostLimits)
    outbox: OutboxLimits = field(default_factory=OutboxLimits)
    """What the host keeps for a client that does not read (``guard_outbox.py``)."""

    def check(self) -> None:
        if not 1 <= self.tables <= 9:
            raise HostError(f"a host serves 1 to 9 tables, not {self.tables}")
        if not 1 <= self.investigators <= MAX_INVESTIGATORS:
            raise HostError(f"a table has 1 to {MAX_INVESTIGATORS} investigators")
        if not self.bot_seats <= set(range(1, self.investigators + 1)):
            raise HostError(
                f"bot seats {sorted(self.bot_seats)} are not investigator seats 1-"
                f"{self.investigators}"
            )
        if len({code.nameplate for code in self.codes}) != len(self.codes):
            raise HostError("two codes share a table number")
        if len(self.codes) > self.tables:
            raise HostError(f"{len(self.codes)} codes for {self.tables} table(s)")
        if not 0 <= self.port <= 65535:
            raise HostError(f"{self.port} is not a port number")


@dataclass(frozen=True, slots=True)
class TableInfo:
    """A table as the host's screen (or log) shows it."""

    nameplate: int
    name: str
    code: str
    state: TableState
    seats_free: int
    game_id: str | None


class _Hooks:
    """The server's non-network effects, carried out by the running host."""

    def __init__(self, host: RunningHost) -> None:
        self.host = host

    def persist(self, table: int, events: Sequence[Mapping[str, Any]]) -> None:
        try:
            self.host.store.append_events(table, [canonical.encode(dict(e)) for e in events])
        except OSError as exc:
            # An event that is not on disk must never be sent: stop everything here.
            self.host.fail(f"cannot write table {table}'s log: {exc.strerror or exc}")
            raise

    def log(self, event: str, fields: Mapping[str, Any]) -> None:
        self.host.log(event, fields)

    def table_changed(self, table: int) -> None:
        self.host._advert_changed(table)

    def game_finished(self, table: int, game_id: str) -> None:
        self.host._finished(table, game_id)


class RunningHost:
    """A host serving its tables; see the module docstring.  Use :func:`start_host`."""

    def __init__(self, config: HostConfig, log: LogSink) -> None:
        config.check()
        self.config = config
        self.log = log
        self.store = HostStore(config.data_dir)
        self.pack = config.pack or load_default_pack()
        self.identity: Identity = load_or_create_identity(config.data_dir)
        self.certificate: HostCertificate = load_or_create_certificate(self.store.host_dir)
        self.rooms: dict[int, Room] = {}
        self.bot_seats: dict[int, frozenset[int]] = {}
        self.port = 0
        self.server: HostServer | None = None
        self._advertiser: Advertiser | None = None
        self._advert_tasks: dict[int, asyncio.Task[None]] = {}
        self._bots: list[asyncio.Task[Any]] = []
        self._done = asyncio.Event()
        self._failed = asyncio.Event()
        self.failure: str | None = None
        self._closed = False

    # ------------------------------------------------------------- tables

    def _game_factory(self, config: RoomConfig) -> Callable[[Sequence[SeatHolder]], HostedGame]:
        def start(holders: Sequence[SeatHolder]) -> HostedGame:
            return HostedGame.start(self.identity, config, holders, self.pack)

        return start

    def _new_tables(self) -> list[StoredTable]:
        config = self.config
        size = DIFFICULTY_RULES[config.difficulty].tableau_size(config.investigators)
        try:
            self.pack.check_table(config.investigators, size)
        except Exception as exc:
            raise HostError(f"the card pack cannot deal this table: {exc}") from None
        taken = {code.nameplate for code in config.codes}
        codes = list(config.codes)
        while len(codes) < config.tables:
            nameplate = free_nameplate(taken)
            taken.add(nameplate)
            codes.append(new_code(nameplate))
        bots = config.bot_seats | ({GHOST} if config.ghost_bot else set())
        tables = []
        for index, code in enumerate(codes, start=1):
            name = config.name if config.tables == 1 else f"{config.name} {index}"
            room = RoomConfig(code.nameplate, code, name, config.investigators, config.difficulty)
            tables.append(StoredTable(room, frozenset(bots)))
        return tables

    def _load_tables(self) -> list[Room]:
        rooms: list[Room] = []
        if self.config.resume:
            resumed = [self._resume_table(stored) for stored in self.store.stored_tables()]
            rooms = [room for room in resumed if room is not None]
            if rooms:
                return rooms
            self.log("table-resumed", {"tables": 0, "note": "nothing unfinished to resume"})
        discarded = self.store.discard_all()
        if discarded is not None:
            self.log("discarded", {"path": str(discarded)})
        for stored in self._new_tables():
            self.store.save_table(stored)
            self.bot_seats[stored.config.nameplate] = stored.bot_seats
            rooms.append(Room(stored.config, self._game_factory(stored.config)))
        return rooms

    def _resume_table(self, stored: StoredTable) -> Room | None:
        config = stored.config
        events = self.store.load_events(config.nameplate)
        self.bot_seats[config.nameplate] = stored.bot_seats
        factory = self._game_factory(config)
        if not events:
            self.log("table-resumed", {"table": config.nameplate, "state": "lobby"})
            return Room(config, factory)
        game = HostedGame.resume(self.identity, events)
        genesis = game.table.table.genesis
        holders = [
            SeatHolder(entry.seat, entry.key, entry.name, entry.seat in stored.bot_seats)
            for entry in genesis.seats
        ]
        if game.ended:
            path = self.store.archive(game.game_id, game.event_objects)
            # The host may have died right after writing the last event, before anyone
            # received it: a game that ended moments ago stays, so its players can come
            # back and fetch the end.  An older one makes way for a fresh table.
            recent = self.store.events_age(config.nameplate) < RECENT_END
            self.log(
                "table-resumed",
                {
                    "table": config.nameplate,
                    "state": "ended",
                    "game_id": game.game_id,
                    "events": len(events),
                    "transcript": str(path),
                    "kept": recent,
                },
            )
            return Room(config, factory, game=game, holders=holders) if recent else None
        self.log(
            "table-resumed",
            {
                "table": config.nameplate,
                "state": "playing",
                "game_id": game.game_id,
                "events": len(events),
            },
        )
        return Room(config, factory, game=game, holders=holders)

    # ------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        rooms = self._load_tables()
        self.rooms = {room.nameplate: room for room in rooms}
        session = HostSession(rooms, self.certificate.fingerprint, limits=self.config.limits)
        self.server = HostServer(session, _Hooks(self), outbox=self.config.outbox)
        bind = self.config.interface or "0.0.0.0"
        try:
            self.port = await self.server.listen(
                bind, self.config.port, server_context(self.certificate)
            )
        except OSError as exc:
            raise HostError(
                f"cannot listen on {bind}:{self.config.port}: {exc.strerror or exc}"
            ) from None
        self.log(
            "listening",
            {
                "address": bind,
                "port": self.port,
                "fingerprint": self.certificate.fingerprint_hex,
                "phrase": self.certificate.phrase,
                "host_key": self.identity.public_hex,
            },
        )
        for room in rooms:
            self.log("table", self._table_fields(room))
        if self.config.advertise:
            self._advertiser = Advertiser(
                self.config.interface, f"domicile-{self.certificate.fingerprint_hex[:12]}"
            )
            await self._advertiser.start(self.port)
            for room in rooms:
                self._advert_changed(room.nameplate)
        for room in rooms:
            for seat in sorted(self.bot_seats.get(room.nameplate, ())):
                self._start_bot(room, seat)
        self._check_done()

    def _table_fields(self, room: Room) -> dict[str, Any]:
        return {
            "table": room.nameplate,
            "name": room.config.name,
            "code": str(room.config.code),
            "state": room.state.value,
            "investigators": room.config.investigators,
            "difficulty": room.config.difficulty.value,
            "seats_free": room.seats_free,
            "bots": sorted(self.bot_seats.get(room.nameplate, ())),
            "urls": self.urls,
        }

    @property
    def url(self) -> str:
        """Where players join: the first address the host is reachable at."""
        return self.urls[0]

    @property
    def urls(self) -> list[str]:
        """Every ``wss://`` address of this host (one per interface when listening on all)."""
        return [
            Address(host, self.port).url for host in advertised_addresses(self.config.interface)
        ]

    def tables(self) -> list[TableInfo]:
        return [
            TableInfo(
                room.nameplate,
                room.config.name,
                str(room.config.code),
                room.state,
                room.seats_free,
                room.game.game_id if room.game is not None else None,
            )
            for room in self.rooms.values()
        ]

    async def wait_done(self) -> None:
        """Return once every table's game is over (and archived)."""
        await self._done.wait()

    async def wait_failed(self) -> str:
        """Return (the reason) if the host has to stop because it can no longer work safely."""
        await self._failed.wait()
        return self.failure or "failed"

    def fail(self, reason: str) -> None:
        if self.failure is None:
            self.failure = reason
            self.log("failed", {"reason": reason})
            self._failed.set()

    async def close(self) -> None:
        """Withdraw the adverts, say goodbye to every client, stop the bots."""
        if self._closed:
            return
        self._closed = True
        for task in self._advert_tasks.values():
            task.cancel()
        if self._advertiser is not None:
            with contextlib.suppress(Exception):
                await self._advertiser.close()
        for task in self._bots:
            task.cancel()  # before the goodbyes, so they do not try to come back
        for task in self._bots:
            with contextlib.suppress(BaseException):
                await task
        if self.server is not None:
            await self.server.close()
        self.log("stopped", {})

    # ------------------------------------------------------------- in-process players

    def local_dialer(self, label: str = "local") -> Dialer:
        """Connect a player inside this process (a hosted bot, or the host's own person).

        Give it to a :class:`~domicile_p2p.net.client.PeerClient`: the player joins with
        the code and proves its key like any other, over an in-memory link.
        """
        server = self.server
        if server is None:
            raise HostError("the host is not started")
        fingerprint = self.certificate.fingerprint

        async def dial() -> Dialed:
            if self._closed:
                raise Unreachable("the host has stopped")
            return Dialed(server.attach_local(label), fingerprint, True)

        return dial

    def _start_bot(self, room: Room, seat: int) -> None:
        assert self.server is not None
        server = self.server
        directory = self.store.bot_dir(room.nameplate, seat)
        identity = load_or_create_identity(directory)
        session = PeerSession(
            identity,
            SeatSecrets(directory),
            room.nameplate,
            code=room.config.code,
            name="Ghost bot" if seat == GHOST else f"Bot {seat}",
            role=Role.GHOST if seat == GHOST else Role.INVESTIGATOR,
            seat=seat,
            bot=True,
        )
        dial = self.local_dialer(f"bot:{room.nameplate}/{seat}")

        def log(event: str, fields: Mapping[str, Any]) -> None:
            if event in ("action-refused", "bot-illegal-move"):
                self.log(f"bot-{event}", {"table": room.nameplate, "seat": seat, **fields})

        client = PeerClient(session, dial, backoff=Backoff(attempts=3), log=log)
        brain = BotBrain(
            session, pack=self.pack, on_illegal=lambda why: log("bot-illegal-move", {"reason": why})
        )

        async def play() -> None:
            try:
                outcome = await run_bot(client, brain, delay=self.config.bot_delay)
            except NetError as exc:
                if not self._closed:
                    self.log(
                        "bot-failed", {"table": room.nameplate, "seat": seat, "error": str(exc)}
                    )
                return
            if not outcome.valid:
                self.log(
                    "bot-verification-failed",
                    {"table": room.nameplate, "seat": seat, "summary": outcome.report.summary},
                )

        self._bots.append(server.spawn(play()))

    # ------------------------------------------------------------- effects

    def _advert(self, room: Room) -> TableAdvert:
        return TableAdvert(
            name=room.config.name,
            nameplate=room.nameplate,
            fingerprint=self.certificate.fingerprint_hex,
            seats_free=room.seats_free,
            seats_total=room.config.investigators + 1,
            difficulty=room.config.difficulty.value,
            state=room.state,
        )

    def _advert_changed(self, table: int) -> None:
        advertiser = self._advertiser
        room = self.rooms.get(table)
        if advertiser is None or room is None or self._closed:
            return
        previous = self._advert_tasks.get(table)

        async def publish() -> None:
            if previous is not None:
                with contextlib.suppress(BaseException):
                    await previous
            advert = self._advert(room)
            try:
                if advertiser.published(table):
                    await advertiser.update(advert)
                else:
                    instance = await advertiser.publish(advert)
                    self.log("advertised", {"table": table, "instance": instance})
            except Exception as exc:  # mDNS is a convenience: never take the host down
                self.log("advert-failed", {"table": table, "error": str(exc)})

        self._advert_tasks[table] = asyncio.ensure_future(publish())

    def _finished(self, table: int, game_id: str) -> None:
        room = self.rooms[table]
        game = room.game
        assert isinstance(game, HostedGame)
        events = game.event_objects
        path = self.store.archive(game_id, events)
        report = verify(list(events))
        ledger = game.table.ledger
        outcome = "aborted" if ledger.abort is not None else (ledger.outcome or "unknown")
        state = game.table.state
        self.log(
            "game-ended",
            {
                "table": table,
                "game_id": game_id,
                "outcome": str(outcome),
                "day": state.day if state is not None else None,
                "events": len(events),
                "verified": report.valid,
                "transcript": str(path),
            },
        )
        self._check_done()

    def _check_done(self) -> None:
        if self.rooms and all(
            room.game is not None and room.game.ended for room in self.rooms.values()
        ):
            self._done.set()


async def start_host(config: HostConfig, log: LogSink | None = None) -> RunningHost:
    """Start serving: listening, advertising and running the host's own bots."""
    host = RunningHost(config, log or (lambda event, fields: None))
    try:
        await host.start()
    except BaseException:
        await host.close()
        raise
    return host
