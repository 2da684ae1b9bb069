"""The derivation stream (``fairness.derive``) and the deal built on it (``fairness.deal``).

Every expectation is recomputed here from the specification with ``hmac``
directly, so the tests would catch a change of the byte stream, of the
rejection rule or of the Fisher-Yates direction.
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from itertools import islice, permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rules_support import DREAMS, POOL, table

from domicile_p2p.fairness.deal import Reshuffler, deal_secrets, deal_tableau, label
from domicile_p2p.fairness.derive import (
    KEY_BYTES,
    ByteStream,
    DerivationError,
    choose,
    sample,
    shuffle,
    stream_bytes,
)
from domicile_p2p.rules import (
    CATEGORY_ORDER,
    MAX_INVESTIGATORS,
    Category,
    Difficulty,
    SetupError,
    new_game,
)

KEY = bytes(range(32))
OTHER_KEY = bytes(range(1, 33))
U32 = 2**32

# ------------------------------------------------------------------ an independent reference


def reference_blocks(key: bytes, label_text: str) -> Iterator[bytes]:
    """block(i) = HMAC-SHA256(key, u32be(len(label)) || label || u64be(i))."""
    encoded = label_text.encode("ascii")
    counter = 0
    while True:
        message = len(encoded).to_bytes(4, "big") + encoded + counter.to_bytes(8, "big")
        yield hmac.digest(key, message, "sha256")
        counter += 1


def reference_words(key: bytes, label_text: str) -> Iterator[int]:
    """The stream read as consecutive big-endian u32 values."""
    for block in reference_blocks(key, label_text):
        for offset in range(0, 32, 4):
            yield int.from_bytes(block[offset : offset + 4], "big")


def reference_below(words: Iterator[int], bound: int) -> int:
    limit = U32 - U32 % bound
    for word in words:
        if word < limit:
            return word % bound
    raise AssertionError("the stream never ends")


def reference_shuffle_words(words: Iterable[int], items: Sequence[str]) -> tuple[str, ...]:
    """Fisher-Yates from the last item down, each partner drawn from ``words``."""
    remaining = iter(words)
    result = list(items)
    for index in range(len(result) - 1, 0, -1):
        partner = reference_below(remaining, index + 1)
        result[index], result[partner] = result[partner], result[index]
    return tuple(result)


def reference_shuffle(key: bytes, label_text: str, items: Sequence[str]) -> tuple[str, ...]:
    return reference_shuffle_words(reference_words(key, label_text), items)


# --------------------------------------------------------------------------- the stream


def test_the_stream_is_hmac_sha256_in_counter_mode() -> None:
    expected = b"".join(islice(reference_blocks(KEY, "domicile-p2p/v1/test"), 4))
    assert stream_bytes(KEY, "domicile-p2p/v1/test", 128) == expected
    assert stream_bytes(KEY, "domicile-p2p/v1/test", 45) == expected[:45]
    # The first block, spelled out once without the helper.
    message = struct.pack(">I", 20) + b"domicile-p2p/v1/test" + struct.pack(">Q", 0)
    first = hmac.new(KEY, message, hashlib.sha256).digest()
    assert stream_bytes(KEY, "domicile-p2p/v1/test", 32) == first


def test_reading_in_pieces_reads_the_same_stream() -> None:
    stream = ByteStream(KEY, "pieces")
    pieces = [stream.read(size) for size in (1, 0, 5, 31, 32, 33, 64, 2)]
    assert b"".join(pieces) == stream_bytes(KEY, "pieces", sum(len(p) for p in pieces))


def test_keys_and_labels_separate_streams() -> None:
    streams = {
        stream_bytes(KEY, "a", 32),
        stream_bytes(KEY, "b", 32),
        stream_bytes(OTHER_KEY, "a", 32),
        stream_bytes(KEY, "", 32),
        stream_bytes(KEY, "a/", 32),
    }
    assert len(streams) == 5


@pytest.mark.parametrize("size", [0, 16, 31, 33, 64])
def test_the_key_is_32_bytes(size: int) -> None:
    assert KEY_BYTES == 32
    with pytest.raises(DerivationError, match=f"key must be 32 bytes, got {size}"):
        ByteStream(bytes(size), "label")


def test_a_label_is_ascii() -> None:
    with pytest.raises(DerivationError, match="label must be ASCII"):
        ByteStream(KEY, "domicile-p2p/v1/café")


# --------------------------------------------------------------------------- below


@pytest.mark.parametrize("bound", [1, 2, 3, 7, 52, 1000, 2**31 + 1, 3 * 2**30, U32 - 1, U32])
def test_below_matches_the_specification(bound: int) -> None:
    stream = ByteStream(KEY, f"below/{bound}")
    words = reference_words(KEY, f"below/{bound}")
    for _ in range(200):
        assert stream.below(bound) == reference_below(words, bound)


def test_below_the_full_range_is_the_raw_word() -> None:
    stream = ByteStream(KEY, "raw")
    words = reference_words(KEY, "raw")
    assert [stream.below(U32) for _ in range(50)] == list(islice(words, 50))


def test_below_one_is_zero() -> None:
    stream = ByteStream(KEY, "one")
    assert {stream.below(1) for _ in range(20)} == {0}


def test_below_rejects_a_word_above_the_limit_instead_of_folding_it() -> None:
    # For n = 3 * 2**30 the last quarter of the u32 range is rejected.  Find a
    # label whose first word falls there: ``x % n`` would answer x - n; the
    # specification reads the next word.
    bound = 3 * 2**30
    limit = U32 - U32 % bound
    assert limit == bound
    for attempt in range(1000):
        label_text = f"rejection/{attempt}"
        first, second = islice(reference_words(KEY, label_text), 2)
        if first >= limit and second < limit:
            break
    else:
        raise AssertionError("a quarter of all labels should hit the rejected zone")
    stream = ByteStream(KEY, label_text)
    drawn = stream.below(bound)
    assert drawn == second
    assert drawn != first % bound
    # Both words were consumed: the stream goes on after the second.
    assert stream.read(4) == stream_bytes(KEY, label_text, 12)[8:]


def test_below_is_unbiased_where_modulo_would_not_be() -> None:
    # With n = 3 * 2**30, ``x % n`` lands in [0, 2**30) half of the time
    # instead of a third.  4500 draws: a third is 1500 +- 32 (one sigma).
    bound = 3 * 2**30
    stream = ByteStream(KEY, "bias")
    low = sum(stream.below(bound) < 2**30 for _ in range(4500))
    assert abs(low - 1500) < 160
    modulo = ByteStream(KEY, "bias")
    folded = sum(int.from_bytes(modulo.read(4), "big") % bound < 2**30 for _ in range(4500))
    assert abs(folded - 2250) < 160  # the biased rule really is distinguishable


@pytest.mark.parametrize("bound", [0, -1, U32 + 1])
def test_below_refuses_an_impossible_bound(bound: int) -> None:
    with pytest.raises(DerivationError, match=f"bound {bound} is outside 1..2\\*\\*32"):
        ByteStream(KEY, "bound").below(bound)


# ------------------------------------------------------------------ shuffle, sample, choose


def test_shuffle_is_fisher_yates_from_the_last_index() -> None:
    items = [f"card-{n:02d}" for n in range(40)]
    for number in range(20):
        name = f"shuffle/{number}"
        assert shuffle(KEY, name, items) == reference_shuffle(KEY, name, items)


@settings(max_examples=60, deadline=None)
@given(
    key=st.binary(min_size=32, max_size=32),
    name=st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=30),
    items=st.lists(st.integers(), max_size=60),
)
def test_a_shuffle_is_a_deterministic_permutation(key: bytes, name: str, items: list[int]) -> None:
    once = shuffle(key, name, items)
    assert sorted(once) == sorted(items)
    assert shuffle(key, name, items) == once
    assert shuffle(key, name, tuple(items)) == once


class ScriptedStream(ByteStream):
    """A stream whose bytes are given: to put rejected words where a real key rarely does."""

    __slots__ = ("_script",)

    def __init__(self, words: Sequence[int]) -> None:
        super().__init__(KEY, "scripted")
        self._script = b"".join(word.to_bytes(4, "big") for word in words)

    def read(self, count: int) -> bytes:
        taken, self._script = self._script[:count], self._script[count:]
        assert len(taken) == count, "the shuffle read past the words it needed"
        return taken


def test_a_shuffle_skips_rejected_words_and_reads_no_further_than_its_draws() -> None:
    # 2**32 - 1 is rejected for bounds 3, 5, 6 and 7 (not for 2 or 4: they divide 2**32).
    rejected = U32 - 1
    items = [f"card-{n}" for n in range(7)]
    words = [rejected, 11, rejected, rejected, 5, rejected, 8, rejected, 3, 10, 4, rejected, 6]
    # The bounds met: 7 (x, 11), 6 (x, x, 5), 5 (x, 8), 4 (x accepted: 4 divides 2**32),
    # 3 (3), 2 (10); 4, x and 6 stay unread.
    stream = ScriptedStream([*words, 99])
    assert stream.shuffle(items) == reference_shuffle_words(words, items)
    assert stream.read(16) == b"".join(w.to_bytes(4, "big") for w in (4, rejected, 6, 99))
    assert ScriptedStream([rejected, 1]).shuffle("ab") in {("a", "b"), ("b", "a")}
    # One rejection in the first batch, then a batch with none: the last swap's word comes
    # from the second read.
    words = [rejected, 11, 2, 3, 4, 5, 6]
    assert ScriptedStream(words).shuffle(items) == reference_shuffle_words(words, items)


def test_a_shuffle_leaves_the_stream_where_one_draw_at_a_time_would() -> None:
    items = [f"card-{n:03d}" for n in range(131)]
    for skipped in (0, 3, 4, 30):
        stream = ByteStream(KEY, f"after/{skipped}")
        stream.read(skipped)
        shuffled = stream.shuffle(items)
        following = stream.read(10)
        words = reference_words_from(KEY, f"after/{skipped}", skipped)
        result = list(items)
        for index in range(len(result) - 1, 0, -1):
            partner = reference_below(words, index + 1)
            result[index], result[partner] = result[partner], result[index]
        assert shuffled == tuple(result)
        rest = b"".join(word.to_bytes(4, "big") for word in islice(words, 3))
        assert following == rest[:10]


def reference_words_from(key: bytes, label_text: str, skipped: int) -> Iterator[int]:
    """The stream read as u32 values after its first ``skipped`` bytes."""
    stream = b"".join(islice(reference_blocks(key, label_text), 40))[skipped:]
    for offset in range(0, len(stream) - 3, 4):
        yield int.from_bytes(stream[offset : offset + 4], "big")


def test_shuffle_leaves_its_input_alone() -> None:
    items = ["a", "b", "c", "d"]
    shuffle(KEY, "input", items)
    assert items == ["a", "b", "c", "d"]
    assert shuffle(KEY, "empty", []) == ()
    assert shuffle(KEY, "single", ["x"]) == ("x",)


def test_every_order_of_three_is_equally_likely() -> None:
    trials = 6000
    counts = Counter(shuffle(KEY, f"uniform/{n}", "abc") for n in range(trials))
    assert set(counts) == set(permutations("abc"))
    expected = trials / 6
    chi_square = sum((count - expected) ** 2 / expected for count in counts.values())
    assert chi_square < 20.5  # 5 degrees of freedom, p = 0.001


def test_every_position_is_equally_likely_for_a_longer_shuffle() -> None:
    trials, size = 3000, 10
    positions = Counter(shuffle(KEY, f"spread/{n}", range(size)).index(0) for n in range(trials))
    expected = trials / size
    chi_square = sum((positions[p] - expected) ** 2 / expected for p in range(size))
    assert chi_square < 27.9  # 9 degrees of freedom, p = 0.001


def test_sample_is_the_head_of_the_shuffle() -> None:
    items = [f"id-{n}" for n in range(12)]
    assert sample(KEY, "sample", items, 5) == shuffle(KEY, "sample", items)[:5]
    assert sample(KEY, "sample", items, 0) == ()
    assert sorted(sample(KEY, "sample", items, 12)) == sorted(items)


@pytest.mark.parametrize("count", [-1, 4])
def test_sample_refuses_more_than_there_is(count: int) -> None:
    with pytest.raises(DerivationError, match=f"cannot take {count} of 3 items"):
        sample(KEY, "sample", ["a", "b", "c"], count)


def test_choose_is_one_below() -> None:
    items = ["north", "south", "east", "west", "up"]
    for number in range(30):
        name = f"choose/{number}"
        assert choose(KEY, name, items) == items[reference_below(reference_words(KEY, name), 5)]
    picks = Counter(choose(KEY, f"spread/{number}", items) for number in range(500))
    assert set(picks) == set(items)


def test_choose_refuses_an_empty_sequence() -> None:
    with pytest.raises(DerivationError, match="cannot choose from an empty sequence"):
        choose(KEY, "empty", [])


# --------------------------------------------------------------------------- the deal


def test_labels_are_the_protocols() -> None:
    assert label("tableau", Category.ITEM.value) == "domicile-p2p/v1/tableau/item"
    assert label("reshuffle", 3) == "domicile-p2p/v1/reshuffle/3"
    assert label("culprit") == "domicile-p2p/v1/culprit"


@pytest.mark.parametrize("size", [4, 9, 12])
def test_the_tableau_is_the_head_of_a_shuffle_of_sorted_ids(size: int) -> None:
    tableau = deal_tableau(KEY, POOL, size)
    for category in CATEGORY_ORDER:
        cards = tableau.cards(category)
        name = f"domicile-p2p/v1/tableau/{category.value}"
        assert cards == reference_shuffle(KEY, name, sorted(POOL[category]))[:size]
        assert len(cards) == len(set(cards)) == size
        assert set(cards) <= set(POOL[category])


def test_the_tableau_depends_on_the_seed_not_on_the_order_of_the_pack() -> None:
    backwards = {category: tuple(reversed(cards)) for category, cards in POOL.items()}
    assert deal_tableau(KEY, POOL, 8) == deal_tableau(KEY, backwards, 8)
    assert deal_tableau(KEY, POOL, 8) != deal_tableau(OTHER_KEY, POOL, 8)


def test_the_secrets_follow_the_specification() -> None:
    config = table(4, Difficulty.DIFFICULT)
    tableau = deal_tableau(KEY, POOL, config.rules.tableau_size(4))
    secret = deal_secrets(OTHER_KEY, config, tableau)
    for category in CATEGORY_ORDER:
        order = reference_shuffle(
            OTHER_KEY, f"domicile-p2p/v1/columns/{category.value}", tableau.cards(category)
        )
        assert [column.card(category) for column in secret.columns] == list(order[:4])
    culprit_words = reference_words(OTHER_KEY, "domicile-p2p/v1/culprit")
    assert secret.culprit == 1 + reference_below(culprit_words, 4)
    assert secret.deck == reference_shuffle(OTHER_KEY, "domicile-p2p/v1/deck", sorted(DREAMS))
    discard = ("dream-09", "dream-02", "dream-40")
    expected = reference_shuffle(OTHER_KEY, "domicile-p2p/v1/reshuffle/2", sorted(discard))
    assert secret.reshuffle(2, discard) == expected
    assert Reshuffler(OTHER_KEY)(2, tuple(reversed(discard))) == expected


def test_the_same_keys_deal_the_same_game() -> None:
    config = table(3)
    first = deal_secrets(KEY, config, deal_tableau(OTHER_KEY, POOL, 7))
    again = deal_secrets(KEY, config, deal_tableau(OTHER_KEY, POOL, 7))
    assert (first.columns, first.culprit, first.deck) == (again.columns, again.culprit, again.deck)
    assert first.reshuffle(0, DREAMS[:9]) == again.reshuffle(0, DREAMS[:9])
    other = deal_secrets(OTHER_KEY, config, deal_tableau(OTHER_KEY, POOL, 7))
    assert (first.columns, first.deck) != (other.columns, other.deck)


@settings(max_examples=60, deadline=None)
@given(
    joint=st.binary(min_size=32, max_size=32),
    ghost=st.binary(min_size=32, max_size=32),
    investigators=st.integers(1, MAX_INVESTIGATORS),
    difficulty=st.sampled_from(Difficulty),
)
def test_every_deal_is_a_legal_setup(
    joint: bytes, ghost: bytes, investigators: int, difficulty: Difficulty
) -> None:
    config = table(investigators, difficulty)
    size = config.rules.tableau_size(investigators)
    tableau = deal_tableau(joint, POOL, size)
    secret = deal_secrets(ghost, config, tableau)
    assert all(len(tableau.cards(category)) == size for category in CATEGORY_ORDER)
    assert len(secret.columns) == investigators
    for category in CATEGORY_ORDER:
        chosen = [column.card(category) for column in secret.columns]
        assert len(set(chosen)) == investigators
        assert set(chosen) <= set(tableau.cards(category))
    assert 1 <= secret.culprit <= investigators
    assert sorted(secret.deck) == sorted(DREAMS)
    try:
        new_game(config, tableau, secret)
    except SetupError as error:
        raise AssertionError(f"the engine refused a dealt game: {error}") from error


def test_every_seat_can_be_the_culprit() -> None:
    config = table(MAX_INVESTIGATORS)
    tableau = deal_tableau(KEY, POOL, config.rules.tableau_size(MAX_INVESTIGATORS))
    culprits = Counter(deal_secrets(bytes([n]) * 32, config, tableau).culprit for n in range(120))
    assert set(culprits) == set(range(1, MAX_INVESTIGATORS + 1))
