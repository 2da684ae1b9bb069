"""The installed ``domicile`` command: the game's commands plus ``play`` and ``replay``.

The game package finds ``play`` through its entry-point group, which works
for ``python -m domicile_p2p`` and any other front end, but reading the
installed entry points costs every start ~25 ms of imports
(``importlib.metadata``).  This launcher lives in the client, which may
depend on the game package (never the reverse), and hands ``play`` to the
game's ``main`` directly.  ``play``'s module is imported only when ``play``
runs, so ``domicile verify`` still loads neither Textual nor the network.
"""

from __future__ import annotations

import gc
import importlib
import sys

from domicile_p2p.client_api import Register, requested_command
from domicile_p2p.client_api import main as game_main


def _play() -> Register:
    register: Register = importlib.import_module("domicile_tui.cli").register
    return register


def _replay() -> Register:
    register: Register = importlib.import_module("domicile_tui.replay_cli").register
    return register


def main() -> int:
    # The garbage collector is paused until play's first frame (``domicile_tui.cli.play``
    # says why and resumes it): it collected 40 times before ``play`` itself could pause it.
    paused = requested_command(sys.argv[1:]) == "play"
    if paused:
        gc.disable()
    try:
        return game_main(commands={"play": _play, "replay": _replay})
    finally:
        if paused:
            gc.enable()  # whatever ended it (a usage error, say)
