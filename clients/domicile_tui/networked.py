"""A table across the network, hosted on this laptop for the LAN, or offline.

The player's seat is a :class:`~domicile_p2p.net.sessions.peer.PeerSession`
kept connected by a :class:`~domicile_p2p.net.adapters.client.PeerClient`, exactly
as a bot's: it joins with the table's code (PAKE), pins the host's
certificate, checks every event with its own replica and signs its own
actions.  Hosting runs :func:`~domicile_p2p.net.adapters.host.start_host` in this
process (listening, advertising on the LAN, playing the bot seats) and
seats the player through an in-process link.

An offline table (``--offline``, and each chapter of the tutorial) is the same
host with no listener (:func:`~domicile_p2p.net.adapters.in_memory.start_in_memory_host`:
nobody can dial it, it advertises nothing, and it keeps its log, keys and secrets in
memory), the player's seat again a ``PeerSession`` over a local link: the same
sessions, bots, séance, sand-glass and verification as a table on the LAN.  A seed
(``--seed``, tests, the tutorial) draws every key, deal and bot from one number, as
``domicile selfplay --seed`` deals.

A spectator (``watch``) is the same client with a session that takes no seat
(``PeerSession(watch=True)``): it checks every event as a player does, and
its views are the investigators' public view of one investigator's seat
(the first, unless the spectator follows another), with nothing to act on.

This module only translates between that and
:class:`~domicile_p2p.session.TableSession`: the replica's new events become
views and chat lines, the host's lobby becomes a :class:`LobbyInfo`, the
connection's ups and downs become status lines, and the protocol's own
steps (commitments, reveals, the Ghost's séance) are played for the player.

The seat stays at its table after a game: when the host opens the table's
next game (a rematch: its owner's "Another game", or a headless host's
``--games``), the session follows by itself into that lobby, where the
player says ready and the owner may move everyone round one seat.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final, Protocol

from domicile_p2p import client_api
from domicile_p2p.client_api import (
    GAMES_DIR,
    Address,
    AgentMisuse,
    AllSeen,
    Backoff,
    BadEvent,
    Clock,
    Dialed,
    Dialer,
    ErrorCode,
    GhostAgent,
    HostConfig,
    HostError,
    HostIdentityChanged,
    Identity,
    IdentityError,
    InMemoryHost,
    Lobby,
    NetError,
    Pack,
    PackIdentity,
    PeerClient,
    PeerSession,
    PinStore,
    Refused,
    Replica,
    Role,
    RunningHost,
    SeatSecrets,
    SecretKeeper,
    SeededDraws,
    Starts,
    Step,
    SystemDraws,
    TableHost,
    TableState,
    UnfinishedTable,
    Unreachable,
    WrongCode,
    load_or_create_identity,
    parse_code,
    phrase,
    serve_browser_seats,
    start_host,
    start_in_memory_host,
    verify,
    websocket_dialer,
    write_transcript,
)
from domicile_p2p.rules import (
    GHOST,
    Action,
    Chat,
    CulpritSeance,
    Difficulty,
    GameState,
    Phase,
    Place,
    RuleError,
    Seance,
    View,
    apply,
    due,
    new_game,
    view,
)
from domicile_tui.news import (
    ActionRefused,
    ChatLine,
    ChatPosted,
    GameVerified,
    GlassTurned,
    LobbyChanged,
    LobbyInfo,
    SeatInfo,
    SessionClosed,
    SessionEvent,
    StatusChanged,
    TranscriptKept,
    ViewChanged,
)
from domicile_tui.pacing import SEANCE_PAUSE, BotPace
from domicile_tui.personas import persona
from domicile_tui.session import (
    MAX_NAME_LENGTH,
    EventChannel,
    SettingsError,
    TableSettings,
    check_chat,
)
from domicile_tui.session import Role as SessionRole
from domicile_tui.status import SeatKind, Severity, Status
from domicile_tui.ticket import JoinTicket
from domicile_tui.verification import verification_of

WAIT_FOR_THE_HOST: Final = Backoff(attempts=None, first_attempts=3)
"""A person at a table waits for its host as long as they like (they can always leave);
a host that never answered is given up after a few quick tries (under two seconds: the
person who typed the address waits for the answer)."""

REFIND_WINDOW: Final = 1.0
"""Seconds a client whose host stopped answering listens on the LAN for it elsewhere."""

HOST_DIR: Final = "host"
"""The hosted table's certificate, key and logs live in this part of the data dir."""
OFFLINE_DIR: Final = "offline"
"""An offline table's host keeps only its finished games, in ``offline/games``."""

JOINED_GAMES: Final = Path("joined", "games")
WATCHED_GAMES: Final = Path("watched", "games")
"""Where in the data dir a guest and a spectator keep each finished game's transcript (a host
keeps its own in ``host/games``, an offline table in ``offline/games``): nobody's game is
lost for want of an export."""
KEPT_GAMES: Final = Path(OFFLINE_DIR, "games")

OFFLINE_STATUS: Final = Status("Offline table: you and the bots, in this process")

FIRST_FOLLOWED: Final = 1
"""The investigator seat whose view a spectator sees until it follows another."""

