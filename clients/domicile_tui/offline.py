"""A table played entirely in this process: the player against bots.

This is a real game, not a demo: the cards are dealt by the fairness
scheme from commitments, every action is signed, ordered by a host table
and checked by the player's own replica (``local_game``), bots (the same
policies that fill seats on the network) play every other seat at a human
pace, and at the end the Ghost reveals its seed and the whole transcript is
verified.  It speaks :class:`~domicile_tui.session.TableSession`, so the app
cannot tell it from a table across the LAN.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Final

from domicile_p2p.client_api import (
    SEANCE_SEEN_WITHIN,
    Identity,
    Pack,
    SelfplaySeeds,
    make_policy,
)
from domicile_p2p.rules import GHOST, Action, Chat, CulpritSeance, RuleError, Seance
from domicile_tui.local_game import LocalGame, Played, PolicyFactory, Refused
from domicile_tui.news import (
    ActionRefused,
    ChatLine,
    ChatPosted,
    GameVerified,
    LobbyChanged,
    LobbyInfo,
    SeatInfo,
    SessionClosed,
    SessionEvent,
    StatusChanged,
    TranscriptKept,
    ViewChanged,
)
from domicile_tui.pacing import BotPace
from domicile_tui.personas import persona
from domicile_tui.session import EventChannel, SettingsError, TableSettings, check_chat
from domicile_tui.status import SeatKind, Severity, Status

OFFLINE_STATUS: Final = Status("Offline table: you and the bots, in this process")
KEPT_GAMES: Final = Path("offline", "games")
"""Where in the data dir an offline table keeps its finished games (a host keeps its own in
``host/games``), so a game is never lost for want of an export."""


class OfflineTable:
    """An in-process table.  ``seed`` fixes every key, the deal and the bots (tests, demos)."""

    def __init__(
        self,
        settings: TableSettings,
        pack: Pack,
        *,
        pace: BotPace | None = None,
        seed: int | None = None,
        identity: Callable[[], Identity] | None = None,
        policy_factory: PolicyFactory = make_policy,
        keep_in: Path | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        prelude: Callable[[LocalGame], None] | None = None,
    ) -> None:
        """``keep_in``: the directory to keep each finished game's transcript in (``None``:
        nowhere, the player exports it or it is lost).  ``sleep`` is how the table waits
        for a sand-glass to run out (``settings.timer``; tests run it out when they like).
        ``prelude`` plays each new game forward before the player sees it (the tutorial
        skips days so)."""
        if settings.open_seats:
            raise SettingsError("an offline table has no open seats: bots take them all")
        self.settings = settings
        self.pack = pack
        self._pace = pace or BotPace()
        self._seed = seed
        self._identity = identity or Identity.generate
        self._policy_factory = policy_factory
        self._keep_in = keep_in
        self._prelude = prelude
        self._keeping: set[asyncio.Task[None]] = set()
        self._games = 0
        self._channel = EventChannel()
        self._game: LocalGame | None = None
        self._changed = asyncio.Event()
        self._bots: asyncio.Task[None] | None = None
        self._sleep = sleep
        self._glass: tuple[tuple[int, int], asyncio.Task[None]] | None = None
        """The investigation whose sand-glass runs, and the wait for it to run out."""
        self._seance_at: float | None = None
        """When the last séance was told, until the player has seen it (``seance_seen``)."""
        self._glass_waits = False
        """The glass under way waits for the player to see the séance before it runs."""

    @property
    def game(self) -> LocalGame | None:
        """The game in progress (for tools and tests; it holds the Ghost's secrets)."""
        return self._game

    # --- TableSession ------------------------------------------------------------

    def events(self) -> AsyncIterator[SessionEvent]:
        return aiter(self._channel)

    async def open(self) -> None:
        self._emit(StatusChanged(OFFLINE_STATUS))
        self._emit(LobbyChanged(self._lobby()))

    async def start_game(self) -> None:
        if self._game is not None and not self._game.over:
            return  # already under way
        self._game = self._new_game()
        self._game.set_up()
        if self._prelude is not None:
            self._prelude(self._game)
        self._emit(LobbyChanged(self._lobby()))
        self._emit(ViewChanged(self._game.view(self.settings.your_seat)))
        self._bots = asyncio.create_task(self._drive(self._game), name="offline table")

    async def act(self, action: Action) -> None:
        game = self._game
        if game is None:
            self._emit(ActionRefused("the game has not begun"))
            return
        if isinstance(action, Chat):
            await self.chat(action.text)
            return
        try:
            played = game.play(self.settings.your_seat, action)
        except Refused as error:
            self._emit(ActionRefused(str(error)))
            return
        self._tell(played)

    async def chat(self, text: str) -> None:
        try:
            message = check_chat(text)
        except SettingsError as error:
            self._emit(ActionRefused(str(error)))
            return
        seat = self.settings.your_seat
        if seat == GHOST:
            self._emit(ActionRefused("the Ghost may never speak"))
            return
        if self._game is None:
            self._emit(ActionRefused("the table talks once the game has begun"))
            return
        try:
            played = self._game.play(seat, Chat(seat, message))
        except Refused as error:
            self._emit(ActionRefused(str(error)))
            return
        self._tell(played)

    async def export_transcript(self, path: Path) -> Path:
        if self._game is None:
            raise FileNotFoundError("no game has been played at this table yet")
        return await asyncio.to_thread(self._game.export, path)

    async def play_again(self) -> None:
        await self._stop()
        self._game = None
        self._games += 1
        self._emit(LobbyChanged(self._lobby()))

    async def set_ready(self, ready: bool) -> None:
        # Nobody to wait for at a table of one person and bots: Enter begins.
        self._emit(ActionRefused("an offline table begins when you press Enter"))

    async def rotate_seats(self) -> None:
        self._emit(ActionRefused("an offline table keeps its seats: set another up to change"))

    async def close(self) -> None:
        await self._stop()
        self._emit(SessionClosed("back at the front door"))
        self._channel.close()

    # --- the game ------------------------------------------------------------------

    def _new_game(self) -> LocalGame:
        settings = self.settings
        seeds = None
        if self._seed is not None:
            seeds = SelfplaySeeds.from_number(self._seed + self._games)
        player = (
            Identity.from_private_bytes(seeds.identity(settings.your_seat))
            if seeds is not None
            else self._identity()
        )
        return LocalGame(
            pack=self.pack,
            difficulty=settings.difficulty,
            names=tuple(self._name(seat) for seat in settings.seats),
            player_seat=settings.your_seat,
            player=player,
            bot_seats=settings.bot_seats,
            policy_factory=self._policy_factory,
            seeds=seeds,
            timer=settings.timer,
        )

    def _tell(self, played: list[Played]) -> None:
        """Tell the app what the table's new events did."""
        game = self._game
        assert game is not None
        seat = self.settings.your_seat
        for item in played:
            action = item.action
            if isinstance(action, Seance | CulpritSeance):
                self._seance_at = asyncio.get_running_loop().time()
            if isinstance(action, Chat):
                line = ChatLine(action.by, self._name(action.by), action.text)
                self._emit(ChatPosted(line))
            elif action is not None:
                self._emit(ViewChanged(game.view(seat), action))
        if game.over and not game.finished:
            game.finish()
            self._emit(GameVerified(game.verification()))
            if self._keep_in is not None:
                task = asyncio.create_task(self._keep(game, self._keep_in))
                self._keeping.add(task)
                task.add_done_callback(self._keeping.discard)
        self._turn_glass(game)
        self._changed.set()

    def seance_seen(self) -> bool:
        """The player has seen the séances: the next glass turns without waiting for
        ``SEANCE_SEEN_WITHIN`` (and one already waiting for it turns now)."""
        self._seance_at = None
        game = self._game
        if game is not None and self._glass_waits:
            self._stop_glass()
            self._turn_glass(game)
        return True

    def _turn_glass(self, game: LocalGame) -> None:
        """Turn the sand-glass when an investigation begins (this table is its host: it calls
        time, as a network host does); put it away when the investigation ends first."""
        investigation = game.investigation
        if self._glass is not None and self._glass[0] == investigation:
            return
        self._stop_glass()
        timer = self.settings.timer
        if investigation is not None and timer is not None:
            # As a host does: no sooner than everyone has seen the séance before it.
            wait = 0.0
            if self._seance_at is not None:
                seen = self._seance_at + SEANCE_SEEN_WITHIN
                wait = max(0.0, seen - asyncio.get_running_loop().time())
            task = asyncio.create_task(self._glass_runs(game, investigation, timer + wait))
            self._glass = (investigation, task)
            self._glass_waits = wait > 0

    async def _glass_runs(
        self, game: LocalGame, investigation: tuple[int, int], timer: float
    ) -> None:
        await self._sleep(timer)
        if game is self._game and game.investigation == investigation:
            self._glass, self._glass_waits = None, False  # run out: time ends this investigation
            self._tell(game.time_up())

    def _stop_glass(self) -> None:
        self._glass_waits = False
        if self._glass is not None:
            self._glass[1].cancel()
            self._glass = None

    async def _drive(self, game: LocalGame) -> None:
        """Let the bots play (and announce a human Ghost's séances), each after a pause."""
        try:
            while not game.over:
                if not self._moves_due(game):
                    self._changed.clear()
                    await self._changed.wait()
                    continue
                await asyncio.sleep(self._pace.delay())
                # The table may have moved on while the bot was thinking: ask again.
                self._play_one(game)
        except (Refused, RuleError) as error:
            text = f"a bot broke a rule and stopped playing: {error}"
            self._emit(StatusChanged(Status(text, Severity.ERROR)))

    def _moves_due(self, game: LocalGame) -> bool:
        human_ghost = self.settings.your_seat == GHOST
        return (human_ghost and game.seance_due()) or bool(game.bot_actions())

    def _play_one(self, game: LocalGame) -> None:
        if game is not self._game or game.over:
            return
        if self.settings.your_seat == GHOST and game.seance_due():
            self._tell(game.announce_seance())
            return
        wanted = game.bot_actions()
        if wanted:
            seat, action = wanted[0]
            self._tell(game.play(seat, action))

    async def _keep(self, game: LocalGame, directory: Path) -> None:
        try:
            path = await asyncio.to_thread(game.keep, directory)
        except OSError as error:
            text = f"Could not keep the transcript in {directory}: {error.strerror}; export it (E)"
            self._emit(StatusChanged(Status(text, Severity.WARNING)))
            return
        self._emit(TranscriptKept(path))

    async def _stop(self) -> None:
        self._stop_glass()
        if self._bots is not None:
            self._bots.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._bots
            self._bots = None

    # --- the lobby -------------------------------------------------------------------

    def _name(self, seat: int) -> str:
        if seat == self.settings.your_seat:
            return self.settings.player_name
        return persona(seat).bot_name

    def _lobby(self) -> LobbyInfo:
        settings = self.settings
        seats = tuple(
            SeatInfo(
                seat,
                self._name(seat),
                SeatKind.YOU if seat == settings.your_seat else SeatKind.BOT,
                ready=True,
            )
            for seat in settings.seats
        )
        return LobbyInfo(
            table_name=settings.table_name,
            difficulty=settings.difficulty,
            seats=seats,
            your_seat=settings.your_seat,
            is_host=True,
            offline=True,
            pack_name=self.pack.name,
            started=self._game is not None and not self._game.over,
        )

    def _emit(self, event: SessionEvent) -> None:
        self._channel.put(event)
