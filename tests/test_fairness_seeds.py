"""Self-play's seed schedule: one number, every value, always the same."""

from __future__ import annotations

import pytest

from domicile_p2p.fairness.commit import tagged_hash
from domicile_p2p.fairness.derive import DerivationError, stream_bytes
from domicile_p2p.fairness.seeds import HOST, SELFPLAY_DOMAIN, SelfplaySeeds


def test_the_master_key_is_the_tagged_hash_of_the_decimal_seed() -> None:
    assert SelfplaySeeds.from_number(42).master == tagged_hash(SELFPLAY_DOMAIN, b"42")
    assert SelfplaySeeds.from_number(-3).master == tagged_hash(SELFPLAY_DOMAIN, b"-3")


def test_values_come_from_their_labels() -> None:
    seeds = SelfplaySeeds.from_number(7)
    master = seeds.master
    assert seeds.game_id == stream_bytes(master, "domicile-p2p/v1/selfplay/game-id", 16)
    assert seeds.ghost_seed == stream_bytes(master, "domicile-p2p/v1/selfplay/ghost-seed", 32)
    assert seeds.entropy(2) == stream_bytes(master, "domicile-p2p/v1/selfplay/entropy/2", 32)
    assert seeds.identity(HOST) == stream_bytes(
        master, "domicile-p2p/v1/selfplay/identity/host", 32
    )
    bot = stream_bytes(master, "domicile-p2p/v1/selfplay/bot/3", 8)
    assert seeds.bot_seed(3) == int.from_bytes(bot, "big")


def test_every_value_is_distinct_and_reproducible() -> None:
    seeds = SelfplaySeeds.from_number(1)
    values = [
        seeds.ghost_seed,
        *(seeds.entropy(s) for s in range(1, 7)),
        *(seeds.identity(s) for s in range(7)),
        seeds.identity(HOST),
    ]
    assert len(set(values)) == len(values)
    assert SelfplaySeeds.from_number(1) == seeds
    assert SelfplaySeeds.from_number(2).ghost_seed != seeds.ghost_seed


def test_a_master_key_of_the_wrong_size_is_refused() -> None:
    with pytest.raises(DerivationError):
        SelfplaySeeds(bytes(31))
