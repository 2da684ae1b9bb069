"""The transcript: signed actions, the host's hash-chained events, and their verification.

Layers, from the inside out:

- ``schema``   the event kinds and bodies (msgspec Structs; JSON Schemas in ``protocol/schema``)
- ``codec``    canonical bytes, signatures and chain links of actions and events
- ``ledger``   the protocol's steps as a table, and the public record of a game, folded event
               by event with every check
- ``chain``    the hash chain, the host's and the players' signatures, the counters
- ``reveal``   the end: the Ghost's seed opens everything, the game is replayed with secrets
- ``replica``  a peer's checked copy (``Replica.receive``)
- ``table``    the host's authority (``GameTable.submit``)
- ``agents``   a seat's side: ``InvestigatorAgent``, ``GhostAgent``
- ``verify``   the offline verifier behind ``domicile verify``
- ``files``    transcript files (JSON Lines)

``protocol/SPEC.md`` specifies all of it for an independent implementation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domicile_p2p.lazy import lazy_exports

if TYPE_CHECKING:
    from domicile_p2p.transcript.agents import GhostAgent, InvestigatorAgent, SeatAgent
    from domicile_p2p.transcript.codec import Event, SignedAction
    from domicile_p2p.transcript.errors import (
        AgentMisuse,
        Check,
        Fault,
        HostMisuse,
        MalformedEvent,
        NotATranscript,
        Rejected,
        TranscriptError,
        Violation,
    )
    from domicile_p2p.transcript.ledger import Ledger, Step, TableSetup
    from domicile_p2p.transcript.replica import Replica, replay_public, replay_secret
    from domicile_p2p.transcript.schema import PROTOCOL_VERSION, CardLists, GenesisBody, Kind
    from domicile_p2p.transcript.table import GameTable, make_genesis

# Every name is imported from its module when first asked for (PEP 562): a program
# that needs one layer (``domicile verify`` reads events and replays them) does not
# pay for the others (the seat agents, the host's table and what they import).
_EXPORTS: dict[str, str] = {
    **dict.fromkeys(("GhostAgent", "InvestigatorAgent", "SeatAgent"), "agents"),
    **dict.fromkeys(("Event", "SignedAction"), "codec"),
    **dict.fromkeys(
        (
            "AgentMisuse",
            "Check",
            "Fault",
            "HostMisuse",
            "MalformedEvent",
            "NotATranscript",
            "Rejected",
            "TranscriptError",
            "Violation",
        ),
        "errors",
    ),
    **dict.fromkeys(("Ledger", "Step", "TableSetup"), "ledger"),
    **dict.fromkeys(("Replica", "replay_public", "replay_secret"), "replica"),
    **dict.fromkeys(("PROTOCOL_VERSION", "CardLists", "GenesisBody", "Kind"), "schema"),
    **dict.fromkeys(("GameTable", "make_genesis"), "table"),
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())

__all__ = [
    "PROTOCOL_VERSION",
    "AgentMisuse",
    "CardLists",
    "Check",
    "Event",
    "Fault",
    "GameTable",
    "GenesisBody",
    "GhostAgent",
    "HostMisuse",
    "InvestigatorAgent",
    "Kind",
    "Ledger",
    "MalformedEvent",
    "NotATranscript",
    "Rejected",
    "Replica",
    "SeatAgent",
    "SignedAction",
    "Step",
    "TableSetup",
    "TranscriptError",
    "Violation",
    "make_genesis",
    "replay_public",
    "replay_secret",
]
