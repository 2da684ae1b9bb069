"""Fixtures of the terminal client's tests."""

from __future__ import annotations

import sys
from pathlib import Path

# The client package lives in clients/ (installed as ``domicile_tui``); when the tests
# run from a checkout without an install, make it importable all the same.
_CLIENTS = Path(__file__).resolve().parents[2] / "clients"
if str(_CLIENTS) not in sys.path:
    try:
        import domicile_tui  # noqa: F401
    except ImportError:
        sys.path.insert(0, str(_CLIENTS))
