"""Reading and validating a pack directory, and computing its content hash.

A pack directory holds five UTF-8 TOML files (layout in the package
docstring).  Validation is strict and stops at the first problem, raised as
a :class:`PackError` that names the file, the card and what is wrong.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import re
import tomllib
import unicodedata
from collections.abc import Mapping
from pathlib import Path

from domicile_p2p.canonical import MAX_SAFE_INTEGER, encode
from domicile_p2p.packs.lint import lint_pack
from domicile_p2p.packs.model import (
    CATEGORIES,
    DreamCard,
    InvestigatorCard,
    Pack,
    PackError,
)
from domicile_p2p.packs.names import words
from domicile_p2p.packs.record import CATEGORY_FILES, DEFAULT_PACK_DIR, DREAM_FILE, PACK_FILE

ID_PATTERN = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")
"""Card and pack ids: lower-case ASCII letters, digits and ``-``, at most 40 characters."""

MOTIF_PATTERN = re.compile(r"[a-z]+(-[a-z]+)*")
"""Motifs: one lower-case word, or words joined by ``-``."""

MAX_MOTIF_LENGTH = 30
MAX_TITLE_LENGTH = 40
"""A pack's name, or an investigator card's name or short names (titles printed on cards),
in characters.  Not a player's name: that is ``rules.MAX_NAME_LENGTH``."""
MAX_DESCRIPTION_LENGTH = 160
MAX_DREAM_TEXT_LENGTH = 300
MAX_PACK_DESCRIPTION_LENGTH = 500
INVESTIGATOR_MOTIFS = (4, 8)
"""Fewest and most motifs on an investigator card."""
DREAM_MOTIFS = (3, 6)
"""Fewest and most motifs on a dream card."""
MIN_CATEGORY_CARDS = 3
MIN_DREAMS = 10
MAX_FILE_BYTES = 1 << 20

_PACK_KEYS = ("id", "name", "version", "description", "motifs")
_INVESTIGATOR_KEYS = ("id", "name", "description", "motifs")
_INVESTIGATOR_OPTIONAL_KEYS = ("names",)
MAX_CARD_NAMES = 8
"""Most entries in an investigator card's optional ``names``."""
_DREAM_KEYS = ("id", "text", "motifs")
_TOML_TYPES: Mapping[type, str] = {
    str: "a string",
    int: "an integer",
    float: "a float",
    bool: "a boolean",
    list: "an array",
    dict: "a table",
}


def _kind(value: object) -> str:
    return _TOML_TYPES.get(type(value), "a date or time")


def default_pack_dir() -> Path:
    """The directory of the pack that ships with domicile-p2p."""
    return DEFAULT_PACK_DIR


LOGGER_NAME = "domicile_p2p.packs"
"""The logger that announces a pack's lint warnings in one line when it loads."""


@functools.lru_cache(maxsize=1)
def load_default_pack() -> Pack:
    """The default pack, loaded and validated once per process."""
    return _announced(_load(default_pack_dir()))


def load_pack(directory: Path | str | None = None, *, announce_warnings: bool = True) -> Pack:
    """Load and validate the pack in ``directory`` (``None``: the default pack).

    A problem that makes the pack unusable raises :class:`PackError`.  The
    linter's warnings (:mod:`domicile_p2p.packs.lint`) do not: they are in
    :attr:`Pack.lint_warnings` and, unless ``announce_warnings`` is false, one
    line on the :data:`LOGGER_NAME` logger counts them and names the command
    that lists them (``domicile pack check DIR``), so that a player starting
    a game with a custom pack sees one line, not a page.
    """
    if directory is None:
        return load_default_pack()
    pack = _load(Path(directory))
    return _announced(pack) if announce_warnings else pack


def warning_summary(pack: Pack) -> str | None:
    """One line counting ``pack``'s lint warnings and how to list them; ``None`` without any."""
    count = len(pack.lint_warnings)
    if not count:
        return None
    what = "a warning" if count == 1 else f"{count} warnings"
    return (
        f"the card pack {pack.id!r} in {pack.source} has {what} from the pack linter; "
        f"run `domicile pack check {pack.source}` to list them"
    )


def _announced(pack: Pack) -> Pack:
    summary = warning_summary(pack)
    if summary is not None:
        # Imported here: a pack without warnings (the default) should not cost the import.
        import logging

        logging.getLogger(LOGGER_NAME).warning("%s", summary)
    return pack


def canonical_form(pack: Pack) -> dict[str, object]:
    """The value whose canonical JSON encoding :attr:`Pack.content_hash` hashes."""

    def investigator(card: InvestigatorCard) -> dict[str, object]:
        value: dict[str, object] = {
            "id": card.id,
            "name": card.name,
            "description": card.description,
            "motifs": sorted(card.motifs),
        }
        if card.names:
            # Only when given, so that a pack without names keeps the hash it always had.
            value["names"] = list(card.names)
        return value

    return {
        "id": pack.id,
        "name": pack.name,
        "version": pack.version,
        "description": pack.description,
        "motifs": sorted(pack.motifs),
        "characters": [investigator(c) for c in pack.characters],
        "locations": [investigator(c) for c in pack.locations],
        "items": [investigator(c) for c in pack.items],
        "dreams": [{"id": d.id, "text": d.text, "motifs": sorted(d.motifs)} for d in pack.dreams],
    }


