"""A running host, as a library: ``await start_host(config)`` from any asyncio program.

``domicile host --headless`` is this plus signal handling and JSON log
lines; the Textual client embeds the same object to host from a player's
laptop.  A :class:`RunningHost` owns:

- the TLS certificate and the identity key in the data dir (the same
  fingerprint and host key after every restart);
- one :class:`~domicile_p2p.net.sessions.room.Room` per table, each with its code,
  its event log (every event fsync-ed before anyone sees it) and its mDNS
  advert (updated as seats fill, withdrawn at shutdown);
- the bots the host plays itself, each a full client over an in-process link
  with its own key and secrets in the host's data dir.  Their seats are
  *reserved for bots but open*: in the lobby a person who joins with the
  code takes a bot's seat and the bot steps aside (and comes back if the
  person leaves before the start);
- when each game starts: as soon as every seat is held (the default), once
  ``lobby_wait`` seconds have passed (so friends can take bot seats first),
  or when the table's owner calls :meth:`RunningHost.start_table`
  (``owner_starts``: what ``domicile play`` does; seats still empty then get
  bots, seats held by bots stay theirs);
- the table's next games (a rematch): :meth:`RunningHost.next_game` opens the
  lobby of a table's next game with the same code, certificate and seated
  players (the owner's call in ``domicile play``); ``games`` other than 1 makes
  the host open it by itself as each game ends (``domicile host --games N``);
- ``--resume``: every unfinished table (and one that ended moments ago, for its players
  to fetch the end) comes back from its log with the same
  code, and the clients come back by themselves.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from domicile_p2p.identity import Identity
from domicile_p2p.net.adapters.bot import BotBrain, BotOutcome, PolicyFactory, run_bot
from domicile_p2p.net.adapters.client import Backoff, Dialed, Dialer, PeerClient
from domicile_p2p.net.adapters.clock import Clock, LoopClock
from domicile_p2p.net.adapters.disk_trouble import DiskTrouble
from domicile_p2p.net.adapters.draws import Draws, SystemDraws
from domicile_p2p.net.adapters.gc_pauses import THAW_EVERY, PauseWatch
from domicile_p2p.net.adapters.key_files import load_or_create_identity
from domicile_p2p.net.adapters.logs import LogSink
from domicile_p2p.net.adapters.outbox import OutboxLimits
from domicile_p2p.net.adapters.seat_secrets import SeatSecrets, SecretKeeper
from domicile_p2p.net.adapters.server import HostServer
from domicile_p2p.net.adapters.store import EVENTS_FILE, HostStore, StoredTable, StoreError
from domicile_p2p.net.adapters.tls import (
    HostCertificate,
    load_or_create_certificate,
    server_context,
)
from domicile_p2p.net.address import Address
from domicile_p2p.net.errors import NetError, Refused, Unreachable
from domicile_p2p.net.join.codes import MAX_TABLES, JoinCode, free_nameplate, new_code
from domicile_p2p.net.sessions.game import HostedGame
from domicile_p2p.net.sessions.host import HostLimits, HostSession
from domicile_p2p.net.sessions.peer import PeerSession
from domicile_p2p.net.sessions.room import Refusal, Room, RoomConfig, SeatHolder
from domicile_p2p.net.wire import ErrorCode, Role, Starts, TableState
from domicile_p2p.packs import Pack, load_default_pack
from domicile_p2p.rules import DIFFICULTY_RULES, GHOST, MAX_INVESTIGATORS, Difficulty, View
from domicile_p2p.transcript import TranscriptError
from domicile_p2p.transcript.names import name_problem
from domicile_p2p.transcript.verify import verify

if TYPE_CHECKING:  # mDNS is the LAN host's alone: a table with no listener never loads zeroconf
    from domicile_p2p.net.adapters.discovery import Advertiser, TableAdvert

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
    timer: int | None = None
    """Seconds of each investigation's sand-glass (``None``: no time limit)."""
    bot_seats: frozenset[int] = frozenset()
    """Investigator seats the host plays with bots."""
    ghost_bot: bool = False
    bot_names: Mapping[int, str] = field(default_factory=dict)
    """What the hosted bot of each seat is called (default ``Ghost bot``, ``Bot N``)."""
    owner_starts: bool = False
    """The table waits in its lobby until :meth:`RunningHost.start_table` (or a person in
    every seat); otherwise it starts as soon as every seat is held."""
    lobby_wait: float = 0.0
    """Seconds a table with bots keeps its lobby open for people to take bot seats, before it
    starts (once every seat is held)."""
    codes: tuple[JoinCode, ...] = ()
    """Codes for the first tables (the rest are drawn at random)."""
    resume: bool = False
    owner: int | None = None
    """The seat of the person hosting from their laptop (``domicile play``), kept with the
    table (and the port it listened on) so that it resumes as it was."""
    games: int = 1
    """Games each table plays, one after the other with the same code (0: until stopped).
    Past the first, the host opens each next game's lobby by itself as a game ends."""
    rotate: bool = False
    """With ``games``: move everyone round one seat at each next game (the next Ghost is
    the next seat's player)."""
    rest: float = 15.0
    """With ``games``: seconds between a game's end and the next game's lobby (the players
    read the end and its proof first)."""
    bot_delay: float = 0.0
    bot_pace: Callable[[View | None], float] | None = None
    """Seconds a hosted bot waits before each decision, drawn each time from what its seat
    sees (``None``: ``bot_delay`` every time).  An offline table draws a person's pace."""
    policies: PolicyFactory | None = None
    """What decides for the hosted bots: ``policies(seat, pack, seed)`` (the real bots,
    ``domicile_p2p.bots.make_policy``, by default)."""
    advertise: bool = True
    pack: Pack | None = None
    limits: HostLimits = field(default_factory=HostLimits)
    outbox: OutboxLimits = field(default_factory=OutboxLimits)
    """What the host keeps for a client that does not read (``outbox.py``)."""
    gc_thaw_every: float = THAW_EVERY
    """Seconds between the collector's full visits of the heap (``gc_pauses.py``)."""

    def check(self) -> None:
        if not 1 <= self.tables <= MAX_TABLES:
            raise HostError(f"a host serves 1 to {MAX_TABLES} tables, not {self.tables}")
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
        if not 0 <= self.lobby_wait <= 86_400:
            raise HostError(f"a lobby wait is 0 to 86400 seconds, not {self.lobby_wait}")
        if not 1 <= self.gc_thaw_every <= 86_400:
            raise HostError(f"a GC thaw comes every 1 to 86400 seconds, not {self.gc_thaw_every}")
        if not 0 <= self.rest <= 86_400:
            raise HostError(f"a rest between games is 0 to 86400 seconds, not {self.rest}")
        if not 0 <= self.games <= 1_000_000:
            raise HostError(f"a table plays 0 (until stopped) to 1000000 games, not {self.games}")
        if self.owner_starts and self.lobby_wait:
            raise HostError("a table either waits for its owner's start or for the lobby wait")
        for seat, name in self.bot_names.items():
            problem = name_problem(name)
            if problem is not None:
                raise HostError(f"the bot name of seat {seat} {problem}")
        problem = name_problem(self.name)
        if problem is not None:
            raise HostError(f"the table's name {problem}")

    @property
    def starts(self) -> Starts:
        if self.owner_starts:
            return Starts.OWNER
        return Starts.WAIT if self.lobby_wait > 0 else Starts.FULL

    def bot_name(self, seat: int) -> str:
        return self.bot_names.get(seat) or ("Ghost bot" if seat == GHOST else f"Bot {seat}")


