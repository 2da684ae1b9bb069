"""Outside text reaches terminals inert (issue 20): these tests reuse the network tests'
live helpers (``tests/net``) and the client's (``tests/tui``)."""

from __future__ import annotations

import sys
from pathlib import Path

_TESTS = Path(__file__).resolve().parents[1]
for _helpers in (_TESTS / "net", _TESTS / "tui", _TESTS.parent / "clients"):
    if str(_helpers) not in sys.path:
        sys.path.insert(0, str(_helpers))
