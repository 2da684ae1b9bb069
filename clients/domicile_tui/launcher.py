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
import logging
import os
import sys

from domicile_p2p.client_api import Register, reader_gone, requested_command
from domicile_p2p.client_api import main as game_main


def _play() -> Register:
    register: Register = importlib.import_module("domicile_tui.cli").register
    return register


def _replay() -> Register:
    register: Register = importlib.import_module("domicile_tui.replay_cli").register
    return register


# Commands that leave nothing to clean up once they return: no file open for writing,
# no thread at work, no child process.  ``run`` ends them with ``os._exit``.
_LEAVE_NOTHING = frozenset({"verify", "pack", "play"})
"""Commands after which nothing is left to clean up.  For ``play``: by then the table is
left, every file written (the app's event loop waited for its threads as it closed) and
the screen restored; what remained was the interpreter taking the app, the card pack and
the network stack apart one by one, 1 to 3 s after the screen was gone, which is how long
quitting seemed to hang (issue 23)."""


def _collect_again() -> None:
    """Resume the garbage collector, leaving what start-up made out of its reach."""
    gc.freeze()
    gc.enable()


def main() -> int:
    # The garbage collector is paused during start-up: importing a command's stack makes
    # long-lived objects (classes, functions, code), and it ran over them again and again
    # (for `domicile verify`, ~17 ms with the interpreter's shutdown).  Play's is paused
    # until its first frame (``domicile_tui.cli.play`` says why and resumes it); every
    # other command's is resumed, with those objects frozen, once its modules are imported.
    playing = requested_command(sys.argv[1:]) == "play"
    gc.disable()
    try:
        return game_main(
            commands={"play": _play, "replay": _replay},
            started=None if playing else _collect_again,
        )
    finally:
        gc.enable()  # whatever ended it (a usage error, say)


def run() -> int:
    """The installed ``domicile``: ``main``, then, for a command that leaves nothing to
    clean up, the process ends at once once its output is flushed (the interpreter's
    shutdown, freeing every module and object one by one, was ~8 ms of `domicile verify`)."""
    code = main()
    try:
        logging.shutdown()  # a --log file's last lines
        sys.stdout.flush()  # what is still buffered: its reader may have gone (`| head`)
        sys.stderr.flush()
    except BrokenPipeError:
        return reader_gone()
    except OSError:
        return code  # a full disk, say: the ordinary exit reports it
    if requested_command(sys.argv[1:]) in _LEAVE_NOTHING:
        os._exit(code)
    return code
