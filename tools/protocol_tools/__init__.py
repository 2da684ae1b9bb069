"""The protocol's development tools: they generate and check ``protocol/vectors`` and
``protocol/schema/transcript``, and forge transcripts for the tests.

They live in the repository, not in the installed package (nothing in the game uses them):
``make vectors`` regenerates both, ``make vectors-check`` reports stale files, and the test
suite runs the same check (``tests/test_vectors.py``).  They need the repository's
``tools`` directory on the path: pytest adds it (``pythonpath`` in ``pyproject.toml``), the
Makefile sets ``PYTHONPATH``.
"""
