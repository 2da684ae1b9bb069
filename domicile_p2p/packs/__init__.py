"""Card packs: the investigator cards, the dream cards and their motifs.

A pack is a directory of five UTF-8 TOML files::

    pack.toml         [pack] id, name, version, description, motifs = [...]
    characters.toml   [[card]] id, name, [names,] description, motifs   (category "character")
    locations.toml    [[card]] id, name, [names,] description, motifs   (category "location")
    items.toml        [[card]] id, name, [names,] description, motifs   (category "item")
    dreams.toml       [[dream]] id, text, motifs

``motifs`` in ``pack.toml`` is the pack's vocabulary (lower-case words or
hyphenated words); every card's motifs come from it.  ``names`` is optional:
the short names by which a dream's text names the card, for the pack linter
(:mod:`domicile_p2p.packs.names`).  :func:`load_pack` validates everything
and raises :class:`PackError` on the first problem:

- every listed field present (``names`` may be left out), no other field
  (typos are errors), strings non-empty, without leading or trailing
  whitespace or control characters;
- ids match ``^[a-z0-9][a-z0-9-]{0,39}$`` and are unique across the whole
  pack (all five files);
- names (and each of ``names``, 1 to 8 of them, none twice, each with a
  word in it) at most 40 characters, descriptions at most 160, dream text
  at most 300, the pack description at most 500;
- investigator cards carry 4 to 8 motifs, dream cards 3 to 6, each from the
  vocabulary and none twice;
- at least 3 cards in each investigator category and at least 10 dreams
  (the absolute minimum; :meth:`Pack.check_table` checks a given table: a
  tableau's cards per category, and at least 16 dreams at any table, 7 plus 3
  per investigator at larger ones).

A pack that loads may still read badly: the pack linter
(:mod:`domicile_p2p.packs.lint`, ``domicile pack check DIR``) runs on every
load and keeps its warnings in :attr:`Pack.lint_warnings`; they never stop a
pack from loading.  ``docs/packs.md`` is the pack author's guide: the format,
every warning and how to fix it.

Content hash (part of the protocol: the genesis event names it)
---------------------------------------------------------------
``Pack.content_hash`` is the lower-case hex SHA-256 of
``domicile_p2p.canonical.encode(obj)``, where ``obj`` is::

    {
      "id": <pack id>, "name": <pack name>, "version": <integer>,
      "description": <pack description>,
      "motifs": [<vocabulary, sorted by code point>],
      "characters": [<investigator card>, ...],   # in file order
      "locations":  [<investigator card>, ...],   # in file order
      "items":      [<investigator card>, ...],   # in file order
      "dreams": [{"id": ..., "text": ..., "motifs": [<sorted>]}, ...]   # in file order
    }

    <investigator card> = {"id": ..., "name": ..., "description": ...,
                           "motifs": [<sorted by code point>],
                           "names": [<in file order>]}   # only when the card has names

Strings are exactly as parsed from TOML (no normalisation).  The hash
covers these values only: comments, key order, quoting and layout of the
files do not change it; any change to a value, to card order or to the
vocabulary does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domicile_p2p.lazy import lazy_exports

if TYPE_CHECKING:
    from domicile_p2p.packs.loader import (
        LOGGER_NAME,
        canonical_form,
        default_pack_dir,
        load_default_pack,
        load_pack,
        warning_summary,
    )
    from domicile_p2p.packs.model import (
        CATEGORIES,
        DreamCard,
        InvestigatorCard,
        LintWarning,
        Pack,
        PackError,
    )
    from domicile_p2p.packs.record import CATEGORY_FILES, DREAM_FILE, PACK_FILE

# Names are imported from their module when first asked for (PEP 562): ``domicile
# verify`` checks the built-in pack through ``record`` without loading the loader.
_EXPORTS: dict[str, str] = {
    **dict.fromkeys(
        (
            "LOGGER_NAME",
            "canonical_form",
            "default_pack_dir",
            "load_default_pack",
            "load_pack",
            "warning_summary",
        ),
        "loader",
    ),
    **dict.fromkeys(
        ("CATEGORIES", "DreamCard", "InvestigatorCard", "LintWarning", "Pack", "PackError"),
        "model",
    ),
    **dict.fromkeys(("CATEGORY_FILES", "DREAM_FILE", "PACK_FILE"), "record"),
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())

__all__ = [
    "CATEGORIES",
    "CATEGORY_FILES",
    "DREAM_FILE",
    "LOGGER_NAME",
    "PACK_FILE",
    "DreamCard",
    "InvestigatorCard",
    "LintWarning",
    "Pack",
    "PackError",
    "canonical_form",
    "default_pack_dir",
    "load_default_pack",
    "load_pack",
    "warning_summary",
]
