"""Card packs: the default pack's content and balance, the loader's validation, the hash."""

from __future__ import annotations

import hashlib
import itertools
import json
import re
import shutil
import textwrap
import tomllib
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from domicile_p2p.packs import (
    CATEGORIES,
    DreamCard,
    InvestigatorCard,
    Pack,
    PackError,
    default_pack_dir,
    load_default_pack,
    load_pack,
)
from domicile_p2p.rules import MIN_DREAM_CARDS

FILES = ("pack.toml", "characters.toml", "locations.toml", "items.toml", "dreams.toml")
Docs = dict[str, dict[str, Any]]


# --- helpers: a writable copy of the default pack -------------------------------------------


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        # A JSON string with ensure_ascii=False is a valid TOML basic string.
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"no TOML spelling for {value!r} in these tests")


def _toml_document(document: dict[str, Any]) -> str:
    lines: list[str] = []
    for key, value in document.items():
        if isinstance(value, dict):
            lines.append(f"[{key}]")
            lines += [f"{k} = {_toml_value(v)}" for k, v in value.items()]
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            for table in value:
                lines.append(f"\n[[{key}]]")
                lines += [f"{k} = {_toml_value(v)}" for k, v in table.items()]
        else:
            lines.insert(0, f"{key} = {_toml_value(value)}")
    return "\n".join(lines) + "\n"


class PackCopy:
    """The default pack copied to a temporary directory, parsed, to break one file at a time."""

    def __init__(self, directory: Path) -> None:
        shutil.copytree(default_pack_dir(), directory)
        self.dir = directory
        self.docs: Docs = {f: tomllib.loads((directory / f).read_text("utf-8")) for f in FILES}

    def cards(self, file: str) -> list[dict[str, Any]]:
        key = "dream" if file == "dreams.toml" else "card"
        cards: list[dict[str, Any]] = self.docs[file][key]
        return cards

    def version_up(self) -> None:
        self.docs["pack.toml"]["pack"]["version"] += 1

    def vocabulary(self) -> list[str]:
        motifs: list[str] = self.docs["pack.toml"]["pack"]["motifs"]
        return motifs

    def write(self, *files: str) -> None:
        for file in files or FILES:
            (self.dir / file).write_text(_toml_document(self.docs[file]), "utf-8")


@pytest.fixture
def copy(tmp_path: Path) -> PackCopy:
    return PackCopy(tmp_path / "pack")


@pytest.fixture(scope="module")
def pack() -> Pack:
    return load_pack()


def _dream_overlaps(pack: Pack, card: InvestigatorCard) -> int:
    return sum(1 for dream in pack.dreams if dream.motifs & card.motifs)


# --- the default pack ------------------------------------------------------------------------


def test_default_pack_loads_with_enough_cards(pack: Pack) -> None:
    assert pack.id == "default"
    assert pack.name == "The Tortured Domicile"
    assert pack.version >= 1
    assert pack.description
    for category in CATEGORIES:
        assert len(pack.category(category)) >= 18, category
        assert all(card.category == category for card in pack.category(category))
    assert len(pack.dreams) >= 84
    assert 40 <= len(pack.motifs) <= 60
    assert pack.source == default_pack_dir()


def test_default_pack_description_counts_its_dreams(pack: Pack) -> None:
    # Issue 14: the description said "a hundred dreams" long after there were more.
    assert len(pack.dreams) == 196
    assert "and a hundred and ninety-six dreams" in pack.description


def test_default_pack_ids_are_unique_and_stable(pack: Pack) -> None:
    ids = [card.id for card in pack.investigator_cards] + [dream.id for dream in pack.dreams]
    assert len(ids) == len(set(ids))
    prefixes = {"character": "char", "location": "loc", "item": "item"}
    for category in CATEGORIES:
        for number, card in enumerate(pack.category(category), start=1):
            assert card.id == f"{prefixes[category]}-{number:02d}"
    for number, dream in enumerate(pack.dreams, start=1):
        assert dream.id == f"dream-{number:03d}"


