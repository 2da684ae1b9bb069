"""Shared pytest setup for the whole suite.

Keep this file generic: fixtures that serve one area belong beside that
area's tests (or in a ``*_support.py`` module they import).
"""

from __future__ import annotations

import os

from hypothesis import settings

# In CI every property test runs the same examples on every run, so a red build
# reproduces from its log; on a developer's machine hypothesis keeps exploring.
settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))
