"""An investigator who never reveals its setup entropy: the setup aborts in time, naming it.

The joint seed needs every investigator's entropy; one who commits and then
withholds its reveal (it dislikes where this is going, or it is gone) would
hold the table forever.  The host aborts after the setup timeout, naming
that seat; the abort carries nothing secret, and the table is free again.
"""

from __future__ import annotations

import json
from pathlib import Path

from hostile_support import seated

from domicile_p2p.net.sessions.host import HostLimits
from domicile_p2p.transcript import Kind
from domicile_p2p.transcript.ledger import Step
from domicile_p2p.transcript.schema import AbortBody
from domicile_p2p.transcript.verify import verify

TIMEOUT = 30.0


def test_a_seat_that_never_reveals_its_entropy_aborts_the_setup_named(tmp_path: Path) -> None:
    table = seated(tmp_path, investigators=3, limits=HostLimits(setup_timeout=TIMEOUT))
    network = table.network
    ghost, first, silent, third = table.peers
    network.run(table.peers, until=lambda: table.game.game_table.step is Step.REVEALS)
    entered = network.now
    honest = [ghost, first, third]
    network.run(honest)  # everyone else reveals; the silent seat never does
    ledger = table.game.game_table.ledger
    assert ledger.step is Step.REVEALS and ledger.awaiting() == (2,)
    deadline = network.host.next_deadline()
    assert deadline is not None and entered - 1.0 <= deadline - TIMEOUT <= entered, (
        "the clock started when the last commitment came in"
    )
    network.apply(network.host.tick(deadline - 0.5))
    assert table.game.game_table.step is Step.REVEALS, "not before its time"

    network.now = deadline
    network.apply(network.host.tick(network.now))
    [aborted] = network.logged("setup-aborted")
    assert (
        aborted["seats"] == [2] and "seat 2 (Bot 2) did not reveal its entropy" in aborted["reason"]
    )
    abort = next(e for e in table.game.event_objects if e.kind is Kind.ABORT)
    assert isinstance(abort.body, AbortBody) and abort.body.seats == (2,)
    network.run(table.peers)  # every peer sees the abort, and the game is over for everyone
    for peer in table.peers:
        replica = peer.session.player.replica
        assert replica is not None and replica.ledger.abort == abort.body
        assert peer.error is None and peer.session.finished
    assert table.network.finished == [table.game.game_id], "archived as over"

    # Nothing secret: the silent seat's entropy never left it, and no slot was ever committed.
    silent_entropy = silent.session.player.agent.entropy.hex()
    lines = table.lines()
    assert not any(silent_entropy.encode() in line for line in lines)
    kinds = [e.kind for e in table.game.event_objects]
    assert Kind.DEAL not in kinds and Kind.SLOT_COMMITS not in kinds
    assert kinds[-1] is Kind.ABORT, "nobody waits for the Ghost's seed: it proves nothing here"
    assert json.loads(abort.line)["body"] == {"reason": abort.body.reason, "seats": [2]}
    report = verify(list(table.game.event_objects))
    assert report.valid and report.outcome == "aborted", report.summary
    assert network.host.next_deadline() is None, "no more deadline for this table"


def test_a_ghost_that_never_publishes_its_slot_commitments_is_named_too(tmp_path: Path) -> None:
    table = seated(tmp_path, investigators=1, limits=HostLimits(setup_timeout=TIMEOUT))
    network = table.network
    ghost, investigator = table.peers
    network.run(table.peers, until=lambda: table.game.game_table.step is Step.SLOT_COMMITMENTS)
    network.run([investigator])
    network.now += TIMEOUT
    network.apply(network.host.tick(network.now))
    [aborted] = network.logged("setup-aborted")
    assert aborted["seats"] == [0] and "the Ghost (Bot 0)" in aborted["reason"]
    assert table.game.game_table.step is Step.ABORTED
    network.run([investigator])
    assert investigator.session.player.replica.ledger.abort is not None
    assert investigator.session.finished, "nobody waits for a Ghost that stalled the setup"
    assert table.game.ended and ghost.error is None
    report = verify(list(table.game.event_objects))
    assert report.valid and report.outcome == "aborted", report.summary


def test_a_ghost_that_withholds_its_seed_after_the_game_is_aborted_named_and_archived(
    tmp_path: Path,
) -> None:
    """The game is over; the Ghost never reveals.  After the setup timeout the host writes
    the abort naming the Ghost, archives the game, every investigator sees the abort and is
    done, and ``verify`` says the game was aborted by the Ghost."""
    table = seated(tmp_path, investigators=2, limits=HostLimits(setup_timeout=TIMEOUT))
    network = table.network
    _ghost, *investigators = table.peers
    network.run(table.peers, until=lambda: table.game.game_table.step is Step.REVEAL)
    ended_at = network.now
    network.run(investigators)  # the Ghost is silent from here on
    assert table.game.game_table.step is Step.REVEAL and not network.finished
    deadline = network.host.next_deadline()
    assert deadline is not None and deadline - TIMEOUT <= ended_at, "the reveal has a deadline"

    network.now = deadline
    network.apply(network.host.tick(network.now))
    [aborted] = network.logged("setup-aborted")
    assert (
        aborted["seats"] == [0]
        and "the Ghost (Bot 0) did not reveal its seed" in (aborted["reason"])
    )
    assert network.finished == [table.game.game_id], "archived"
    network.run(investigators)
    for peer in investigators:
        replica = peer.session.player.replica
        assert replica is not None and replica.ledger.abort is not None
        assert peer.error is None and peer.session.finished, "nobody waits any longer"
    report = verify(list(table.game.event_objects))
    assert report.outcome == "aborted" and not report.valid
    assert report.error is not None and report.error.party == "ghost"
    assert "the Ghost never revealed its seed" in report.summary
    assert network.host.next_deadline() is None, "no more deadline for this table"

    # A Ghost that reveals after all is still heard: the archive then holds the proof.
    network.run(table.peers)
    assert table.game.game_table.ledger.over and network.finished == [table.game.game_id] * 2
    assert verify(list(table.game.event_objects)).valid