SEATS_FIXED: Final = frozenset({ErrorCode.GAME_STARTED, ErrorCode.TABLE_FULL})
"""Refusals of a seat after which watching the table is offered instead."""

SPECTATORS_CANNOT_ACT: Final = "You are watching: a spectator cannot play or talk."

PolicyFactory = Callable[[int, Pack, int], Any]
"""Makes the policy a bot plays a seat with: ``(seat, pack, seed)`` (``make_policy``)."""


class Prelude(Protocol):
    """Plays the player's own seat before the player sees the game (the tutorial's Stage
    Two chapter plays Stage One so); the other seats are the host's bots'."""

    def over(self, state: GameState) -> bool:
        """The player takes the seat from here (and sees the game)."""
        ...

    def act(self, view: View) -> Action | None:
        """The seat's move now, if any."""
        ...


@dataclass(frozen=True, slots=True)
class Offline:
    """What an offline table is made of: its host's draws (one ``seed``'s, or the system's),
    the policies of its bots, the clock its sand-glass runs on (the loop's by default), and
    a prelude to play before the player sits down."""

    seed: int | None = None
    policies: PolicyFactory | None = None
    bot_pace: Callable[[View | None], float] | None = None
    clock: Clock | None = None
    prelude: Prelude | None = None


def _role_of(settings: TableSettings) -> Role:
    """The role a table hosted here with ``settings`` seats its player in."""
    return Role.GHOST if settings.your_seat == GHOST else Role.INVESTIGATOR


