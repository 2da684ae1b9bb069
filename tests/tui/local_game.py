"""A whole game played synchronously in a test, through the real protocol (sans I/O).

Tests that want a game's views and events at a seed without a running table (a
hint checked against the game a player meets, a tampered transcript, a late
reveal) play it here; the client's offline table is a hosted table
(``domicile_tui.networked``), not this.  :class:`LocalGame`: the host's
:class:`~domicile_p2p.transcript.GameTable` orders every action, one signing
agent per seat signs it, and a :class:`~domicile_p2p.transcript.Replica` (the
player's own checked copy, as on the network) checks every event before
anyone sees it.  The bots read the game from the same replica through their
agents, exactly as ``domicile selfplay`` does; the player acts through their
seat's agent.  At the end the Ghost reveals its seed and this client runs
the full verifier over the transcript.

It is synchronous and knows no clock: the test plays the bots.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from domicile_p2p.bots import InvestigatorBot, Listener, Policy
from domicile_p2p.fairness.commit import GAME_ID_BYTES
from domicile_p2p.fairness.seeds import HOST, SelfplaySeeds
from domicile_p2p.identity import Identity
from domicile_p2p.packs import Pack
from domicile_p2p.rules import (
    GHOST,
    Action,
    Chat,
    Difficulty,
    Investigation,
    Lock,
    Phase,
    Place,
    RuleError,
    Stage,
    View,
    due,
    view,
)
from domicile_p2p.transcript import (
    AgentMisuse,
    Event,
    Rejected,
    SeatAgent,
    SignedAction,
    Step,
    make_genesis,
)
from domicile_p2p.transcript.files import write_transcript
from domicile_p2p.transcript.packref import PackIdentity, card_lists
from domicile_p2p.transcript.selfplay import InProcessTable
from domicile_p2p.transcript.verify import verify
from domicile_tui.news import Verification
from domicile_tui.verification import verification_of

PolicyFactory = Callable[[int, Pack, int], Policy]


class Refused(Exception):
    """The player's action cannot be played; the message says which rule or why."""


@dataclass(frozen=True, slots=True)
class Played:
    """What one event did, for the session to tell the app."""

    event: Event
    action: Action | None
    """The rules action of a move (``None`` for the protocol's own events)."""


