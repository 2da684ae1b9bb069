"""A spectator at a networked table: a :class:`PeerSession` that watches, over a live client.

The spectator proves the code as a player does and then only listens: its
replica checks every event the host sends (and every chain head relayed),
and :func:`watch_table` hands each new event to ``on_event`` as it is
accepted, live, and each game to ``on_game`` as it ends, verified as a whole
as a bot's is.  A session for several games (``PeerSession(games=...)``)
follows its table from one game to the next.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from domicile_p2p.net.adapters.bot import BotOutcome, GamesEnded, outcome_of
from domicile_p2p.net.adapters.client import PeerClient
from domicile_p2p.net.sessions.peer import PeerSession
from domicile_p2p.transcript import Event
from domicile_p2p.transcript.packref import PackIdentity

EventSink = Callable[[Event], None]
GameSink = Callable[[BotOutcome], None]


class _Feed:
    """Hands every event of every game the session holds to a sink once, in order."""

    def __init__(self, on_event: EventSink | None) -> None:
        self.on_event = on_event
        self.game = 0
        self.shown = 0

    def __call__(self, session: PeerSession) -> None:
        current = session.player.replica
        games = [*session.past_games, *([current] if current is not None else [])]
        while self.game < len(games):
            events = games[self.game].events
            if self.on_event is not None:
                for event in events[self.shown :]:
                    self.on_event(event)
            self.shown = len(events)
            if self.game == len(games) - 1:
                return
            self.game, self.shown = self.game + 1, 0


async def watch_table(
    client: PeerClient,
    on_event: EventSink | None = None,
    on_game: GameSink | None = None,
    *,
    pack: PackIdentity | None = None,
) -> BotOutcome:
    """Watch until the session is done (or a fatal error, raised); the last game, verified
    (against ``pack`` when given, as ``domicile verify`` checks the card pack)."""
    if not client.session.watch:
        raise ValueError("watch_table takes a spectator's session (PeerSession(watch=True))")
    runner = asyncio.create_task(client.run())
    feed = _Feed(on_event)
    ended = GamesEnded(client.session, on_game, pack)
    seen = -1

    def news() -> None:
        feed(client.session)
        ended()

    try:
        while True:
            waiter = asyncio.create_task(client.wait_changed(seen))
            done, _ = await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
            news()
            if runner in done:
                waiter.cancel()
                runner.result()  # re-raises the fatal error that ended the connection
                break
            seen = waiter.result()
    finally:
        if not runner.done():
            runner.cancel()
    return outcome_of(client.session, pack)