def test_every_investigator_card_can_be_dreamt_of(pack: Pack) -> None:
    # The rule the brief sets is 6; the default pack aims much higher.
    overlaps = {card.id: _dream_overlaps(pack, card) for card in pack.investigator_cards}
    assert min(overlaps.values()) >= 6, overlaps
    assert min(overlaps.values()) >= 12, overlaps


def test_default_pack_motifs_are_balanced(pack: Pack) -> None:
    cards: list[InvestigatorCard | DreamCard] = [*pack.investigator_cards, *pack.dreams]
    usage = Counter(m for card in cards for m in card.motifs)
    assert not [m for m in pack.motifs if usage[m] < 2], "a motif on fewer than two cards"
    dream_usage = Counter(m for dream in pack.dreams for m in dream.motifs)
    assert all(dream_usage[m] >= 3 for m in pack.motifs), dream_usage
    for category in CATEGORIES:
        same = pack.category(category)
        assert len({card.motifs for card in same}) == len(same), category
        for a, b in itertools.combinations(same, 2):
            assert len(a.motifs & b.motifs) <= 3, (a.id, b.id)


def test_default_pack_text_fits_on_a_card(pack: Pack) -> None:
    for card in pack.investigator_cards:
        assert len(card.description) <= 110, card.id
    for dream in pack.dreams:
        assert len(dream.text) <= 300, dream.id
        # The client's dream tiles show four lines of 34 columns at 120x36 (max-height 6 in
        # styles/table.tcss); a longer dream would end in an ellipsis.
        assert len(textwrap.wrap(dream.text, 34)) <= 4, dream.id


# --- the content hash ------------------------------------------------------------------------


def _independent_hash(directory: Path) -> str:
    """The documented hash, computed from the files without the loader."""
    docs = {f: tomllib.loads((directory / f).read_text("utf-8")) for f in FILES}
    header = docs["pack.toml"]["pack"]

    def card(table: dict[str, Any], *keys: str) -> dict[str, Any]:
        value = {**{k: table[k] for k in keys}, "motifs": sorted(table["motifs"])}
        if "names" in table:
            value["names"] = table["names"]
        return value

    value = {
        "id": header["id"],
        "name": header["name"],
        "version": header["version"],
        "description": header["description"],
        "motifs": sorted(header["motifs"]),
        "characters": [
            card(c, "id", "name", "description") for c in docs["characters.toml"]["card"]
        ],
        "locations": [card(c, "id", "name", "description") for c in docs["locations.toml"]["card"]],
        "items": [card(c, "id", "name", "description") for c in docs["items.toml"]["card"]],
        "dreams": [card(d, "id", "text") for d in docs["dreams.toml"]["dream"]],
    }
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_hash_is_stable_and_documented(pack: Pack) -> None:
    again = load_pack(default_pack_dir())
    assert again is not pack
    assert again == pack
    assert again.content_hash == pack.content_hash
    assert re.fullmatch(r"[0-9a-f]{64}", pack.content_hash)
    assert pack.content_hash == _independent_hash(default_pack_dir())


def test_hash_ignores_comments_and_layout(copy: PackCopy, pack: Pack) -> None:
    copy.write()  # same values, no comments, different spelling
    assert (copy.dir / "pack.toml").read_bytes() != (default_pack_dir() / "pack.toml").read_bytes()
    assert load_pack(copy.dir).content_hash == pack.content_hash


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(
            lambda c: c.cards("dreams.toml")[5].update(text="A changed dream."), id="text"
        ),
        pytest.param(lambda c: c.cards("items.toml")[0].update(name="The Knife"), id="name"),
        pytest.param(lambda c: c.version_up(), id="version"),
        pytest.param(lambda c: c.cards("items.toml")[0].update(names=["blade"]), id="names"),
        pytest.param(lambda c: c.cards("items.toml")[1].update(names=["cup"]), id="names-changed"),
        pytest.param(lambda c: c.cards("locations.toml").reverse(), id="card-order"),
        pytest.param(lambda c: c.vocabulary().append("unused"), id="vocabulary"),
        pytest.param(lambda c: c.cards("characters.toml")[0]["motifs"].pop(), id="one-motif-fewer"),
    ],
)
def test_hash_changes_with_the_content(
    copy: PackCopy, pack: Pack, change: Callable[[PackCopy], object]
) -> None:
    change(copy)
    copy.write()
    changed = load_pack(copy.dir)
    assert changed.content_hash != pack.content_hash
    assert changed.content_hash == _independent_hash(copy.dir)


