"""Shared pytest setup for the whole suite.

Keep this file generic: fixtures that serve one area belong beside that
area's tests (or in a ``*_support.py`` module they import).
"""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
from collections.abc import Iterator

import pytest
from hypothesis import settings

# A command a test runs without --data-dir writes to the platform's data dir
# (platformdirs: $XDG_DATA_HOME/domicile-p2p) and reads the platform's config file
# ($XDG_CONFIG_HOME): make both this run's own, never the user's nor another run's, and
# let no $DOMICILE_DATA_DIR of the user's shell move them.  Worker processes and the
# commands they start inherit this.
_DATA_HOME = tempfile.mkdtemp(prefix="domicile-test-data-home-")
os.environ["XDG_DATA_HOME"] = os.path.join(_DATA_HOME, "data")
os.environ["XDG_CONFIG_HOME"] = os.path.join(_DATA_HOME, "config")
os.environ.pop("DOMICILE_DATA_DIR", None)


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(_DATA_HOME, ignore_errors=True)


# In CI every property test runs the same examples on every run, so a red build
# reproduces from its log; on a developer's machine hypothesis keeps exploring.
settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow tests first, each part in its order: xdist's workers take tests in this
    order, and a long test left for the end keeps one worker busy while the other has
    nothing left to do."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture
def refused_port() -> Iterator[int]:
    """A port on 127.0.0.1 where a connection is refused: bound for the whole test and never
    listening, so no other test or run on this machine can take it meanwhile (a port bound
    a moment ago and let go can be)."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        yield int(holder.getsockname()[1])
