"""``domicile watch``: watch a table over the network, without a seat.

    domicile watch --connect wss://192.168.1.20:47470 --code 7-raven-lantern \\
        --transcript game.json

It proves the code (the same PAKE as a player), pins the host's certificate,
and prints each event as the host publishes it, after checking it as every
player's client does (the hash chain, the signatures, the rules, and the
other seats' signed chain heads).  It gets what every seat gets: the public
events, which hold no secret before the Ghost's reveal.  When the game is
over it verifies the whole transcript (with the card pack check, against the
built-in pack, ``--pack DIR`` or none with ``--no-pack``, as ``domicile
verify`` does) and writes it to ``--transcript``,
byte for byte the host's archive of the game.  It may join at any time:
in the lobby, mid-game (it catches up from the first event) or after the end.
A spectator cannot act or chat.

Exit codes: 0 the game ended and the transcript verifies; 1 it does not
verify, or the host sent an event that breaks the rules; 2 bad options;
3 refused by the host (wrong code, 16 spectators already...); 4 the host's
identity changed; 5 the host could not be reached.
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
from domicile_p2p.cli._packs import PackUnloadable, add_pack_options, chosen_pack
from domicile_p2p.net.adapters.bot import BotOutcome
from domicile_p2p.net.adapters.spectator import watch_table
from domicile_p2p.net.sessions.peer import PeerSession
from domicile_p2p.text import inert
from domicile_p2p.transcript import Event
from domicile_p2p.transcript.packref import PackIdentity
from domicile_p2p.transcript.schema import ChatBody, GenesisBody


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "watch",
        help="watch a table over the network, without a seat",
        description=(
            "Watch a table with its code: every public event, live and checked; "
            "the verified transcript at the end."
        ),
    )
    add_table_options(parser, who="this spectator", name="in the host's log")
    add_games_options(parser, stays="watch")
    parser.add_argument(
        "--quiet", action="store_true", help="print only the verification at the end"
    )
    add_pack_options(parser)
    parser.set_defaults(handler=run)


class EventPrinter:
    """One line per event, with the names the genesis gives the seats."""

    def __init__(self) -> None:
        self.names: dict[int, str] = {}

    def __call__(self, event: Event) -> None:
        body = event.body
        if isinstance(body, GenesisBody):
            self.names = {entry.seat: entry.name for entry in body.seats}
        who = ""
        if event.seat is not None:
            who = f"  {inert(self.names.get(event.seat, '?'))} (seat {event.seat})"
        said = f": {inert(body.text)}" if isinstance(body, ChatBody) else ""
        print(f"{event.seq:>5}  {event.kind.value}{who}{said}", flush=True)


async def spectate(
    args: argparse.Namespace, pack: PackIdentity | None
) -> tuple[BotOutcome, list[BotOutcome]]:
    """Watch the table ``args`` name; each game is verified against ``pack`` (``None``:
    no card pack check)."""
    code = table_code(args)
    session = PeerSession(
        identity_of(args),
        code.nameplate,
        code=code,
        name=args.name or "Spectator",
        watch=True,
        games=games_wanted(args),
    )
    client = peer_client(args, session)
    games: list[BotOutcome] = []
    printer = None if args.quiet else EventPrinter()
    last = await watch_table(client, printer, game_ended(args, games), pack=pack)
    return last, games


def run(args: argparse.Namespace) -> int:
    games_wanted(args)  # refuses a negative --games before anything connects
    try:  # the card pack to check each game against, as `domicile verify` checks it
        pack = chosen_pack(args)
    except PackUnloadable as exc:
        raise CommandError(str(exc)) from None
    with network_errors():
        outcome, games = asyncio.run(spectate(args, pack))
    keep_transcript(args, outcome.events)
    if not games:  # no game ended (a table that never started): say what there is
        print(outcome.report.summary)
    return 0 if games and all(game.valid for game in games) else EXIT_INVALID
