"""The screens of the client, one module each, each imported when first asked for.

``screens.LobbyScreen`` imports ``screens.lobby`` on first use: a start-up
loads the one screen it shows first, not the game's table, the séance and
the end with all their widgets (see ``benchmarks/README.md``, client start-up).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domicile_p2p.lazy import lazy_exports

if TYPE_CHECKING:
    from domicile_tui.screens.browser_seats import BrowserSeatScreen
    from domicile_tui.screens.card import CardScreen
    from domicile_tui.screens.chapter import ChapterScreen
    from domicile_tui.screens.confirm import ConfirmScreen
    from domicile_tui.screens.culprit import CulpritScreen
    from domicile_tui.screens.end import EndScreen
    from domicile_tui.screens.export import ExportScreen
    from domicile_tui.screens.ghost import GhostScreen
    from domicile_tui.screens.help import HelpScreen
    from domicile_tui.screens.investigator import InvestigatorScreen
    from domicile_tui.screens.join import JoinScreen
    from domicile_tui.screens.lobby import LobbyScreen
    from domicile_tui.screens.recap import RecapScreen
    from domicile_tui.screens.replay import ReplayScreen
    from domicile_tui.screens.seance import SeanceScreen
    from domicile_tui.screens.setup import HostSetupScreen
    from domicile_tui.screens.start import StartScreen

_EXPORTS = {
    "BrowserSeatScreen": "browser_seats",
    "CardScreen": "card",
    "ChapterScreen": "chapter",
    "ConfirmScreen": "confirm",
    "CulpritScreen": "culprit",
    "EndScreen": "end",
    "ExportScreen": "export",
    "GhostScreen": "ghost",
    "HelpScreen": "help",
    "InvestigatorScreen": "investigator",
    "JoinScreen": "join",
    "LobbyScreen": "lobby",
    "RecapScreen": "recap",
    "ReplayScreen": "replay",
    "SeanceScreen": "seance",
    "HostSetupScreen": "setup",
    "StartScreen": "start",
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())

__all__ = [
    "BrowserSeatScreen",
    "CardScreen",
    "ChapterScreen",
    "ConfirmScreen",
    "CulpritScreen",
    "EndScreen",
    "ExportScreen",
    "GhostScreen",
    "HelpScreen",
    "HostSetupScreen",
    "InvestigatorScreen",
    "JoinScreen",
    "LobbyScreen",
    "RecapScreen",
    "ReplayScreen",
    "SeanceScreen",
    "StartScreen",
]