def test_motif_order_on_a_card_does_not_change_the_hash(copy: PackCopy, pack: Pack) -> None:
    for file in FILES[1:]:
        for card in copy.cards(file):
            card["motifs"].reverse()
    copy.vocabulary().reverse()
    copy.write()
    assert load_pack(copy.dir).content_hash == pack.content_hash


# --- lookups ---------------------------------------------------------------------------------


def test_card_lookup(pack: Pack) -> None:
    character = pack.characters[0]
    dream = pack.dreams[0]
    assert pack.card(character.id) is character
    assert pack.investigator_card(character.id) is character
    assert pack.card(dream.id) is dream
    assert pack.dream(dream.id) is dream
    assert isinstance(pack.card(pack.items[-1].id), InvestigatorCard)
    assert isinstance(pack.card(pack.dreams[-1].id), DreamCard)
    assert pack.category("location") == pack.locations
    assert pack.investigator_cards == (*pack.characters, *pack.locations, *pack.items)


@pytest.mark.parametrize(
    ("lookup", "key", "message"),
    [
        ("card", "char-999", "no card with id 'char-999'"),
        ("investigator_card", "dream-001", "no investigator card with id 'dream-001'"),
        ("dream", "char-01", "no dream card with id 'char-01'"),
        ("category", "weapon", "unknown card category 'weapon'"),
    ],
)
def test_unknown_lookups_raise_key_error(pack: Pack, lookup: str, key: str, message: str) -> None:
    with pytest.raises(KeyError, match=re.escape(message)):
        getattr(pack, lookup)(key)


def test_the_default_pack_is_loaded_once() -> None:
    assert load_pack() is load_default_pack()
    assert load_pack(None) is load_pack()
    assert load_pack(str(default_pack_dir())) == load_pack()


# --- check_table -----------------------------------------------------------------------------


def test_default_pack_fits_every_table(pack: Pack) -> None:
    for investigators in range(1, 7):
        pack.check_table(investigators, investigators + 6)  # very difficult


def test_check_table_too_few_investigator_cards(pack: Pack) -> None:
    too_many = len(pack.characters) + 1
    with pytest.raises(PackError) as caught:
        pack.check_table(6, too_many)
    assert caught.value.path == default_pack_dir()
    assert caught.value.card is None
    message = str(caught.value)
    assert str(default_pack_dir()) in message
    assert f"needs {too_many} character cards" in message
    assert f"only {len(pack.characters)}" in message


def test_check_table_too_few_dreams(copy: PackCopy) -> None:
    del copy.cards("dreams.toml")[18:]
    copy.write("dreams.toml")
    small = load_pack(copy.dir)
    small.check_table(3, 6)  # 7 + 3 x 3 = 16 dreams
    with pytest.raises(PackError, match=r"needs at least 19 dream cards .* only 18") as caught:
        small.check_table(4, 7)
    assert str(copy.dir) in str(caught.value)


def test_check_table_never_takes_fewer_dreams_than_the_rules_minimum(copy: PackCopy) -> None:
    # One investigator's first give needs only 7 + 3 = 10; protocol 3 needs 16 at any table.
    del copy.cards("dreams.toml")[MIN_DREAM_CARDS - 1 :]
    copy.write("dreams.toml")
    small = load_pack(copy.dir)
    with pytest.raises(PackError, match=rf"needs at least {MIN_DREAM_CARDS} dream cards"):
        small.check_table(1, 4)