class NetworkTable:
    """The player's seat at a networked table (see the module docstring)."""

    def __init__(
        self,
        pack: Pack,
        data_dir: Path,
        *,
        name: str,
        role: Role,
        ticket: JoinTicket | None = None,
        hosting: TableSettings | None = None,
        interface: str | None = None,
        port: int | None = None,
        pace: BotPace | None = None,
        advertise: bool = True,
        seance_pause: float = SEANCE_PAUSE,
        resuming: UnfinishedTable | None = None,
        lan: bool = True,
        watch: bool = False,
        browser_seats: int = 0,
        browser_port: int = 0,
        offline: Offline | None = None,
    ) -> None:
        """``offline``: the table ``hosting`` is hosted with no listener (see the module
        docstring).  ``lan``: a joined table whose host stops answering is looked for again
        on the LAN (by mDNS on ``interface``) in case it came back at another address.
        ``watch``:
        watch the table (``ticket``) without a seat.  ``browser_seats``: a table hosted
        here serves that many investigator seats to browsers (on ``browser_port``), as
        ``domicile host --browser-seats`` does."""
        if (ticket is None) == (hosting is None):
            raise ValueError("a networked table is either joined (ticket) or hosted (hosting)")
        if watch and hosting is not None:
            raise ValueError("a table hosted here has its player seated: it is not watched")
        if browser_seats and hosting is None:
            raise ValueError("browser seats are served by a table hosted here")
        if offline is not None and (hosting is None or browser_seats):
            raise ValueError("an offline table is hosted here, and serves no browser")
        if offline is not None and hosting is not None and hosting.open_seats:
            raise SettingsError("an offline table has no open seats: bots take them all")
        self.offline = offline
        self._draws: SeededDraws | SystemDraws | None = None
        if offline is not None:
            seed = offline.seed
            self._draws = SystemDraws() if seed is None else SeededDraws(seed)
        self._prelude = offline.prelude if offline is not None else None
        self._prelude_over = self._prelude is None
        self.starts_on_opening = False
        """The game begins as the table opens (a tutorial's chapter) instead of in the lobby."""
        self._lobby_told: LobbyInfo | None = None
        self.pack = pack
        self.data_dir = data_dir
        self.name = name
        self.role = role
        self.hosting = hosting
        self._ticket = ticket
        self._interface = interface
        self._port = port
        self._pace = pace or BotPace()
        self._advertise = advertise
        self._seance_pause = seance_pause
        self._resuming = resuming
        self._lan = lan
        self.watch = watch
        self._browser_seats = browser_seats
        self._browser_port = browser_port
        self._browser_urls: tuple[str, ...] = ()
        self._close_browser_seats: Callable[[], Awaitable[None]] | None = None
        self._followed = FIRST_FOLLOWED
        self._address: Address | None = None
        self._away_since: float | None = None
        self._away_ticker: asyncio.Task[None] | None = None
        self._channel = EventChannel()
        self._host: TableHost | None = None
        self._client: PeerClient | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._fingerprint: bytes | None = None
        self._lobby: Lobby | None = None
        self._public: GameState | None = None
        self._moves = 0
        self._chat_seen = 0
        self._refusals = 0
        self._connected: bool | None = None
        self._verified = False
        self._abort_told = False
        self._game: int | None = None
        self._all_seen: AllSeen | None = None
        """The host's last ``all-seen`` told to the app (as a :class:`GlassTurned`)."""
        self._acting = asyncio.Lock()
        self._announcing = False

    @classmethod
    def hosted(
        cls,
        settings: TableSettings,
        pack: Pack,
        data_dir: Path,
        *,
        interface: str | None = None,
        port: int | None = None,
        pace: BotPace | None = None,
        advertise: bool = True,
        seance_pause: float = SEANCE_PAUSE,
        resuming: UnfinishedTable | None = None,
        browser_seats: int = 0,
        browser_port: int = 0,
    ) -> NetworkTable:
        """A table hosted here with ``settings``; with ``resuming``, that unfinished table
        back as it was (same code and certificate, on its old port unless ``port`` says
        otherwise and when it is free, the player in their own seat)."""
        if resuming is not None and port is None:
            port = resuming.stored.port
        return cls(
            pack,
            data_dir,
            name=settings.player_name,
            role=_role_of(settings),
            hosting=settings,
            interface=interface,
            port=port,
            pace=pace,
            advertise=advertise,
            seance_pause=seance_pause,
            resuming=resuming,
            browser_seats=browser_seats,
            browser_port=browser_port,
        )

    @classmethod
    def offline_table(
        cls,
        settings: TableSettings,
        pack: Pack,
        data_dir: Path,
        *,
        offline: Offline,
        pace: BotPace | None = None,
        seance_pause: float = SEANCE_PAUSE,
    ) -> NetworkTable:
        """An offline table with ``settings``: the player and the bots, in this process."""
        return cls(
            pack,
            data_dir,
            name=settings.player_name,
            role=_role_of(settings),
            hosting=settings,
            pace=pace,
            advertise=False,
            seance_pause=seance_pause,
            lan=False,
            offline=offline,
        )

    # --- TableSession ------------------------------------------------------------

    def events(self) -> AsyncIterator[SessionEvent]:
        return aiter(self._channel)

    @property
    def host(self) -> TableHost | None:
        """The host this table runs here (``None`` when joined from elsewhere)."""
        return self._host

    async def open(self) -> None:
        if self.offline is not None:
            self._emit(StatusChanged(OFFLINE_STATUS))
            self._emit(LobbyChanged(self._placeholder_lobby()))
        if self._ticket is not None and self._ticket.address is not None:
            # At once: the dial may take seconds, and the player should see what it waits for.
            where = self._ticket.address.pin_key
            self._emit(StatusChanged(Status(f"Connecting to {where}…", connected=False)))
            self._emit(LobbyChanged(self._placeholder_lobby()))
        try:
            ticket, dial = await self._prepare()
            identity = self._identity()
        except (HostError, NetError, IdentityError, OSError) as error:
            self._fail(f"could not open the table: {error}")
            return
        seat = None
        if self.hosting is not None:
            seat = self.hosting.your_seat
        session = PeerSession(
            identity,
            ticket.code.nameplate,
            code=ticket.code,
            name=self.name,
            role=self.role,
            seat=seat,
            watch=self.watch,
            # A person stays at the table for its next games, if any; a spectator watches one.
            games=1 if self.watch else None,
        )
        # An offline table's fingerprint is drawn for the process: nothing to pin.
        pins = PinStore.in_data_dir(self.data_dir) if self.offline is None else None
        pin_key = ticket.address.pin_key if ticket.address is not None else None
        self._client = PeerClient(
            session,
            dial,
            self._secrets(),
            pins=pins,
            pin_key=pin_key,
            backoff=WAIT_FOR_THE_HOST,
            log=self._log,
        )
        if self.hosting is not None and self.offline is None:
            self._emit(StatusChanged(Status("Joining the table…", connected=False)))
        self._tasks.append(asyncio.create_task(self._run(self._client), name="table connection"))
        if self.starts_on_opening:
            await self.start_game()

    def _identity(self) -> Identity:
        """The player's key: this data dir's, or at an offline table dealt from a seed, the
        seed's for the seat (as ``selfplay --seed`` keys it)."""
        draws = self._draws
        if isinstance(draws, SeededDraws) and self.hosting is not None:
            return draws.identity(self.hosting.your_seat)
        return load_or_create_identity(self.data_dir)

    def _secrets(self) -> SecretKeeper:
        """Where the player's seat keeps its secrets: the data dir, or at an offline table
        the host's memory (nobody resumes one)."""
        if isinstance(self._host, InMemoryHost):
            return self._host.secrets
        return SeatSecrets(self.data_dir)

    async def _prepare(self) -> tuple[JoinTicket, Dialer]:
        """Start the host (when hosting) and say how to reach the table."""
        if self.offline is not None and self.hosting is not None:
            offline_host = await self._start_offline_host(self.hosting, self.offline)
            self._host = offline_host
            self._fingerprint = offline_host.fingerprint
            return JoinTicket(parse_code(offline_host.tables()[0].code)), (
                offline_host.local_dialer("player")
            )
        if self.hosting is None:
            assert self._ticket is not None
            ticket = self._ticket
            assert ticket.address is not None
            pins = PinStore.in_data_dir(self.data_dir)
            self._address = ticket.address

            async def dial_remote() -> Dialed:
                address = self._address or ticket.address
                assert address is not None
                expected = self._fingerprint or ticket.fingerprint
                try:
                    dialed = await websocket_dialer(address, pins, expected)()
                except Unreachable:
                    moved = await self._find_moved_table(ticket)
                    if moved is None or moved == address:
                        raise
                    # The same table (the same certificate: it is pinned) at a new address.
                    dialed = await websocket_dialer(moved, pins, expected)()
                    self._address = moved
                self._fingerprint = dialed.fingerprint
                return dialed

            return ticket, dial_remote
        host = await self._start_host(self.hosting)
        self._host = host
        if self._browser_seats:
            close, urls = await serve_browser_seats(host, self._browser_seats, self._browser_port)
            self._close_browser_seats = close
            self._browser_urls = tuple(urls)
        ticket = JoinTicket(parse_code(host.tables()[0].code))
        server = host.server
        assert server is not None
        fingerprint = host.certificate.fingerprint
        self._fingerprint = fingerprint

        async def dial_here() -> Dialed:
            return Dialed(server.attach_local("player"), fingerprint, True)

        return ticket, dial_here

    async def _find_moved_table(self, ticket: JoinTicket) -> Address | None:
        """Where the table this player sat at answers on the LAN now, if it moved (its host
        resumed it on another address or port): the same table number and certificate."""
        fingerprint = self._fingerprint
        if fingerprint is None or not self._lan:
            return None  # never seated: nothing to find again
        try:
            # Looked up here, not imported above: a table with no listener never loads mDNS.
            tables = await client_api.discover(REFIND_WINDOW, self._interface)
        except Exception:  # mDNS is a convenience: the old address is still tried
            return None
        for table in tables:
            advert = table.advert
            if (
                advert.nameplate == ticket.code.nameplate
                and advert.fingerprint == fingerprint.hex()
            ):
                return Address(table.address, table.port)
        return None

    def _host_news(self, event: str, fields: Mapping[str, Any]) -> None:
        """What the table hosted here tells its owner on screen (its other log lines go
        unsaid: the owner plays, the screen shows the game)."""
        if event == "log-behind":
            text = (
                f"This table's log was behind: a returning player holds "
                f"{fields['player_events']} events of the game, the host had "
                f"{fields['host_events']} (its log was rolled back?); they hand them back, "
                "each checked"
            )
        elif event == "log-restored":
            text = f"The host took back {fields['events']} events its log had lost: nothing lost"
        elif event == "table-failed":
            text = f"The host could not go on with this table: {fields['error']}"
        else:
            return
        self._emit(StatusChanged(Status(text, Severity.WARNING)))

    async def _start_offline_host(self, settings: TableSettings, offline: Offline) -> InMemoryHost:
        bots = set(settings.bot_seats)
        pace = self._pace
        config = HostConfig(
            data_dir=self.data_dir / OFFLINE_DIR,
            name=settings.table_name,
            port=0,
            investigators=settings.investigators,
            difficulty=settings.difficulty,
            timer=settings.timer,
            bot_seats=frozenset(bots - {GHOST}),
            ghost_bot=GHOST in bots,
            bot_names={seat: persona(seat).bot_name for seat in settings.seats},
            owner_starts=True,
            bot_pace=offline.bot_pace or (lambda _view: pace.delay()),
            policies=offline.policies,
            advertise=False,
            pack=self.pack,
            owner=settings.your_seat,
        )
        assert self._draws is not None
        return await start_in_memory_host(
            config, draws=self._draws, clock=offline.clock, log=self._host_news
        )

    async def _start_host(self, settings: TableSettings) -> RunningHost:
        bots = set(settings.bot_seats)
        config = HostConfig(
            data_dir=self.data_dir / HOST_DIR,
            name=settings.table_name,
            interface=self._interface,
            investigators=settings.investigators,
            difficulty=settings.difficulty,
            timer=settings.timer,
            bot_seats=frozenset(bots - {GHOST}),
            ghost_bot=GHOST in bots,
            # Every seat but the player's is a bot's, open to friends who join with the code,
            # until the player starts the game.
            bot_names={seat: persona(seat).bot_name for seat in settings.seats},
            owner_starts=True,
            bot_delay=self._pace.mean,
            advertise=self._advertise,
            pack=self.pack,
            owner=settings.your_seat,
            resume=self._resuming is not None,
        )
        if self._port is not None:
            try:
                return await start_host(_with_port(config, self._port), self._host_news)
            except HostError:
                if self._resuming is None:
                    raise
                # The table's old port is taken now: its players find it again on the LAN.
                return await start_host(_with_port(config, 0), self._host_news)
        try:
            return await start_host(config, self._host_news)
        except HostError:
            # The usual port is taken (another table on this laptop): any free port will do.
            return await start_host(_with_port(config, 0), self._host_news)

    async def start_game(self) -> None:
        """Start the game of the table hosted here (bots keep the seats no person took)."""
        host = self._host
        if host is None:
            self._emit(ActionRefused("the host starts the game"))
            return
        if self._public is not None:
            return  # already under way
        client = self._client
        if client is not None and self.offline is not None:
            # A chapter of the tutorial starts as it opens: the player sits down first, or
            # the host would give their seat to a bot.
            await self._until_seated(client)
        lobby = self._lobby
        if lobby is not None and lobby.game > 1 and client is not None:
            await client.set_ready(True)  # the owner's start says the owner is ready
        try:
            host.start_table()
        except HostError as error:
            self._emit(ActionRefused(str(error)))

    async def _until_seated(self, client: PeerClient) -> None:
        seen = client.version
        running = self._tasks[0] if self._tasks else None
        while not client.session.seated and running is not None and not running.done():
            waiter = asyncio.ensure_future(client.wait_changed(seen))
            await asyncio.wait({waiter, running}, return_when=asyncio.FIRST_COMPLETED)
            if not waiter.done():
                waiter.cancel()
                return
            seen = waiter.result()

    async def set_ready(self, ready: bool) -> None:
        if self.offline is not None:
            # Nobody to wait for at a table of one person and bots: Enter begins.
            self._emit(ActionRefused("an offline table begins when you press Enter"))
            return
        client = self._client
        lobby = self._lobby
        if client is None or lobby is None or lobby.game == 1 or self._public is not None:
            self._emit(ActionRefused("ready is for the lobby of the table's next game"))
            return
        await client.set_ready(ready)

    def seance_seen(self) -> bool:
        """Tell the host this person has seen the séances (``seen``, WIRE.md §6c); the host
        turns the next glass once every person at the table has, and says so (``all-seen``,
        a :class:`GlassTurned`), so not at once here.  A spectator is not waited for."""
        client, state = self._client, self._public
        if client is None or self.watch or state is None or client.session.seat is None:
            return False
        if state.phase is Phase.ENDED:
            return False  # no glass follows the last séance
        task = asyncio.create_task(client.seen(state.day, int(state.stage)), name="seen")
        self._tasks.append(task)
        return False

    async def rotate_seats(self) -> None:
        if self.offline is not None:
            self._emit(ActionRefused("an offline table keeps its seats: set another up to change"))
            return
        host = self._host
        if host is None:
            self._emit(ActionRefused("the host's owner moves the seats round"))
            return
        try:
            host.rotate_seats()
        except HostError as error:
            self._emit(ActionRefused(str(error)))

    async def act(self, action: Action) -> None:
        client = self._client
        if client is None:
            self._emit(ActionRefused("not at a table"))
            return
        if self.watch:
            self._emit(ActionRefused(SPECTATORS_CANNOT_ACT))
            return
        async with self._acting:
            await self._until_ready(client)
            try:
                signed = client.session.player.play(action)
            except (RuleError, AgentMisuse, NetError) as error:
                self._emit(ActionRefused(str(error)))
                return
            await client.submit(signed)

    async def chat(self, text: str) -> None:
        try:
            message = check_chat(text)
        except SettingsError as error:
            self._emit(ActionRefused(str(error)))
            return
        seat = self._seat
        if self.watch:
            self._emit(ActionRefused(SPECTATORS_CANNOT_ACT))
            return
        if seat is None:
            self._emit(ActionRefused("the table talks once you are seated"))
            return
        await self.act(Chat(seat, message))

    async def export_transcript(self, path: Path) -> Path:
        replica = self._replica()
        if replica is None:
            raise FileNotFoundError("no game has begun at this table")
        await asyncio.to_thread(write_transcript, path, replica.events)
        return path

    async def play_again(self) -> None:
        host = self._host
        if host is None:
            self._emit(ActionRefused("the host decides when the next game begins"))
            return
        # The same table, code and certificate: everyone still here follows to its lobby.
        try:
            host.next_game()
        except HostError as error:
            self._emit(ActionRefused(str(error)))

    async def close(self) -> None:
        await self._shut()
        self._emit(SessionClosed("back at the front door"))
        self._channel.close()

    # --- the connection ----------------------------------------------------------------

    async def _run(self, client: PeerClient) -> None:
        runner = asyncio.create_task(client.run())
        seen = -1
        try:
            while True:
                waiter = asyncio.create_task(client.wait_changed(seen))
                done, _ = await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
                if runner in done:
                    waiter.cancel()
                    self._sync(client)
                    self._ended(runner)
                    return
                seen = waiter.result()
                self._sync(client)
                await self._owe(client)
        finally:
            if not runner.done():
                runner.cancel()
                with contextlib.suppress(BaseException):
                    await runner

    def _ended(self, runner: asyncio.Task[None]) -> None:
        """The connection loop is over: the game finished, or a fatal error ended it."""
        error = runner.exception()
        if error is None:
            return
        replica = self._replica()
        playing = replica is not None and replica.state is not None
        was_seated = self._client is not None and self._client.was_seated
        text = _why(error, was_seated=was_seated)
        if playing:
            # Keep the table on screen: the game so far can still be read and exported.
            self._emit(StatusChanged(Status(text, Severity.ERROR, connected=False)))
        else:
            # Refused a seat whose keys are fixed, or left out of a rematch's start while
            # not ready (``game-started`` to a seated player): either may watch instead.
            watchable = (
                isinstance(error, Refused)
                and error.code in SEATS_FIXED
                and not self.watch
                and (not was_seated or error.code is ErrorCode.GAME_STARTED)
            )
            # The host's own words ("the game has started at this table...") lead the offer.
            self._fail(str(error) if watchable else text, watchable=watchable)

    async def _until_ready(self, client: PeerClient) -> None:
        seen = client.version
        while not client.session.ready and not client.session.finished:
            seen = await client.wait_changed(seen)

    async def _owe(self, client: PeerClient) -> None:
        """Play what the protocol owes for the player: commitments, reveals, the Ghost's séance."""
        session = client.session
        if not session.ready or self._acting.locked():
            return
        due = session.player.due()
        if due is not None:
            await client.submit(due)
            return
        replica = session.player.replica
        if not self._prelude_over and self._prelude is not None and session.player.playing:
            await self._play_prelude(client, self._prelude)
            return
        if (
            session.seat == GHOST
            and replica is not None
            and replica.step is Step.PLAY
            and _seance_due(replica.state)
            and not self._announcing
        ):
            self._announcing = True
            self._tasks.append(asyncio.create_task(self._announce(client)))

    async def _play_prelude(self, client: PeerClient, prelude: Prelude) -> None:
        """The prelude's move for the player's seat, if it has one now."""
        shown = client.session.player.view()
        if shown is None or prelude.over(shown.state):
            return
        action = prelude.act(shown)
        if action is None:
            return
        try:
            signed = client.session.player.play(action)
        except (RuleError, AgentMisuse, NetError) as error:
            self._emit(
                StatusChanged(Status(f"The table could not be set: {error}", Severity.ERROR))
            )
            return
        await client.submit(signed)

    async def _announce(self, client: PeerClient) -> None:
        """The Ghost's true verdicts, after a breath: an honest Ghost has nothing to choose."""
        try:
            await asyncio.sleep(self._seance_pause)
            async with self._acting:
                await self._until_ready(client)
                agent = client.session.player.agent
                replica = client.session.player.replica
                if agent is None or replica is None or not _seance_due(replica.state):
                    return
                assert isinstance(agent, GhostAgent)
                await client.submit(agent.seance())
        finally:
            self._announcing = False

    # --- news for the app ------------------------------------------------------------------

    def _sync(self, client: PeerClient) -> None:
        session = client.session
        if session.game != self._game:
            if self._game is not None:
                self._next_game()
            self._game = session.game
        if (session.connected != self._connected and session.seated) or not session.connected:
            self._status(session.connected and session.seated)
        if session.lobby is not None and session.lobby != self._lobby:
            self._lobby = session.lobby
            self._emit(LobbyChanged(self._lobby_info(session.lobby)))
        for refusal in client.refusals[self._refusals :]:
            self._emit(ActionRefused(refusal.message))
        self._refusals = len(client.refusals)
        self._news(client)
        told = session.all_seen
        if told is not None and told != self._all_seen and told.game == session.game:
            self._all_seen = told
            self._emit(GlassTurned(told.day, told.stage))

    def _status(self, connected: bool) -> None:
        """Say when the player sits down at the table, and when the connection drops."""
        if connected and self._connected is not True:
            self._host_back()
            where = "hosted on this laptop" if self.hosting is not None else f"at {self._where()}"
            at = "Watching the table" if self.watch else "At the table"
            if self.offline is not None:
                self._emit(StatusChanged(OFFLINE_STATUS))
            else:
                self._emit(StatusChanged(Status(f"{at} {where} · code {self._code()}")))
        elif not connected and self._connected is True:
            self._host_away()
        if connected or self._connected is True:
            self._connected = connected

    def _host_away(self) -> None:
        """The connection dropped: say so, and how long it has been, every second."""
        loop = asyncio.get_running_loop()
        self._away_since = loop.time()

        async def tick() -> None:
            while self._away_since is not None:
                self._emit(StatusChanged(away_status(loop.time() - self._away_since)))
                await asyncio.sleep(1.0)

        self._away_ticker = asyncio.create_task(tick(), name="host away")
        self._tasks.append(self._away_ticker)

    def _host_back(self) -> None:
        self._away_since = None
        if self._away_ticker is not None:
            self._away_ticker.cancel()
            self._away_ticker = None

    def _news(self, client: PeerClient) -> None:
        """Views and chat lines for every move the replica accepted since last time."""
        player = client.session.player
        replica = player.replica
        seat = self._followed if self.watch else client.session.seat
        if replica is None or seat is None:
            return
        ledger = replica.ledger
        if self._public is None:
            if ledger.tableau is None:
                return
            self._public = new_game(replica.config, ledger.tableau)
            self._emit(LobbyChanged(self._lobby_info(self._lobby)))
            latest = view(self._public, seat) if self.watch else player.view()
            if not ledger.moves and latest is not None and self._prelude_over:
                self._emit(ViewChanged(latest))
        moves = ledger.moves[self._moves :]
        history = _history([action for _, action in moves])
        for index, (_, action) in enumerate(moves):
            self._public = apply(self._public, action)
            if not self._prelude_over:
                # Played for the player before they sit down: they see where it ends.
                if self._prelude is not None and self._prelude.over(self._public):
                    self._prelude_over = True
                    latest = player.view() if index == len(moves) - 1 else None
                    self._emit(ViewChanged(latest or view(self._public, seat)))
                continue
            if isinstance(action, Chat):
                name = self._public.config.name(action.by)
                self._emit(ChatPosted(ChatLine(action.by, name, action.text)))
                continue
            last = index == len(moves) - 1
            shown = player.view() if last else None
            led_by = None if index in history else action
            self._emit(ViewChanged(shown or view(self._public, seat), led_by))
        self._moves = len(ledger.moves)
        if replica.step is Step.ABORTED and ledger.abort is not None and not self._abort_told:
            self._abort_told = True
            self._emit(
                StatusChanged(
                    Status(f"The host stopped the game: {ledger.abort.reason}", Severity.ERROR)
                )
            )
        # Verified once nothing more can come: the game finished, or it was aborted and the
        # Ghost revealed its seed after all (what was played checks out, as offline).
        if ledger.over and not self._verified and self._prelude_over:
            self._verified = True
            report = verify(list(replica.events), pack=PackIdentity.of(self.pack))
            self._emit(GameVerified(verification_of(report)))
            self._tasks.append(asyncio.create_task(self._keep(replica), name="keep the game"))

    async def _keep(self, replica: Replica) -> None:
        """Keep the finished game's transcript in the data dir and say where: the host's own
        archive at a table hosted here, this client's copy at a table joined or watched."""
        name = f"{replica.game_id}.json"
        if self.hosting is not None:
            home = OFFLINE_DIR if self.offline is not None else HOST_DIR
            archived = self.data_dir / home / GAMES_DIR / name
            if await asyncio.to_thread(archived.is_file):
                self._emit(TranscriptKept(archived))
                return
        path = self.data_dir / (WATCHED_GAMES if self.watch else JOINED_GAMES) / name
        if self.offline is not None:
            path = self.data_dir / KEPT_GAMES / name
        try:
            await asyncio.to_thread(write_transcript, path, list(replica.events))
        except OSError as error:
            self._emit(StatusChanged(Status(f"Could not keep the game in {path}: {error}")))
            return
        self._emit(TranscriptKept(path))

    # --- the lobby ---------------------------------------------------------------------------

    def _lobby_info(self, lobby: Lobby | None) -> LobbyInfo:
        if lobby is None:
            return self._placeholder_lobby()
        if self.offline is not None:
            return self._offline_lobby(lobby)
        seat = self._seat
        followed = self._followed if self.watch else seat
        seats = tuple(
            SeatInfo(
                status.seat,
                status.name or "",
                _kind(status.seat == seat, status.bot, status.key is not None),
                ready=status.key is not None and status.ready,
                connected=status.connected or status.bot,
                browser=status.browser,
            )
            for status in lobby.seats
        )
        try:
            difficulty = Difficulty(lobby.difficulty)
        except ValueError:
            difficulty = Difficulty.NORMAL
        started = lobby.state is not TableState.LOBBY or self._public is not None
        return LobbyInfo(
            can_start=self.hosting is not None and not started,
            takeover=not started and any(status.bot for status in lobby.seats),
            starts=lobby.starts,
            table_name=lobby.name,
            difficulty=difficulty,
            seats=seats,
            your_seat=followed if followed is not None else GHOST,
            is_host=self.hosting is not None,
            offline=False,
            code=self._code(),
            address=self._where(),
            listening=self._listening(),
            fingerprint_phrase=phrase(self._fingerprint) if self._fingerprint else None,
            pack_name=self.pack.name,
            started=started,
            watching=self.watch,
            game=lobby.game,
            can_rotate=self.hosting is not None and not started and lobby.game > 1,
            ready_timeout=lobby.ready_timeout,
            browser_seats=self._browser_urls,
            watchers=tuple(lobby.watchers),
        )

    def _offline_lobby(self, lobby: Lobby | None) -> LobbyInfo:
        """An offline table's lobby: the player and the bots, all ready (nobody joins)."""
        settings = self.hosting
        assert settings is not None
        names = {status.seat: status.name for status in lobby.seats} if lobby else {}
        seats = tuple(
            SeatInfo(
                seat,
                names.get(seat)
                or (self.name if seat == settings.your_seat else persona(seat).bot_name),
                SeatKind.YOU if seat == settings.your_seat else SeatKind.BOT,
                ready=True,
            )
            for seat in settings.seats
        )
        started = lobby is not None and (
            lobby.state is not TableState.LOBBY or self._public is not None
        )
        return LobbyInfo(
            table_name=settings.table_name,
            difficulty=settings.difficulty,
            seats=seats,
            your_seat=settings.your_seat,
            is_host=True,
            offline=True,
            pack_name=self.pack.name,
            started=started,
        )

    def _placeholder_lobby(self) -> LobbyInfo:
        """What is known before the host's own lobby message arrives."""
        if self.offline is not None:
            return self._offline_lobby(None)
        settings = self.hosting
        if settings is None:
            return LobbyInfo(
                table_name="the table",
                difficulty=Difficulty.NORMAL,
                seats=(),
                your_seat=GHOST if self.role is Role.GHOST else 1,
                is_host=False,
                offline=False,
                code=self._code(),
                address=self._where(),
                pack_name=self.pack.name,
                watching=self.watch,
            )
        seats = tuple(
            SeatInfo(
                seat,
                self.name if seat == settings.your_seat else "",
                SeatKind.YOU if seat == settings.your_seat else SeatKind.OPEN,
            )
            for seat in settings.seats
        )
        return LobbyInfo(
            can_start=True,
            starts=Starts.OWNER,
            table_name=settings.table_name,
            difficulty=settings.difficulty,
            seats=seats,
            your_seat=settings.your_seat,
            is_host=True,
            offline=False,
            code=self._code(),
            address=self._where(),
            listening=self._listening(),
            pack_name=self.pack.name,
            browser_seats=self._browser_urls,
        )

    def _code(self) -> str | None:
        if self.offline is not None:
            return None  # nobody can join it
        if self._host is not None:
            return self._host.tables()[0].code
        return str(self._ticket.code) if self._ticket is not None else None

    def _listening(self) -> str | None:
        """Where the table hosted here accepts players, for its lobby (``None``: not hosted
        here): every network of the laptop unless ``--interface`` named one."""
        if self.hosting is None:
            return None
        if self._interface is None:
            return "all networks, the LAN too (--interface IP for one)"
        return f"{self._interface} only"

    def _where(self) -> str | None:
        if isinstance(self._host, RunningHost):
            return self._host.url
        if self._address is not None:
            return self._address.url
        if self._ticket is not None and self._ticket.address is not None:
            return self._ticket.address.url
        return None

    # --- plumbing ------------------------------------------------------------------------------

    @property
    def _seat(self) -> int | None:
        return self._client.session.seat if self._client is not None else None

    def _replica(self) -> Replica | None:
        return self._client.session.player.replica if self._client is not None else None

    def _log(self, event: str, fields: Mapping[str, Any]) -> None:
        """The connection's log (the status bar says what matters of it every second)."""

    def _fail(self, reason: str, *, watchable: bool = False) -> None:
        self._emit(SessionClosed(reason, failed=True, watchable=watchable))
        self._channel.close()

    async def _shut(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        self._tasks.clear()
        if self._close_browser_seats is not None:
            await self._close_browser_seats()
            self._close_browser_seats = None
        if self._host is not None:
            await self._host.close()
            self._host = None

    def _next_game(self) -> None:
        """The host opened the table's next game: this seat is in its lobby now."""
        self._public = None
        self._moves = 0
        self._verified = self._abort_told = False
        self._announcing = False
        self._prelude_over = self._prelude is None

    def _emit(self, event: SessionEvent) -> None:
        if isinstance(event, LobbyChanged) and self.offline is not None:
            # Bots taking their seats change the host's lobby, never an offline table's.
            if event.lobby == self._lobby_told:
                return
            self._lobby_told = event.lobby
        self._channel.put(event)


def _seance_due(state: GameState | None) -> bool:
    """The Ghost owes the séance now (``rules.due``)."""
    return state is not None and due(state).seance


def _history(actions: Sequence[Action]) -> frozenset[int]:
    """The séances of a batch of news that are history already (a later séance, or a marker
    of the next round, came with them: a client catching up after a resume or a reconnect):
    their views are shown without replaying the séance, only the latest one is."""
    seances = [i for i, action in enumerate(actions) if isinstance(action, Seance | CulpritSeance)]
    if not seances:
        return frozenset()
    latest = seances[-1]
    followed = any(isinstance(action, Place) for action in actions[latest + 1 :])
    return frozenset(seances if followed else seances[:-1])


def away_status(seconds: float) -> Status:
    """The status line while the host is away (a laptop asleep, restarting or resuming)."""
    return Status(
        f"The host is away — waiting for it to come back ({int(seconds)} s)",
        Severity.WARNING,
        connected=False,
    )


def resumed_settings(unfinished: UnfinishedTable, player_name: str) -> TableSettings:
    """The settings of a table this laptop hosted, as its store kept them."""
    stored = unfinished.stored
    config = stored.config
    owner = stored.owner if stored.owner is not None else 1
    name = unfinished.names.get(owner) or player_name
    return TableSettings(
        table_name=config.name[:MAX_NAME_LENGTH],
        player_name=name[:MAX_NAME_LENGTH],
        role=SessionRole.GHOST if owner == GHOST else SessionRole.INVESTIGATOR,
        difficulty=config.difficulty,
        investigators=config.investigators,
        timer=config.timer,
    )


def _kind(yours: bool, bot: bool, taken: bool) -> SeatKind:
    if yours:
        return SeatKind.YOU
    if bot:
        return SeatKind.BOT
    return SeatKind.HUMAN if taken else SeatKind.OPEN


def _with_port(config: HostConfig, port: int) -> HostConfig:
    return replace(config, port=port)


def _why(error: BaseException, *, was_seated: bool) -> str:
    """A fatal connection error, as the player should read it (true in every case: the
    code is said to be refused only when it was refused at the first contact)."""
    match error:
        case WrongCode() if was_seated:
            return (
                "the table you sat at is no longer there: its host opened a new table "
                "(it resumes yours with domicile play --resume)"
            )
        case WrongCode():
            return "the host refused the code: check it and try again"
        case HostIdentityChanged():
            return f"the host's identity changed, so the connection was refused: {error}"
        case Refused():
            return f"the host refused: {error}"
        case Unreachable():
            return str(error)
        case BadEvent():
            return f"the host sent something this client can prove wrong: {error}"
        case NetError():
            return str(error)
    return f"the connection failed: {error!r}"
