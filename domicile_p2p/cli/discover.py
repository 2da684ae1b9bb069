"""``domicile discover``: list the tables announced on the LAN (mDNS).

    domicile discover --timeout 3
    domicile discover --json --interface 192.168.1.12

An advert is only a hint: joining still needs the table's code, which proves
(with the PAKE) that you reached the host that shows it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from domicile_p2p.cli import CommandError
from domicile_p2p.net.adapters.discovery import discover, unique
from domicile_p2p.net.join.words import phrase
from domicile_p2p.text import inert, json_inert


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "discover",
        help="list the tables announced on the LAN",
        description="Listen for table adverts (mDNS, _domicile._tcp) and list them.",
    )
    parser.add_argument("--timeout", type=float, default=3.0, metavar="S", help="seconds to listen")
    parser.add_argument("--json", action="store_true", help="one JSON object per table per line")
    parser.add_argument(
        "--interface", metavar="IP", help="listen on this IPv4 address only (default: all)"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if not 0 < args.timeout <= 600:
        raise CommandError("--timeout must be between 0 and 600 seconds")
    try:
        tables = unique(asyncio.run(discover(args.timeout, args.interface)))
    except OSError as exc:
        raise CommandError(f"cannot listen for mDNS: {exc.strerror or exc}") from None
    if args.json:
        for table in tables:
            print(json_inert(json.dumps(table.as_json(), ensure_ascii=False, sort_keys=True)))
        return 0
    if not tables:
        print("No tables found.", file=sys.stderr)
        return 0
    for table in tables:
        advert = table.advert
        host_phrase = phrase(bytes.fromhex(advert.fingerprint))
        print(  # an advert is anyone's words: inert
            inert(
                f"{advert.name}  {table.url}  table {advert.nameplate}  {advert.state.value}  "
                f"{advert.seats_free}/{advert.seats_total} seats free  {advert.difficulty}  "
                f"host {host_phrase}"
            )
        )
    return 0
