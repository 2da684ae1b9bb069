"""``domicile bot``: a bot player joining a table over the network, as a person's client does.

    domicile bot --connect wss://192.168.1.20:47470 --code 7-raven-lantern --role ghost \\
        --data-dir ./ghost-bot --transcript game.json

It joins with the code (PAKE), pins the host's certificate, checks every
event, plays until the game is over, verifies the whole transcript and
writes it to ``--transcript``.  It reconnects by itself when the connection
drops (a restarted host, a flaky network), and a bot that is killed and
started again with the same ``--data-dir`` takes its seat back.

Exit codes: 0 the game ended and the transcript verifies; 1 it does not
verify, or the host sent an event that breaks the rules; 2 bad options;
3 refused by the host (wrong code, table full...); 4 the host's identity
changed; 5 the host could not be reached.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from domicile_p2p.cli import CommandError
from domicile_p2p.identity import IdentityError, default_data_dir, load_or_create_identity
from domicile_p2p.net.adapters.bot import BotBrain, BotOutcome, PackMismatch, run_bot
from domicile_p2p.net.adapters.client import PeerClient, websocket_dialer
from domicile_p2p.net.adapters.logs import json_lines
from domicile_p2p.net.adapters.pins import PinStore
from domicile_p2p.net.adapters.seat_secrets import SeatSecrets
from domicile_p2p.net.address import Address
from domicile_p2p.net.errors import (
    BadAddress,
    BadEvent,
    BadJoinCode,
    HostIdentityChanged,
    HostMisbehaved,
    NetError,
    Refused,
    Unreachable,
)
from domicile_p2p.net.join.codes import parse_code
from domicile_p2p.net.sessions.peer import PeerSession
from domicile_p2p.net.wire import Role
from domicile_p2p.transcript.files import write_transcript

EXIT_INVALID = 1
EXIT_REFUSED = 3
EXIT_IDENTITY = 4
EXIT_UNREACHABLE = 5


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "bot",
        help="play one seat with a bot over the network",
        description="Join a table with its code and let a bot play the seat to the end.",
    )
    parser.add_argument("--connect", required=True, metavar="wss://HOST:PORT")
    parser.add_argument("--code", required=True, metavar="CODE", help="the table's code")
    parser.add_argument(
        "--role", choices=("ghost", "investigator", "any"), default="any", help="seat wanted"
    )
    parser.add_argument("--seat", type=int, metavar="N", help="a particular seat (0 = Ghost)")
    parser.add_argument("--name", default=None, help="the name shown at the table")
    parser.add_argument("--data-dir", metavar="DIR", help="this bot's key, pins and secrets")
    parser.add_argument("--transcript", metavar="FILE", help="write the final transcript here")
    parser.add_argument(
        "--bot-delay", type=float, default=0.0, metavar="S", help="seconds before each move"
    )
    parser.add_argument(
        "--fingerprint",
        metavar="HEX",
        help="the host's certificate fingerprint, when known (refuse any other)",
    )
    parser.add_argument("--seed", type=int, help="the bot's decisions (default: random)")
    parser.add_argument("--log", action="store_true", help="JSON log lines on stderr")
    parser.set_defaults(handler=run)


async def play(args: argparse.Namespace) -> BotOutcome:
    data_dir = Path(args.data_dir) if args.data_dir else default_data_dir()
    address = Address.parse(args.connect)
    code = parse_code(args.code)
    expected = None
    if args.fingerprint:
        try:
            expected = bytes.fromhex(args.fingerprint)
        except ValueError:
            raise CommandError("--fingerprint must be 64 hex digits") from None
    identity = load_or_create_identity(data_dir)
    pins = PinStore.in_data_dir(data_dir)
    role = Role(args.role)
    session = PeerSession(
        identity,
        code.nameplate,
        code=code,
        name=args.name or ("Ghost bot" if role is Role.GHOST else "Bot"),
        role=role,
        seat=args.seat,
        bot=True,
    )
    log = json_lines(sys.stderr) if args.log else (lambda event, fields: None)
    client = PeerClient(
        session,
        websocket_dialer(address, pins, expected),
        SeatSecrets(data_dir),
        pins=pins,
        pin_key=address.pin_key,
        log=log,
    )
    brain = BotBrain(session, seed=args.seed)
    return await run_bot(client, brain, delay=args.bot_delay)


def run(args: argparse.Namespace) -> int:
    if args.bot_delay < 0:
        raise CommandError("--bot-delay cannot be negative")
    try:
        outcome = asyncio.run(play(args))
    except (BadAddress, BadJoinCode) as exc:
        raise CommandError(str(exc)) from None
    except IdentityError as exc:
        raise CommandError(str(exc)) from None
    except HostIdentityChanged as exc:
        raise CommandError(str(exc), EXIT_IDENTITY) from None
    except Refused as exc:
        raise CommandError(f"the host refused: {exc}", EXIT_REFUSED) from None
    except Unreachable as exc:
        raise CommandError(str(exc), EXIT_UNREACHABLE) from None
    except (BadEvent, HostMisbehaved, PackMismatch) as exc:
        raise CommandError(str(exc), EXIT_INVALID) from None
    except NetError as exc:
        raise CommandError(str(exc), EXIT_INVALID) from None
    if args.transcript:
        path = Path(args.transcript)
        try:
            write_transcript(path, outcome.events)
        except OSError as exc:
            raise CommandError(f"cannot write {path}: {exc.strerror or exc}") from None
    print(outcome.report.summary)
    return 0 if outcome.valid else EXIT_INVALID
