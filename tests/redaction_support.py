"""What counts as a secret of a finished game, and the search for it in what a peer received.

``tests/test_redaction.py`` searches every event an investigator receives;
``tests/net/test_net_watch.py`` searches every frame a spectator receives.
"""

from __future__ import annotations

from dataclasses import replace

from domicile_p2p.canonical import encode
from domicile_p2p.fairness.commit import ghost_key, slot_openings
from domicile_p2p.fairness.deal import deal_secrets
from domicile_p2p.rules import apply, new_game
from domicile_p2p.transcript import Event, Replica


def secrets_of(events: tuple[Event, ...]) -> dict[str, object]:
    replica = Replica.from_events(events)
    ledger = replica.ledger
    assert ledger.seed is not None and ledger.joint_seed is not None and ledger.tableau
    key = ghost_key(ledger.seed, ledger.joint_seed)
    setup = deal_secrets(key, replica.config, ledger.tableau)
    # Replay the game once more, recording every deck a reshuffle produced.
    reshuffled: list[tuple[str, ...]] = []

    def recording(number: int, cards: tuple[str, ...]) -> tuple[str, ...]:
        reshuffled.append(setup.reshuffle(number, cards))
        return reshuffled[-1]

    state = new_game(replica.config, ledger.tableau, replace(setup, reshuffle=recording))
    for _, action in ledger.moves:
        state = apply(state, action)
    assert state == ledger.replay
    return {
        "seed": ledger.seed,
        "key": key,
        "setup": setup,
        "openings": slot_openings(key, setup),
        "opened": {o.slot: o.seq for o in ledger.openings},
        "decks": [setup.deck, *reshuffled],
        "game_id": replica.table_setup.game_id,
        "commits": ledger.slot_commits,
    }


def assert_no_secret_in(line: bytes, secret: dict[str, object], *, held: int) -> None:
    """``line`` (an event, or a whole frame) holds none of the game's secrets that a reader
    holding the first ``held`` events may not know yet: the Ghost's seed and key, the salt of
    a slot not opened by then, the order of the dream deck (or of a reshuffle)."""
    seed, key = secret["seed"], secret["key"]
    assert isinstance(seed, bytes) and isinstance(key, bytes)
    assert seed.hex().encode() not in line and key.hex().encode() not in line
    assert seed not in line and key not in line
    opened: dict[str, int] = secret["opened"]  # type: ignore[assignment]
    for slot, opening in secret["openings"].items():  # type: ignore[attr-defined]
        if opened.get(slot, held) >= held:
            assert opening.salt.hex().encode() not in line, (held, slot)
    # A deck's order, or four cards of it in a row (no give is that large here:
    # a give of up to three cards in deck order is the Ghost's choice, not a leak).
    for deck in secret["decks"]:  # type: ignore[attr-defined]
        for start in range(max(0, len(deck) - 3)):
            assert encode(list(deck[start : start + 4]))[1:-1] not in line
