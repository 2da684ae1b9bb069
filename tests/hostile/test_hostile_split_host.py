"""A modified host that shows different histories to different peers: the signed heads differ.

Every replica checks its own history, and each history here is valid on
its own: the host showed the victim two chats in the other order and
re-signed every later event on the victim's chain (it cannot leave an
action out: the seat's counters would show the gap).  What gives it away is the
round's signed chain heads: every seat signs the link of each séance (and
the deal, and game-over) and the host must relay them; the victim finds
that the others' heads are not its own, and the others would find the
same about the victim's (a host that relays it).
"""

from __future__ import annotations

from pathlib import Path

from hostile_support import HostileTable, forge, in_play, seated

from domicile_p2p.net import wire
from domicile_p2p.net.sessions.guards.heads import ForgedHead, HeadClaim, SplitHistory
from domicile_p2p.transcript import Event


class SplitView:
    """The victim's view of a split host: events ``at`` and ``at + 1`` swapped, all re-signed.

    A host cannot leave a player's action out of one history (the seat's
    counters would show the gap), but it can order two actions of different
    seats one way for some players and the other way for others.
    """

    def __init__(self, table: HostileTable, at: int) -> None:
        self.table = table
        self.at = at
        self.chain: list[Event] = list(table.game.event_objects[:at])
        self.held: Event | None = None

    def _resign(self, main: Event) -> Event:
        game = self.table.game.game_table.game_id
        statement = (main.kind, main.body) if main.is_host_statement else None
        action = None if main.is_host_statement else main.action(game)
        forged = forge(self.table, action=action, statement=statement, after=self.chain)
        self.chain.append(forged)
        return forged

    def translate(self, message: wire.Events) -> wire.Events | None:
        out: list[Event] = []
        for value in message.events:
            main = Event.from_value(value)
            if main.seq < self.at:
                out.append(main)
            elif main.seq == self.at:
                self.held = main
            elif main.seq == self.at + 1:
                assert self.held is not None
                out += [self._resign(main), self._resign(self.held)]
            else:
                out.append(self._resign(main))
        if not out:
            return None
        return wire.Events(out[0].seq, [dict(e.value) for e in out])


def _split(table: HostileTable, victim_index: int, view: SplitView) -> None:
    """From now on every Events frame to the victim goes through ``view``."""
    network = table.network
    original = network.deliver
    victim = table.peers[victim_index]

    def deliver(only=None) -> bool:
        queue = network.to_peer.get(victim.connection)
        if queue:
            frames = list(queue)
            queue.clear()
            for frame in frames:
                message = wire.decode_host(frame)
                if isinstance(message, wire.Events):
                    message = view.translate(message)
                    if message is None:
                        continue
                queue.append(wire.text(message))
        return original(only)

    network.deliver = deliver  # type: ignore[method-assign]


def test_a_host_that_splits_the_history_is_reported_at_the_next_round(tmp_path: Path) -> None:
    table = seated(tmp_path, investigators=2)
    network = table.network
    ghost, chatter, victim = table.peers
    network.run(table.peers, until=in_play(table.peers))
    omit = len(table.game.event_objects)
    _split(table, 2, SplitView(table, omit))
    chat = chatter.session.player.agent.chat("the victim never sees this")
    network._peer_apply(chatter, chatter.session.submit(chat))
    network.run(table.peers, until=lambda: victim.error is not None)
    error = victim.error
    assert isinstance(error, SplitHistory), error
    assert str(error).startswith("the host cheated: it showed ")
    assert error.seq > omit
    held = victim.session.player.replica
    assert held is not None and held.events[omit].line != table.game.event_objects[omit].line
    assert ghost.error is None and chatter.error is None


def test_the_victims_head_relayed_to_the_others_is_caught_by_each(tmp_path: Path) -> None:
    table = seated(tmp_path, investigators=2)
    network = table.network
    network.run(table.peers, until=in_play(table.peers))
    victim = table.peers[2]
    replica = victim.session.player.replica
    assert replica is not None
    # The victim signs the head of its own history, which a split host made differ.
    seq = len(replica.events) - 1
    theirs = bytes(32)
    claim = HeadClaim.sign(victim.session.identity, replica.table_setup.game_id, 2, seq, theirs)
    relay = wire.PeerHead(2, seq, claim.head.hex(), claim.sig.hex())
    for peer in table.peers[:2]:
        network.to_peer[peer.connection].append(wire.text(relay))
    network.deliver()
    for peer in table.peers[:2]:
        assert isinstance(peer.error, SplitHistory), peer.error
        assert "seat 2 (Bot 2)" in str(peer.error)


def test_a_head_the_seat_never_signed_is_the_hosts_forgery(tmp_path: Path) -> None:
    table = seated(tmp_path, investigators=1)
    network = table.network
    network.run(table.peers, until=in_play(table.peers))
    watcher = table.peers[0]
    replica = watcher.session.player.replica
    assert replica is not None
    seq = len(replica.events) - 1
    forged = HeadClaim.sign(
        table.host, replica.table_setup.game_id, 1, seq, replica.events[seq].link()
    )
    relay = wire.PeerHead(1, seq, forged.head.hex(), forged.sig.hex())
    network.to_peer[watcher.connection].append(wire.text(relay))
    network.deliver()
    assert isinstance(watcher.error, ForgedHead), watcher.error
    assert "never signed" in str(watcher.error)


def test_an_honest_host_relays_heads_and_refuses_a_lying_one(tmp_path: Path) -> None:
    table = seated(tmp_path, investigators=2)
    network = table.network
    network.run(table.peers)
    assert all(peer.error is None for peer in table.peers)
    assert all(peer.session.finished for peer in table.peers)
    relayed = network.logged("head")
    assert relayed, "heads went round"
    seats = {record["seat"] for record in relayed}
    assert seats == {0, 1, 2}
    for peer in table.peers:
        agreed = peer.session.heads.agreed
        assert set(agreed) >= {s for s in seats if s != peer.session.seat}


def test_an_honest_host_does_not_relay_a_head_that_is_not_its_chains(tmp_path: Path) -> None:
    table = seated(tmp_path, investigators=1)
    network = table.network
    network.run(table.peers, until=in_play(table.peers))
    liar = table.peers[1]
    replica = liar.session.player.replica
    assert replica is not None
    seq = len(replica.events) - 1
    claim = HeadClaim.sign(liar.session.identity, replica.table_setup.game_id, 1, seq, bytes(32))
    network.frame(liar.connection, wire.text(wire.Head(seq, claim.head.hex(), claim.sig.hex())))
    [error] = [m for m in network.replies(liar.connection) if isinstance(m, wire.Error)]
    assert error.code == "bad-message" and "does not link to that head" in error.message
    assert not [
        m for m in network.replies(table.peers[0].connection) if isinstance(m, wire.PeerHead)
    ]
    network.deliver()
    assert table.peers[0].error is None
