"""Write the wire messages' JSON Schemas (``domicile_p2p.net.schema``) into the repository.

    make vectors          # write protocol/schema/wire/ (and the rest)
    make vectors-check    # exit 1 if they are out of date

The schemas come from the message classes of ``domicile_p2p.net.wire``; the
package only renders them, and this tool (not installed) writes the files.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from domicile_p2p.net.schema import schemas

DEFAULT_DIR: Final = Path(__file__).resolve().parents[2] / "protocol" / "schema" / "wire"


def stale(directory: Path) -> list[str]:
    """The schema files under ``directory`` that are missing, different or not generated."""
    expected = schemas()
    problems = [
        name
        for name, text in expected.items()
        if not (directory / name).exists() or (directory / name).read_text(encoding="utf-8") != text
    ]
    if directory.exists():
        problems += [path.name for path in directory.glob("*.json") if path.name not in expected]
    return sorted(problems)


def write(directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in schemas().items():
        path = directory / name
        path.write_text(text, encoding="utf-8")
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
