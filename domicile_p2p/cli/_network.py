"""What the commands that join a table over the network share (``domicile bot``, ``watch``).

The options that say where the table is and who this client is, the
:class:`~domicile_p2p.net.adapters.client.PeerClient` they make, the exit
codes of the network's typed errors, and writing the transcript at the end.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from domicile_p2p.cli import (
    EXIT_IDENTITY,
    EXIT_INVALID,
    EXIT_REFUSED,
    EXIT_UNREACHABLE,
    CommandError,
)
from domicile_p2p.cli._diagnostics import event_sink
from domicile_p2p.identity import Identity, IdentityError
from domicile_p2p.net.adapters.bot import BotOutcome
from domicile_p2p.net.adapters.client import PeerClient, websocket_dialer
from domicile_p2p.net.adapters.key_files import default_data_dir, load_or_create_identity
from domicile_p2p.net.adapters.pins import PinStore
from domicile_p2p.net.adapters.seat_secrets import SeatSecrets
from domicile_p2p.net.address import Address
from domicile_p2p.net.errors import (
    BadAddress,
    BadJoinCode,
    HostIdentityChanged,
    NetError,
    Refused,
    Unreachable,
)
from domicile_p2p.net.join.codes import JoinCode, parse_code
from domicile_p2p.net.sessions.peer import PeerSession
from domicile_p2p.text import inert
from domicile_p2p.transcript import Event
from domicile_p2p.transcript.files import write_transcript
from domicile_p2p.transcript.names import name_problem


def name_argument(text: str) -> str:
    """``--name``: the one rule for a name (``transcript.names``), checked before any
    connection, with the host's own words."""
    problem = name_problem(text)
    if problem is not None:
        raise argparse.ArgumentTypeError(f"the name {inert(text)!r} {problem}")
    return text


def add_table_options(parser: argparse.ArgumentParser, *, who: str, name: str) -> None:
    """``--connect``, ``--code``, ``--name``, ``--data-dir``, ``--transcript`` and
    ``--fingerprint`` (``--log`` is every command's); ``who`` says whose key and pins
    ``--data-dir`` holds, ``name`` where the name given is shown."""
    parser.add_argument("--connect", required=True, metavar="wss://HOST:PORT")
    parser.add_argument("--code", required=True, metavar="CODE", help="the table's code")
    parser.add_argument("--name", default=None, type=name_argument, help=f"the name shown {name}")
    parser.add_argument("--data-dir", metavar="DIR", help=f"{who}'s key, pins and secrets")
    parser.add_argument("--transcript", metavar="FILE", help="write the final transcript here")
    parser.add_argument(
        "--fingerprint",
        metavar="HEX",
        help="the host's certificate fingerprint, when known (refuse any other)",
    )


def table_code(args: argparse.Namespace) -> JoinCode:
    return parse_code(args.code)


def identity_of(args: argparse.Namespace) -> Identity:
    return load_or_create_identity(_data_dir(args))


def _data_dir(args: argparse.Namespace) -> Path:
    return Path(args.data_dir) if args.data_dir else default_data_dir()


def peer_client(args: argparse.Namespace, session: PeerSession) -> PeerClient:
    """A client that keeps ``session`` connected to ``--connect``, pinning in ``--data-dir``."""
    data_dir = _data_dir(args)
    address = Address.parse(args.connect)
    expected = None
    if args.fingerprint:
        try:
            expected = bytes.fromhex(args.fingerprint)
        except ValueError:
            raise CommandError("--fingerprint must be 64 hex digits") from None
    pins = PinStore.in_data_dir(data_dir)
    log = event_sink(args)  # the table's events in --log's JSON lines
    return PeerClient(
        session,
        websocket_dialer(address, pins, expected),
        SeatSecrets(data_dir),
        pins=pins,
        pin_key=address.pin_key,
        log=log,
    )


@contextmanager
def network_errors() -> Iterator[None]:
    """The network's typed errors as one line and the exit code that names their kind."""
    try:
        yield
    except (BadAddress, BadJoinCode, IdentityError) as exc:
        raise CommandError(str(exc)) from None
    except HostIdentityChanged as exc:
        raise CommandError(str(exc), EXIT_IDENTITY) from None
    except Refused as exc:
        raise CommandError(f"the host refused: {exc}", EXIT_REFUSED) from None
    except Unreachable as exc:
        raise CommandError(str(exc), EXIT_UNREACHABLE) from None
    except NetError as exc:  # a bad event, a misbehaving host, or what the caller adds
        raise CommandError(str(exc), EXIT_INVALID) from None


def add_games_options(parser: argparse.ArgumentParser, *, stays: str) -> None:
    """``--games N`` (how many of the table's games to ``stays``) and ``--transcript-dir``."""
    parser.add_argument(
        "--games",
        type=int,
        default=1,
        metavar="N",
        help=f"{stays} N of the table's games (0: as many as it plays; default 1)",
    )
    parser.add_argument(
        "--transcript-dir",
        metavar="DIR",
        help="write each game's transcript, as it ends, to DIR/GAME_ID.jsonl",
    )


def games_wanted(args: argparse.Namespace) -> int | None:
    """``--games`` as a session takes it (``None``: every game the table plays)."""
    if args.games < 0:
        raise CommandError("--games is 0 (as many as the table plays) or more")
    return args.games or None


def game_ended(args: argparse.Namespace, games: list[BotOutcome]) -> Callable[[BotOutcome], None]:
    """What to do as each game ends: keep it in ``games``, write it to ``--transcript-dir``,
    and print its verdict."""

    def ended(outcome: BotOutcome) -> None:
        games.append(outcome)
        if args.transcript_dir and outcome.game_id is not None:
            path = Path(args.transcript_dir) / f"{outcome.game_id}.jsonl"
            write_transcript_file(path, outcome.events)
        print(outcome.report.summary, flush=True)

    return ended


def keep_transcript(args: argparse.Namespace, events: Iterable[Event]) -> None:
    """Write ``events`` to ``--transcript`` (when given), atomically."""
    if args.transcript:
        write_transcript_file(Path(args.transcript), events)


def write_transcript_file(path: Path, events: Iterable[Event]) -> None:
    """Write ``events`` to ``path`` atomically, or say why it cannot be written."""
    try:
        write_transcript(path, events)
    except OSError as exc:
        raise CommandError(f"cannot write {path}: {exc.strerror or exc}") from None
