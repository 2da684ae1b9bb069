"""Bot seats people can take over in the lobby, and when a game starts.

The session rules run over the fake link (no clock, no sockets); the tables
as ``domicile play`` and ``domicile host --lobby-wait`` run them are played
for real, over TLS on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from live_support import LOOPBACK, HostProcess, network_bot, same_transcripts
from net_support import CODE, FakeNetwork, Peer, make_peer, make_room

from domicile_p2p.identity import Identity
from domicile_p2p.net.adapters.host import HostConfig, HostError, start_host
from domicile_p2p.net.errors import Refused
from domicile_p2p.net.join.codes import parse_code
from domicile_p2p.net.sessions.room import Refusal
from domicile_p2p.net.wire import Lobby, Role, Starts, TableState
from domicile_p2p.packs import load_default_pack
from domicile_p2p.transcript.verify import verify

PACK = load_default_pack()


def _table(starts: Starts = Starts.OWNER, lobby_wait: float = 0.0) -> FakeNetwork:
    """Two investigators; the Ghost and seat 2 kept for the host's bots."""
    room = make_room(
        Identity.generate(),
        investigators=2,
        bot_seats=frozenset({0, 2}),
        starts=starts,
        lobby_wait=lobby_wait,
    )
    return FakeNetwork([room])


def _sit(network: FakeNetwork, peer: Peer) -> Peer:
    network.join(peer)
    while network.deliver():
        pass
    return peer


def _bots(network: FakeNetwork, tmp: Path) -> dict[int, Peer]:
    return {
        seat: _sit(network, make_peer(tmp / f"bot{seat}", seat=seat, name=f"Bot {seat}"))
        for seat in (0, 2)
    }


def _lobby(peer: Peer) -> Lobby:
    assert peer.session.lobby is not None
    return peer.session.lobby


def test_a_person_takes_an_investigator_bot_seat_and_the_bot_steps_aside(tmp_path: Path) -> None:
    network = _table()
    bots = _bots(network, tmp_path)
    owner = _sit(network, make_peer(tmp_path / "owner", seat=1, name="Ada", bot=False))
    room = network.host.rooms[CODE.nameplate]
    assert room.full and room.state is TableState.LOBBY, "a table of bots waits for its owner"
    assert room.bot_held == [0, 2]

    friend = _sit(network, make_peer(tmp_path / "friend", name="Idris", bot=False))
    assert friend.session.seat == 2, "an investigator's bot seat, not the Ghost's"
    assert isinstance(bots[2].error, Refused) and bots[2].error.code == "taken-over"
    assert bots[0].error is None, "the Ghost's bot keeps its seat"
    assert network.logged("take-over")[0]["seat"] == 2
    seats = {status.seat: status for status in _lobby(owner).seats}
    assert (seats[2].name, seats[2].bot) == ("Idris", False)
    assert (seats[0].name, seats[0].bot) == ("Bot 0", True)
    assert _lobby(owner).starts is Starts.OWNER

    # Nobody else may have the Ghost's bot seat without asking for the Ghost.
    other = _sit(network, make_peer(tmp_path / "other", role=Role.ANY, bot=False))
    assert isinstance(other.error, Refused) and other.error.code == "role-taken"
    assert "ask for the Ghost" in str(other.error)
    investigator = _sit(network, make_peer(tmp_path / "inv", role=Role.INVESTIGATOR, bot=False))
    assert isinstance(investigator.error, Refused) and investigator.error.code == "role-taken"
    assert room.state is TableState.LOBBY

    # Asking for the Ghost takes the bot's Ghost seat; then every seat is a person's: go.
    ghost = _sit(network, make_peer(tmp_path / "ghost", role=Role.GHOST, name="Mina", bot=False))
    assert ghost.session.seat == 0
    assert isinstance(bots[0].error, Refused) and bots[0].error.code == "taken-over"
    assert room.game is not None, "a table of people starts by itself"
    players = [owner, friend, ghost]
    network.run(players)
    assert all(peer.error is None and peer.session.finished for peer in players)
    assert verify(list(owner.session.player.replica.events)).valid


def test_the_owner_starts_with_a_bot_still_seated_and_a_late_joiner_is_refused(
    tmp_path: Path,
) -> None:
    network = _table()
    bots = _bots(network, tmp_path)
    owner = _sit(network, make_peer(tmp_path / "owner", seat=1, name="Ada", bot=False))
    room = network.host.rooms[CODE.nameplate]
    assert room.game is None
    network.apply(network.host.start_table(CODE.nameplate, network.now))
    assert room.game is not None and network.logged("game-started")
    with pytest.raises(Refusal, match="already started"):
        network.host.start_table(CODE.nameplate, network.now)

    late = _sit(network, make_peer(tmp_path / "late", role=Role.INVESTIGATOR, bot=False))
    assert isinstance(late.error, Refused) and late.error.code == "game-started"
    assert "the game has started" in str(late.error)

    players = [owner, *bots.values()]
    network.run(players)
    assert all(peer.error is None and peer.session.finished for peer in players)


def test_a_hosted_bot_that_arrives_after_a_person_took_its_seat_steps_aside(
    tmp_path: Path,
) -> None:
    network = _table()
    friend = _sit(network, make_peer(tmp_path / "friend", role=Role.INVESTIGATOR, bot=False))
    assert friend.session.seat == 1, "an open seat before any bot's"
    second = _sit(network, make_peer(tmp_path / "second", role=Role.INVESTIGATOR, bot=False))
    assert second.session.seat == 2, "then the seat kept for a bot that is not here yet"
    late_bot = _sit(network, make_peer(tmp_path / "bot2", seat=2, name="Bot 2"))
    assert isinstance(late_bot.error, Refused) and late_bot.error.code == "taken-over"

    # A person who leaves before the start frees the seat (for its bot to come back).
    assert second.connection is not None
    network.drop(second.connection)
    room = network.host.rooms[CODE.nameplate]
    assert 2 not in room.holders and room.bot_held == [0, 2]
    back = _sit(network, make_peer(tmp_path / "bot2", seat=2, name="Bot 2"))
    assert back.error is None and back.session.seat == 2


