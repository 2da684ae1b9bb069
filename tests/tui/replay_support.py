"""Saved games for the replay viewer's and the recap's tests."""

from __future__ import annotations

import atexit
import functools
import shutil
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

from tui_support import PACK, settings

from domicile_p2p.fairness.seeds import SelfplaySeeds
from domicile_p2p.rules import Action, Chat, Difficulty, View
from domicile_p2p.transcript.files import write_transcript
from domicile_p2p.transcript.packref import card_lists
from domicile_p2p.transcript.selfplay import PlainPolicy, Seating, play_game
from domicile_tui.app import DomicileApp
from domicile_tui.pages import ReplayPage

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "protocol" / "vectors" / "games"
VECTORS_PACK = ROOT / "protocol" / "vectors" / "packs" / "vectors"
SAVED = Path(tempfile.mkdtemp(prefix="domicile-replay-tests-"))
atexit.register(shutil.rmtree, SAVED, ignore_errors=True)


@functools.cache
def builtin_game(seed: int = 3, investigators: int = 3) -> Path:
    """A whole game of the protocol's plain players with the built-in pack, saved (the plain
    players never change, so neither does the file)."""
    seeds = SelfplaySeeds.from_number(seed)
    result = play_game(
        seeds=seeds,
        seating=Seating.from_seeds(seeds, investigators),
        difficulty=Difficulty.NORMAL,
        cards=card_lists(PACK),
        pack_id=PACK.id,
        pack_hash=PACK.content_hash,
        policies=[PlainPolicy(s, seeds.bot_seed(s)) for s in range(investigators + 1)],
    )
    path = SAVED / f"game-{seed}-{investigators}" / "hollowmere.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    write_transcript(path, result.events)
    return path


HOSTILE_NAMES = ("[/]", "[bold red]", "[@click=app.quit]", "Bea [/b]")
HOSTILE_CHAT = (
    "said \x1b]0;pwned\x07\x1b]52;c;cHduZWQ=\x07\x1b[1;31m\x9b2J\u202e\u200b [/] [@click=app.quit]"
)
"""A line of table talk with OSC 0 (the title), OSC 52 (the clipboard), SGR, the 8-bit
CSI, a right-to-left override, a zero-width space and markup."""


class Saying:
    """A seat's player (any policy) that says ``text`` before its first move."""

    def __init__(self, policy: Any, seat: int, text: str = HOSTILE_CHAT) -> None:
        self.policy, self.seat, self.text, self.said = policy, seat, text, False

    def act(self, view: View) -> Action | None:
        if not self.said:
            self.said = True
            return Chat(self.seat, self.text)
        return self.policy.act(view)  # type: ignore[no-any-return]


@functools.cache
def hostile_game(seed: int = 3) -> Path:
    """A whole game (it verifies) whose seats are named in markup and whose seat 1 says
    :data:`HOSTILE_CHAT`, saved."""
    seeds = SelfplaySeeds.from_number(seed)
    seating = replace(Seating.from_seeds(seeds, 3), names=HOSTILE_NAMES)
    plain = [PlainPolicy(s, seeds.bot_seed(s)) for s in range(4)]
    result = play_game(
        seeds=seeds,
        seating=seating,
        difficulty=Difficulty.NORMAL,
        cards=card_lists(PACK),
        pack_id=PACK.id,
        pack_hash=PACK.content_hash,
        policies=[plain[0], Saying(plain[1], 1), plain[2], plain[3]],
    )
    path = SAVED / f"hostile-{seed}" / "hostile.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    write_transcript(path, result.events)
    return path


def replay_app(path: Path, pack: Path | None) -> DomicileApp:
    """The app as ``domicile replay PATH [--pack PACK]`` runs it."""
    page = ReplayPage(path, pack_dir=None if pack is None else str(pack))
    return DomicileApp(None, defaults=settings(), page=page)