@pytest.mark.parametrize(("investigators", "tableau"), [(0, 4), (3, 2), (-1, 0)])
def test_check_table_refuses_impossible_tables(
    pack: Pack, investigators: int, tableau: int
) -> None:
    with pytest.raises(ValueError):
        pack.check_table(investigators, tableau)


# --- validation ------------------------------------------------------------------------------


def _card(file: str, index: int, **changes: object) -> Callable[[PackCopy], None]:
    def change(copy: PackCopy) -> None:
        copy.cards(file)[index].update(changes)

    return change


def _drop(file: str, index: int, key: str) -> Callable[[PackCopy], None]:
    def change(copy: PackCopy) -> None:
        del copy.cards(file)[index][key]

    return change


def _motifs(file: str, index: int, count: int, repeat: bool = False) -> Callable[[PackCopy], None]:
    def change(copy: PackCopy) -> None:
        motifs = copy.vocabulary()[:count]
        if repeat:
            motifs[-1] = motifs[0]
        copy.cards(file)[index]["motifs"] = motifs

    return change


def _header(**changes: object) -> Callable[[PackCopy], None]:
    def change(copy: PackCopy) -> None:
        copy.docs["pack.toml"]["pack"].update(changes)

    return change


def _truncate(file: str, keep: int) -> Callable[[PackCopy], None]:
    def change(copy: PackCopy) -> None:
        del copy.cards(file)[keep:]

    return change


def _empty(file: str) -> Callable[[PackCopy], None]:
    def change(copy: PackCopy) -> None:
        copy.docs[file] = {}

    return change


def _vocabulary(*extra: str) -> Callable[[PackCopy], None]:
    def change(copy: PackCopy) -> None:
        copy.vocabulary().extend(extra)

    return change


def _top_level(file: str, key: str) -> Callable[[PackCopy], None]:
    def change(copy: PackCopy) -> None:
        copy.docs[file][key] = "stray"

    return change


P = pytest.param
CH, LOC, IT, DR, PK = "characters.toml", "locations.toml", "items.toml", "dreams.toml", "pack.toml"

