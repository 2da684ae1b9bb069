"""What a front end uses of the game: the one door from a client into ``domicile_p2p``.

The terminal client (``domicile_tui``) imports the game package through this
module and the rules engine's public API (``domicile_p2p.rules``) only; an
import-linter contract in ``pyproject.toml`` holds it there, so the package's
inner modules may move without the client noticing.  Each name is imported
from its module when first asked for (``lazy.py``): a first screen that needs
one name does not pay for the network, the transcript or the bots.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domicile_p2p.lazy import lazy_exports

if TYPE_CHECKING:
    from domicile_p2p.bots import make_policy
    from domicile_p2p.cli import CommandError, Register, main, reader_gone, requested_command
    from domicile_p2p.cli._browser_seats import (
        add_browser_seats_argument,
        check_browser_seats,
        serve_browser_seats,
    )
    from domicile_p2p.cli._config import apply_config
    from domicile_p2p.cli._sandglass import add_timer_argument, timer_from
    from domicile_p2p.cli.verify import CannotVerify, verify_file
    from domicile_p2p.identity import Identity, IdentityError
    from domicile_p2p.net.adapters.browser_seats import qr_lines
    from domicile_p2p.net.adapters.client import (
        Backoff,
        Dialed,
        Dialer,
        PeerClient,
        websocket_dialer,
    )
    from domicile_p2p.net.adapters.clock import Clock
    from domicile_p2p.net.adapters.discovery import DiscoveredTable, discover
    from domicile_p2p.net.adapters.draws import SeededDraws, SystemDraws
    from domicile_p2p.net.adapters.host import (
        HostConfig,
        HostError,
        RunningHost,
        TableHost,
        start_host,
    )
    from domicile_p2p.net.adapters.in_memory import InMemoryHost, start_in_memory_host
    from domicile_p2p.net.adapters.key_files import default_data_dir, load_or_create_identity
    from domicile_p2p.net.adapters.pins import PinStore
    from domicile_p2p.net.adapters.seat_secrets import SeatSecrets, SecretKeeper
    from domicile_p2p.net.adapters.store import GAMES_DIR, HostStore, StoreError, UnfinishedTable
    from domicile_p2p.net.address import Address
    from domicile_p2p.net.errors import (
        BadAddress,
        BadEvent,
        BadJoinCode,
        HostIdentityChanged,
        NetError,
        Refused,
        Unreachable,
        WrongCode,
    )
    from domicile_p2p.net.join.codes import CODE_VARIABLE, JoinCode, parse_code
    from domicile_p2p.net.join.words import phrase
    from domicile_p2p.net.sessions.guards.heads import head_phrase
    from domicile_p2p.net.sessions.guards.sandglass import SEANCE_SEEN_WITHIN
    from domicile_p2p.net.sessions.peer import PeerSession
    from domicile_p2p.net.wire import AllSeen, ErrorCode, Lobby, Role, Starts, TableState
    from domicile_p2p.packs import (
        DreamCard,
        InvestigatorCard,
        Pack,
        PackError,
        load_default_pack,
        load_pack,
    )
    from domicile_p2p.text import inert, is_inert, without_unsafe
    from domicile_p2p.transcript import (
        AgentMisuse,
        Event,
        GhostAgent,
        MalformedEvent,
        Replica,
        Step,
        Violation,
    )
    from domicile_p2p.transcript.errors import NotATranscript
    from domicile_p2p.transcript.files import (
        check_version,
        looks_like_transcript,
        read_bytes,
        split_lines,
        write_transcript,
    )
    from domicile_p2p.transcript.names import name_problem
    from domicile_p2p.transcript.packref import PackIdentity
    from domicile_p2p.transcript.schema import (
        AbortBody,
        ChatBody,
        CulpritSeanceBody,
        DealBody,
        EntropyCommitBody,
        EntropyRevealBody,
        GameOverBody,
        GenesisBody,
        GhostCommitBody,
        GiveBody,
        GroupGiveBody,
        LockBody,
        PlaceBody,
        RefreshBody,
        RevealBody,
        SeanceBody,
        SlotCommitsBody,
        TimeUpBody,
        UnlockBody,
    )
    from domicile_p2p.transcript.verify import VerifyReport, verify

_EXPORTS: dict[str, str] = {
    **dict.fromkeys(("make_policy",), "bots"),
    **dict.fromkeys(
        ("CommandError", "Register", "main", "reader_gone", "requested_command"), "cli"
    ),
    **dict.fromkeys(("apply_config",), "cli._config"),
    **dict.fromkeys(("add_timer_argument", "timer_from"), "cli._sandglass"),
    **dict.fromkeys(
        ("add_browser_seats_argument", "check_browser_seats", "serve_browser_seats"),
        "cli._browser_seats",
    ),
    **dict.fromkeys(("CannotVerify", "verify_file"), "cli.verify"),
    **dict.fromkeys(("Identity", "IdentityError"), "identity"),
    **dict.fromkeys(("default_data_dir", "load_or_create_identity"), "net.adapters.key_files"),
    **dict.fromkeys(
        ("Backoff", "Dialed", "Dialer", "PeerClient", "websocket_dialer"), "net.adapters.client"
    ),
    **dict.fromkeys(("qr_lines",), "net.adapters.browser_seats"),
    **dict.fromkeys(("Clock",), "net.adapters.clock"),
    **dict.fromkeys(("DiscoveredTable", "discover"), "net.adapters.discovery"),
    **dict.fromkeys(("SeededDraws", "SystemDraws"), "net.adapters.draws"),
    **dict.fromkeys(
        ("HostConfig", "HostError", "RunningHost", "TableHost", "start_host"), "net.adapters.host"
    ),
    **dict.fromkeys(("InMemoryHost", "start_in_memory_host"), "net.adapters.in_memory"),
    **dict.fromkeys(("PinStore",), "net.adapters.pins"),
    **dict.fromkeys(("SeatSecrets", "SecretKeeper"), "net.adapters.seat_secrets"),
    **dict.fromkeys(
        ("GAMES_DIR", "HostStore", "StoreError", "UnfinishedTable"), "net.adapters.store"
    ),
    **dict.fromkeys(("Address",), "net.address"),
    **dict.fromkeys(
        (
            "BadAddress",
            "BadEvent",
            "BadJoinCode",
            "HostIdentityChanged",
            "NetError",
            "Refused",
            "Unreachable",
            "WrongCode",
        ),
        "net.errors",
    ),
    **dict.fromkeys(("CODE_VARIABLE", "JoinCode", "parse_code"), "net.join.codes"),
    **dict.fromkeys(("phrase",), "net.join.words"),
    **dict.fromkeys(("head_phrase",), "net.sessions.guards.heads"),
    **dict.fromkeys(("SEANCE_SEEN_WITHIN",), "net.sessions.guards.sandglass"),
    **dict.fromkeys(("PeerSession",), "net.sessions.peer"),
    **dict.fromkeys(("AllSeen", "ErrorCode", "Lobby", "Role", "Starts", "TableState"), "net.wire"),
    **dict.fromkeys(
        ("DreamCard", "InvestigatorCard", "Pack", "PackError", "load_default_pack", "load_pack"),
        "packs",
    ),
    **dict.fromkeys(("inert", "is_inert", "without_unsafe"), "text"),
    **dict.fromkeys(
        (
            "AgentMisuse",
            "Event",
            "GhostAgent",
            "MalformedEvent",
            "Replica",
            "Step",
            "Violation",
        ),
        "transcript",
    ),
    **dict.fromkeys(("NotATranscript",), "transcript.errors"),
    **dict.fromkeys(
        ("check_version", "looks_like_transcript", "read_bytes", "split_lines", "write_transcript"),
        "transcript.files",
    ),
    **dict.fromkeys(("name_problem",), "transcript.names"),
    **dict.fromkeys(("PackIdentity",), "transcript.packref"),
    **dict.fromkeys(
        (
            "AbortBody",
            "ChatBody",
            "CulpritSeanceBody",
            "DealBody",
            "EntropyCommitBody",
            "EntropyRevealBody",
            "GameOverBody",
            "GenesisBody",
            "GhostCommitBody",
            "GiveBody",
            "GroupGiveBody",
            "LockBody",
            "PlaceBody",
            "RefreshBody",
            "RevealBody",
            "SeanceBody",
            "SlotCommitsBody",
            "TimeUpBody",
            "UnlockBody",
        ),
        "transcript.schema",
    ),
    **dict.fromkeys(("VerifyReport", "verify"), "transcript.verify"),
}

__getattr__, __dir__ = lazy_exports("domicile_p2p", _EXPORTS, globals())

__all__ = [
    "CODE_VARIABLE",
    "GAMES_DIR",
    "SEANCE_SEEN_WITHIN",
    "AbortBody",
    "Address",
    "AgentMisuse",
    "AllSeen",
    "Backoff",
    "BadAddress",
    "BadEvent",
    "BadJoinCode",
    "CannotVerify",
    "ChatBody",
    "Clock",
    "CommandError",
    "CulpritSeanceBody",
    "DealBody",
    "Dialed",
    "Dialer",
    "DiscoveredTable",
    "DreamCard",
    "EntropyCommitBody",
    "EntropyRevealBody",
    "ErrorCode",
    "Event",
    "GameOverBody",
    "GenesisBody",
    "GhostAgent",
    "GhostCommitBody",
    "GiveBody",
    "GroupGiveBody",
    "HostConfig",
    "HostError",
    "HostIdentityChanged",
    "HostStore",
    "Identity",
    "IdentityError",
    "InMemoryHost",
    "InvestigatorCard",
    "JoinCode",
    "Lobby",
    "LockBody",
    "MalformedEvent",
    "NetError",
    "NotATranscript",
    "Pack",
    "PackError",
    "PackIdentity",
    "PeerClient",
    "PeerSession",
    "PinStore",
    "PlaceBody",
    "RefreshBody",
    "Refused",
    "Register",
    "Replica",
    "RevealBody",
    "Role",
    "RunningHost",
    "SeanceBody",
    "SeatSecrets",
    "SecretKeeper",
    "SeededDraws",
    "SlotCommitsBody",
    "Starts",
    "Step",
    "StoreError",
    "SystemDraws",
    "TableHost",
    "TableState",
    "TimeUpBody",
    "UnfinishedTable",
    "UnlockBody",
    "Unreachable",
    "VerifyReport",
    "Violation",
    "WrongCode",
    "add_browser_seats_argument",
    "add_timer_argument",
    "apply_config",
    "check_browser_seats",
    "check_version",
    "default_data_dir",
    "discover",
    "head_phrase",
    "inert",
    "is_inert",
    "load_default_pack",
    "load_or_create_identity",
    "load_pack",
    "looks_like_transcript",
    "main",
    "make_policy",
    "name_problem",
    "parse_code",
    "phrase",
    "qr_lines",
    "read_bytes",
    "reader_gone",
    "requested_command",
    "serve_browser_seats",
    "split_lines",
    "start_host",
    "start_in_memory_host",
    "timer_from",
    "verify",
    "verify_file",
    "websocket_dialer",
    "without_unsafe",
    "write_transcript",
]
