"""The next sand-glass waits until every seated person has seen the séance (issue 23 §8).

A real :class:`HostSession` and peer sessions on the fake network: the Ghost's seat is
a bot (``bot``), the investigators are people (they play with a bot's brain, but joined
as people), and a spectator watches.  After day 1's séance the bots' Ghost gives at
once; the glass of day 2 turns when both people have said ``seen`` (or one has and the
other left), 15 s after the séance at most.
"""

from __future__ import annotations

from pathlib import Path

from net_support import CODE, FakeNetwork, Peer, make_peer, make_room

from domicile_p2p.identity import Identity
from domicile_p2p.net.sessions.guards.sandglass import SEANCE_SEEN_WITHIN
from domicile_p2p.net.sessions.room import Room
from domicile_p2p.net.wire import AllSeen, ErrorCode, Seen, text

TIMER = 30


def day_2_given(tmp: Path) -> tuple[FakeNetwork, Room, list[Peer], Peer, float]:
    """The table at day 2's investigation, given at once after day 1's séance: the network,
    the room, the seats (0: the bot Ghost, 1 and 2: people), a spectator, and when the
    séance was told."""
    network = FakeNetwork([make_room(Identity.generate(), investigators=2, timer=TIMER)])
    peers = [
        make_peer(tmp / f"seat{seat}", seat=seat, name=f"Seat {seat}", bot=seat == 0)
        for seat in range(3)
    ]
    for peer in peers:
        network.join(peer)
        network.deliver()
    spectator = make_peer(tmp / "watcher", name="Watcher", watch=True, bot=False)
    network.join(spectator)
    network.deliver()
    room = network.host.rooms[CODE.nameplate]
    told: list[float] = []

    def at_day_2() -> bool:
        game = room.game
        if game is None:
            return False
        if game.round == (2, 1) and not told:
            told.append(network.now)
        return game.round == (2, 1) and game.investigation == (2, 1)

    network.run([*peers, spectator], until=at_day_2)
    (seance,) = told
    return network, room, peers, spectator, seance


def glass_deadline(network: FakeNetwork) -> float:
    deadline = network.host.next_deadline()
    assert deadline is not None
    return deadline


def say_seen(network: FakeNetwork, peer: Peer, day: int = 2, stage: int = 1) -> None:
    network.apply_peer(peer, peer.session.seen(day, stage))


def test_the_glass_turns_once_every_person_has_seen_the_seance(tmp_path: Path) -> None:
    network, _room, peers, spectator, seance = day_2_given(tmp_path)
    # Nobody has said seen: the glass waits (the séance was told within the last step).
    waiting = glass_deadline(network)
    assert seance - 1 <= waiting - TIMER - SEANCE_SEEN_WITHIN <= seance
    assert waiting - TIMER > network.now, "the glass has not turned at the give"
    say_seen(network, peers[1])
    assert glass_deadline(network) == waiting, "one person still reads it"
    say_seen(network, peers[2])  # the last person (the bot Ghost is never waited for)
    assert glass_deadline(network) == network.now + TIMER, "turned now"
    (logged,) = network.logged("all-seen")
    assert logged == {"event": "all-seen", "table": CODE.nameplate, "day": 2, "stage": 1}
    network.deliver()
    for peer in [*peers, spectator]:  # the seats and the spectator start their bars now
        assert peer.session.all_seen == AllSeen(1, 2, 1)
    say_seen(network, peers[2])  # again: changes nothing, says nothing
    assert len(network.logged("all-seen")) == 1


def test_a_person_who_disconnects_is_not_waited_for(tmp_path: Path) -> None:
    network, _room, peers, spectator, _seance = day_2_given(tmp_path)
    waiting = glass_deadline(network)
    say_seen(network, peers[1])
    assert peers[2].connection is not None
    network.drop(peers[2].connection)  # the other person's client went away
    assert glass_deadline(network) == network.now + TIMER < waiting
    network.deliver()
    assert spectator.session.all_seen == AllSeen(1, 2, 1)


def test_the_glass_turns_15_s_after_the_seance_if_nobody_says_seen(tmp_path: Path) -> None:
    """A client that never sends ``seen`` (an older one) is waited for SEANCE_SEEN_WITHIN."""
    network, room, peers, _spectator, seance = day_2_given(tmp_path)
    deadline = glass_deadline(network)
    assert seance - 1 <= deadline - TIMER - SEANCE_SEEN_WITHIN <= seance
    network.now = deadline - TIMER + 1  # the wait is over: a late seen changes nothing
    say_seen(network, peers[1])
    say_seen(network, peers[2])
    assert glass_deadline(network) == deadline and network.logged("all-seen") == []
    network.now = deadline
    network.apply(network.host.tick(network.now))
    (called,) = network.logged("time-up")
    assert called["table"] == room.nameplate


def test_a_spectator_and_a_wrong_round_are_refused_and_an_earlier_round_ignored(
    tmp_path: Path,
) -> None:
    network, _room, peers, spectator, _seance = day_2_given(tmp_path)
    waiting = glass_deadline(network)
    assert spectator.connection is not None and peers[1].connection is not None
    network.frame(spectator.connection, text(Seen(1, 2, 1)))
    (refused,) = network.take_errors(spectator.connection)
    assert refused.code is ErrorCode.SPECTATOR and "séance" in refused.message
    seat = peers[1].connection
    for wrong, why in [(Seen(1, 3, 1), "day 3, stage 1 has not begun"), (Seen(2, 2, 1), "game 2")]:
        network.frame(seat, text(wrong))
        (refused,) = network.take_errors(seat)
        assert refused.code is ErrorCode.UNEXPECTED and why in refused.message
        assert not refused.fatal
    network.frame(seat, text(Seen(1, 1, 1)))  # day 1's: a séance seen as the next was told
    assert network.take_errors(seat) == []
    network.frame(seat, '{"type":"seen","game":1,"day":2}')
    (refused,) = network.take_errors(seat)
    assert refused.code is ErrorCode.BAD_MESSAGE and "stage" in refused.message
    assert glass_deadline(network) == waiting and network.logged("all-seen") == []


def test_a_flood_of_seen_is_cut_off_like_any_other(tmp_path: Path) -> None:
    network, _room, peers, _spectator, _seance = day_2_given(tmp_path)
    seat = peers[1].connection
    assert seat is not None
    for _ in range(int(network.host.limits.message_burst) + 5):
        if seat in network.closed:
            break
        network.frame(seat, text(Seen(1, 2, 1)))
    errors = network.take_errors(seat)
    assert errors and errors[-1].code is ErrorCode.FLOOD and errors[-1].fatal
    assert seat in network.closed


def test_seen_once_the_game_is_over_changes_nothing_and_is_not_refused(tmp_path: Path) -> None:
    """A client may say what it has seen at any time: a refusal would be taken for the
    refusal of its action in flight (WIRE.md §6c)."""
    network, room, peers, spectator, _seance = day_2_given(tmp_path)
    network.run([*peers, spectator])  # the bots play the game out
    assert room.game is not None and room.game.ended
    seat = peers[1].connection
    assert seat is not None
    network.frame(seat, text(Seen(1, 2, 1)))
    network.frame(seat, text(Seen(1, 7, 2)))
    assert network.take_errors(seat) == []
    assert len(network.logged("all-seen")) == 0