BROKEN = [
    # (change, file, card, problem)
    P(_card(CH, 6, motifs=["glass", "eye", "hand", "glas"]), CH, "char-07",
      "motif 'glas' is not in the pack's motif list", id="motif-not-in-vocabulary"),
    P(_motifs(LOC, 1, 5, repeat=True), LOC, "loc-02", "is listed twice", id="duplicate-motif"),
    P(_motifs(IT, 2, 3), IT, "item-03", "has 3 motifs; a card needs 4 to 8", id="too-few-motifs"),
    P(_motifs(CH, 0, 9), CH, "char-01", "has 9 motifs; a card needs 4 to 8", id="too-many-motifs"),
    P(_motifs(DR, 3, 2), DR, "dream-004", "has 2 motifs; a card needs 3 to 6",
      id="dream-too-few-motifs"),
    P(_motifs(DR, 3, 7), DR, "dream-004", "has 7 motifs; a card needs 3 to 6",
      id="dream-too-many-motifs"),
    P(_card(CH, 1, motif=["bone"]), CH, "char-02", "unknown field 'motif'", id="unknown-key"),
    P(_card(CH, 1, name_list=["x"]), CH, "char-02",
      "unknown field 'name_list' (expected id, name, description, motifs, names)",
      id="unknown-key-lists-names"),
    P(_card(IT, 0, names="knife"), IT, "item-01",
      "field 'names' must be an array of strings, not a string", id="names-not-array"),
    P(_card(IT, 0, names=[]), IT, "item-01", "field 'names' has 0 entries; give 1 to 8",
      id="names-empty"),
    P(_card(IT, 0, names=[f"n{i}" for i in range(9)]), IT, "item-01",
      "field 'names' has 9 entries", id="names-too-many"),
    P(_card(IT, 0, names=["knife", "knife"]), IT, "item-01",
      "name 'knife' is listed twice in field 'names'", id="names-duplicate"),
    P(_card(IT, 0, names=["knife", " blade"]), IT, "item-01",
      "field 'names' has leading or trailing whitespace", id="names-padded"),
    P(_card(IT, 0, names=["k" * 41]), IT, "item-01",
      "field 'names' is too long (41 characters, at most 40)", id="names-too-long"),
    P(_card(IT, 0, names=["--"]), IT, "item-01", "name '--' in field 'names' has no word in it",
      id="names-no-word"),
    P(_card(DR, 0, names=["x"]), DR, "dream-001", "unknown field 'names'", id="dream-names"),
    P(_card(DR, 0, title="A title"), DR, "dream-001", "unknown field 'title'",
      id="dream-unknown-key"),
    P(_drop(CH, 2, "name"), CH, "char-03", "missing field 'name'", id="missing-name"),
    P(_drop(DR, 9, "motifs"), DR, "dream-010", "missing field 'motifs'", id="missing-motifs"),
    P(_drop(LOC, 4, "id"), LOC, "#5", "missing field 'id'", id="missing-id"),
    P(_card(CH, 2, name=3), CH, "char-03", "field 'name' must be a string, not an integer",
      id="name-not-string"),
    P(_card(IT, 0, motifs="blade"), IT, "item-01",
      "field 'motifs' must be an array of strings, not a string", id="motifs-not-array"),
    P(_card(IT, 0, motifs=["blade", 7, "red", "fire"]), IT, "item-01",
      "must be an array of strings, not an integer", id="motif-not-string"),
    P(_card(CH, 3, name="   "), CH, "char-04", "field 'name' is empty", id="empty-name"),
    P(_card(LOC, 3, description=""), LOC, "loc-04", "field 'description' is empty",
      id="empty-description"),
    P(_card(DR, 7, text=""), DR, "dream-008", "field 'text' is empty", id="empty-text"),
    P(_card(CH, 3, name=" The Widow"), CH, "char-04", "leading or trailing whitespace",
      id="padded-name"),
    P(_card(CH, 4, name="The\x1b[31mCook"), CH, "char-05", "control character U+001B",
      id="control-character"),
    P(_card(DR, 7, text="Two\nlines."), DR, "dream-008", "control character U+000A",
      id="newline-in-dream"),
    P(_card(CH, 1, id="char-01"), CH, "char-01",
      "duplicate id 'char-01' (already used earlier in this file)", id="duplicate-id"),
    P(_card(LOC, 0, id="char-01"), LOC, "char-01",
      "duplicate id 'char-01' (already used in characters.toml)", id="duplicate-id-across-files"),
    P(_card(DR, 0, id="item-20"), DR, "item-20", "already used in items.toml",
      id="dream-reuses-item-id"),
    P(_card(CH, 0, id="Char-01"), CH, "#1", "id 'Char-01' is not a valid id", id="id-uppercase"),
    P(_card(IT, 1, id="-item"), IT, "#2", "id '-item' is not a valid id", id="id-leading-dash"),
    P(_card(IT, 1, id="x" * 41), IT, "#2", "is not a valid id", id="id-too-long"),
    P(_card(IT, 1, id=2), IT, "#2", "field 'id' must be a string, not an integer",
      id="id-not-string"),
    P(_card(CH, 0, name="N" * 41), CH, "char-01",
      "field 'name' is too long (41 characters, at most 40)", id="name-too-long"),
    P(_card(LOC, 0, description="d" * 161), LOC, "loc-01",
      "field 'description' is too long (161 characters, at most 160)", id="description-too-long"),
    P(_card(DR, 0, text="t" * 301), DR, "dream-001",
      "field 'text' is too long (301 characters, at most 300)", id="dream-too-long"),
    P(_truncate(IT, 2), IT, None, "has 2 item cards; a pack needs at least 3",
      id="too-few-items"),
    P(_truncate(CH, 0), CH, None, "has 0 character cards", id="no-characters"),
    P(_empty(LOC), LOC, None, "no [[card]] tables", id="empty-file"),
    P(_top_level(DR, "dream"), DR, None, "'dream' must be an array of tables",
      id="dream-not-table"),
    P(_truncate(DR, 9), DR, None, "has 9 dream cards; a pack needs at least 10",
      id="too-few-dreams"),
    P(_top_level(CH, "cards"), CH, None, "unknown top-level key 'cards'", id="top-level-typo"),
    P(_header(version="1"), PK, None, "field 'version' must be an integer, not a string",
      id="version-string"),
    P(_header(version=True), PK, None, "field 'version' must be an integer, not a boolean",
      id="version-bool"),
    P(_header(version=0), PK, None, "must be a positive integer", id="version-zero"),
    P(_header(id="Default"), PK, None, "id 'Default' is not a valid id", id="pack-id"),
    P(_header(name=""), PK, None, "field 'name' is empty", id="pack-name-empty"),
    P(_header(author="me"), PK, None, "unknown field 'author'", id="pack-unknown-key"),
    P(_header(motifs=[]), PK, None, "the motif list is empty", id="empty-vocabulary"),
    P(_vocabulary("Water"), PK, None, "motif 'Water' is not a lower-case word",
      id="vocabulary-uppercase"),
    P(_vocabulary("two words"), PK, None, "motif 'two words' is not a lower-case word",
      id="vocabulary-space"),
    P(_vocabulary("half-moon", "half-moon"), PK, None, "motif 'half-moon' is listed twice",
      id="vocabulary-duplicate"),
]  # fmt: skip


