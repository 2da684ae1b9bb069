"""Transcript files: JSON Lines, one event per line, exactly as signed.

A transcript file is the concatenation, in ``seq`` order, of every event's
canonical JSON followed by one line feed (``0x0A``): no blank lines, no
carriage returns, no byte-order mark, and a line feed after the last
event.  Since canonical JSON never contains a raw line feed, the file
splits unambiguously, a host can append each event as it happens (and
fsync it), and the bytes of a line are the bytes the chain hashes.

Reading a file and telling whether it is a transcript of this protocol
(:func:`read_bytes`, :func:`looks_like_transcript`, :func:`check_version`)
loads neither the events' schema nor the verifier: ``domicile replay``
does it before its first frame.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from domicile_p2p.canonical import CanonicalError, canonical_object, decode
from domicile_p2p.rules import RULE_VERSIONS
from domicile_p2p.transcript.errors import MalformedEvent, NotATranscript

if TYPE_CHECKING:
    from domicile_p2p.transcript.codec import Event

MAX_TRANSCRIPT_BYTES = 64 * 1024 * 1024
"""A real game is well under a megabyte; refuse to read absurd files into memory."""


def encode_transcript(events: Iterable[Event]) -> bytes:
    return b"".join(event.line + b"\n" for event in events)


def write_transcript(path: Path, events: Iterable[Event]) -> None:
    """Write a whole transcript atomically (a temporary file, synced, renamed into place)."""
    import secrets  # only for a writer: reading a transcript (verify) does without its imports

    data = encode_transcript(events)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    try:
        with open(temporary, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()


def read_bytes(path: Path) -> bytes:
    """A transcript file's bytes, or :class:`NotATranscript` saying why it cannot be read."""
    try:
        size = path.stat().st_size
        if size > MAX_TRANSCRIPT_BYTES:
            raise NotATranscript(f"{path} is {size} bytes, too large for a transcript")
        return path.read_bytes()
    except FileNotFoundError:
        raise NotATranscript(f"{path} does not exist") from None
    except IsADirectoryError:
        raise NotATranscript(f"{path} is a directory") from None
    except OSError as exc:
        raise NotATranscript(f"cannot read {path}: {exc.strerror or exc}") from None


def split_lines(data: bytes) -> list[bytes]:
    """The lines of a transcript (without their line feeds).

    A last line without its line feed (a file cut short while being written)
    is kept, so the verifier can say where the problem is.
    """
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return lines


def looks_like_transcript(first_line: bytes) -> bool:
    """True when ``first_line`` is a JSON object whose ``kind`` is ``genesis``."""
    value = _first_object(first_line)
    return value is not None and value.get("kind") == "genesis"


def declared_protocol(first_line: bytes) -> int | None:
    """The integer ``body.protocol`` of a genesis line, or ``None`` if it has none.

    Read before any check, so that a transcript of another protocol version is
    refused as such instead of being judged by this version's rules.
    """
    value = _first_object(first_line)
    body = None if value is None else value.get("body")
    version = body.get("protocol") if isinstance(body, dict) else None
    return version if isinstance(version, int) and not isinstance(version, bool) else None


def check_version(data: bytes) -> None:
    """Refuse a transcript of another protocol version before anything else is said of it."""
    lines = split_lines(data)
    version = declared_protocol(lines[0]) if lines else None
    if version is not None and version not in RULE_VERSIONS:
        raise NotATranscript(unsupported_version(version))


def unsupported_version(version: int) -> str:
    """Why a transcript of protocol ``version`` (not this program's) is not verified."""
    oldest, newest = RULE_VERSIONS[0], RULE_VERSIONS[-1]
    if version < oldest:
        return (
            f"this transcript is of protocol version {version}, which this program no longer "
            f"verifies: protocol {oldest} changed the refresh rule, so its games "
            "cannot be replayed by the same rules (use the domicile-p2p release that played it)"
        )
    return (
        f"this transcript is of protocol version {version}; this program verifies "
        f"versions {oldest} to {newest} only"
    )


def _first_object(first_line: bytes) -> dict[str, object] | None:
    value: object = canonical_object(first_line)  # the usual case, quickly; else any JSON
    if value is None:
        try:
            value = decode(first_line)
        except CanonicalError:
            return None
    return value if isinstance(value, dict) else None


def parse_transcript(data: bytes) -> list[Event]:
    """Every event of a transcript's bytes; :class:`MalformedEvent` names the first bad line."""
    from domicile_p2p.transcript.codec import Event  # the schema: only to parse the events

    lines = split_lines(data)
    if not lines or not looks_like_transcript(lines[0]):
        raise NotATranscript("not a domicile-p2p transcript (its first line is not a genesis)")
    if not data.endswith(b"\n"):
        raise MalformedEvent(f"line {len(lines)} is not terminated (the file was cut short?)")
    events = []
    for number, line in enumerate(lines, start=1):
        try:
            events.append(Event.from_json(line))
        except MalformedEvent as exc:
            raise MalformedEvent(f"line {number}: {exc}") from None
    return events


def read_transcript(path: Path) -> list[Event]:
    """Every event of a transcript file (parsed, not yet verified)."""
    return parse_transcript(read_bytes(path))
