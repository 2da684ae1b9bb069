"""``domicile bot``: a bot player joining a table over the network, as a person's client does.

    domicile bot --connect wss://192.168.1.20:47470 --code 7-raven-lantern --role ghost \\
        --data-dir ./ghost-bot --transcript game.json

It joins with the code (PAKE), pins the host's certificate, checks every
event, plays until the game is over, verifies the whole transcript and
writes it to ``--transcript``.  With ``--games N`` it stays seated through
the table's next N - 1 games as well (0: as many as the host plays), and
``--transcript-dir DIR`` gets each game's transcript as it ends, in
``DIR/GAME_ID.jsonl``: the same bytes as the host's ``games/GAME_ID.json``
(``--transcript`` then holds the last game's).  It reconnects by itself when the connection
drops (a restarted host, a flaky network), and a bot that is killed and
started again with the same ``--data-dir`` takes its seat back.

Exit codes: 0 the games ended and their transcripts verify; 1 one does not
verify, or the host sent an event that breaks the rules; 2 bad options;
3 refused by the host (wrong code, table full...); 4 the host's identity
changed; 5 the host could not be reached.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from domicile_p2p.cli import CommandError
from domicile_p2p.cli._network import (
    EXIT_INVALID,
    add_table_options,
    identity_of,
    keep_transcript,
    network_errors,
    peer_client,
    table_code,
    write_transcript_file,
)
from domicile_p2p.net.adapters.bot import BotBrain, BotOutcome, run_bot
from domicile_p2p.net.sessions.peer import PeerSession
from domicile_p2p.net.wire import Role


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "bot",
        help="play one seat with a bot over the network",
        description="Join a table with its code and let a bot play the seat to the end.",
    )
    add_table_options(parser, who="this bot", name="at the table")
    parser.add_argument(
        "--role", choices=("ghost", "investigator", "any"), default="any", help="seat wanted"
    )
    parser.add_argument("--seat", type=int, metavar="N", help="a particular seat (0 = Ghost)")
    parser.add_argument(
        "--bot-delay", type=float, default=0.0, metavar="S", help="seconds before each move"
    )
    parser.add_argument("--seed", type=int, help="the bot's decisions (default: random)")
    parser.add_argument(
        "--games",
        type=int,
        default=1,
        metavar="N",
        help="stay seated through N of the table's games (0: as many as it plays; default 1)",
    )
    parser.add_argument(
        "--transcript-dir",
        metavar="DIR",
        help="write each game's transcript, as it ends, to DIR/GAME_ID.jsonl",
    )
    parser.set_defaults(handler=run)


async def play(args: argparse.Namespace) -> tuple[BotOutcome, list[BotOutcome]]:
    code = table_code(args)
    role = Role(args.role)
    session = PeerSession(
        identity_of(args),
        code.nameplate,
        code=code,
        name=args.name or ("Ghost bot" if role is Role.GHOST else "Bot"),
        role=role,
        seat=args.seat,
        bot=True,
        games=args.games or None,
    )
    client = peer_client(args, session)
    brain = BotBrain(session, seed=args.seed)
    games: list[BotOutcome] = []

    def ended(outcome: BotOutcome) -> None:
        games.append(outcome)
        if args.transcript_dir and outcome.game_id is not None:
            path = Path(args.transcript_dir) / f"{outcome.game_id}.jsonl"
            write_transcript_file(path, outcome.events)
        print(outcome.report.summary, flush=True)

    last = await run_bot(client, brain, delay=args.bot_delay, on_game=ended)
    return last, games


def run(args: argparse.Namespace) -> int:
    if args.bot_delay < 0:
        raise CommandError("--bot-delay cannot be negative")
    if args.games < 0:
        raise CommandError("--games is 0 (as many as the table plays) or more")
    with network_errors():
        outcome, games = asyncio.run(play(args))
    keep_transcript(args, outcome.events)
    return 0 if games and all(game.valid for game in games) else EXIT_INVALID