@pytest.mark.parametrize(("change", "file", "card", "problem"), BROKEN)
def test_broken_pack_is_refused(
    copy: PackCopy,
    change: Callable[[PackCopy], None],
    file: str,
    card: str | None,
    problem: str,
) -> None:
    change(copy)
    copy.write(file)
    with pytest.raises(PackError) as caught:
        load_pack(copy.dir)
    error = caught.value
    assert error.path == copy.dir / file
    assert error.card == card
    assert problem in error.problem
    message = str(error)
    where = f"{file}, card {card}: " if card else f"{file}: "
    assert where in message
    assert problem in message


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b'[[card]]\nid = "char-01"\nname = \n', "TOML syntax error: Invalid value (at line 3"),
        (b'[[card]]\nid = "char-01"\nid = "char-02"\n', "TOML syntax error"),
        (b'[[card]]\nname = "Caf\xe9"\n', "not UTF-8 text (line 2)"),
    ],
    ids=["syntax", "duplicate-key", "not-utf8"],
)
def test_unparseable_file_is_refused(copy: PackCopy, content: bytes, problem: str) -> None:
    (copy.dir / "items.toml").write_bytes(content)
    with pytest.raises(PackError, match=re.escape(problem)) as caught:
        load_pack(copy.dir)
    assert caught.value.path == copy.dir / "items.toml"
    assert caught.value.card is None
    assert str(caught.value).startswith(str(copy.dir / "items.toml") + ": ")


@pytest.mark.parametrize("file", FILES)
def test_missing_file_is_refused(copy: PackCopy, file: str) -> None:
    (copy.dir / file).unlink()
    with pytest.raises(PackError, match=re.escape(f"{file}: file is missing")) as caught:
        load_pack(copy.dir)
    assert caught.value.path == copy.dir / file


def test_a_directory_where_a_file_should_be_is_refused(copy: PackCopy) -> None:
    (copy.dir / "dreams.toml").unlink()
    (copy.dir / "dreams.toml").mkdir()
    with pytest.raises(PackError, match=re.escape("dreams.toml: is not a file")):
        load_pack(copy.dir)


