"""A bot at a networked table: a policy deciding for one seat's ``PeerSession``.

The bot is a player like any other: it joins with the code, proves its key,
checks every event with its own replica, and signs its own actions.
:class:`BotBrain` is the pure part: once the session is ready (seated,
caught up, nothing in flight) it returns what the protocol owes (a
commitment, a reveal) or what its policy decides, signed.  After a refusal
it waits for the next event before deciding again, so a confused policy
cannot flood the host.  :func:`run_bot` pumps it over a live
:class:`~domicile_p2p.net.adapters.client.PeerClient`, through as many of
the table's games as the session stays for (a bot is always ready for the
next one); each finished game's outcome goes to ``on_game`` as it ends.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from domicile_p2p.bots import InvestigatorBot, make_policy
from domicile_p2p.bots import Policy as BotPolicy
from domicile_p2p.bots.waiting import wait_left, waiting_for_people
from domicile_p2p.net.adapters.client import PeerClient
from domicile_p2p.net.errors import NetError
from domicile_p2p.net.sessions.host import HostLimits
from domicile_p2p.net.sessions.limits import TokenBucket
from domicile_p2p.net.sessions.peer import PeerSession
from domicile_p2p.packs import Pack, load_default_pack
from domicile_p2p.rules import GHOST, Chat, GameState, RuleError
from domicile_p2p.transcript import Event, Replica, SignedAction
from domicile_p2p.transcript.errors import AgentMisuse
from domicile_p2p.transcript.packref import PackIdentity
from domicile_p2p.transcript.schema import ChatBody
from domicile_p2p.transcript.verify import VerifyReport, verify

PolicyFactory: TypeAlias = Callable[[int, Pack, int], BotPolicy]
"""Makes the policy that decides for a seat: ``(seat, pack, seed)``."""


class PackMismatch(NetError):
    """The table plays a card pack this bot does not have (it could not read the cards)."""


@dataclass(frozen=True, slots=True)
class BotOutcome:
    """The transcript a bot (or a spectator) ended the game with, and its own verification."""

    events: tuple[Event, ...]
    report: VerifyReport
    game_id: str | None = None
    """The game's id (hex), as its genesis names it; ``None``: no game began."""

    @property
    def valid(self) -> bool:
        return self.report.valid