class LocalGame:
    """One game at an in-process table.  ``seeds`` make it reproducible (tests, demos)."""

    def __init__(
        self,
        *,
        pack: Pack,
        difficulty: Difficulty,
        names: tuple[str, ...],
        player_seat: int,
        player: Identity,
        bot_seats: tuple[int, ...],
        policy_factory: PolicyFactory,
        seeds: SelfplaySeeds | None = None,
        timer: int | None = None,
    ) -> None:
        """``timer``: seconds of each investigation's sand-glass (``None``: no time limit); the
        genesis records it, and whoever keeps the clock calls :meth:`time_up`."""
        self.pack = pack
        self.player_seat = player_seat
        investigators = len(names) - 1
        seats = range(investigators + 1)

        def identity_of(party: int | str) -> Identity:
            if seeds is None:
                return Identity.generate()
            return Identity.from_private_bytes(seeds.identity(party))

        identities = tuple(player if s == player_seat else identity_of(s) for s in seats)
        host = identity_of(HOST)
        game_id = seeds.game_id if seeds is not None else secrets.token_bytes(GAME_ID_BYTES)
        genesis = make_genesis(
            game_id=game_id,
            host=host.public_key,
            difficulty=difficulty.value,
            seats=[
                (name, identity.public_key)
                for name, identity in zip(names, identities, strict=True)
            ],
            pack_id=pack.id,
            pack_hash=pack.content_hash,
            cards=card_lists(pack),
            timer=timer,
        )
        self.local = InProcessTable(
            host=host,
            genesis=genesis,
            identities=identities,
            ghost_seed=seeds.ghost_seed if seeds is not None else None,
            entropy=seeds.entropy if seeds is not None else lambda _seat: None,
        )
        self.game_table, self.replica, self.ghost = (
            self.local.game_table,
            self.local.replica,
            self.local.ghost,
        )
        self.agents: dict[int, SeatAgent] = dict(enumerate(self.local.agents))
        self.policies: dict[int, Policy] = {
            seat: policy_factory(
                seat, pack, seeds.bot_seed(seat) if seeds is not None else secrets.randbits(63)
            )
            for seat in bot_seats
        }
        # A bot says its line of table talk once, when first asked before it locks (a chat
        # changes no state, so it cannot see whether the line went out): a line it gave is
        # kept until it is played, or asking again (as the table does before each move)
        # would lose it.
        self._talk: dict[int, Chat] = {}
        # The bots weigh what the people at the table say, and follow the people's locked
        # markers in Stage Two (domicile_p2p.bots.investigator).
        people = frozenset(range(1, investigators + 1)) - frozenset(bot_seats)
        for policy in self.policies.values():
            if isinstance(policy, InvestigatorBot):
                policy.people = people

    # --- the protocol around the game ------------------------------------------------

    def set_up(self) -> list[Played]:
        """Commitments, reveals, the deal and the slot commitments: the game can begin."""
        return self._played(self.local.set_up())

    def finish(self) -> list[Played]:
        """The Ghost reveals its seed once the game is over."""
        return self._submit(self.ghost.reveal())

    @property
    def over(self) -> bool:
        return self.replica.step is not Step.PLAY

    @property
    def finished(self) -> bool:
        return self.replica.step is Step.FINISHED

    # --- play ----------------------------------------------------------------------------

    def view(self, seat: int) -> View:
        if seat == GHOST:
            return self.ghost.view()
        state = self.replica.state
        assert state is not None, "the game is dealt before anyone looks at it"
        return view(state, seat)

    def play(self, seat: int, action: Action) -> list[Played]:
        """Sign ``action`` for ``seat`` and submit it; :class:`Refused` when it cannot be played."""
        if self._talk.get(seat) is action:
            del self._talk[seat]
        agent = self.agents[seat]
        try:
            signed = agent.sign_move(action)
        except (RuleError, AgentMisuse) as error:
            raise Refused(str(error)) from None
        try:
            played = self._submit(signed)
        except Rejected as error:
            agent.resync()
            raise Refused(error.reason) from None
        if isinstance(action, Chat):
            self._heard(action)
        return played

    def _heard(self, chat: Chat) -> None:
        """Every bot hears a line said at the table."""
        state = self.replica.state
        assert state is not None, "the table talks once the game is dealt"
        for policy in self.policies.values():
            if isinstance(policy, Listener):
                policy.hear(chat.by, chat.text, state.day)

    def bot_actions(self) -> list[tuple[int, Action]]:
        """Every bot's next move on the game as it stands (asking each keeps its memory)."""
        if self.over:
            return []
        wanted: list[tuple[int, Action]] = []
        for seat, policy in self.policies.items():
            action = self._talk.get(seat) or policy.act(self.view(seat))
            if isinstance(action, Chat):
                self._talk[seat] = action
            if action is not None:
                wanted.append((seat, action))
        return wanted

    def seance_due(self) -> bool:
        """The Ghost must announce the séance (the human Ghost's is announced for them)."""
        state = self.replica.state
        return state is not None and not self.over and due(state).seance

    def announce_seance(self) -> list[Played]:
        """The Ghost's true verdicts: an honest Ghost has nothing to choose here."""
        signed = self.ghost.seance()
        return self._submit(signed)

    def _submit(self, signed: SignedAction) -> list[Played]:
        return self._played(self.local.submit(signed))

    def _played(self, events: Sequence[Event]) -> list[Played]:
        """The events with the rules action each one carries (read from the replica's ledger)."""
        # Each event carries at most one move, so these events' moves are the last ones.
        recent = self.replica.ledger.moves[-len(events) :] if events else ()
        moves = dict(recent)
        return [Played(event, moves.get(event.seq)) for event in events]

    @property
    def investigation(self) -> Investigation | None:
        """The (day, stage) of the investigation under way, at a table with a sand-glass."""
        state = self.replica.state
        if state is None or self.over:
            return None
        now = due(state)
        return now.investigation if now.timed else None

    def time_up(self) -> list[Played]:
        """The sand-glass ran out: the host's signed time-up (placed markers lock where they
        stand, a seat without one made no guess)."""
        return self._played([self.local.time_up()])

    # --- the end ----------------------------------------------------------------------

    def verification(self) -> Verification:
        """The whole transcript, verified from scratch as ``domicile verify`` would."""
        report = verify(list(self.game_table.events), pack=PackIdentity.of(self.pack))
        return verification_of(report)

    def export(self, path: Path) -> Path:
        write_transcript(path, self.game_table.events)
        return path

    def keep(self, directory: Path) -> Path:
        """Write the transcript into ``directory``, named by the game's id (as a host does)."""
        return self.export(directory / f"{self.replica.game_id}.json")


SKIP_LIMIT = 500
"""Moves the guide may play at most (Stage One takes about 30 at the tutorial's table)."""


class Guide:
    """An investigator who reads the answer from the Ghost's columns: places the marker on
    the card sought, then locks.  Only the tutorial's skipped days use it."""

    def __init__(self, seat: int, game: LocalGame) -> None:
        self.seat = seat
        self.game = game

    def act(self, view: View) -> Action | None:
        state = view.state
        me = state.investigator(self.seat)
        if state.stage is not Stage.PLOT or state.phase is not Phase.INVESTIGATION:
            return None
        if not me.served or me.locked or me.seeking is None:
            return None
        knowledge = self.game.ghost.view().ghost
        assert knowledge is not None, "the Ghost's own view holds its columns"
        target = knowledge.column(self.seat).card(me.seeking)
        return Lock(self.seat) if me.marker == target else Place(self.seat, target)


def play_out_stage_one(game: LocalGame) -> None:
    """Play ``game`` until Stage Two begins: the Ghost's bot gives, guides investigate."""
    bots = game.policies
    investigators = game.replica.state.config.seats if game.replica.state else ()
    game.policies = {GHOST: bots[GHOST], **{seat: Guide(seat, game) for seat in investigators}}
    try:
        for _ in range(SKIP_LIMIT):
            state = game.replica.state
            if game.over or state is None or state.stage is Stage.CULPRIT:
                return
            wanted = game.bot_actions()
            if not wanted:
                raise RuntimeError("the tutorial's skipped days came to a stop")
            seat, action = wanted[0]
            game.play(seat, action)
        raise RuntimeError("the tutorial's skipped days did not reach Stage Two")
    finally:
        game.policies = bots
