"""The pack linter: name matching, each rule on a tiny broken pack, the default pack, the command.

The fixtures live in ``tests/packs``: ``tiny/`` is a complete pack with no
warning, and each ``lint/RULE/`` directory breaks it for one rule, holding
only what it changes: its ``pack.toml`` (if any) replaces the tiny pack's,
its card files are appended to the tiny pack's (arrays of TOML tables
concatenate).
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import logging
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from domicile_p2p.cli import main
from domicile_p2p.packs import (
    CATEGORIES,
    LOGGER_NAME,
    PACK_FILE,
    DreamCard,
    InvestigatorCard,
    LintWarning,
    Pack,
    default_pack_dir,
    load_default_pack,
    load_pack,
    warning_summary,
)
from domicile_p2p.packs.lint import (
    MIN_POINTING_DREAMS,
    READS_ELSEWHERE_FACTOR,
    content_words,
    lint_pack,
    near_duplicate,
    points_to,
    word_overlap,
    word_sharing_pairs,
)
from domicile_p2p.packs.names import (
    GENERIC_WORDS,
    NameIndex,
    card_names,
    head_noun,
    named_cards,
    singular,
    words,
)
from domicile_p2p.packs.reading import ASSOCIATIONS_FILE, NO_ASSOCIATIONS, load_associations

FIXTURES = Path(__file__).parent / "packs"
TINY = FIXTURES / "tiny"


def broken_pack(rule: str, directory: Path) -> Path:
    """The tiny pack with the fixture ``lint/RULE`` laid over it, in ``directory``."""
    shutil.copytree(TINY, directory)
    for change in sorted((FIXTURES / "lint" / rule).iterdir()):
        target = directory / change.name
        if change.name == PACK_FILE:
            shutil.copyfile(change, target)
        else:
            target.write_text(target.read_text("utf-8") + "\n" + change.read_text("utf-8"), "utf-8")
    return directory


def _card(name: str, names: tuple[str, ...] = (), category: str = "item") -> InvestigatorCard:
    return InvestigatorCard(
        id=name.lower().replace(" ", "-").replace("'", ""),
        category=category,
        name=name,
        description="A card of these tests.",
        motifs=frozenset({"a", "b", "c", "d"}),
        names=names,
    )


def _dream(motifs: str, text: str = "A dream of these tests.") -> DreamCard:
    return DreamCard(id="dream-test", text=text, motifs=frozenset(motifs.split()))


# --- name matching ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("Cellar", "cellar"),
        ("cellars", "cellar"),
        ("Libraries", "library"),
        ("glasses", "glass"),
        ("torches", "torch"),
        ("boxes", "box"),
        ("knives", "knife"),
        ("children", "child"),
        ("teeth", "tooth"),
        ("stables", "stable"),
        ("keys", "key"),
        ("glass", "glass"),
        ("chorus", "chorus"),
        ("iris", "iris"),
        ("its", "its"),
        ("ties", "tie"),
    ],
)
def test_singular(word: str, expected: str) -> None:
    assert singular(word) == expected


def test_words_are_lower_case_singular_and_split_at_punctuation() -> None:
    assert words("The Sexton's SPADES, bell-pull cords & 3 keys!") == (
        "the",
        "sexton",
        "spade",
        "bell",
        "pull",
        "cord",
        "key",
    )
    assert words("the children’s nursery") == ("the", "child", "nursery")
    assert words("") == ()


@pytest.mark.parametrize(
    ("name", "head"),
    [
        ("The Family Crypt", "crypt"),
        ("The Decanter of Port", "decanter"),
        ("The Tin of Rat Poison", "tin"),
        ("The Bell-Pull Cord", "cord"),
        ("The Sexton's Spade", "spade"),
        ("The Stables", "stable"),
        ("Crypt", "crypt"),
        ("Of Mice and Men", "man"),
    ],
)
def test_head_noun(name: str, head: str) -> None:
    assert head_noun(name) == head


def test_card_names_are_the_full_name_without_article_and_the_head_noun() -> None:
    assert card_names(_card("The Family Crypt")) == ("family crypt", "crypt")
    assert card_names(_card("The Decanter of Port")) == ("decanter of port", "decanter")
    assert card_names(_card("A Cellar")) == ("cellar",)
    assert card_names(_card("The Sexton's Spade")) == ("sexton spade", "spade")


def test_explicit_names_replace_the_head_noun() -> None:
    keys = _card("The Ring of Keys", names=("keys", "key ring"))
    assert card_names(keys) == ("ring of key", "key", "key ring")
    assert named_cards("a wedding ring", [keys]) == ()
    assert named_cards("a ring of keys", [keys]) == (keys,)
    assert named_cards("Three iron KEYS", [keys]) == (keys,)


def test_generic_words_never_name_a_card() -> None:
    assert {"house", "room"} <= GENERIC_WORDS
    smoking = _card("The Smoking Room", category="location")
    assert card_names(smoking) == ("smoking room",)
    assert named_cards("You wake in an empty room.", [smoking]) == ()
    assert named_cards("You wake in the smoking rooms.", [smoking]) == (smoking,)
    assert card_names(_card("The Room", names=("room",))) == ()


def test_names_match_whole_words_in_any_case_and_number() -> None:
    cellar = _card("The Wine Cellar", category="location")
    assert named_cards("Down in the CELLARS it is cold.", [cellar]) == (cellar,)
    assert named_cards("A cellarman sleeps by the wine.", [cellar]) == ()
    assert named_cards("A salt cellar-door.", [cellar]) == (cellar,)


def test_the_longest_name_wins_and_uses_its_words_up() -> None:
    boy = _card("The Stable Boy", category="character")
    stables = _card("The Stables", category="location")
    cards = [boy, stables]
    assert named_cards("The stable boy sleeps.", cards) == (boy,)
    assert named_cards("The boy sleeps in the stables.", cards) == (boy, stables)
    matches = NameIndex(cards).find("A stable boy, a stable.")
    assert [(m.phrase, m.cards) for m in matches] == [
        ("stable boy", (boy,)),
        ("stable", (stables,)),
    ]


def test_a_name_shared_by_two_cards_names_both() -> None:
    forge = _card("The Forge", category="location")
    smithy = _card("The Smithy", names=("forge",), category="location")
    index = NameIndex([forge, smithy])
    assert index.ambiguous() == {"forge": (forge, smithy)}
    assert named_cards("sparks from the forge", [forge, smithy]) == (forge, smithy)


# --- the rules' building blocks ---------------------------------------------------------------


def test_a_dream_points_to_the_card_sharing_strictly_most_motifs() -> None:
    first = _card("The First")
    second = dataclasses.replace(_card("The Second"), motifs=frozenset({"c", "d", "e", "f"}))
    assert points_to(_dream("a b e"), [first, second]) is first
    assert points_to(_dream("c d e"), [first, second]) is second
    assert points_to(_dream("c d x"), [first, second]) is None  # a tie points nowhere
    assert points_to(_dream("x y z"), [first, second]) is None  # nothing shared


def test_near_duplicates() -> None:
    text = "A gull pulls a salt-stiff rope out of the sea, knot after knot."
    same_words = "A gull pulls a salt-stiff rope out of the sea, knot after knot, again."
    assert word_overlap(text, text) == 1.0
    assert word_overlap("the of a", "the of a") == 0.0  # stop words only
    assert near_duplicate(_dream("a b c", text), _dream("d e f", same_words))
    some_words = "A gull drops a salt rope into the sea from a burning tower."
    assert 0.3 <= word_overlap(text, some_words) < 0.6
    assert near_duplicate(_dream("a b c", text), _dream("a b c", some_words))
    assert not near_duplicate(_dream("a b c", text), _dream("a b d", some_words))


def test_the_linter_compares_every_pair_of_dreams_sharing_a_word() -> None:
    # lint finds candidate pairs through an index of words; none may be missed.
    pack = load_default_pack()
    content = [content_words(dream.text) for dream in pack.dreams]
    pairs = {(a.id, b.id): overlap for a, b, overlap in word_sharing_pairs(pack.dreams, content)}
    sharing = {
        (a.id, b.id)
        for (i, a), (j, b) in itertools.combinations(enumerate(pack.dreams), 2)
        if content[i] & content[j]
    }
    assert set(pairs) == sharing
    for (first, second), overlap in pairs.items():
        assert overlap == word_overlap(pack.dream(first).text, pack.dream(second).text)


# --- each rule on a tiny broken pack ----------------------------------------------------------


def test_the_tiny_pack_has_no_warning() -> None:
    pack = load_pack(TINY)
    assert pack.lint_warnings == ()
    assert lint_pack(pack) == ()
    assert lint_pack(pack, reading=NO_ASSOCIATIONS) == ()


def test_a_dream_reads_elsewhere_when_another_card_scores_far_more() -> None:
    # The Hammer's own words against a dream tagged for the sea: read as the Hammer,
    # pointed (by motifs) at the Anchor.  Moved towards the sea, the reading holds.
    pack = load_pack(TINY)
    misread = DreamCard(
        "dream-x", "A smoke-blackened handle, red to the elbow.", frozenset({"sea", "salt"})
    )
    wet = DreamCard(
        "dream-y", "A smoke-blackened handle in the salt sea, its rope coiled.", misread.motifs
    )
    assert READS_ELSEWHERE_FACTOR == 2.0
    found = lint_pack(dataclasses.replace(pack, dreams=(*pack.dreams, misread)), NO_ASSOCIATIONS)
    assert [w.message.split(" (")[0] for w in found if w.card == "dream-x"] == [
        "its motifs point to The Quay, but its words read as The Forge",
        "its motifs point to The Anchor, but its words read as The Hammer",
    ]
    assert lint_pack(dataclasses.replace(pack, dreams=(*pack.dreams, wet)), NO_ASSOCIATIONS) == ()


Expected = list[tuple[str, str | None, str | None, str]]

RULES: dict[str, tuple[Expected, list[str]]] = {
    # rule: ([(file, card, motif, rule)], fragments of the first warning's message)
    "giveaway": (
        [("dreams.toml", "dream-giveaway", None, "giveaway")],
        ['names The Lantern ("lantern"): a reader looks the card up'],
    ),
    "names-unshared": (
        [
            ("dreams.toml", "dream-unshared", None, "giveaway"),
            ("dreams.toml", "dream-unshared", None, "names-unshared"),
        ],
        ['names The Forge ("forge") but shares no motif with it'],
    ),
    "names-elsewhere": (
        [
            ("dreams.toml", "dream-elsewhere", None, "giveaway"),
            ("dreams.toml", "dream-elsewhere", None, "names-elsewhere"),
        ],
        ['names The Anchor ("anchor")', "point to The Hammer (3 shared motifs against 1)"],
    ),
    "names-two": (
        [
            ("dreams.toml", "dream-two", None, "giveaway"),
            ("dreams.toml", "dream-two", None, "names-two"),
        ],
        ['names 2 locations, The Quay and The Forge ("quay", "forge")'],
    ),
    "near-duplicate": (
        [("dreams.toml", "dream-again", None, "near-duplicate")],
        ["is a near-duplicate of dream-a1 (the same motifs, 82% of their words in common)"],
    ),
    "few-dreams": (
        [("characters.toml", "char-keeper", None, "few-dreams")],
        [
            "0 dreams point to The Lighthouse Keeper",
            f"a card needs at least {MIN_POINTING_DREAMS}",
            "than with any other character",
        ],
    ),
    "shared-name": (
        [
            ("locations.toml", "loc-forge", None, "shared-name"),
            ("locations.toml", "loc-smithy", None, "few-dreams"),
            ("locations.toml", "loc-smithy", None, "shared-name"),
        ],
        ['its name "forge" also names The Smithy'],
    ),
    "motif-no-card": (
        [("pack.toml", None, "ash", "motif-no-card")],
        ["is on no investigator card"],
    ),
    "motif-few-dreams": (
        [
            ("pack.toml", None, "ash", "motif-few-dreams"),
            ("pack.toml", None, "ash", "motif-no-card"),
        ],
        ["is on 1 dream (dream-ash); every motif needs at least 4"],
    ),
    "reads-elsewhere": (
        [
            ("dreams.toml", "dream-misread", None, "reads-elsewhere"),
            ("dreams.toml", "dream-misread", None, "reads-elsewhere"),
        ],
        ["its motifs point to The Quay, but its words read as The Forge"],
    ),
}
READING_RULES = {"reads-elsewhere"}
"""Rules checked only when the linter reads every dream (``domicile pack check``)."""


@pytest.mark.parametrize("rule", sorted(RULES))
def test_each_rule_on_a_tiny_broken_pack(rule: str, tmp_path: Path) -> None:
    expected, fragments = RULES[rule]
    directory = broken_pack(rule, tmp_path / rule)
    pack = load_pack(directory, announce_warnings=False)
    warnings = pack.lint_warnings
    if rule in READING_RULES:
        assert warnings == ()  # a load leaves the reading out
        warnings = lint_pack(pack, reading=load_associations(directory))
    found = [(w.path.name, w.card, w.motif, w.rule) for w in warnings]
    assert found == expected
    assert all(w.path == directory / w.path.name for w in warnings)
    first = next(w for w in warnings if w.rule == rule)
    for fragment in fragments:
        assert fragment in first.message
    where = f"card {first.card}" if first.card else f"motif {first.motif}"
    assert str(first).startswith(f"{first.path}, {where}: ")
    assert str(first).endswith(f" [{rule}]")


def test_every_rule_has_a_fixture() -> None:
    assert sorted(p.name for p in (FIXTURES / "lint").iterdir()) == sorted(RULES)
    documented = (Path(__file__).parents[1] / "docs" / "packs.md").read_text("utf-8")
    for rule in RULES:
        assert f"`{rule}`" in documented, rule


def test_warnings_never_stop_a_pack_from_loading(tmp_path: Path) -> None:
    pack = load_pack(broken_pack("names-two", tmp_path / "pack"), announce_warnings=False)
    assert pack.lint_warnings
    assert len(pack.dreams) == 16
    assert pack == load_pack(pack.source, announce_warnings=False)


# --- the default pack -------------------------------------------------------------------------


def test_the_default_pack_has_no_warning() -> None:
    pack = load_default_pack()
    assert pack.lint_warnings == (), "\n".join(map(str, pack.lint_warnings))
    # Every dream reads, to the text reader, as (or close to) the card its motifs point to.
    read = lint_pack(pack, reading=load_associations(pack.source))
    assert read == (), "\n".join(map(str, read))


def test_the_default_pack_audit_cases_are_fixed() -> None:
    # The cases issue 14's audit named: the motifs point where the words do, and the
    # cards they were about can still be dreamt of.
    pack = load_default_pack()
    items, locations = pack.items, pack.locations
    crypt, decanter = pack.investigator_card("loc-07"), pack.investigator_card("item-19")
    feast, wine = pack.dream("dream-099"), pack.dream("dream-121")
    assert "effigies" in feast.text and points_to(feast, locations) is crypt
    assert "crystal" in wine.text and points_to(wine, items) is decanter
    for card_id in ("loc-03", "char-15", "item-05", "item-12"):
        card = pack.investigator_card(card_id)
        pointing = [d for d in pack.dreams if points_to(d, pack.category(card.category)) is card]
        assert len(pointing) >= MIN_POINTING_DREAMS, card.name


def test_the_default_pack_issue_22_cases_are_fixed() -> None:
    # Issue 22's reading: "mirror" gave the Broken Hand Mirror away in 9 dreams, and the
    # birds that fell asleep after wine were tagged for the pillow while a reader took the
    # laudanum.
    pack = load_default_pack()
    mirror, pillow = pack.investigator_card("item-12"), pack.investigator_card("item-16")
    assert named_cards("You polish the looking-glass.", pack.items) == (mirror,)
    assert named_cards("A hand mirror, cracked.", pack.items) == (mirror,)
    assert not any(named_cards(dream.text, [mirror]) for dream in pack.dreams)
    birds = pack.dream("dream-038")
    assert "wine" not in birds.text and "down" in birds.text and "sleeper" in birds.text
    assert points_to(birds, pack.items) is pillow


def test_no_default_dream_names_a_card() -> None:
    # A dream is read, not looked up: none names a card (the giveaway rule), so the
    # linter's finer naming rules have nothing to say about the built-in pack.
    pack = load_default_pack()
    index = NameIndex(pack.investigator_cards)
    assert [dream.id for dream in pack.dreams if index.find(dream.text)] == []
    assert len(pack.dreams) >= 180


def test_every_default_card_is_pointed_to_by_enough_dreams() -> None:
    pack = load_default_pack()
    for category in CATEGORIES:
        cards = pack.category(category)
        counts = dict.fromkeys(cards, 0)
        for dream in pack.dreams:
            target = points_to(dream, cards)
            if target is not None:
                counts[target] += 1
        assert min(counts.values()) >= MIN_POINTING_DREAMS, category


# --- where warnings surface -------------------------------------------------------------------


def test_a_pack_with_warnings_announces_them_in_one_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    directory = broken_pack("shared-name", tmp_path / "pack")
    with caplog.at_level(logging.WARNING, logger=LOGGER_NAME):
        pack = load_pack(directory)
    assert len(caplog.records) == 1
    record = caplog.records[0]
    assert record.name == LOGGER_NAME
    assert record.getMessage() == warning_summary(pack)
    assert record.getMessage() == (
        f"the card pack 'tiny' in {directory} has 3 warnings from the pack linter; "
        f"run `domicile pack check {directory}` to list them"
    )


def test_loading_without_announcing_and_the_default_pack_are_silent(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    directory = broken_pack("giveaway", tmp_path / "pack")
    with caplog.at_level(logging.DEBUG, logger=LOGGER_NAME):
        pack = load_pack(directory, announce_warnings=False)
        load_pack(default_pack_dir())
        load_pack(TINY)
    assert caplog.records == []
    assert warning_summary(pack) is not None
    assert "has a warning from" in (warning_summary(pack) or "")
    assert warning_summary(load_pack(TINY)) is None


def test_a_player_sees_one_line_on_stderr(tmp_path: Path) -> None:
    directory = broken_pack("names-two", tmp_path / "pack")
    probe = "import sys\nfrom domicile_p2p.packs import load_pack\nload_pack(sys.argv[1])\n"
    result = subprocess.run(
        [sys.executable, "-c", probe, str(directory)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        warning_summary(load_pack(directory, announce_warnings=False))
    ]


# --- domicile pack check ----------------------------------------------------------------------


def test_pack_check_of_a_clean_pack_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pack", "check", str(TINY)]) == 0
    out = capsys.readouterr().out
    assert out == f"{TINY}: pack 'tiny' (9 investigator cards, 15 dreams, 12 motifs): no warnings\n"


def test_pack_check_of_the_default_pack_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pack", "check"]) == 0
    assert capsys.readouterr().out.endswith(": no warnings\n")


def test_pack_check_lists_each_warning_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = broken_pack("shared-name", tmp_path / "pack")
    assert main(["pack", "check", str(directory)]) == 1
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    pack = load_pack(directory, announce_warnings=False)
    every = lint_pack(pack, reading=load_associations(directory))  # the reading too
    assert len(every) == len(pack.lint_warnings) + 1
    assert lines[:-1] == [str(w) for w in every]
    assert lines[0].startswith(f"{directory / 'locations.toml'}, card loc-forge: ")
    assert lines[-1].endswith("4 warnings; docs/packs.md says how to fix each")
    assert captured.err == ""  # no one-line announcement on top of the list


def test_pack_check_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    directory = broken_pack("giveaway", tmp_path / "pack")
    assert main(["pack", "check", str(directory), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    pack = load_pack(directory, announce_warnings=False)
    assert report["pack"] == str(directory)
    assert report["content_hash"] == pack.content_hash
    (warning,) = report["warnings"]
    assert warning == {
        "file": "dreams.toml",
        "card": "dream-giveaway",
        "motif": None,
        "rule": "giveaway",
        "message": pack.lint_warnings[0].message,
    }


def test_pack_check_reads_every_dream(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    directory = broken_pack("reads-elsewhere", tmp_path / "pack")
    assert main(["pack", "check", str(directory)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert [line.endswith("[reads-elsewhere]") for line in lines] == [True, True, False]
    assert "but its words read as The Hammer" in lines[1]
    (directory / ASSOCIATIONS_FILE).write_text("[groups]\nsea = 3\n", "utf-8")
    assert main(["pack", "check", str(directory)]) == 2
    err = capsys.readouterr().err
    assert "cannot read the pack's association table" in err and ASSOCIATIONS_FILE in err
    assert main(["pack", "check", str(directory), "--json"]) == 2
    assert "must be a list" in json.loads(capsys.readouterr().out)["error"]["problem"]


def test_pack_check_of_a_broken_pack_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = shutil.copytree(TINY, tmp_path / "pack")
    (directory / "items.toml").write_text('[[card]]\nid = "x"\n', "utf-8")
    assert main(["pack", "check", str(directory)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("domicile pack: cannot load the card pack: ")
    assert f"{directory / 'items.toml'}, card x: missing field 'name'" in err
    assert main(["pack", "check", str(directory), "--json"]) == 2
    report = json.loads(capsys.readouterr().out)
    assert report["error"] == {
        "path": str(directory / "items.toml"),
        "card": "x",
        "problem": "missing field 'name'",
    }


def test_pack_without_a_command_prints_its_help_and_exits_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["pack"]) == 2
    assert "check" in capsys.readouterr().out


def test_pack_check_of_a_missing_directory_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["pack", "check", str(tmp_path / "nowhere")]) == 2
    assert "pack directory does not exist" in capsys.readouterr().err


def test_lint_warning_reads_well() -> None:
    on_card = LintWarning(Path("p/dreams.toml"), "dream-1", None, "names-two", "names two")
    on_motif = LintWarning(Path("p/pack.toml"), None, "ash", "motif-no-card", "is on no card")
    on_file = LintWarning(Path("p/pack.toml"), None, None, "rule", "something")
    assert str(on_card) == "p/dreams.toml, card dream-1: names two [names-two]"
    assert str(on_motif) == "p/pack.toml, motif ash: is on no card [motif-no-card]"
    assert str(on_file) == "p/pack.toml: something [rule]"


def test_lint_reads_no_files(tmp_path: Path) -> None:
    pack: Pack = load_pack(broken_pack("giveaway", tmp_path / "pack"), announce_warnings=False)
    shutil.rmtree(pack.source)
    moved = dataclasses.replace(pack, source=tmp_path / "elsewhere")
    (warning,) = lint_pack(moved)
    assert warning.path == tmp_path / "elsewhere" / "dreams.toml"
