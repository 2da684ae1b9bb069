"""Two runs of the suite at once on one machine must not meet: the rules every test keeps.

A port is bound as 0 and read back, never probed for (a port found free and let go can
be taken by another run before the test binds it again) and never a fixed number on this
machine's loopback; a file goes under the test's own ``tmp_path``, never a fixed path in
``/tmp``.  (Tables on the loopback mDNS are told apart by a name or port of the test's own:
see ``only_tables_named`` in ``tests/tui/test_tui_network.py``.)
"""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
CHAOS = TESTS.parent / "chaos"
SOURCES = sorted([*TESTS.rglob("*.py"), *CHAOS.rglob("*.py")])
"""The suite and what it runs: ``tests/test_chaos_small.py`` runs ``chaos/run.py``."""
_NETNS = TESTS / "net" / "test_net_netns.py"
"""Hosts in a network namespace of their own: a fixed port there meets no other run."""


def _offences(pattern: str, *, besides: tuple[Path, ...] = ()) -> list[str]:
    found = []
    for path in SOURCES:
        if path == Path(__file__).resolve() or path in besides:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(pattern, line):
                found.append(f"{path.relative_to(TESTS.parent)}:{number}: {line.strip()}")
    return found


def test_the_suite_has_sources_to_check() -> None:
    assert len(SOURCES) > 50 and TESTS / "conftest.py" in SOURCES


def test_no_test_probes_for_a_free_port() -> None:
    # conftest.py's refused_port keeps its port bound for the whole test, never listening.
    assert _offences(r"getsockname\(|free_port", besides=(TESTS / "conftest.py",)) == []


def test_no_test_listens_on_a_fixed_port_of_this_machine() -> None:
    ports = r"""(?:["']--port["'],\s*["']|\bport\s*=\s*)(\d+)"""  # --port N, port=N
    fixed = [
        offence
        for offence in _offences(ports, besides=(_NETNS,))
        # Below 1024 it is an advert's data (inert/test_inert_discover.py's port 9): no
        # host of the suite listens there.
        if any(1024 <= int(port) <= 65535 for port in re.findall(ports, offence))
    ]
    assert fixed == []


def test_no_test_writes_to_a_fixed_path_in_tmp() -> None:
    assert _offences(r"""["']/tmp\b""") == []
