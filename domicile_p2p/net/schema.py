"""JSON Schemas of the wire messages, generated from :mod:`domicile_p2p.net.wire`.

``python -m domicile_p2p.net.schema [DIR]`` (re)writes them into
``protocol/schema/wire/``; a test fails when the files there are out of date,
so the published schemas always describe what the code accepts.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import msgspec

from domicile_p2p.net.wire import PROTOCOL, SCHEMA_TYPES

DEFAULT_DIRECTORY = Path("protocol") / "schema" / "wire"


def schemas() -> dict[str, str]:
    """File name -> schema text, for each direction of the conversation."""
    result: dict[str, str] = {}
    for direction, message_type in SCHEMA_TYPES.items():
        schema = msgspec.json.schema(message_type)
        schema = {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"https://domicile-p2p.invalid/protocol/wire/v{PROTOCOL}/{direction}.json",
            "title": f"domicile-p2p wire protocol v{PROTOCOL}: {direction.replace('-', ' ')}",
            **schema,
        }
        result[f"{direction}.schema.json"] = json.dumps(schema, indent=2, sort_keys=True) + "\n"
    return result


def write(directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in schemas().items():
        path = directory / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str]) -> int:
    directory = Path(argv[0]) if argv else DEFAULT_DIRECTORY
    for path in write(directory):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