def test_a_lobby_wait_holds_a_full_table_until_it_is_over(tmp_path: Path) -> None:
    network = _table(Starts.WAIT, lobby_wait=30.0)
    network.apply(network.host.tick(network.now))  # the lobby opens at 0
    _bots(network, tmp_path)
    _sit(network, make_peer(tmp_path / "bot1", seat=1, name="Bot 1"))
    room = network.host.rooms[CODE.nameplate]
    assert room.full and room.game is None
    assert network.host.next_deadline() == 30.0
    network.now = 29.0
    network.apply(network.host.tick(network.now))
    assert room.game is None
    friend = _sit(network, make_peer(tmp_path / "friend", role=Role.INVESTIGATOR, bot=False))
    assert friend.session.seat == 2
    assert room.game is None, "a bot still plays seat 1: the wait goes on"
    network.now = 30.0
    network.apply(network.host.tick(network.now))
    assert room.game is not None
    assert [h.bot for h in (room.holders[s] for s in (0, 1, 2))] == [True, True, False]


# --------------------------------------------------------------------------- over TLS


async def _until(condition: Any, what: str, timeout: float = 20.0) -> None:
    for _ in range(int(timeout / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


async def test_a_friend_takes_a_bot_seat_at_a_play_table_and_the_owner_starts_it(
    tmp_path: Path,
) -> None:
    """As ``domicile play`` hosts: the owner in seat 1, bots everywhere else, owner starts."""
    records: list[dict[str, Any]] = []
    host = await start_host(
        HostConfig(
            data_dir=tmp_path / "host",
            interface=LOOPBACK,
            port=0,
            investigators=3,
            bot_seats=frozenset({2, 3}),
            ghost_bot=True,
            bot_names={0: "The Ghost", 2: "Idris Hale", 3: "Mina Sorel"},
            owner_starts=True,
            advertise=False,
            pack=PACK,
        ),
        lambda event, fields: records.append({"event": event, **fields}),
    )
    try:
        code = host.tables()[0].code
        owner = network_bot(tmp_path / "owner", host.url, parse_code(code), seat=1, person=True)
        owner_play = asyncio.create_task(owner.play())
        room = host.rooms[parse_code(code).nameplate]

        def everyone_seen() -> bool:
            seen = owner.session.lobby
            return seen is not None and all(status.key for status in seen.seats)

        await _until(everyone_seen, "the bots in the owner's lobby")
        lobby = owner.session.lobby
        assert lobby is not None and lobby.state is TableState.LOBBY
        assert [(s.name, s.bot) for s in lobby.seats if s.seat != 1] == [
            ("The Ghost", True),
            ("Idris Hale", True),
            ("Mina Sorel", True),
        ]
        assert host.tables()[0].bot_seats == 3

        friend = network_bot(
            tmp_path / "friend", host.url, parse_code(code), role=Role.ANY, person=True, seed=2
        )
        friend_play = asyncio.create_task(friend.play())
        await _until(lambda: friend.session.seat is not None, "the friend's seat")
        assert friend.session.seat == 2
        await _until(
            lambda: any(r["event"] == "bot-stepped-aside" for r in records), "the bot to go"
        )
        assert room.state is TableState.LOBBY, "a bot still holds seats 0 and 3"

        host.start_table()
        await asyncio.wait_for(host.wait_done(), 90)
        outcomes = await asyncio.wait_for(asyncio.gather(owner_play, friend_play), 30)
        assert all(outcome.valid for outcome in outcomes)
        assert same_transcripts(outcomes)
        genesis = outcomes[0].report.replica.table_setup.genesis  # type: ignore[union-attr]
        assert genesis.seats[2].key == friend.session.identity.public_hex
        assert [entry.name for entry in genesis.seats][3] == "Mina Sorel"
        ended = next(r for r in records if r["event"] == "game-ended")
        assert ended["verified"]
        with pytest.raises(HostError, match="already started"):
            host.start_table()

        late = network_bot(tmp_path / "late", host.url, parse_code(code), person=True)
        with pytest.raises(Refused, match="the game has started"):
            await asyncio.wait_for(late.play(), 20)
    finally:
        await host.close()
    assert not [r for r in records if r["event"] in ("bot-failed", "bot-verification-failed")]


@pytest.mark.slow
async def test_a_headless_host_with_a_lobby_wait_lets_a_person_take_a_bot_seat(
    tmp_path: Path,
) -> None:
    host = HostProcess(
        tmp_path / "host",
        "--investigators",
        "2",
        "--bots",
        "all",
        "--ghost",
        "bot",
        "--lobby-wait",
        "6",
        "--exit-when-done",
    ).start()
    try:
        table = await host.wait_for("table")
        assert table["starts"] == "wait"
        url = host.url
        person = network_bot(
            tmp_path / "person",
            url,
            parse_code(table["code"]),
            role=Role.INVESTIGATOR,
            person=True,
        )
        outcome = await asyncio.wait_for(person.play(), 90)
        assert outcome.valid and person.session.seat == 1
        await host.wait_for("game-ended", 30)
        assert await host.exited(30) == 0
        events = [r["event"] for r in host.records]
        assert events.index("take-over") < events.index("game-started")
        assert "bot-stepped-aside" in events
    finally:
        host.close()
