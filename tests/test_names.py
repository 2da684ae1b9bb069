"""The one rule for a seat's name (``transcript.names``): what the host accepts at ``join``
the genesis accepts too, so no start can fail on a name the host already took."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domicile_p2p.fairness.commit import GAME_ID_BYTES
from domicile_p2p.identity import Identity
from domicile_p2p.net.sessions.room import Refusal, seat_name_allowed
from domicile_p2p.packs import load_default_pack
from domicile_p2p.rules import MAX_NAME_LENGTH, Difficulty
from domicile_p2p.text import inert, is_inert
from domicile_p2p.transcript import GameTable, HostMisuse, make_genesis
from domicile_p2p.transcript.errors import MalformedEvent
from domicile_p2p.transcript.names import name_problem
from domicile_p2p.transcript.packref import card_lists

HOST = Identity.generate()
GUEST = Identity.generate()
PACK = load_default_pack()
CARDS = card_lists(PACK)


def _genesis_takes(name: str) -> bool:
    try:
        genesis = make_genesis(
            game_id=bytes(GAME_ID_BYTES),
            host=HOST.public_key,
            difficulty=Difficulty.EASY.value,
            seats=[("Ghost", GUEST.public_key), (name, HOST.public_key)],
            pack_id=PACK.id,
            pack_hash=PACK.content_hash,
            cards=CARDS,
        )
        GameTable.open(HOST, genesis)
    except (HostMisuse, MalformedEvent):
        return False
    return True


@pytest.mark.parametrize(
    ("name", "why"),
    [
        (" ", "cannot be blank"),
        ("\u3000\u00a0 ", "cannot be blank"),
        ("A\x1b]0;pwned\x07", "cannot contain the C0 control U+001B"),
        ("A\x9b31m", "cannot contain the C1 control U+009B"),
        ("Ann\u202e", "cannot contain the bidi control U+202E"),
        ("Bo\u200bb", "cannot contain the zero-width character U+200B"),
        ("\u3164", "cannot contain the zero-width character U+3164"),
        ("x\u2028y", "cannot contain the line separator U+2028"),
        ("x" * (MAX_NAME_LENGTH + 1), f"has at most {MAX_NAME_LENGTH} characters"),
    ],
)
def test_a_name_that_breaks_the_rule_is_refused_by_the_rule_the_lobby_and_the_genesis(
    name: str, why: str
) -> None:
    problem = name_problem(name)
    assert problem is not None and problem.startswith(why)
    with pytest.raises(Refusal, match=r"cannot|has at most") as refused:
        seat_name_allowed(name)
    assert is_inert(str(refused.value)), "the refusal shows the name inertly"
    assert not _genesis_takes(name)


@pytest.mark.parametrize("name", ["Ada", "Zoë", "李小龙", "مريم", "O'Brien-Smith", "x" * 40])
def test_a_plain_name_of_any_script_is_a_name(name: str) -> None:
    assert name_problem(name) is None and _genesis_takes(name)


@settings(max_examples=300, deadline=None)
@given(st.text(min_size=1, max_size=MAX_NAME_LENGTH + 2))
def test_the_host_the_lobby_and_the_genesis_agree_on_every_string(name: str) -> None:
    taken = name_problem(name) is None
    assert _genesis_takes(name) == taken
    if taken:
        seat_name_allowed(name)
        assert inert(name) == name and name.strip()
    else:
        with pytest.raises(Refusal):
            seat_name_allowed(name)
