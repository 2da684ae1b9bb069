"""The atheris harness's check, on a fixed corpus and on hypothesis' inputs (no atheris needed)."""

from __future__ import annotations

import json
import os

import pytest
from atheris_wire import check_one, seeds
from hypothesis import given, settings
from hypothesis import strategies as st

from domicile_p2p.net import wire

EXAMPLES = int(os.environ.get("DOMICILE_FUZZ_EXAMPLES", "12")) * 25

CORPUS = [
    b"",
    b"{}",
    b"[]",
    b"null",
    b'{"type":"act","action":{}}',
    b'{"type":"act","action":{"game":"00","seat":0,"counter":1,"kind":"chat","body":{},"sig":""}}',
    b'{"type":"events","start":0,"events":[{"seq":0}]}',
    b'{"type":"events","start":0,"events":[{"kind":"genesis","seq":0,"prev":"00","body":{}}]}',
    b'{"type":"fetch","since":1e400}',
    b'{"type":"join","protocol":1,"table":1,"key":"' + b"a" * 64 + b'"}',
    b"[" * 100_000,
    b'{"a":' * 3000 + b"1" + b"}" * 3000,
    b"\xff\xfe\x00",
    b'"\\ud800"',
    wire.text(wire.Fetch(3)).encode(),
    wire.text(wire.Events(0, [{"kind": "genesis"}])).encode(),
    json.dumps({"type": "act", "action": {"body": [1] * 1000}}).encode(),
]


def test_the_corpus_gives_only_typed_errors() -> None:
    for data in CORPUS + seeds():
        check_one(data)


def test_the_seed_frames_are_real_messages() -> None:
    decoded = [wire.decode_client(seed.decode()) for seed in seeds() if b'"act"' in seed]
    assert decoded and all(isinstance(message, wire.Act) for message in decoded)


@pytest.mark.slow
@settings(max_examples=EXAMPLES, deadline=None)
@given(st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
def test_random_bytes_give_only_typed_errors(data: bytes) -> None:
    check_one(data)