def test_oversized_file_is_refused(copy: PackCopy) -> None:
    with (copy.dir / "dreams.toml").open("a", encoding="utf-8") as handle:
        handle.write("#" * (1 << 20) + "\n")
    with pytest.raises(PackError, match=re.escape("dreams.toml: file is larger than")):
        load_pack(copy.dir)


def test_missing_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(PackError, match="pack directory does not exist") as caught:
        load_pack(tmp_path / "nowhere")
    assert caught.value.path == tmp_path / "nowhere"
    assert caught.value.card is None
    (tmp_path / "a-file").write_text("x")
    with pytest.raises(PackError, match="a-file: is not a directory"):
        load_pack(tmp_path / "a-file")


def test_pack_error_reads_well() -> None:
    error = PackError(Path("mypack/characters.toml"), "char-07", "motif 'glas' is not known")
    assert str(error) == "mypack/characters.toml, card char-07: motif 'glas' is not known"
    assert (error.path, error.card, error.problem) == (
        Path("mypack/characters.toml"),
        "char-07",
        "motif 'glas' is not known",
    )
    assert str(PackError("mypack", None, "too small")) == "mypack: too small"


def test_a_minimal_custom_pack_loads(copy: PackCopy) -> None:
    for file in ("characters.toml", "locations.toml", "items.toml"):
        del copy.cards(file)[3:]
    del copy.cards("dreams.toml")[10:]
    copy.write()
    small = load_pack(copy.dir)
    assert [len(small.category(c)) for c in CATEGORIES] == [3, 3, 3]
    assert len(small.dreams) == 10
    assert small.source == copy.dir
    # It loads, but no table plays fewer than the rules' 16 dreams (protocol 3).
    with pytest.raises(PackError, match="needs at least 16 dream cards"):
        small.check_table(1, 3)


# --- the built-in pack's record (what `domicile verify` checks without loading the pack) ----


def test_the_built_in_pack_record_is_current() -> None:
    from domicile_p2p.packs.record import RECORD_FILE
    from domicile_p2p.packs.recorder import default_record_text

    assert RECORD_FILE.read_text("utf-8") == default_record_text(), (
        "the built-in pack changed: run `python -m domicile_p2p.packs.recorder` and commit "
        f"{RECORD_FILE.name}"
    )


def test_the_record_gives_what_the_loader_gives() -> None:
    from domicile_p2p.packs.record import recorded_default

    recorded = recorded_default()
    pack = load_default_pack()
    assert recorded is not None
    assert (recorded.id, recorded.content_hash) == (pack.id, pack.content_hash)
    assert recorded.cards == {
        "character": tuple(sorted(card.id for card in pack.characters)),
        "location": tuple(sorted(card.id for card in pack.locations)),
        "item": tuple(sorted(card.id for card in pack.items)),
        "dream": tuple(sorted(card.id for card in pack.dreams)),
    }
    assert recorded.character_names == {card.id: card.name for card in pack.characters}


@pytest.mark.parametrize("change", ["edited", "missing", "no record", "bad record"])
def test_a_record_that_does_not_hold_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    from domicile_p2p.packs import record

    copy = tmp_path / "default"
    shutil.copytree(default_pack_dir(), copy)
    saved = tmp_path / "default.identity.json"
    shutil.copy(record.RECORD_FILE, saved)
    monkeypatch.setattr(record, "DEFAULT_PACK_DIR", copy)
    monkeypatch.setattr(record, "RECORD_FILE", saved)
    assert record.recorded_default() is not None  # the copy holds, byte for byte
    match change:
        case "edited":  # a comment changes no card, but the record is for other bytes
            (copy / "items.toml").write_text((copy / "items.toml").read_text() + "# mine\n")
        case "missing":
            (copy / "dreams.toml").unlink()
        case "no record":
            saved.unlink()
        case "bad record":
            saved.write_text('{"files": "x"}')
    assert record.recorded_default() is None
