"""A bot's table talk stays within the host's chat bound, however fast the game goes.

A game of bots moves in milliseconds: a line of talk at every lock would be refused by
the host's chat bound (5 at once, one every 2 s) and each refusal logged and counted
against the connection.  Both clocks here stand still, the hardest case: the host's
bucket never refills, and neither does the bot's.
"""

from __future__ import annotations

from pathlib import Path

from net_support import seated_table

from domicile_p2p.net.adapters.bot import BotBrain
from domicile_p2p.net.sessions.host import HostLimits


def test_bots_say_no_more_than_the_chat_bound_lets_through(tmp_path: Path) -> None:
    network, peers = seated_table(tmp_path, investigators=3)
    for seat, peer in enumerate(peers):
        peer.brain = BotBrain(peer.session, seed=seat, clock=lambda: 0.0)
    for _ in range(20_000):  # the network's clock is not moved: the host's stands still
        moved = network.deliver()
        acted = network.step_bots(peers)
        if not moved and not acted:
            break
    assert all(peer.session.finished for peer in peers)
    assert [refusal for peer in peers for refusal in peer.refusals] == []
    replica = peers[0].session.player.replica
    assert replica is not None
    said: dict[int, int] = {}
    for event in replica.events:
        if event.kind.value == "chat":
            assert event.seat is not None
            said[event.seat] = said.get(event.seat, 0) + 1
    assert said, "the bots said nothing at all"
    assert max(said.values()) == HostLimits().chat_burst - 1
