"""Before the reveal, the investigators receive nothing that gives the Ghost's secrets away.

Over whole games (the plain test players and the real bots with the real
pack), every byte of every event an investigator receives before the
Ghost's reveal is searched for: the Ghost's seed and key, the salt of any
slot not yet opened, the order of the dream deck (and of every reshuffle),
and any unopened column card next to anything naming its slot.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

import pytest
from redaction_support import assert_no_secret_in, secrets_of
from transcript_support import honest_game

from domicile_p2p.bots import make_policy
from domicile_p2p.fairness.commit import (
    SLOT_COMMIT_DOMAIN,
    tagged_hash,
)
from domicile_p2p.fairness.seeds import SelfplaySeeds
from domicile_p2p.packs import load_default_pack
from domicile_p2p.rules import Difficulty
from domicile_p2p.transcript import Event, Kind, Replica
from domicile_p2p.transcript.packref import card_lists
from domicile_p2p.transcript.schema import SlotCommitsBody
from domicile_p2p.transcript.selfplay import Seating, play_game

PLAIN = [(1, 2), (4, 1), (6, 2), (8, 2)]
BOTS = [(3, 3, Difficulty.NORMAL), (9, 2, Difficulty.EASY), (12, 4, Difficulty.DIFFICULT)]


@functools.cache
def bot_game(seed: int, investigators: int, difficulty: Difficulty) -> tuple[Event, ...]:
    pack = load_default_pack()
    seeds = SelfplaySeeds.from_number(seed)
    return play_game(
        seeds=seeds,
        seating=Seating.from_seeds(seeds, investigators),
        difficulty=difficulty,
        cards=card_lists(pack),
        pack_id=pack.id,
        pack_hash=pack.content_hash,
        policies=[make_policy(s, pack, seeds.bot_seed(s)) for s in range(investigators + 1)],
    ).events


def games() -> Iterator[tuple[Event, ...]]:
    for game in PLAIN:
        yield honest_game(*game)
    for game in BOTS:
        yield bot_game(*game)


GAMES = [pytest.param(g, id=f"plain-{g[0]}-{g[1]}") for g in PLAIN] + [
    pytest.param(g, id=f"bots-{g[0]}-{g[1]}") for g in BOTS
]


def _events(game: tuple[object, ...]) -> tuple[Event, ...]:
    return honest_game(*game) if len(game) == 2 else bot_game(*game)  # type: ignore[arg-type]


@pytest.mark.parametrize("game", GAMES)
def test_nothing_secret_is_sent_before_the_reveal(game: tuple[object, ...]) -> None:
    events = _events(game)
    assert events[-1].kind is Kind.REVEAL
    secret = secrets_of(events)
    for event in events[:-1]:
        assert_no_secret_in(event.line, secret, held=event.seq + 1)
    seed = secret["seed"]
    assert isinstance(seed, bytes)
    assert seed.hex().encode() in events[-1].line


@pytest.mark.parametrize("game", GAMES)
def test_the_ghosts_events_name_only_cards_that_are_public(game: tuple[object, ...]) -> None:
    events = _events(game)
    replica = Replica.from_events(events)
    investigator_cards = (
        set(replica.table_setup.genesis.cards.character)
        | set(replica.table_setup.genesis.cards.location)
        | set(replica.table_setup.genesis.cards.item)
    )
    opened_cards = {o.card for o in replica.ledger.openings}
    for event in events[:-1]:
        if event.seat != 0:
            continue
        named = {word for word in _strings(event.value) if word in investigator_cards}
        assert named <= opened_cards, (event.seq, named - opened_cards)


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


@pytest.mark.parametrize("game", GAMES[:2])
def test_a_slot_commitment_cannot_be_opened_by_trying_the_cards(game: tuple[object, ...]) -> None:
    # Without the salt the commitment would fall to trying every card of the
    # category; with it, no card and no guessable salt opens it.
    events = _events(game)
    secret = secrets_of(events)
    commits = secret["commits"]
    game_id = secret["game_id"]
    assert isinstance(game_id, bytes)
    assert any(isinstance(e.body, SlotCommitsBody) for e in events)
    every_card = {card for e in events[:1] for card in _strings(e.value["body"]["cards"])}
    for slot, commitment in commits.items():  # type: ignore[attr-defined]
        for card in every_card:
            for salt in (b"", bytes(32), game_id * 2):
                guess = tagged_hash(SLOT_COMMIT_DOMAIN, game_id, slot.encode(), salt, card.encode())
                assert guess != commitment
        assert secret["openings"][slot].commitment(game_id) == commitment  # type: ignore[index]