@dataclass(frozen=True, slots=True)
class TableInfo:
    """A table as the host's screen (or log) shows it."""

    nameplate: int
    name: str
    code: str
    state: TableState
    seats_free: int
    game_id: str | None
    bot_seats: int = 0
    """Seats held (or kept) for bots that a person who joins now may take."""


class _Hooks:
    """The server's non-network effects, carried out by the running host."""

    def __init__(self, host: TableHost) -> None:
        self.host = host
        self._loop = asyncio.get_running_loop()

    def persist(self, nameplate: int, lines: Sequence[bytes]) -> None:
        """Runs in a disk thread (the server's group commit), never on the event loop.

        An ``OSError`` leaves nothing behind (the store cuts the log back) and the server
        tries again: the table pauses.  Anything else is a defect: the host stops.
        """
        try:
            self.host.store.append_events(nameplate, lines)
        except OSError:
            raise
        except Exception as exc:
            reason = f"cannot write table {nameplate}'s log: {exc}"
            self._loop.call_soon_threadsafe(self.host.fail, reason)
            raise

    def log(self, event: str, fields: Mapping[str, Any]) -> None:
        self.host.log(event, fields)

    def table_changed(self, nameplate: int) -> None:
        self.host._advert_changed(nameplate)
        self.host._bots_back(nameplate)
        self.host._remember_bot_players(nameplate)

    def game_finished(self, nameplate: int, game_id: str) -> None:
        self.host._finished(nameplate, game_id)


