"""A networked game the host aborted after the end because the Ghost was late to reveal its
seed, and which the Ghost revealed after all: the client still verifies what was played
and says so, as an offline table does.

The table's events are made in this process (the protocol's plain players in every
seat, the host's own abort statement) and handed to the client's session one batch at
a time, as its connection would: the test checks what the session tells the app.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from local_game import LocalGame
from tui_support import PACK

from domicile_p2p.fairness.seeds import SelfplaySeeds
from domicile_p2p.identity import Identity
from domicile_p2p.net.join.codes import parse_code
from domicile_p2p.net.wire import Role as WireRole
from domicile_p2p.rules import Difficulty, Phase, View, view
from domicile_p2p.transcript import Event, Replica, Step
from domicile_p2p.transcript.selfplay import PlainPolicy
from domicile_tui.networked import NetworkTable
from domicile_tui.news import GameVerified, SessionEvent, StatusChanged
from domicile_tui.status import Severity
from domicile_tui.ticket import JoinTicket

SEAT = 1


@dataclass
class Player:
    """What the session reads of its seat's player: the checked replica and its view."""

    replica: Replica

    def view(self) -> View | None:
        state = self.replica.state
        return None if state is None else view(state, SEAT)


@dataclass
class Session:
    player: Player
    seat: int = SEAT


@dataclass
class Client:
    session: Session


def a_game_the_ghost_is_late_to_reveal() -> tuple[list[Event], Event, Event]:
    """Every event of a whole game up to its end, the host's abort (the Ghost did not
    reveal in time), and the Ghost's reveal that came after."""
    game = LocalGame(
        pack=PACK,
        difficulty=Difficulty.EASY,
        names=("Ghost", "Ada", "Bea"),
        player_seat=SEAT,
        player=Identity.generate(),
        bot_seats=(0, 1, 2),
        policy_factory=lambda seat, _pack, bot_seed: PlainPolicy(seat, bot_seed),
        seeds=SelfplaySeeds.from_number(11),
    )
    game.set_up()
    while not game.over:
        seat, action = game.bot_actions()[0]
        game.play(seat, action)
    game_table = game.local.game_table
    played = list(game_table.events)
    abort = game_table.abort_stalled()
    game.replica.receive(abort)
    (reveal,) = (played_event.event for played_event in game.finish())
    return played, abort, reveal


def drain(table: NetworkTable) -> list[SessionEvent]:
    queue = table._channel._queue
    told: list[SessionEvent] = []
    while not queue.empty():
        told.append(queue.get_nowait())  # type: ignore[arg-type]
    return told


async def test_an_abort_the_ghost_answered_with_its_seed_is_verified(tmp_path: Path) -> None:
    played, abort, reveal = a_game_the_ghost_is_late_to_reveal()
    ticket = JoinTicket(parse_code("1-wheat-owl"))
    table = NetworkTable(PACK, tmp_path, name="Ada", role=WireRole.ANY, ticket=ticket)
    replica = Replica(played[0])
    client = Client(Session(Player(replica)))
    for event in played[1:]:
        replica.receive(event)
    table._news(client)  # type: ignore[arg-type]
    before = drain(table)
    assert replica.state is not None and replica.state.phase is Phase.ENDED
    assert not [e for e in before if isinstance(e, GameVerified)]  # the seed is still owed

    replica.receive(abort)
    table._news(client)  # type: ignore[arg-type]
    (stopped,) = drain(table)
    assert isinstance(stopped, StatusChanged) and stopped.status.severity is Severity.ERROR
    assert stopped.status.text.startswith("The host stopped the game:")
    assert "did not reveal its seed" in stopped.status.text

    replica.receive(reveal)
    assert replica.step is Step.ABORTED and replica.ledger.over
    table._news(client)  # type: ignore[arg-type]
    (verified,) = drain(table)
    assert isinstance(verified, GameVerified)
    proof = verified.verification
    assert proof.ok and proof.reveal is not None
    assert "the Ghost revealed its seed and everything played checks out" in " ".join(
        check.detail for check in proof.checks
    )
    table._news(client)  # type: ignore[arg-type]
    assert drain(table) == []  # told once
