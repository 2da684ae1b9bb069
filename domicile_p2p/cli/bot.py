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

from domicile_p2p.cli import EXIT_INVALID, CommandError
from domicile_p2p.cli._network import (
    add_games_options,
    add_table_options,
    game_ended,
    games_wanted,
    identity_of,
    keep_transcript,
    network_errors,
    peer_client,
    table_code,
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
    add_games_options(parser, stays="stay seated through")
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
        games=games_wanted(args),
    )
    client = peer_client(args, session)
    brain = BotBrain(session, seed=args.seed)
    games: list[BotOutcome] = []
    last = await run_bot(client, brain, delay=args.bot_delay, on_game=game_ended(args, games))
    return last, games


def run(args: argparse.Namespace) -> int:
    if args.bot_delay < 0:
        raise CommandError("--bot-delay cannot be negative")
    games_wanted(args)  # refuses a negative --games before anything connects
    with network_errors():
        outcome, games = asyncio.run(play(args))
    keep_transcript(args, outcome.events)
    return 0 if games and all(game.valid for game in games) else EXIT_INVALID
