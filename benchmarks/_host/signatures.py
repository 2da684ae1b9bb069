"""The Ed25519 work a host must do per event, measured as CPU time on this machine.

Every event the host orders at saturation holds one player's signed action:
the host checks that action's signature (``Chain.check_action``) and signs
the event (``Event.create``), one verify and one sign (chat events make no
host statement due).  Both are timed here with ``cryptography``'s Ed25519
alone, keys loaded and messages built beforehand: the real bytes of a chat
action and of its event, from the protocol's own codec.  What the host pays
around them (hex, parsing, its wrappers) is the host's, not the anchor's.

Timed in CPU seconds of this thread (``time.thread_time``), as the host's
CPU is read from ``/proc``: the time waiting for a core on a loaded machine
counts in neither.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from _common import time_calls
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from domicile_p2p.fairness.commit import GAME_ID_BYTES
from domicile_p2p.identity import Identity
from domicile_p2p.transcript import Event, Kind, SignedAction
from domicile_p2p.transcript.schema import ChatBody

CALLS = 200
"""Calls per round (about 30 ms of verifies on this machine)."""
ROUNDS = 7


@dataclass(frozen=True)
class Ed25519Cost:
    """CPU seconds of one verify and one sign (each the median of its rounds)."""

    verify: float
    sign: float

    @property
    def per_event(self) -> float:
        return self.verify + self.sign

    def as_json(self) -> dict[str, float]:
        return {"verify_s": self.verify, "sign_s": self.sign, "per_event_s": self.per_event}


def measure() -> Ed25519Cost:
    """One verify and one sign of a chat event's real messages, in CPU seconds each."""
    player_key, host_key = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    game_id = secrets.token_bytes(GAME_ID_BYTES)
    action = SignedAction.create(
        Identity(player_key),
        game=game_id.hex(),
        seat=3,
        counter=1234,
        kind=Kind.CHAT,
        body=ChatBody("load 1233: the candle gutters"),
    )
    event = Event.create(
        Identity(host_key),
        game_id=game_id,
        seq=12_345,
        prev=secrets.token_hex(32),
        action=action,
    )
    action_message, signature = action.message(), bytes.fromhex(action.sig)
    event_message = event.host_message(game_id)
    public = player_key.public_key()
    return Ed25519Cost(
        _cpu_per_call(lambda: public.verify(signature, action_message)),
        _cpu_per_call(lambda: host_key.sign(event_message)),
    )


def _cpu_per_call(call: Callable[[], object]) -> float:
    return time_calls(call, calls=CALLS, rounds=ROUNDS, clock=time.thread_time).median
