"""``domicile replay FILE``'s first frame: what may be loaded before it, and what only after.

The viewer's first frame must come as fast for a long game as for a short one
(issue 24, target 4; measured in ``benchmarks/bench_startup.py``, never here):
the command checks the file with the game's file helpers alone, and the
verifier, the events' schema, the recap and what draws a replay are imported
in the viewer's thread once its first screen is painted.  The whole command
runs in a child process (headless), as the installed ``domicile`` runs it.
"""

from __future__ import annotations

import json
import subprocess
import sys

from replay_support import builtin_game

LATER = (
    "cryptography",
    "domicile_p2p.cli.verify",
    "domicile_p2p.transcript.verify",
    "domicile_p2p.transcript.codec",
    "domicile_p2p.transcript.schema",
    "domicile_p2p.transcript.replica",
    "domicile_p2p.rules.engine",
    "domicile_p2p.rules.actions",
    "domicile_p2p.fairness",
    "domicile_p2p.packs",
    "domicile_tui.replay",
    "domicile_tui.recap",
    "domicile_tui.timeline",
    "domicile_tui.widgets.replay_table",
    "domicile_tui.screens.recap",
)
"""The verify stack and the viewer's drawing: none of it before the first frame.  (``msgspec``
may load: the command's check reads the file's first line with ``canonical_object``.)"""

PROBE = """
import json, sys

import domicile_tui.app as app_module
from domicile_tui.launcher import main
from domicile_tui.screens.replay import ReplayScreen

later = tuple(json.loads(sys.argv[2]))
seen = {}


def loaded():
    return sorted(name for name in later if name in sys.modules)


def first_frame_shown(app):
    seen["screen"] = type(app.screen).__name__
    seen["first frame"] = loaded()


verdict = ReplayScreen.watch_replay


def watch_replay(screen, replay):
    verdict(screen, replay)
    if replay is not None:
        seen["verified"] = loaded()
        seen["valid"] = replay.report.valid
        screen.app.exit()


run = app_module.DomicileApp.run
app_module.DomicileApp.first_frame_shown = first_frame_shown
app_module.DomicileApp.run = lambda app, **options: run(app, headless=True, **options)
ReplayScreen.watch_replay = watch_replay
sys.argv = ["domicile", "replay", sys.argv[1]]
code = main()
print(json.dumps({"code": code, **seen}))
"""


def test_the_viewer_is_painted_before_it_loads_the_verifier() -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE, str(builtin_game()), json.dumps(LATER)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    assert seen["code"] == 0 and seen["screen"] == "ReplayScreen"
    assert seen["first frame"] == []
    # Then the viewer's thread loads them and shows the verdict (the recap's screen waits for R).
    assert seen["valid"] is True
    assert seen["verified"] == sorted(set(LATER) - {"domicile_tui.screens.recap"})
