"""Saved games for the replay viewer's and the recap's tests."""

from __future__ import annotations

import functools
import tempfile
from pathlib import Path

from tui_support import PACK, settings

from domicile_p2p.fairness.seeds import SelfplaySeeds
from domicile_p2p.rules import Difficulty
from domicile_p2p.transcript.files import write_transcript
from domicile_p2p.transcript.packref import card_lists
from domicile_p2p.transcript.selfplay import PlainPolicy, Seating, play_game
from domicile_tui.app import DomicileApp
from domicile_tui.pages import ReplayPage

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "protocol" / "vectors" / "games"
VECTORS_PACK = ROOT / "protocol" / "vectors" / "packs" / "vectors"
SAVED = Path(tempfile.mkdtemp(prefix="domicile-replay-tests-"))


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


def replay_app(path: Path, pack: Path | None) -> DomicileApp:
    """The app as ``domicile replay PATH [--pack PACK]`` runs it."""
    page = ReplayPage(path, pack_dir=None if pack is None else str(pack))
    return DomicileApp(None, defaults=settings(), page=page)