class TableHost:
    """The tables of a host, their games and its bots, whoever reaches them: the part of a
    host that is the same with a listener (:class:`RunningHost`) and without one
    (``in_memory.InMemoryHost``: an offline table)."""

    persist_inline = False
    """Events are written in disk threads (group commit); a host whose log is in memory
    writes them on the loop (``HostServer(persist_inline=...)``)."""

    def __init__(
        self,
        config: HostConfig,
        log: LogSink,
        store: HostStore,
        identity: Identity,
        *,
        draws: Draws | None = None,
        clock: Clock | None = None,
    ) -> None:
        config.check()
        self.config = config
        self.log = log
        self.store = store
        self.pack = config.pack or load_default_pack()
        self.identity = identity
        self.draws: Draws = draws or SystemDraws()
        """Game ids, nonces, codes and bot seeds (the OS's unless a seed fixes them)."""
        self.clock: Clock = clock or LoopClock()
        self.rooms: dict[int, Room] = {}
        self._stored: dict[int, StoredTable] = {}
        self.port = 0
        self.server: HostServer | None = None
        self._bots: dict[tuple[int, int], asyncio.Task[Any]] = {}
        self._bot_sessions: dict[tuple[int, int], PeerSession] = {}
        self._done = asyncio.Event()
        self._failed = asyncio.Event()
        self.failure: str | None = None
        self._closed = False
        self._pauses = PauseWatch(log, thaw_every=config.gc_thaw_every)
        self._archive_trouble: dict[int, DiskTrouble] = {}

    # ------------------------------------------------------------- tables

    def _game_factory(self, config: RoomConfig) -> Callable[[Sequence[SeatHolder]], HostedGame]:
        def start(holders: Sequence[SeatHolder]) -> HostedGame:
            return HostedGame.start(
                self.identity,
                config,
                holders,
                self.pack,
                game_id=self.draws.game_id(),
            )

        return start

    def _room(
        self,
        stored: StoredTable,
        *,
        game: HostedGame | None = None,
        holders: Sequence[SeatHolder] = (),
    ) -> Room:
        self._stored[stored.config.nameplate] = stored
        return Room(
            stored.config,
            self._game_factory(stored.config),
            game=game,
            holders=holders,
            bot_seats=stored.bot_seats,
            starts=self.config.starts,
            lobby_wait=self.config.lobby_wait,
            games=stored.games,
        )

    # The hosted bots' keys and secrets: in the bot's data dir, one per table and seat it
    # first sat in (an in-memory host keeps them in memory).

    def _bot_identity(self, nameplate: int, seat: int) -> Identity:
        return load_or_create_identity(self.store.bot_dir(nameplate, seat))

    def _bot_secrets(self, nameplate: int, seat: int) -> SecretKeeper:
        return SeatSecrets(self.store.bot_dir(nameplate, seat))

    def _has_bot(self, nameplate: int, seat: int) -> bool:
        return self.store.bot_dir(nameplate, seat).is_dir()

    def _bot_key(self, nameplate: int, seat: int) -> str:
        return self._bot_identity(nameplate, seat).public_hex

    def _hosted_bot_seat(self, room: Room, seat: int) -> int:
        """The seat whose hosted bot plays ``seat``: the one whose key holds the seat
        (seats moved round since its bot sat down), else the seat's own."""
        holder = room.holders.get(seat)
        if holder is not None and holder.bot:
            for other in room.config.seats:
                if (
                    self._has_bot(room.nameplate, other)
                    and self._bot_key(room.nameplate, other) == holder.key
                ):
                    return other
        return seat

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
            nameplate = free_nameplate(taken, self.draws.randbelow)
            taken.add(nameplate)
            codes.append(new_code(nameplate, self.draws.randbelow))
        bots = config.bot_seats | ({GHOST} if config.ghost_bot else set())
        tables = []
        for index, code in enumerate(codes, start=1):
            name = config.name if config.tables == 1 else f"{config.name} {index}"
            room = RoomConfig(
                code.nameplate, code, name, config.investigators, config.difficulty, config.timer
            )
            tables.append(StoredTable(room, frozenset(bots), owner=config.owner))
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
            rooms.append(self._room(stored))
        return rooms

    def _resume_table(self, stored: StoredTable) -> Room | None:
        config = stored.config
        events = self.store.load_events(config.nameplate)
        if not events:
            self.log("table-resumed", {"table": config.nameplate, "state": "lobby"})
            return self._room(stored)
        try:
            game = HostedGame.resume(self.identity, events)
        except TranscriptError as exc:
            path = self.store.table_dir(config.nameplate) / EVENTS_FILE
            raise StoreError(f"{path} does not check out: {exc}") from None
        if self.store.previous_left_behind(stored, game.game_id, game.ended):
            # The host stopped after the next game's lobby opened, before the log went.
            self.store.archive(game.game_id, game.event_objects)
            self.store.forget_events(config.nameplate)
            self.log(
                "table-resumed", {"table": config.nameplate, "state": "lobby", "game": stored.games}
            )
            return self._room(stored)
        genesis = game.game_table.table_setup.genesis
        # A seat is the bot's only if one of the table's hosted bots holds it: a person
        # may have taken it over in the lobby, and then it is theirs for the whole game.
        bot_keys = {
            self._bot_key(config.nameplate, seat)
            for seat in config.seats
            if self._has_bot(config.nameplate, seat)
        }
        holders = [
            SeatHolder(
                entry.seat,
                entry.key,
                entry.name,
                (entry.seat in stored.bot_seats and entry.key in bot_keys)
                or entry.seat in stored.bot_players,
            )
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
            return self._room(stored, game=game, holders=holders) if recent else None
        self.log(
            "table-resumed",
            {
                "table": config.nameplate,
                "state": "playing",
                "game_id": game.game_id,
                "events": len(events),
            },
        )
        return self._room(stored, game=game, holders=holders)

    # ------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        rooms = self._load_tables()
        self.rooms = {room.nameplate: room for room in rooms}
        # Every file a game needs is open before the first connection could take its
        # descriptor (store.py): the tables' logs, and a reserve for the archives.
        self.store.keep_reserve()
        for room in rooms:
            self.store.open_log(room.nameplate)
        session = HostSession(
            rooms,
            self.fingerprint,
            limits=self.config.limits,
            nonce=self.draws.token_bytes,
        )
        self.server = HostServer(
            session,
            _Hooks(self),
            outbox=self.config.outbox,
            clock=self.clock,
            persist_inline=self.persist_inline,
        )
        await self._serve(self.server)
        for room in rooms:
            self.log("table", self._table_fields(room))
        # The garbage collector's pauses, kept short from here (gc_pauses.py).
        self._pauses.install(asyncio.get_running_loop())
        # The lobbies open now (a table with a lobby wait counts from here).
        self.server.apply(session.tick(self.clock.now()))
        for room in rooms:
            self._bots_back(room.nameplate)
            if self._another_game_due(room):
                asyncio.get_running_loop().call_soon(self._next_game_due, room.nameplate)
        self._check_done()

    @property
    def fingerprint(self) -> bytes:
        """What the host's players pin (its certificate's fingerprint, at a host with one)."""
        raise NotImplementedError

    async def _serve(self, server: HostServer) -> None:
        """Open the server to its players (a listener, or local links alone)."""
        raise NotImplementedError

    def _table_fields(self, room: Room) -> dict[str, Any]:
        return {
            "table": room.nameplate,
            "name": room.config.name,
            "code": str(room.config.code),
            "state": room.state.value,
            "investigators": room.config.investigators,
            "difficulty": room.config.difficulty.value,
            "timer": room.config.timer,
            "seats_free": room.seats_free,
            "bots": sorted(room.bot_seats),
            "starts": room.starts.value,
            "game": room.games,
            "urls": self.urls,
        }

    @property
    def urls(self) -> list[str]:
        """Every ``wss://`` address of this host (none without a listener)."""
        return []

    def tables(self) -> list[TableInfo]:
        return [
            TableInfo(
                room.nameplate,
                room.config.name,
                str(room.config.code),
                room.state,
                room.seats_free,
                room.game.game_id if room.game is not None else None,
                len(room.bot_held),
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
        """Say goodbye to every client, stop the bots."""
        if self._closed:
            return
        self._closed = True
        await self._closing()
        for task in self._bots.values():
            task.cancel()  # before the goodbyes, so they do not try to come back
        for task in self._bots.values():
            with contextlib.suppress(BaseException):
                await task
        if self.server is not None:
            await self.server.close()
        self.store.release()
        self._pauses.uninstall()
        self.log("stopped", {})

    async def _closing(self) -> None:
        """What goes first when the host closes (a listening host's adverts)."""

    def _advert_changed(self, nameplate: int) -> None:
        """A table changed: a host that advertises it says so (one without a listener has
        nothing to say)."""

    # ------------------------------------------------------------- in-process players

    def local_dialer(self, label: str = "local") -> Dialer:
        """Connect a player inside this process (a hosted bot, or the host's own person).

        Give it to a :class:`~domicile_p2p.net.adapters.client.PeerClient`: the player joins with
        the code and proves its key like any other, over an in-memory link.
        """
        server = self.server
        if server is None:
            raise HostError("the host is not started")
        fingerprint = self.fingerprint

        async def dial() -> Dialed:
            if self._closed:
                raise Unreachable("the host has stopped")
            return Dialed(server.attach_local(label), fingerprint, True)

        return dial

    def bot_session(self, seat: int, nameplate: int | None = None) -> PeerSession | None:
        """The session of the hosted bot that holds ``seat`` of a table now, if one does (for
        tools and tests, and the tutorial's guide: a Ghost bot's holds the Ghost's secrets)."""
        _server, room = self._table(nameplate)
        for (table, _first), session in self._bot_sessions.items():
            if table == room.nameplate and session.seat == seat:
                return session
        return None

    def start_table(self, nameplate: int | None = None) -> None:
        """The owner says start (the in-process owner's call; no client message can).

        Seats nobody holds get bots now; the game begins as soon as every seat is held,
        and a seat still held by a bot is played by that bot.  :class:`HostError` when
        the game has already started (or there is no such table).
        """
        server, room = self._table(nameplate)
        if room.game is not None:
            raise HostError("the game has already started at this table")
        stored = self._stored[room.nameplate]
        try:
            # In the lobby of a next game this frees the seats of the people not ready.
            effects = server.session.start_table(
                room.nameplate, self.clock.now(), owner=stored.owner
            )
        except Refusal as refusal:
            raise HostError(str(refusal)) from None
        empty = {seat for seat in room.config.seats if seat not in room.holders}
        if empty - room.bot_seats:
            room.bot_seats |= empty
            self._save(replace(stored, bot_seats=frozenset(room.bot_seats)))
        server.apply(effects)
        self._bots_back(room.nameplate)

    def next_game(self, nameplate: int | None = None, *, rotate: bool = False) -> None:
        """Open the lobby of a table's next game, once its game is over (a rematch).

        The same code and certificate; everyone still connected keeps their seat (and
        gets the next game's ``Seated``), a hosted bot's seat gets its bot back; with
        ``rotate`` everyone moves round one seat.  The finished game is archived already
        (``games/GAME_ID.json``); the table's log starts afresh with the next genesis.
        :class:`HostError` when the game is not over (or there is no such table).
        """
        server, room = self._table(nameplate)
        game = room.game
        if game is None or not game.ended:
            raise HostError("the next game opens once this table's game is over")
        if room.nameplate in self._archive_trouble:
            raise HostError("the next game opens once this game's transcript is written")
        now = self.clock.now()
        try:
            effects = server.session.next_game(room.nameplate, now)
        except Refusal as refusal:
            raise HostError(str(refusal)) from None
        # table.json first: a log left behind by a crash now is known for the archived one.
        stored = self._stored[room.nameplate]
        self._save(replace(stored, games=room.games, previous=game.game_id))
        self.store.forget_events(room.nameplate)
        self.store.open_log(room.nameplate)  # before the next game needs it (store.py)
        server.apply(effects)
        if rotate:
            self.rotate_seats(room.nameplate)
        self._bots_back(room.nameplate)

    def rotate_seats(self, nameplate: int | None = None) -> None:
        """Move everyone round one seat in a table's lobby (the owner's call): the next
        seat's player becomes the Ghost.  :class:`HostError` once the game has begun."""
        server, room = self._table(nameplate)
        try:
            effects = server.session.rotate_seats(
                room.nameplate, self.clock.now(), self.config.bot_name
            )
        except Refusal as refusal:
            raise HostError(str(refusal)) from None
        # A hosted bot's task follows its connection to the seat it moved to, and the
        # laptop's owner (its seat, kept with the table for a resume) moves too.
        config = room.config
        self._bots = {
            (nameplate, config.rotated(seat) if nameplate == room.nameplate else seat): task
            for (nameplate, seat), task in self._bots.items()
        }
        stored = self._stored[room.nameplate]
        owner = None if stored.owner is None else config.rotated(stored.owner)
        self._save(replace(stored, bot_seats=frozenset(room.bot_seats), owner=owner))
        server.apply(effects)
        self._bots_back(room.nameplate)

    def mark_browser_seats(self, keys: Iterable[str], nameplate: int | None = None) -> None:
        """The keys of a table's seats served to browsers (``--browser-seats``: their clients
        run on this host): its lobby marks each seat held with one, for everyone to see."""
        _server, room = self._table(nameplate)
        room.browser_keys = frozenset(keys)

    def _another_game_due(self, room: Room) -> bool:
        """The table's game is over and the host plays another by itself (``games``)."""
        games = self.config.games
        ended = room.game is not None and room.game.ended
        return ended and games != 1 and (games == 0 or room.games < games)

    def _next_game_due(self, nameplate: int) -> None:
        room = self.rooms.get(nameplate)
        if room is None or self._closed or not self._another_game_due(room):
            return
        self.next_game(nameplate, rotate=self.config.rotate)

    def _remember_bot_players(self, nameplate: int) -> None:
        """Keep with the table which seats of its game bots hold: a resumed table knows
        its own bots by their keys, but not the ``domicile bot`` processes, which would
        then take each other for people and wait for each other in Stage Two."""
        room, stored = self.rooms.get(nameplate), self._stored.get(nameplate)
        if room is None or stored is None or room.game is None:
            return
        players = frozenset(seat for seat, holder in room.holders.items() if holder.bot)
        if players != stored.bot_players:
            self._save(replace(stored, bot_players=players))

    def _save(self, stored: StoredTable) -> None:
        self._stored[stored.config.nameplate] = stored
        self.store.save_table(stored)

    def _table(self, nameplate: int | None) -> tuple[HostServer, Room]:
        """The server and table ``nameplate`` (``None``: the only one) of an owner's call."""
        server = self.server
        if server is None:
            raise HostError("the host is not started")
        room = self.rooms.get(nameplate) if nameplate is not None else self._only_room()
        if room is None:
            raise HostError(f"this host has no table {nameplate}")
        return server, room

    def _only_room(self) -> Room:
        if len(self.rooms) != 1:
            raise HostError("this host serves several tables: say which one to start")
        return next(iter(self.rooms.values()))

    def _bots_back(self, nameplate: int) -> None:
        """Every bot seat of a table in its lobby that nobody holds gets its bot (back).

        At the start that is every bot; later, a bot whose seat a person took and then
        left again before the game began.  Once a game has begun, only the bots whose
        own key holds their seat play.
        """
        room = self.rooms.get(nameplate)
        if room is None or self._closed or self.server is None:
            return
        for seat in sorted(room.bot_seats):
            running = self._bots.get((nameplate, seat))
            if running is not None and not running.done():
                continue
            holder = room.holders.get(seat)
            if room.game is None:
                wanted = holder is None
            else:
                bots_seat = holder is not None and holder.bot
                wanted = bots_seat and not room.game.ended and running is None
            if wanted:
                self._start_bot(room, seat)

    def _start_bot(self, room: Room, seat: int) -> None:
        assert self.server is not None
        server = self.server
        first_seat = self._hosted_bot_seat(room, seat)
        identity = self._bot_identity(room.nameplate, first_seat)
        session = PeerSession(
            identity,
            room.nameplate,
            code=room.config.code,
            name=self.config.bot_name(seat),
            role=Role.GHOST if seat == GHOST else Role.INVESTIGATOR,
            seat=seat,
            bot=True,
            games=None,  # a hosted bot stays at its table for every game it plays
        )
        self._bot_sessions[(room.nameplate, first_seat)] = session
        dial = self.local_dialer(f"bot:{room.nameplate}/{seat}")

        def log(event: str, fields: Mapping[str, Any]) -> None:
            if event in ("action-refused", "bot-illegal-move"):
                self.log(f"bot-{event}", {"table": room.nameplate, "seat": seat, **fields})

        client = PeerClient(
            session,
            dial,
            self._bot_secrets(room.nameplate, first_seat),
            backoff=Backoff(attempts=3),
            log=log,
        )
        brain = BotBrain(
            session,
            pack=self.pack,
            seed=self.draws.bot_seed(seat),
            policies=self.config.policies,
            on_illegal=lambda why: log("bot-illegal-move", {"reason": why}),
            clock=self.clock.now,
        )

        def verified(outcome: BotOutcome) -> None:
            if not outcome.valid:
                self.log(
                    "bot-verification-failed",
                    {"table": room.nameplate, "seat": seat, "summary": outcome.report.summary},
                )

        pace = self.config.bot_pace
        delay: float | Callable[[], float] = (
            self.config.bot_delay if pace is None else lambda: pace(session.player.view())
        )

        async def play() -> None:
            try:
                await run_bot(client, brain, delay=delay, on_game=verified)
            except Refused as exc:
                if exc.code == ErrorCode.TAKEN_OVER:
                    # A person took this seat in the lobby: the bot steps aside.
                    self.log("bot-stepped-aside", {"table": room.nameplate, "seat": seat})
                    # Back if that person leaves before the start (after this task is done).
                    asyncio.get_running_loop().call_soon(self._bots_back, room.nameplate)
                    return
                if not self._closed:
                    self.log(
                        "bot-failed", {"table": room.nameplate, "seat": seat, "error": str(exc)}
                    )
                return
            except NetError as exc:
                if not self._closed:
                    self.log(
                        "bot-failed", {"table": room.nameplate, "seat": seat, "error": str(exc)}
                    )
                return

        self._bots[(room.nameplate, seat)] = server.spawn(play())

    # ------------------------------------------------------------- effects

    def _finished(self, nameplate: int, game_id: str) -> None:
        room = self.rooms[nameplate]
        game = room.game
        assert isinstance(game, HostedGame)
        try:
            path = self.store.archive(game_id, game.event_objects)
        except OSError as exc:
            # The game is safe in the table's log; its archive waits for the disk.
            self._archive_later(nameplate, game_id, exc)
            return
        self._archived(nameplate, game_id, path)

    def _archive_later(self, nameplate: int, game_id: str, error: OSError) -> None:
        trouble = self._archive_trouble.setdefault(nameplate, DiskTrouble(self.log, "archive"))
        delay = trouble.failed(error, {"table": nameplate, "game_id": game_id})

        def again() -> None:
            if not self._closed:
                self._finished(nameplate, game_id)

        asyncio.get_running_loop().call_later(delay, again)

    def _archived(self, nameplate: int, game_id: str, path: Path) -> None:
        trouble = self._archive_trouble.pop(nameplate, None)
        if trouble is not None:
            trouble.recovered({"table": nameplate, "game_id": game_id})
        room = self.rooms[nameplate]
        game = room.game
        assert isinstance(game, HostedGame)
        events = game.event_objects
        report = verify(list(events))
        ledger = game.game_table.ledger
        outcome = "aborted" if ledger.abort is not None else (ledger.outcome or "unknown")
        state = game.game_table.state
        self.log(
            "game-ended",
            {
                "table": nameplate,
                "game_id": game_id,
                "outcome": str(outcome),
                "day": state.day if state is not None else None,
                "events": len(events),
                "verified": report.valid,
                "transcript": str(path),
                "game": room.games,
            },
        )
        if self._another_game_due(room):
            # After the rest (and never inside the effects under way): the next lobby.
            asyncio.get_running_loop().call_later(self.config.rest, self._next_game_due, nameplate)
        self._check_done()

    def _check_done(self) -> None:
        """Every table has played its games (``games`` 0: never), each one archived."""
        if self._archive_trouble:
            return  # a finished game's archive still waits for the disk
        games = self.config.games
        if (
            self.rooms
            and games != 0
            and all(
                room.game is not None and room.game.ended and room.games >= games
                for room in self.rooms.values()
            )
        ):
            self._done.set()


class RunningHost(TableHost):
    """A host serving its tables on the LAN; see the module docstring.  Use :func:`start_host`."""

    def __init__(self, config: HostConfig, log: LogSink) -> None:
        store = HostStore(config.data_dir)
        super().__init__(config, log, store, load_or_create_identity(config.data_dir))
        self.certificate: HostCertificate = load_or_create_certificate(self.store.host_dir)
        self._advertiser: Advertiser | None = None
        self._advert_tasks: dict[int, asyncio.Task[None]] = {}

    @property
    def fingerprint(self) -> bytes:
        return self.certificate.fingerprint

    async def _serve(self, server: HostServer) -> None:
        bind = self.config.interface or "0.0.0.0"
        try:
            self.port = await server.listen(
                bind, self.config.port, server_context(self.certificate)
            )
        except OSError as exc:
            raise HostError(
                f"cannot listen on {bind}:{self.config.port}: {exc.strerror or exc}"
            ) from None
        for stored in list(self._stored.values()):
            if stored.owner is not None and stored.port != self.port:
                # A laptop's table comes back on the same port when it is free.
                self._save(replace(stored, port=self.port))
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
        if self.config.advertise:
            from domicile_p2p.net.adapters.discovery import Advertiser

            self._advertiser = Advertiser(
                self.config.interface, f"domicile-{self.certificate.fingerprint_hex[:12]}"
            )
            await self._advertiser.start(self.port)
            for room in self.rooms.values():
                self._advert_changed(room.nameplate)

    @property
    def url(self) -> str:
        """Where players join: the first address the host is reachable at."""
        return self.urls[0]

    @property
    def urls(self) -> list[str]:
        """Every ``wss://`` address of this host (one per interface when listening on all)."""
        from domicile_p2p.net.adapters.discovery import advertised_addresses

        return [
            Address(host, self.port).url for host in advertised_addresses(self.config.interface)
        ]

    async def _closing(self) -> None:
        for task in self._advert_tasks.values():
            task.cancel()
        if self._advertiser is not None:
            with contextlib.suppress(Exception):
                await self._advertiser.close()

    def _advert(self, room: Room) -> TableAdvert:
        from domicile_p2p.net.adapters.discovery import TableAdvert

        return TableAdvert(
            name=room.config.name,
            nameplate=room.nameplate,
            fingerprint=self.certificate.fingerprint_hex,
            seats_free=room.seats_free,
            seats_total=room.config.investigators + 1,
            bot_seats=len(room.bot_held),
            difficulty=room.config.difficulty.value,
            state=room.state,
        )

    def _advert_changed(self, nameplate: int) -> None:
        advertiser = self._advertiser
        room = self.rooms.get(nameplate)
        if advertiser is None or room is None or self._closed:
            return
        previous = self._advert_tasks.get(nameplate)

        async def publish() -> None:
            if previous is not None:
                with contextlib.suppress(BaseException):
                    await previous
            advert = self._advert(room)
            try:
                if advertiser.published(nameplate):
                    await advertiser.update(advert)
                else:
                    instance = await advertiser.publish(advert)
                    self.log("advertised", {"table": nameplate, "instance": instance})
            except Exception as exc:  # mDNS is a convenience: never take the host down
                self.log("advert-failed", {"table": nameplate, "error": str(exc)})

        self._advert_tasks[nameplate] = asyncio.ensure_future(publish())


async def start_host(config: HostConfig, log: LogSink | None = None) -> RunningHost:
    """Start serving: listening, advertising and running the host's own bots."""
    host = RunningHost(config, log or (lambda event, fields: None))
    try:
        await host.start()
    except BaseException:
        await host.close()
        raise
    return host
