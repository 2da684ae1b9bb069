"""Replayed, re-addressed and forged actions: each refused with its own code; nothing changes.

Every action a player signs is relayed to everyone inside the events, so
any player at the table holds every other player's signed actions.  What
stops them being used again: the seat's counter (a replay), the game id
under the signature (another game), the seat under the signature and the
connection's own seat (someone else's action), the seat's key (a forgery).
"""

from __future__ import annotations

from pathlib import Path

from hostile_support import HostileTable, act_frame, error_reply, finish, in_play, seated

from domicile_p2p.identity import Identity
from domicile_p2p.transcript import Kind, SignedAction
from domicile_p2p.transcript.schema import ChatBody


def _captured(table: HostileTable, seat: int) -> SignedAction:
    """The last action of ``seat`` as every peer received it, inside an event."""
    watcher = table.peers[-1].session.player.replica
    assert watcher is not None
    [*_, event] = [e for e in watcher.events if e.seat == seat]
    return event.action(watcher.game_id)


def _refused(table: HostileTable, connection_peer, frame: str, code: str) -> None:
    before = table.lines()
    table.network.frame(connection_peer.connection, frame)
    error = error_reply(table, connection_peer)
    assert error.code == code and not error.fatal, (code, error)
    assert table.lines() == before, "the transcript did not change"


def test_a_captured_action_replayed_on_the_same_and_on_a_new_connection_is_refused(
    tmp_path: Path,
) -> None:
    table = seated(tmp_path, investigators=2)
    table.network.run(table.peers, until=in_play(table.peers))
    ghost = table.peers[0]
    captured = _captured(table, 0)
    _refused(table, ghost, act_frame(captured), "replay")
    # The same player on a new connection (it proves its key again): still a replay.
    table.network.drop(ghost.connection)
    table.network.join(ghost, pinned=True)
    table.network.deliver()
    assert ghost.session.seated
    _refused(table, ghost, act_frame(captured), "replay")
    # Another player sends it: not theirs to send.
    _refused(table, table.peers[1], act_frame(captured), "not-your-seat")
    # A connection that never sat down cannot send actions at all.
    stranger = table.network.open("10.0.0.99:4000")
    table.network.replies(stranger)
    before = table.lines()
    table.network.frame(stranger, act_frame(captured))
    [error] = table.network.replies(stranger)
    assert error.code == "unexpected" and table.lines() == before
    assert table.network.logged("rejected")[-1]["code"] == "unexpected"
    finish(table)


def test_an_action_moved_to_another_game_or_counter_fails_its_signature(tmp_path: Path) -> None:
    table = seated(tmp_path, investigators=1)
    table.network.run(table.peers, until=in_play(table.peers))
    investigator = table.peers[1]
    captured = _captured(table, 1)
    other_game = {**captured.value, "game": "ab" * 16}
    _refused(table, investigator, act_frame(other_game), "bad-signature")
    agent = investigator.session.player.agent
    assert agent is not None
    next_counter = {**captured.value, "counter": agent.next_counter}
    _refused(table, investigator, act_frame(next_counter), "bad-signature")
    finish(table)


def test_acting_as_another_seat_or_with_another_key_is_refused(tmp_path: Path) -> None:
    table = seated(tmp_path, investigators=2)
    table.network.run(table.peers, until=in_play(table.peers))
    _ghost, first, second = table.peers
    game = first.session.player.replica.game_id
    # Seat 1 signs, with its own key, an action that claims to be seat 2's.
    as_second = SignedAction.create(
        first.session.identity,
        game=game,
        seat=2,
        counter=second.session.player.agent.next_counter,
        kind=Kind.CHAT,
        body=ChatBody("I am seat 2, honestly"),
    )
    _refused(table, first, act_frame(as_second), "not-your-seat")
    # Seat 1's own action, signed by a key that is not seat 1's.
    impostor = SignedAction.create(
        Identity.generate(),
        game=game,
        seat=1,
        counter=first.session.player.agent.next_counter,
        kind=Kind.CHAT,
        body=ChatBody("signed by somebody else"),
    )
    _refused(table, first, act_frame(impostor), "bad-signature")
    refusals = [r for r in table.network.logged("rejected") if r["seat"] == 1]
    assert [r["code"] for r in refusals] == ["not-your-seat", "bad-signature"]
    finish(table)
