"""JSON Schemas of the wire messages, generated from :mod:`domicile_p2p.net.wire`.

This module only renders them; ``make vectors`` writes them into
``protocol/schema/wire/`` (``tools/protocol_tools/wire_schema_export.py``), and
``make vectors-check`` and a test fail when the files there are out of date, so the
published schemas always describe what the code accepts.
"""

from __future__ import annotations

import json

import msgspec

from domicile_p2p.net.wire import PROTOCOL, SCHEMA_TYPES


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
