"""Verify passes for counting instructions: ``verify`` and its floor without the clock's noise.

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python benchmarks/verify_passes.py verify FILE 1     # then ... 2

Reads the transcript ``FILE`` (made by ``domicile selfplay --seed``), then runs
``passes`` times: ``verify`` as ``domicile verify --jobs 1`` checks it (in this
process, one thread), ``floor`` every signature it holds once with
``cryptography``'s Ed25519 (``bench_verify.signatures``, messages prepared
beforehand), ``none`` nothing.  The instructions of one pass are the difference
between two and one passes; ``domicile verify --jobs 1 FILE`` and ``python -c
pass`` are counted as whole processes beside them (benchmarks/README.md,
Verification, issue 24).
"""

from __future__ import annotations

import sys
from pathlib import Path

from bench_verify import signatures

from domicile_p2p.transcript.verify import verify


def main(argv: list[str]) -> int:
    if len(argv) != 3 or argv[0] not in ("verify", "floor", "none"):
        print("usage: verify_passes.py verify|floor|none FILE PASSES")
        return 2
    mode, data, passes = argv[0], Path(argv[1]).read_bytes(), int(argv[2])
    checks = signatures(data)
    for _ in range(passes):
        if mode == "verify":
            verify(data, jobs=1)
        elif mode == "floor":
            checks.verify_all()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