class BotBrain:
    """Decides for one seat, from exactly what the seat's replica and agent know."""

    def __init__(
        self,
        session: PeerSession,
        *,
        pack: Pack | None = None,
        seed: int | None = None,
        policies: PolicyFactory | None = None,
        on_illegal: Callable[[str], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        wait_for_people: bool | None = None,
    ) -> None:
        """``wait_for_people``: in Stage Two, wait for the people before locking
        (``bots.waiting``); by default when the session says it is a bot's (a person's
        seat played by a bot, as in tests, treats every seat alike).  ``policies``: what
        decides for the seat (the real bots, ``make_policy``, by default)."""
        self.session = session
        self._policies: PolicyFactory = policies or make_policy
        self._clock = clock
        self._wait_for_people = session.bot if wait_for_people is None else wait_for_people
        self._heard = 0
        """How many of the replica's events the policy has been told of (chat)."""
        self._since: dict[tuple[int | None, int], float] = {}
        """When each Stage Two investigation (game, day) was first seen waiting for people."""
        self._wake_in: float | None = None
        self._talk = _talk_budget()
        self.pack = pack or load_default_pack()
        self.seed = secrets.randbits(63) if seed is None else seed
        self._on_illegal = on_illegal
        self._policy: BotPolicy | None = None
        self._stuck_at: int | None = None
        self._chatted_last = False
        self._game = session.game

    def refused(self) -> None:
        """The host refused our last action: decide again only after the next event.

        A refused line of table talk (over the host's chat bound) is simply not said:
        the policy has moved on to its next move (the lock it announced), which is
        decided at once, or the seat would wait for an event that only that lock brings."""
        if self._chatted_last:
            return
        self._stuck_at = self.session.player.held

    def _policy_for_seat(self) -> BotPolicy:
        if self._policy is None:
            replica = self.session.player.replica
            seat = self.session.seat
            assert replica is not None and seat is not None
            pack_ref = replica.table_setup.genesis.pack
            if pack_ref.hash != self.pack.content_hash:
                raise PackMismatch(
                    f"the table plays pack {pack_ref.id} ({pack_ref.hash[:12]}...), "
                    f"this bot has {self.pack.id} ({self.pack.content_hash[:12]}...)"
                )
            self._policy = self._policies(seat, self.pack, self.seed)
        return self._policy

    def decide(self) -> SignedAction | None:
        """The next action to send now, signed, or ``None``."""
        session = self.session
        if session.game != self._game:
            # The table's next game: maybe another seat, surely another replica.
            self._game, self._policy, self._stuck_at = session.game, None, None
            self._heard, self._since = 0, {}
        if not session.ready or session.finished:
            return None
        player = session.player
        if self._stuck_at is not None:
            if self._stuck_at == player.held:
                return None
            self._stuck_at = None
        due = player.due()
        if due is not None or not player.playing:
            return due
        view = player.view()
        if view is None:
            return None
        policy = self._policy_for_seat()
        # A policy that plays part of a game for a bot (the tutorial's guide) hands the
        # rest to the bot it names ``then``: that bot is briefed all along.
        briefed = getattr(policy, "then", policy)
        if isinstance(briefed, InvestigatorBot):
            self._brief(briefed, view.state)
        action = policy.act(view)
        if isinstance(action, Chat) and not self._talk.allow(self._clock()):
            # Table talk is a courtesy: a line the host's chat bound would refuse is not
            # said (a refusal would be logged, and counted against the connection), and
            # the policy's next move is the lock the line announced.
            action = policy.act(view)
        self._chatted_last = isinstance(action, Chat)
        if action is None:
            return None
        try:
            return player.play(action)
        except (RuleError, AgentMisuse) as exc:
            if self._on_illegal is not None:
                self._on_illegal(f"the bot of seat {session.seat} chose an illegal move: {exc}")
            self._stuck_at = player.held
            return None

    def outcome(self) -> BotOutcome:
        return outcome_of(self.session)

    def wake_in(self) -> float | None:
        """Seconds until the bot should decide again although nothing happened (its wait
        for the people in Stage Two runs out), or ``None``."""
        return self._wake_in

    def _people(self) -> frozenset[int]:
        """The other investigator seats people hold, as the lobby says."""
        lobby = self.session.lobby
        if not self._wait_for_people or lobby is None:
            return frozenset()
        return frozenset(
            status.seat
            for status in lobby.seats
            if not status.bot and status.seat not in (GHOST, self.session.seat)
        )

    def _brief(self, policy: InvestigatorBot, state: GameState) -> None:
        """Tell the investigator bot who the people are, what was said, and whether it
        waits for the people before locking."""
        replica = self.session.player.replica
        if replica is not None:
            events = replica.events
            for event in events[self._heard :]:
                if isinstance(event.body, ChatBody) and event.seat is not None:
                    policy.hear(event.seat, event.body.text, state.day)
            self._heard = len(events)
        people = self._people()
        policy.people = people
        self._wake_in = None
        if waiting_for_people(state, people):
            # Counted from the first look at this day's Stage Two investigation: the
            # group give that began it (a person Ghost may take its time to give).
            now = self._clock()
            since = self._since.setdefault((self.session.game, state.day), now)
            self._wake_in = wait_left(state, people, now - since)
        policy.hold_lock = self._wake_in is not None


def _talk_budget() -> TokenBucket:
    """The bot's own pace of table talk: the host's chat bound (``HostLimits``, WIRE.md)
    with one message less in a burst, so that lines sent in time do not arrive too close
    together after the network's jitter."""
    limits = HostLimits()
    return TokenBucket(limits.chat_rate, limits.chat_burst - 1)


def outcome_of(session: PeerSession, pack: PackIdentity | None = None) -> BotOutcome:
    """The transcript ``session`` holds now (a seat's or a spectator's), verified as a whole
    (against ``pack`` when given: ``verify``'s card pack check)."""
    return replica_outcome(session.player.replica, pack)


def replica_outcome(replica: Replica | None, pack: PackIdentity | None = None) -> BotOutcome:
    """One game's transcript as a seat holds it, verified (against ``pack`` when given)."""
    if replica is None:
        return BotOutcome((), verify([], pack=pack))
    events = replica.events
    return BotOutcome(tuple(events), verify(list(events), pack=pack), replica.game_id)


class GamesEnded:
    """Hands each game ``session`` has seen end to ``on_game`` once, verified, oldest first
    (call it whenever the session may have moved on)."""

    def __init__(
        self,
        session: PeerSession,
        on_game: Callable[[BotOutcome], None] | None,
        pack: PackIdentity | None = None,
    ):
        self.session = session
        self.on_game = on_game
        self.pack = pack
        self.reported = 0

    def __call__(self) -> None:
        over = games_over(self.session)
        for replica in over[self.reported :]:
            if self.on_game is not None:
                self.on_game(replica_outcome(replica, self.pack))
        self.reported = len(over)


def games_over(session: PeerSession) -> Sequence[Replica]:
    """The games this seat has seen end at its table so far, oldest first."""
    current = session.player.replica
    return [*session.past_games, *([current] if current is not None and session.finished else [])]


async def run_bot(
    client: PeerClient,
    brain: BotBrain,
    *,
    delay: float | Callable[[], float] = 0.0,
    on_game: Callable[[BotOutcome], None] | None = None,
) -> BotOutcome:
    """Play until the session is done, then verify the last game's transcript.

    Each game this bot sees end is verified and handed to ``on_game`` at once.
    ``delay`` seconds pass before each decision (a person's pace; a function: drawn
    before each one); a fatal
    error of the connection (a wrong code, a changed certificate, a bad
    event from the host) is raised.
    """
    runner = asyncio.create_task(client.run())
    seen = -1
    refusals = 0
    report = GamesEnded(client.session, on_game)
    try:
        while not client.session.done:
            waiter = asyncio.create_task(client.wait_changed(seen))
            done, _ = await asyncio.wait(
                {runner, waiter}, timeout=brain.wake_in(), return_when=asyncio.FIRST_COMPLETED
            )
            if runner in done:
                waiter.cancel()
                runner.result()  # re-raises the fatal error that ended the connection
                break
            if waiter in done:
                seen = waiter.result()
            else:  # the bot's wait for the people ran out: it decides again
                waiter.cancel()
            report()
            if len(client.refusals) != refusals:
                refusals = len(client.refusals)
                brain.refused()
            wait = delay() if callable(delay) else delay
            if wait > 0 and client.session.ready:
                await asyncio.sleep(wait)
            action = brain.decide()
            if action is not None:
                await client.submit(action)
        await runner
        report()
    finally:
        if not runner.done():
            runner.cancel()
    return brain.outcome()
