"""The built-in pack's identity, recorded beside it: checked without loading the pack.

``domicile verify`` checks by default that a game was played with the
built-in pack: its id, its content hash and its card ids.  Computing them
means loading the pack (``tomllib``, ~190 cards validated one by one), which
takes longer than checking every signature of a game.  So the loader's
answer is recorded in ``default.identity.json`` together with the SHA-256 of
the five files it was computed from (:func:`files_digest`), and
:func:`recorded_default` gives it back only while the files at hand are
still those bytes.  When they are not (the pack was edited), it gives
``None`` and the caller loads the pack as before: the record can make the
check quicker, never different.

``python -m domicile_p2p.packs.recorder`` writes the record again (it loads
the pack, so it lives beside this module, not in it); ``tests/test_packs.py``
fails while the record is stale.

This module also names the five files of a pack (the loader uses the same
names), and imports nothing of the loader.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Final

PACK_FILE: Final = "pack.toml"
DREAM_FILE: Final = "dreams.toml"
CATEGORY_FILES: Mapping[str, str] = {
    "character": "characters.toml",
    "location": "locations.toml",
    "item": "items.toml",
}
"""The file of each investigator category; every file holds ``[[card]]`` tables."""

PACK_FILES: Final = (PACK_FILE, *CATEGORY_FILES.values(), DREAM_FILE)
"""Every file of a pack, in the order :func:`files_digest` reads them."""

DEFAULT_PACK_DIR: Final = Path(__file__).resolve().parent / "default"
"""The directory of the pack that ships with domicile-p2p."""

RECORD_FILE: Final = Path(__file__).resolve().parent / "default.identity.json"

CARD_KINDS: Final = ("character", "location", "item", "dream")


class RecordedPack:
    """A pack's id, content hash and card ids (sorted, per kind), as recorded, and its
    character cards' names by id (for the verifier's words: who the culprit was)."""

    __slots__ = ("cards", "character_names", "content_hash", "id")

    def __init__(
        self,
        pack_id: str,
        content_hash: str,
        cards: Mapping[str, tuple[str, ...]],
        character_names: Mapping[str, str],
    ) -> None:
        self.id = pack_id
        self.content_hash = content_hash
        self.cards = cards
        self.character_names = character_names


def files_digest(directory: Path) -> str | None:
    """SHA-256 of a pack directory's five files (name, length and bytes of each), in hex.

    ``None`` when a file cannot be read: the loader then says what is wrong.
    """
    digest = hashlib.sha256()
    for name in PACK_FILES:
        try:
            data = (directory / name).read_bytes()
        except OSError:
            return None
        digest.update(b"%s\0%d\0" % (name.encode(), len(data)))
        digest.update(data)
    return digest.hexdigest()


def recorded_default() -> RecordedPack | None:
    """The built-in pack's identity from its record, or ``None`` if the record does not hold.

    It holds when it exists, is well formed, and was made from exactly the
    files now in the built-in pack's directory.
    """
    try:
        record = json.loads(RECORD_FILE.read_bytes())
        files, pack_id, content_hash = record["files"], record["id"], record["content_hash"]
        cards = {kind: tuple(record["cards"][kind]) for kind in CARD_KINDS}
        names = {str(card): str(name) for card, name in record["character_names"].items()}
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if files != files_digest(DEFAULT_PACK_DIR):
        return None
    return RecordedPack(pack_id, content_hash, cards, names)
