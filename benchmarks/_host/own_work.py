"""The host's own work per chat event, without sockets: for counting instructions.

``bench_host.py`` times the host at saturation on a loaded machine, where one run's
CPU per event differs from the next by a third.  This script runs what the host
does per event in one process and no I/O, so that callgrind can count it:

- ``host``: a table of 6 investigators and a Ghost, seated and past its setup on the
  sans-I/O fake link of the tests (``tests/net/net_support.py``); then every
  investigator's signed chats, built beforehand, are decoded and handed to
  ``HostSession.receive`` as ``HostServer._feed`` does, and each message the effects
  send is encoded once (``HostServer._run``).  No sockets, TLS, websockets or disk: the
  bare fan-out pays those too, and the disk threads are measured by ``bench_host.py``.
- ``floor``: the Ed25519 work of the same events alone (each action's signature
  verified, each event's core signed: ``cryptography`` on the same bytes).

Run each at two sizes under callgrind; the difference over the extra events is the
instructions per event (set-up and start-up cancel out)::

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python benchmarks/_host/own_work.py host --events 300 --built 600

``--built`` chats are signed beforehand whatever ``--events`` says, so the signing
clients' work cancels out too.  Prints one JSON line (what ran, how many events).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "net"))

from cryptography.hazmat.primitives.asymmetric.ed25519 import (  # noqa: E402
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from net_support import FakeNetwork, Peer, make_peer, make_room  # noqa: E402

from domicile_p2p.identity import Identity  # noqa: E402
from domicile_p2p.net.sessions.effects import Persist, Send  # noqa: E402
from domicile_p2p.net.sessions.host import HostLimits  # noqa: E402
from domicile_p2p.net.wire import Act, decode_client, text  # noqa: E402
from domicile_p2p.transcript import Event, SignedAction  # noqa: E402

INVESTIGATORS = 6
CHAT_CHARACTERS = 2**31


def seated_in_play(directory: Path) -> tuple[FakeNetwork, list[Peer]]:
    """A full table on the fake link, its setup played by the bots."""
    limits = HostLimits()
    # As ``host_process.py`` does: the per-seat chat bound lifted to the flood limit.
    lifted = replace(
        limits,
        chat_rate=limits.message_rate,
        chat_burst=limits.message_burst,
        chat_characters=CHAT_CHARACTERS,
    )
    network = FakeNetwork(
        [make_room(Identity.generate(), investigators=INVESTIGATORS)], limits=lifted
    )
    peers = [
        make_peer(directory / f"seat{seat}", seat=seat, name=f"Bot {seat}", seed=seat)
        for seat in range(INVESTIGATORS + 1)
    ]
    for peer in peers:
        network.join(peer)
        network.deliver()
    network.run(peers, until=lambda: all(p.session.player.playing for p in peers))
    return network, peers


def chat_frames(peers: list[Peer], count: int) -> list[tuple[int, str]]:
    """``count`` chats from the investigators in turn, signed by their agents."""
    frames = []
    for index in range(count):
        peer = peers[1 + index % INVESTIGATORS]
        agent = peer.session.player.agent
        assert agent is not None and peer.connection is not None
        frames.append((peer.connection, text(Act(agent.chat(f"chat {index}").value))))
    return frames


def host_work(network: FakeNetwork, frames: list[tuple[int, str]]) -> int:
    """What the host does per frame, as its adapter does it; how many events it made."""
    events = 0
    for connection, frame in frames:
        network.now += 0.01
        effects = network.host.receive(connection, decode_client(frame), network.now)
        encoded: dict[int, str] = {}
        for effect in effects:
            if isinstance(effect, Send) and id(effect.message) not in encoded:
                encoded[id(effect.message)] = text(effect.message)
            elif isinstance(effect, Persist):
                events += len(effect.lines)
    return events


def floor_work(network: FakeNetwork, frames: list[tuple[int, str]]) -> int:
    """The Ed25519 work of the same events alone, ``cryptography`` on the same bytes: each
    action's signature verified, and an event of the table signed once per action."""
    room = next(iter(network.host.rooms.values()))
    assert room.game is not None
    keys = room.game.game_table.table_setup.seat_keys
    actions = [SignedAction.from_value(dict(decode_client(f).action)) for _, f in frames]  # type: ignore[union-attr]
    checks = [
        (Ed25519PublicKey.from_public_bytes(keys[a.seat].raw), bytes.fromhex(a.sig), a.message())
        for a in actions
    ]
    host_key = Ed25519PrivateKey.generate()
    game_id = bytes.fromhex(actions[0].game)
    event = Event.create(
        Identity(host_key), game_id=game_id, seq=12_345, prev="00" * 32, action=actions[0]
    )
    event_message = event.host_message(game_id)
    for public, signature, message in checks:
        public.verify(signature, message)
        host_key.sign(event_message)
    return len(checks)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("host", "floor"))
    parser.add_argument("--events", type=int, default=300)
    parser.add_argument("--built", type=int, default=600)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        network, peers = seated_in_play(Path(directory))
        frames = chat_frames(peers, args.built)
        if args.what == "host":
            events = host_work(network, frames[: args.events])
            assert events == args.events, f"{events} events of {args.events} chats"
        else:
            events = floor_work(network, frames[: args.events])
    print(json.dumps({"what": args.what, "events": events, "built": args.built}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
