"""Coverage-guided fuzzing of every decoder a peer or the host runs on bytes from the network.

    python tests/fuzz/atheris_wire.py -max_total_time=120 CORPUS_DIR   (``make fuzz``)

An empty corpus directory is first filled with real frames (:func:`seeds`).

Needs ``atheris`` (``make fuzz`` installs it).  Each input is fed, as a
text frame and as a binary frame, to both wire decoders, and the payload
(if it decodes) further to the transcript parsers that take objects from
the wire (a signed action, an event).  The only errors allowed are the
typed ones (:class:`WireError`, :class:`MalformedEvent`, :class:`CanonicalError`):
anything else is a crash, and atheris stops with the input that caused it.

:func:`check_one` is also run by ``tests/fuzz/test_fuzz_decoders.py`` on a
fixed corpus, so ``make test`` exercises this harness without atheris.
"""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO)]

from domicile_p2p import canonical  # noqa: E402
from domicile_p2p.net import wire  # noqa: E402
from domicile_p2p.net.errors import WireError  # noqa: E402
from domicile_p2p.transcript import Event, MalformedEvent, SignedAction  # noqa: E402


def _objects(message: object) -> list[object]:
    """The transcript values a decoded message carries (what the host or a peer parses next)."""
    if isinstance(message, wire.Act):
        return [message.action]
    if isinstance(message, wire.Events):
        return list(message.events)
    return []


def check_one(data: bytes) -> None:
    """Decode ``data`` every way the network layer does; only typed errors may come out."""
    text = data.decode("utf-8", errors="replace")
    for frame in (text, data):
        for decode in (wire.decode_client, wire.decode_host):
            try:
                message = decode(frame)
            except WireError:
                continue
            for value in _objects(message):
                for parse in (SignedAction.from_value, Event.from_value):
                    with contextlib.suppress(MalformedEvent):
                        parse(value)
    with contextlib.suppress(canonical.CanonicalError):
        canonical.decode(data)


def seeds() -> list[bytes]:
    """Real frames to start from: the events of the honest test-vector game, and their actions."""
    lines = (REPO / "protocol" / "vectors" / "games" / "honest.jsonl").read_bytes().splitlines()
    events = [json.loads(line) for line in lines]
    frames = [wire.text(wire.Events(0, events[:3])), wire.text(wire.Fetch(0))]
    for event in events[:40]:
        frames.append(wire.text(wire.Events(event["seq"], [event])))
        if event.get("seat") is not None:
            game = events[0]["body"]["game"]
            action = {k: event[k] for k in ("body", "counter", "kind", "seat", "sig")}
            frames.append(wire.text(wire.Act({**action, "game": game})))
    return [frame.encode() for frame in frames]


def main() -> None:
    try:
        import atheris
    except ImportError:
        raise SystemExit("atheris is not installed (make fuzz installs it)") from None

    corpus = [Path(arg) for arg in sys.argv[1:] if not arg.startswith("-")]
    for directory in corpus:
        directory.mkdir(parents=True, exist_ok=True)
        if not any(directory.iterdir()):
            for index, seed in enumerate(seeds()):
                (directory / f"seed-{index:03d}").write_bytes(seed)
    atheris.instrument_all()
    atheris.Setup(sys.argv, check_one)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
