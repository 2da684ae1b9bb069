"""The text reader: a dream read as a person reads it, from the words alone."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from domicile_p2p.bots.readers import PackTexts, Readers, card_texts, fits
from domicile_p2p.packs import Pack, load_default_pack
from domicile_p2p.packs.reading import (
    ASSOCIATIONS_FILE,
    Associations,
    AssociationsError,
    CardText,
    DreamText,
    TextReader,
    content_words,
    load_associations,
    reading,
    stem,
)


@pytest.fixture(scope="module")
def pack() -> Pack:
    return load_default_pack()


def _fields(kind: type) -> set[str]:
    return {field.name for field in dataclasses.fields(kind)}


def test_the_reader_is_given_no_motif(pack: Pack) -> None:
    # By construction: what the reader is built from and reads carries no motif...
    assert _fields(CardText) == {"id", "category", "name", "description"}
    assert _fields(DreamText) == {"id", "text"}
    assert all(not hasattr(text, "motifs") for text in card_texts(pack.investigator_cards))
    # ...and a pack whose every motif is scrambled reads exactly the same.
    rng = random.Random(7)
    vocabulary = sorted(pack.motifs)

    def scrambled(motifs: frozenset[str]) -> frozenset[str]:
        return frozenset(rng.sample(vocabulary, len(motifs)))

    other = dataclasses.replace(
        pack,
        characters=tuple(
            dataclasses.replace(c, motifs=scrambled(c.motifs)) for c in pack.characters
        ),
        locations=tuple(dataclasses.replace(c, motifs=scrambled(c.motifs)) for c in pack.locations),
        items=tuple(dataclasses.replace(c, motifs=scrambled(c.motifs)) for c in pack.items),
        dreams=tuple(dataclasses.replace(d, motifs=scrambled(d.motifs)) for d in pack.dreams),
        content_hash="0" * 64,
    )
    assert any(a.motifs != b.motifs for a, b in zip(pack.dreams, other.dreams, strict=True))
    assert fits(other, Readers.TEXT).fits == fits(pack, Readers.TEXT).fits
    assert fits(other, Readers.MOTIFS).fits != fits(pack, Readers.MOTIFS).fits


def test_words_are_compared_by_their_stems() -> None:
    assert stem("drip") == stem("dripping") == stem("dripped")
    assert stem("sleep") == stem("sleeping") == stem("slept")
    assert stem("bell") == "bell"  # a doubled l stays
    assert stem("rise") == stem("rising")
    printed = [
        word.printed for word in content_words("The Butler's cold bells, and the sleeping birds!")
    ]
    assert printed == ["Butler's", "cold", "bells", "sleeping", "birds"]
    words = content_words("Wine, and sleeping birds")
    assert words[0].before is None and words[2].before == "sleeping"


def test_a_dream_reads_as_the_card_whose_words_it_shares(pack: Pack) -> None:
    cards = card_texts(pack.items)
    scores = reading("A mirror on the wall, its glass cracked.", cards)
    mirror = next(card.id for card in cards if card.name == "The Broken Hand Mirror")
    assert max(scores, key=scores.__getitem__) == mirror
    assert reading(DreamText("d", "A mirror"), cards) == reading("A mirror", cards)
    assert set(reading("nothing at all here", cards).values()) == {0.0}


def test_a_name_outweighs_a_word_of_a_description(pack: Pack) -> None:
    cards = card_texts(pack.locations)
    # "stone" is on the Wine Cellar's description; "crypt" is the Family Crypt's name.
    scores = reading("Stone and a crypt.", cards)
    crypt = next(card.id for card in cards if card.name == "The Family Crypt")
    cellar = next(card.id for card in cards if card.name == "The Wine Cellar")
    assert scores[crypt] > scores[cellar] > 0


def test_associations_link_words_no_card_prints(pack: Pack) -> None:
    cards = card_texts(pack.items)
    laudanum = next(card.id for card in cards if card.name == "The Laudanum Bottle")
    plain = reading("The birds fall asleep and yawn.", cards)
    linked = reading(
        "The birds fall asleep and yawn.",
        cards,
        Associations.of({"sleep": ["asleep", "yawn", "sleep"]}),
    )
    assert plain[laudanum] == 0 and linked[laudanum] > 0


def test_the_default_pack_ships_its_associations(pack: Pack) -> None:
    associations = load_associations(pack.source)
    assert "sleep" in associations.of_stem(stem("asleep"))
    assert load_associations(Path("/nonexistent")).groups == {}


@pytest.mark.parametrize(
    "text",
    [
        "not toml =",
        "[other]\nx = ['a']\n",
        "[groups]\nx = 'a'\n",
        "[groups]\nx = []\n",
        "[groups]\nx = [1]\n",
    ],
)
def test_a_broken_association_table_is_refused(tmp_path: Path, text: str) -> None:
    (tmp_path / ASSOCIATIONS_FILE).write_text(text, encoding="utf-8")
    with pytest.raises(AssociationsError):
        load_associations(tmp_path)


def test_the_reader_says_which_words_pointed(pack: Pack) -> None:
    texts = PackTexts(pack)
    # The built-in dreams never name the mirror (docs/packs.md, `giveaway`): a reflection
    # calls it to mind through the association table.
    dream = next(d for d in pack.dreams if "reflection" in d.text.lower())
    mirror = next(card.id for card in pack.items if card.name == "The Broken Hand Mirror")
    clues = texts.clues(dream.id, mirror)
    assert clues and any(clue.word.stem == "reflection" for clue in clues)
    assert [clue.weight for clue in clues] == sorted((clue.weight for clue in clues), reverse=True)


def test_a_reader_reads_one_category_at_a_time(pack: Pack) -> None:
    reader = TextReader(card_texts(pack.characters))
    assert set(reader.read("anything")) == {card.id for card in pack.characters}


def test_a_ladder_rung_is_no_ring_of_keys(pack: Pack) -> None:
    # "rung" is the stairs group's word; read as "ring" it put the Ring of Keys' name in
    # that group, so every "climb" and "step" read as the Ring of Keys.
    cards = card_texts(pack.items)
    associations = load_associations(pack.source)
    keys = next(card.id for card in cards if card.name == "The Ring of Keys")
    assert stem("rung") != stem("ring")
    assert reading("You climb, step after step.", cards, associations)[keys] == 0
    assert reading("A ring on a hook.", cards, associations)[keys] > 0


def test_full_points_to_no_card(pack: Pack) -> None:
    # The Decanter is "half full"; a full moon or a room full of toys is not a decanter.
    cards = card_texts(pack.items)
    associations = load_associations(pack.source)
    decanter = next(card.id for card in cards if card.name == "The Decanter of Port")
    assert reading("A full moon.", cards, associations) == reading("A moon.", cards, associations)
    assert reading("Full.", cards, associations)[decanter] == 0
    assert reading("A decanter.", cards, associations)[decanter] > 0
