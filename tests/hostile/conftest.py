"""The attack suite reuses the network tests' fake link and live helpers (``tests/net``)."""

from __future__ import annotations

import sys
from pathlib import Path

_NET_TESTS = str(Path(__file__).resolve().parents[1] / "net")
if _NET_TESTS not in sys.path:
    sys.path.insert(0, _NET_TESTS)
