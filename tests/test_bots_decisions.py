"""The bots' decisions, pinned: every action of 100 self-play games, as recorded before the
bots' speed-ups of issue 22 ("the reading table", benchmarks/README.md).

A speed-up must change no decision: the same seed plays the same game, action for action
(the balance table in the README rests on it).  Each group of games is pinned by a digest
of every action its games played, recorded from the code of ``53bdc78`` (before the
speed-ups), so this compares against fixed outcomes, not the code with itself.

A change that is *meant* to change the bots' play (a new pack, other weights, a rules
change) changes these digests: record them again with ``python tests/test_bots_decisions.py``
and say so in the commit, with the balance table measured again.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Final

import pytest

from domicile_p2p.bots import Policy, RecordingPolicy, make_policy
from domicile_p2p.bots.readers import Readers
from domicile_p2p.packs import Pack, load_default_pack
from domicile_p2p.rules import Action, Difficulty, field_names, is_record
from domicile_p2p.sim import game_seed, run_game

SEEDS: Final = 5
"""Games per group: ``domicile simulate --seed 0``'s first five."""

GROUPS: Final = [
    (readers, investigators, difficulty)
    for readers, sizes in ((Readers.TEXT, (1, 3, 4, 6)), (Readers.MOTIFS, (4,)))
    for investigators in sizes
    for difficulty in Difficulty
]

RECORDED: Final = {
    "text/1/easy": "ece3151df66815b9",
    "text/1/normal": "9f5fe150814ec021",
    "text/1/difficult": "83eeff75186952fc",
    "text/1/very-difficult": "3ea61e7a85a1b30e",
    "text/3/easy": "df7db6e598936894",
    "text/3/normal": "03f8be84f2444457",
    "text/3/difficult": "1514784622963786",
    "text/3/very-difficult": "924c6605a5c604a7",
    "text/4/easy": "970d1d91aae9cecf",
    "text/4/normal": "91219b4f84bd2be9",
    "text/4/difficult": "9fc1be5106e69c97",
    "text/4/very-difficult": "07b64661cea27307",
    "text/6/easy": "e9623aaba0433ce5",
    "text/6/normal": "a5c52732fdd7f5e2",
    "text/6/difficult": "162051e1dfdeb80b",
    "text/6/very-difficult": "334d80c4ce5a138d",
    "motifs/4/easy": "929f6b960494460e",
    "motifs/4/normal": "eecfab38ee84bfa5",
    "motifs/4/difficult": "6457588a185e0078",
    "motifs/4/very-difficult": "5fc9fdb94f22cf98",
}
"""The digest of each group's actions (see the module; recorded from ``53bdc78``)."""


def _plain(value: Any) -> Any:
    """``value`` as JSON holds it: a record as a dict of its fields, a tuple as a list."""
    if is_record(value):
        return {name: _plain(getattr(value, name)) for name in field_names(value)}
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    return value


def _spelling(action: Action) -> str:
    return type(action).__name__ + json.dumps(_plain(action), sort_keys=True)


def group_digest(pack: Pack, readers: Readers, investigators: int, difficulty: Difficulty) -> str:
    """The digest of every action (and each game's outcome and length) of the group's games."""
    digest = hashlib.sha256()
    for number in range(SEEDS):
        log: list[Action] = []

        def factory(seat: int, pack: Pack, bot_seed: int, log: list[Action] = log) -> Policy:
            return RecordingPolicy(make_policy(seat, pack, bot_seed, readers), log)

        result = run_game(pack, investigators, difficulty, game_seed(0, number), policy=factory)
        for action in log:
            digest.update(_spelling(action).encode())
            digest.update(b"\n")
        digest.update(f"{result.outcome.value}/{result.rounds}\n".encode())
    return digest.hexdigest()[:16]


def _key(readers: Readers, investigators: int, difficulty: Difficulty) -> str:
    return f"{readers.value}/{investigators}/{difficulty.value}"


@pytest.fixture(scope="module")
def pack() -> Pack:
    return load_default_pack()


@pytest.mark.parametrize(
    ("readers", "investigators", "difficulty"),
    GROUPS,
    ids=[_key(*group) for group in GROUPS],
)
def test_the_bots_play_every_recorded_game_action_for_action(
    pack: Pack, readers: Readers, investigators: int, difficulty: Difficulty
) -> None:
    key = _key(readers, investigators, difficulty)
    assert group_digest(pack, readers, investigators, difficulty) == RECORDED[key]


if __name__ == "__main__":  # print the digests to record (see the module)
    default = load_default_pack()
    for group in GROUPS:
        print(f'    "{_key(*group)}": "{group_digest(default, *group)}",')
