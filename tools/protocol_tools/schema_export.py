"""Generate the transcript's JSON Schemas from the msgspec Structs of ``transcript.schema``.

    make vectors          # write protocol/schema/transcript/ (and the vectors)
    make vectors-check    # exit 1 if they are out of date

One file per event body (``body/<kind>.schema.json``), one for a transcript
line (``event.schema.json``) and one for the signed action a player sends
(``signed-action.schema.json``).  The Structs are the source; these files
are generated, never edited by hand.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import msgspec

from domicile_p2p.transcript.schema import (
    BODY_TYPES,
    ActionEventRecord,
    HostEventRecord,
    SignedActionRecord,
)

JSON_SCHEMA_DIALECT: Final = "https://json-schema.org/draft/2020-12/schema"
DEFAULT_DIR: Final = Path(__file__).resolve().parents[2] / "protocol" / "schema" / "transcript"


def _document(title: str, description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"$schema": JSON_SCHEMA_DIALECT, "title": title, "description": description, **schema}


def _either(*types: type) -> dict[str, Any]:
    # msgspec refuses untagged unions of Structs (it could not decode one); the two
    # records differ by their fields, which is all a JSON Schema needs.
    refs, components = msgspec.json.schema_components(types)
    return {"anyOf": list(refs), "$defs": components}


def schemas() -> dict[str, dict[str, Any]]:
    """Every schema file: relative path -> JSON Schema."""
    files: dict[str, dict[str, Any]] = {
        "event.schema.json": _document(
            "domicile-p2p transcript event",
            "One line of a transcript: a host statement or a player's action ordered by the "
            "host. The body's schema depends on the kind (body/<kind>.schema.json).",
            _either(HostEventRecord, ActionEventRecord),
        ),
        "signed-action.schema.json": _document(
            "domicile-p2p signed action",
            "An action as a player sends it to the host, signed with the seat's key.",
            msgspec.json.schema(SignedActionRecord),
        ),
    }
    for kind, body in BODY_TYPES.items():
        files[f"body/{kind.value}.schema.json"] = _document(
            f"body of a {kind.value} event",
            (body.__doc__ or "").strip().splitlines()[0] if body.__doc__ else kind.value,
            msgspec.json.schema(body),
        )
    return files


def render(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def stale(directory: Path) -> list[str]:
    """The schema files under ``directory`` that are missing, different or not generated."""
    expected = {name: render(schema) for name, schema in schemas().items()}
    problems = []
    for name, text in expected.items():
        path = directory / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            problems.append(name)
    if directory.exists():
        for path in directory.rglob("*.json"):
            name = path.relative_to(directory).as_posix()
            if name not in expected:
                problems.append(name)
    return sorted(problems)


def write(directory: Path) -> list[Path]:
    written = []
    for name, schema in schemas().items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(render(schema), encoding="utf-8")
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=DEFAULT_DIR, help="the schema directory")
    parser.add_argument("--check", action="store_true", help="only report stale files")
    args = parser.parse_args(argv)
    if args.check:
        problems = stale(args.out)
        for name in problems:
            print(f"out of date: {args.out / name}", file=sys.stderr)
        return 1 if problems else 0
    for path in write(args.out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
