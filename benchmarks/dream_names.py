"""A stricter check of which dreams name an investigator card, independent of the project's.

``python benchmarks/dream_names.py PACK_DIR`` lists each dream that names a card and the
share of such dreams (issue 22 asks for at most 15%).  It shares no code with
:mod:`domicile_p2p.packs.names` (the linter's ``giveaway`` rule): its own tokens and stems,
and it catches more. A dream names a card when
(a) a word of it is one of the card's short names (its `names`, or the last word of its name /
the word before "of") in any inflection (-s, -es, -ed, -ing, -ies/-ied, possessive);
(b) a word of it contains a short name of 5+ letters inside a compound ("stairwell", "churchyard");
(c) two content words of the card's full name both occur in it ("bone" and "china");
(d) a word of it is on a short list of everyday synonyms a reader takes for the card
    (or it says "looking glass").
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path
from typing import Any

SYNONYMS = {
    "item-01": ["dagger", "carver"],
    "item-03": ["candelabra", "candleholder"],
    "item-06": ["pistol", "rifle", "musket", "fowling"],
    "item-07": ["tincture", "opium", "vial", "phial"],
    "item-14": ["telescope"],
    "item-16": ["cushion", "bolster"],
    "item-17": ["shovel"],
    "item-18": ["keyring", "keychain"],
    "item-19": ["carafe", "flagon"],
    "item-20": ["lash", "horsewhip"],
    "item-11": ["arsenic"],
    "item-09": ["cravat", "kerchief"],
    "loc-02": ["bookcase"],
    "loc-05": ["playroom"],
    "loc-07": ["sepulchre", "ossuary"],
    "loc-10": ["stall", "hayloft"],
    "loc-11": ["jetty", "pier"],
    "loc-16": ["cigar"],
    "loc-14": ["bedchamber"],
    "loc-08": ["stairway", "banister"],
    "loc-04": ["scullery", "pantry"],
    "loc-19": ["alembic", "retort"],
    "loc-20": ["desk"],
    "loc-09": ["waltz", "dance"],
    "char-03": ["footman", "valet"],
    "char-05": ["chef"],
    "char-06": ["groom", "stableboy"],
    "char-09": ["clairvoyant", "seance"],
    "char-10": ["sailor", "skipper"],
    "char-14": ["poacher", "huntsman"],
    "char-16": ["pianist"],
    "char-19": ["apothecary"],
}
GENERIC = {"the", "a", "an", "of", "house", "room", "hall", "old", "grand", "family", "master"}


def stem(word: str) -> str:
    word = word.lower()
    for suffix, repl in (
        ("ies", "y"),
        ("ied", "y"),
        ("ing", ""),
        ("es", ""),
        ("ed", ""),
        ("s", ""),
    ):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)] + repl
    return word


def tokens(text: str) -> list[str]:
    return re.findall(r"[a-z]+", text.lower().replace("'s ", " ").replace("’s ", " "))


def short_names(card: dict[str, Any]) -> list[str]:
    if "names" in card:
        return [n.lower() for n in card["names"]]
    words = tokens(card["name"])
    return [words[words.index("of", 1) - 1] if "of" in words[1:] else words[-1]]


def naming(text: str, cards: list[dict[str, Any]]) -> list[str]:
    toks = tokens(text)
    stems = {stem(t) for t in toks}
    joined = " " + " ".join(toks) + " "
    found = []
    for card in cards:
        hit = False
        for name in short_names(card):
            if name in GENERIC:
                continue
            parts = tokens(name)
            if len(parts) > 1:
                hit |= (" " + " ".join(parts) + " ") in joined
            else:
                hit |= stem(parts[0]) in stems or parts[0] in toks
                if len(parts[0]) >= 5:
                    hit |= any(parts[0] in t and t != parts[0] for t in toks)
        content = [stem(w) for w in tokens(card["name"]) if w not in GENERIC]
        if len(content) >= 2:
            hit |= sum(1 for w in set(content) if w in stems) >= 2
        hit |= any(s in toks or stem(s) in stems for s in SYNONYMS.get(card["id"], []))
        hit |= card["id"] == "item-12" and " looking glass " in joined
        if hit:
            found.append(card["id"])
    return found


def main(pack: Path) -> None:
    cards: list[dict[str, Any]] = []
    for file in ("characters.toml", "locations.toml", "items.toml"):
        cards += tomllib.loads((pack / file).read_text())["card"]
    dreams = tomllib.loads((pack / "dreams.toml").read_text())["dream"]
    named = 0
    for dream in dreams:
        found = naming(dream["text"], cards)
        if found:
            named += 1
            print(dream["id"], ",".join(found), "|", dream["text"])
    print(f"{named} of {len(dreams)} dreams name a card ({named / len(dreams):.1%})")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
