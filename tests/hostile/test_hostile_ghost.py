"""A modified Ghost client that lies: every lie is caught, and shown as "the Ghost cheated".

- A false "correct" carries an opening that cannot match the marker: the
  honest host refuses it, and if a colluding host relays it anyway, every
  peer catches it at once, at that event.
- A false "wrong" carries no opening, so nobody can tell during the game:
  it is caught at the reveal, by every peer, blamed on the séance event.
- A wrong seed at the reveal does not open the Ghost's commitment: the host
  refuses it, and a colluding host's relay is caught by every peer.
"""

from __future__ import annotations

from pathlib import Path

from hostile_support import (
    blunder,
    forge,
    in_play,
    install_liar,
    push,
    seated,
)

from domicile_p2p.net.errors import Cheat
from domicile_p2p.rules import GHOST
from domicile_p2p.transcript import Check, Kind
from domicile_p2p.transcript.ledger import Step
from domicile_p2p.transcript.verify import verify


def _play_until_the_lie(table, liar) -> None:
    """Run the table until the lying Ghost has signed its lie (and sent it)."""
    table.network.run(table.peers, until=lambda: liar.lie is not None)


def test_a_false_correct_is_refused_by_the_host_and_caught_by_every_peer_at_once(
    tmp_path: Path,
) -> None:
    table = seated(tmp_path, investigators=3)
    ghost, *investigators = table.peers
    table.network.run(table.peers, until=in_play(table.peers))
    liar = install_liar(ghost, "false-correct")
    blunder(investigators[0], ghost)  # a wrong marker is sure to come
    before = table.lines()
    _play_until_the_lie(table, liar)
    lie = liar.lie
    assert lie is not None and lie.kind in (Kind.SEANCE, Kind.CULPRIT_SEANCE)
    # The honest host refused it: the transcript did not move past the lie.
    refused = table.network.logged("rejected")[-1]
    assert refused["seat"] == GHOST and refused["code"] == "rule", refused
    assert "séance openings" in refused["reason"]
    assert table.lines()[: len(before)] == before
    assert not any(e.counter == lie.counter and e.seat == GHOST for e in table.game.event_objects)

    # A colluding host relays it anyway: every peer refuses that very event, blaming the Ghost.
    forged = forge(table, action=lie)
    for peer in table.peers:
        push(table, peer, forged.seq, [forged])
    table.network.deliver()
    for peer in [*investigators, ghost]:
        error = peer.error
        assert isinstance(error, Cheat), (peer.session.seat, error)
        assert error.ghost_cheated and error.check is Check.OPENINGS and error.seq == forged.seq
        assert str(error).startswith(f"the Ghost cheated at event {forged.seq} (séance openings)")
        assert peer.session.player.held == forged.seq, "the bad event was not taken in"


def test_a_false_wrong_is_caught_by_every_peer_at_the_reveal(tmp_path: Path) -> None:
    table = seated(tmp_path, investigators=2)
    ghost, *investigators = table.peers
    table.network.run(table.peers, until=in_play(table.peers))
    liar = install_liar(ghost, "false-wrong")
    table.network.run(table.peers)  # the honest host cannot tell: the game is played out
    lie = liar.lie
    assert lie is not None, "the Ghost found a séance to lie at"
    [lie_event] = [
        e for e in table.game.event_objects if e.seat == GHOST and e.counter == lie.counter
    ]
    events = table.game.event_objects
    assert events[-1].kind is Kind.REVEAL, "the game was played to the end"
    assert table.game.game_table.ledger.cheat is not None
    for peer in investigators:
        error = peer.error
        assert isinstance(error, Cheat), (peer.session.seat, error)
        assert error.ghost_cheated and error.check is Check.VERDICTS
        assert error.seq == lie_event.seq, "blamed on the séance, not on the reveal"
        assert str(error).startswith(f"the Ghost cheated at event {lie_event.seq}")
        held = peer.session.player.replica
        assert held is not None and held.events[-1].kind is Kind.REVEAL, "the proof is kept"
    report = verify(list(events))
    assert not report.valid and report.error is not None
    assert report.error.check == Check.VERDICTS.value
    assert report.error.seq == lie_event.seq and report.error.party == "ghost"
    finished = table.network.logged("rejected")
    assert not [r for r in finished if r["seat"] == GHOST], "the host had no way to refuse it"


def test_a_wrong_seed_is_refused_by_the_host_and_caught_by_every_peer(tmp_path: Path) -> None:
    table = seated(tmp_path, investigators=1)
    ghost = table.peers[0]
    table.network.run(table.peers, until=in_play(table.peers))
    liar = install_liar(ghost, "bad-seed")
    table.network.run(table.peers, until=lambda: table.network.logged("rejected") != [])
    refused = table.network.logged("rejected")[-1]
    assert refused["seat"] == GHOST and "does not open the Ghost's commitment" in refused["reason"]
    assert table.game.game_table.step is Step.REVEAL, "still waiting for an honest reveal"
    assert liar.lie is not None and liar.lie.kind is Kind.REVEAL
    forged = forge(table, action=liar.lie)
    for peer in table.peers:
        push(table, peer, forged.seq, [forged])
    table.network.deliver()
    for peer in table.peers:
        error = peer.error
        assert isinstance(error, Cheat) and error.ghost_cheated, (peer.session.seat, error)
        assert error.check is Check.GHOST_SEED and error.seq == forged.seq
