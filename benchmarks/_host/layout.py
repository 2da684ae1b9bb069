"""What the parent, the load generators and the servers agree on: a table, the target."""

from __future__ import annotations

from pathlib import Path

SEATS = 7
INVESTIGATORS = SEATS - 1
TARGET_P99_S = 0.050
"""An action whose last peer waited longer is slow (the human-pace target)."""
SCRIPT = Path(__file__).resolve().parent.parent / "bench_host.py"
"""The script every process of a run is (``--load-child``, ``--bare-server``)."""