def content_hash(pack: Pack) -> str:
    """Lower-case hex SHA-256 of the canonical encoding of :func:`canonical_form`."""
    return hashlib.sha256(encode(canonical_form(pack))).hexdigest()


# --- reading ---------------------------------------------------------------------------


def _read_toml(path: Path) -> dict[str, object]:
    if not path.is_file():
        problem = "is not a file" if path.exists() else "file is missing"
        raise PackError(path, None, problem)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise PackError(path, None, f"cannot read file: {exc.strerror or exc}") from exc
    if len(data) > MAX_FILE_BYTES:
        raise PackError(path, None, f"file is larger than {MAX_FILE_BYTES} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise PackError(path, None, f"not UTF-8 text (line {line})") from exc
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PackError(path, None, f"TOML syntax error: {exc}") from exc


class _Checker:
    """Field checks for one table of one file; raises :class:`PackError` on the first problem."""

    def __init__(self, path: Path, card: str | None, table: Mapping[str, object]) -> None:
        self.path = path
        self.card = card
        self.table = table

    def fail(self, problem: str) -> PackError:
        return PackError(self.path, self.card, problem)

    def keys(self, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> None:
        allowed = required + optional
        for key in self.table:
            if key not in allowed:
                raise self.fail(f"unknown field {key!r} (expected {', '.join(allowed)})")
        for key in required:
            if key not in self.table:
                raise self.fail(f"missing field {key!r}")

    def text(self, key: str, max_length: int) -> str:
        return self._text(key, self.table[key], max_length)

    def _text(self, key: str, value: object, max_length: int) -> str:
        if not isinstance(value, str):
            raise self.fail(f"field {key!r} must be a string, not {_kind(value)}")
        if not value.strip():
            raise self.fail(f"field {key!r} is empty")
        if value != value.strip():
            raise self.fail(f"field {key!r} has leading or trailing whitespace")
        if len(value) > max_length:
            raise self.fail(
                f"field {key!r} is too long ({len(value)} characters, at most {max_length})"
            )
        for char in value:
            if unicodedata.category(char) in ("Cc", "Cs"):
                raise self.fail(f"field {key!r} contains the control character U+{ord(char):04X}")
        return value

    def card_names(self) -> tuple[str, ...]:
        """The optional ``names`` of an investigator card; absent: ``()``."""
        if "names" not in self.table:
            return ()
        values = self.strings("names")
        if not 1 <= len(values) <= MAX_CARD_NAMES:
            raise self.fail(
                f"field 'names' has {len(values)} entries; give 1 to {MAX_CARD_NAMES}, "
                "or leave it out to use the name's head noun"
            )
        names: list[str] = []
        for value in values:
            name = self._text("names", value, MAX_TITLE_LENGTH)
            if not words(name):
                raise self.fail(f"name {name!r} in field 'names' has no word in it")
            if name in names:
                raise self.fail(f"name {name!r} is listed twice in field 'names'")
            names.append(name)
        return tuple(names)

    def identifier(self, key: str = "id") -> str:
        value = self.table[key]
        if not isinstance(value, str):
            raise self.fail(f"field {key!r} must be a string, not {_kind(value)}")
        if not ID_PATTERN.fullmatch(value):
            raise self.fail(
                f"{key} {value!r} is not a valid id (lower-case letters, digits and '-', "
                "starting with a letter or digit, at most 40 characters)"
            )
        return value

    def strings(self, key: str) -> list[str]:
        value = self.table[key]
        if not isinstance(value, list):
            raise self.fail(f"field {key!r} must be an array of strings, not {_kind(value)}")
        for item in value:
            if not isinstance(item, str):
                raise self.fail(f"field {key!r} must be an array of strings, not {_kind(item)}")
        return [str(item) for item in value]

    def motifs(self, vocabulary: frozenset[str], bounds: tuple[int, int]) -> frozenset[str]:
        values = self.strings("motifs")
        seen: set[str] = set()
        for motif in values:
            if motif not in vocabulary:
                raise self.fail(f"motif {motif!r} is not in the pack's motif list")
            if motif in seen:
                raise self.fail(f"motif {motif!r} is listed twice")
            seen.add(motif)
        low, high = bounds
        if not low <= len(values) <= high:
            raise self.fail(f"has {len(values)} motifs; a card needs {low} to {high}")
        return frozenset(values)


def _card_tables(path: Path, document: Mapping[str, object], key: str) -> list[dict[str, object]]:
    for top in document:
        if top != key:
            raise PackError(path, None, f"unknown top-level key {top!r} (expected [[{key}]])")
    tables = document.get(key)
    if tables is None:
        raise PackError(path, None, f"no [[{key}]] tables")
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise PackError(path, None, f"{key!r} must be an array of tables ([[{key}]])")
    return [dict(t) for t in tables]


def _card_label(table: Mapping[str, object], position: int) -> str:
    value = table.get("id")
    if isinstance(value, str) and ID_PATTERN.fullmatch(value):
        return value
    return f"#{position}"


class _IdRegistry:
    """Card ids are unique across every file of a pack."""

    def __init__(self) -> None:
        self._where: dict[str, str] = {}

    def claim(self, check: _Checker, card_id: str) -> None:
        previous = self._where.get(card_id)
        if previous is not None:
            same = previous == check.path.name
            raise check.fail(
                f"duplicate id {card_id!r} (already used "
                + ("earlier in this file)" if same else f"in {previous})")
            )
        self._where[card_id] = check.path.name


def _load_header(directory: Path) -> tuple[str, str, int, str, frozenset[str]]:
    path = directory / PACK_FILE
    document = _read_toml(path)
    for top in document:
        if top != "pack":
            raise PackError(path, None, f"unknown top-level key {top!r} (expected [pack])")
    table = document.get("pack")
    if not isinstance(table, dict):
        raise PackError(path, None, "missing the [pack] table")
    check = _Checker(path, None, table)
    check.keys(_PACK_KEYS)
    pack_id = check.identifier()
    name = check.text("name", MAX_TITLE_LENGTH)
    version = table["version"]
    if not isinstance(version, int) or isinstance(version, bool):
        raise check.fail(f"field 'version' must be an integer, not {_kind(version)}")
    if not 1 <= version <= MAX_SAFE_INTEGER:
        raise check.fail(f"field 'version' must be a positive integer, not {version}")
    description = check.text("description", MAX_PACK_DESCRIPTION_LENGTH)
    motifs = check.strings("motifs")
    if not motifs:
        raise check.fail("the motif list is empty")
    seen: set[str] = set()
    for motif in motifs:
        if not MOTIF_PATTERN.fullmatch(motif) or len(motif) > MAX_MOTIF_LENGTH:
            raise check.fail(
                f"motif {motif!r} is not a lower-case word or hyphenated words "
                f"(at most {MAX_MOTIF_LENGTH} characters)"
            )
        if motif in seen:
            raise check.fail(f"motif {motif!r} is listed twice")
        seen.add(motif)
    return pack_id, name, version, description, frozenset(motifs)


def _load_investigators(
    directory: Path, category: str, vocabulary: frozenset[str], ids: _IdRegistry
) -> tuple[InvestigatorCard, ...]:
    path = directory / CATEGORY_FILES[category]
    cards: list[InvestigatorCard] = []
    for position, table in enumerate(_card_tables(path, _read_toml(path), "card"), start=1):
        check = _Checker(path, _card_label(table, position), table)
        check.keys(_INVESTIGATOR_KEYS, _INVESTIGATOR_OPTIONAL_KEYS)
        card_id = check.identifier()
        ids.claim(check, card_id)
        cards.append(
            InvestigatorCard(
                id=card_id,
                category=category,
                name=check.text("name", MAX_TITLE_LENGTH),
                description=check.text("description", MAX_DESCRIPTION_LENGTH),
                motifs=check.motifs(vocabulary, INVESTIGATOR_MOTIFS),
                names=check.card_names(),
            )
        )
    _require_count(path, len(cards), MIN_CATEGORY_CARDS, f"{category} cards")
    return tuple(cards)


def _load_dreams(
    directory: Path, vocabulary: frozenset[str], ids: _IdRegistry
) -> tuple[DreamCard, ...]:
    path = directory / DREAM_FILE
    dreams: list[DreamCard] = []
    for position, table in enumerate(_card_tables(path, _read_toml(path), "dream"), start=1):
        check = _Checker(path, _card_label(table, position), table)
        check.keys(_DREAM_KEYS)
        card_id = check.identifier()
        ids.claim(check, card_id)
        dreams.append(
            DreamCard(
                id=card_id,
                text=check.text("text", MAX_DREAM_TEXT_LENGTH),
                motifs=check.motifs(vocabulary, DREAM_MOTIFS),
            )
        )
    _require_count(path, len(dreams), MIN_DREAMS, "dream cards")
    return tuple(dreams)


def _require_count(path: Path, count: int, minimum: int, what: str) -> None:
    if count < minimum:
        raise PackError(path, None, f"has {count} {what}; a pack needs at least {minimum}")


def _load(directory: Path) -> Pack:
    if not directory.is_dir():
        problem = "is not a directory" if directory.exists() else "pack directory does not exist"
        raise PackError(directory, None, problem)
    pack_id, name, version, description, vocabulary = _load_header(directory)
    ids = _IdRegistry()
    characters, locations, items = (
        _load_investigators(directory, category, vocabulary, ids) for category in CATEGORIES
    )
    dreams = _load_dreams(directory, vocabulary, ids)
    pack = Pack(
        id=pack_id,
        name=name,
        version=version,
        description=description,
        motifs=vocabulary,
        characters=characters,
        locations=locations,
        items=items,
        dreams=dreams,
        content_hash="",
        source=directory,
    )
    # The hash covers the parsed values, not the file bytes: comments and layout are free.
    return dataclasses.replace(pack, content_hash=content_hash(pack), lint_warnings=lint_pack(pack))
