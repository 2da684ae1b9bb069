"""Where the host's time goes: py-spy samples of one host, split by category and function.

py-spy records raw collapsed stacks (idle included) of one host process for
the window of the last phase; each sample is put in the category of its
leaf-most frame that matches one (self time by module), and the CPU samples
are also ranked by the leaf function that spent them.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import subprocess
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from _common import venv_bin

PROFILE_CATEGORIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("idle (waiting in select)", ("select (selectors.py", "select (")),
    # os.fdatasync is C code: py-spy shows its Python caller (the log's sync, in a disk thread).
    ("fsync (event log, disk threads)", ("fsync", "fdatasync", "AppendLog.sync (")),
    ("signature checks (Ed25519 verify)", ("verify (cryptography", "verifies (")),
    ("signing (Ed25519 sign)", ("sign (cryptography", "sign (domicile_p2p/identity")),
    ("hashing (SHA-256 links, commitments)", ("hashlib", "tagged_hash", "digest (")),
    ("JSON (canonical, msgspec, json)", ("canonical.py", "json/", "msgspec", "wire.py")),
    ("TLS (ssl)", ("ssl.py", "sslproto.py", "_ssl")),
    ("websockets framing", ("websockets/",)),
    ("asyncio machinery", ("asyncio/",)),
    ("rules engine, ledger, table", ("rules/", "transcript/")),
    ("host session and server (routing, fan-out loops)", ("domicile_p2p/net/",)),
)

IDLE_POOL_THREAD = "_worker (concurrent/futures/thread.py:81)"
"""The leaf frame of a pool thread waiting on its queue (CPython 3.11)."""

TOP_FUNCTIONS = 15
"""How many functions each ranking by function lists."""
HOST_PACKAGE = "domicile_p2p/"
"""Frames of the code under test (for the ranking by time under each function)..."""
ENTRY_POINTS = "domicile_p2p/cli/"
"""...but not the command's entry points, under which everything runs."""

_LINE_NUMBER = re.compile(r":\d+\)$")


def start_py_spy(pid: int, seconds: float, out: Path) -> subprocess.Popen[bytes] | None:
    """py-spy recording ``pid`` for ``seconds`` into ``out``; None when py-spy is missing."""
    spy = shutil.which("py-spy") or venv_bin("py-spy")
    if not Path(spy).exists() and shutil.which(spy) is None:
        return None
    return subprocess.Popen(
        [
            spy,
            "record",
            "--pid",
            str(pid),
            "--duration",
            str(max(1, int(seconds))),
            "--rate",
            "250",
            "--format",
            "raw",
            "--idle",
            "--nonblocking",
            "--output",
            str(out),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def classify(frames: Sequence[str]) -> str:
    """The category of a sample: the first category (in the order above) that the
    leaf-most frame belonging to any category matches: self time by module."""
    for frame in reversed(frames):
        for name, needles in PROFILE_CATEGORIES:
            if any(needle in frame for needle in needles):
                return name
    return "other"


def _is_host_code(frame: str) -> bool:
    return HOST_PACKAGE in frame and ENTRY_POINTS not in frame


def _is_busy(category: str) -> bool:
    """A category of CPU time (not the loop's idle wait, nor the disk threads' sync)."""
    return not category.startswith(("idle", "fsync"))


@dataclass(frozen=True)
class Profile:
    """py-spy's samples of one host: shares by category (idle included) and CPU by function."""

    shares: dict[str, float]
    """Share of every sample (wall time, idle included) per category."""
    self_time: dict[str, float]
    """Share of the CPU samples (idle and fsync left out) spent in each function itself
    (the leaf frame; C code shows as its Python caller): the top ones."""
    host_inclusive: dict[str, float]
    """Share of the CPU samples with each function of the package on the stack: the top ones."""

    def cpu_shares(self) -> dict[str, float]:
        """The categories' shares of the CPU samples alone (idle and fsync left out)."""
        busy = {name: share for name, share in self.shares.items() if _is_busy(name)}
        total = sum(busy.values())
        return {name: share / total for name, share in busy.items()} if total else {}


def read_profile(path: Path) -> Profile | None:
    """Summarize py-spy's raw collapsed stacks (None when it recorded nothing).

    The event loop's idle time counts; a pool thread waiting for work (the disk threads
    between commits) does not: it is not time any event waits for.
    """
    categories: Counter[str] = Counter()
    leaves: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    with contextlib.suppress(FileNotFoundError):
        for line in path.read_text().splitlines():
            stack, _, number = line.rpartition(" ")
            if not number.isdigit() or stack.endswith(IDLE_POOL_THREAD):
                continue
            samples = int(number)
            frames = [_LINE_NUMBER.sub(")", frame) for frame in stack.split(";")]
            category = classify(frames)
            categories[category] += samples
            if _is_busy(category):
                leaves[frames[-1]] += samples
                for function in {frame for frame in frames if _is_host_code(frame)}:
                    inclusive[function] += samples
    total = sum(categories.values())
    if total == 0:
        return None
    busy = sum(leaves.values()) or 1
    return Profile(
        {name: count / total for name, count in categories.items()},
        {name: count / busy for name, count in leaves.most_common(TOP_FUNCTIONS)},
        {name: count / busy for name, count in inclusive.most_common(TOP_FUNCTIONS)},
    )


def profile_notes(label: str, profile: Profile, cpu_per_event: float | None) -> list[str]:
    """The profile as report notes, each list ranked: wall-time shares (idle and fsync
    included), shares of the CPU time alone, the same in microseconds per event (when
    the host's CPU per event in the profiled window is known), then the functions that
    spent the most CPU themselves, and the package's functions by CPU under them."""
    notes = [
        f"profile {label}, wall: {share:6.1%}  {name}" for name, share in _ranked(profile.shares)
    ]
    cpu = _ranked(profile.cpu_shares())
    notes += [f"profile {label}, CPU only: {share:6.1%}  {name}" for name, share in cpu]
    if cpu_per_event is not None:
        notes += [
            f"profile {label}, CPU per event: {share * cpu_per_event * 1e6:5.0f} us  {name}"
            for name, share in cpu
        ]
    notes += [
        f"profile {label}, CPU self: {share:6.1%}  {name}"
        for name, share in _ranked(profile.self_time)
    ]
    notes += [
        f"profile {label}, CPU under: {share:6.1%}  {name}"
        for name, share in _ranked(profile.host_inclusive)
    ]
    return notes


def _ranked(shares: dict[str, float]) -> list[tuple[str, float]]:
    return sorted(shares.items(), key=lambda item: -item[1])
