"""Writes the built-in pack's record (``packs/default.identity.json``): run after editing the pack.

``python -m domicile_p2p.packs.recorder``.  It loads and validates the pack,
the slow way on purpose; :mod:`domicile_p2p.packs.record` reads the record
back without loading anything, and must not import this module (nor the
loader) to stay quick.
"""

from __future__ import annotations

import json
import sys

from domicile_p2p.packs.loader import load_pack
from domicile_p2p.packs.model import DreamCard, InvestigatorCard
from domicile_p2p.packs.record import CARD_KINDS, DEFAULT_PACK_DIR, RECORD_FILE, files_digest


def default_record_text() -> str:
    """The record the built-in pack's files give now (loads and validates the pack)."""
    pack = load_pack(DEFAULT_PACK_DIR)
    cards: dict[str, tuple[InvestigatorCard, ...] | tuple[DreamCard, ...]] = {
        "character": pack.characters,
        "location": pack.locations,
        "item": pack.items,
        "dream": pack.dreams,
    }
    value = {
        "about": "written by `python -m domicile_p2p.packs.recorder` from the built-in pack; "
        "see domicile_p2p/packs/recorder.py",
        "files": files_digest(DEFAULT_PACK_DIR),
        "id": pack.id,
        "content_hash": pack.content_hash,
        "cards": {kind: sorted(card.id for card in cards[kind]) for kind in CARD_KINDS},
        "character_names": {card.id: card.name for card in sorted(pack.characters, key=_id)},
    }
    return json.dumps(value, indent=1, ensure_ascii=False) + "\n"


def _id(card: InvestigatorCard) -> str:
    return card.id


def main() -> int:
    """Write the built-in pack's record (run after editing the pack)."""
    RECORD_FILE.write_text(default_record_text(), encoding="utf-8")
    print(f"wrote {RECORD_FILE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
