"""Host capacity and latency: K tables of 7 seats, every seat a TLS websocket on 127.0.0.1.

    python benchmarks/bench_host.py                          # K = 10 and 100, short windows
    python benchmarks/bench_host.py --tables 10 --tables 100 --tables 1000 --duration 60
    python benchmarks/bench_host.py --tables 10 --no-human --saturation --profile

What runs (every process started and stopped by this script):

- **hosts**: ``domicile host --headless --interface 127.0.0.1 --port 0
  --investigators 6 --no-advertise``, each in its own data dir, run as
  ``--domicile-host`` processes of this script: the same command with the
  per-seat chat bound lifted to the flood limit (``_host/host_process.py``),
  or no saturation chat past the first few would become an event.  One host
  process serves every table (``--tables-per-host``, 1,000 by default; a
  host takes up to 9,999 tables, numbered in their join codes); with a
  smaller ``--tables-per-host`` K tables take ceil(K / N) host processes, and
  host CPU and memory are summed over them.
- **load generators** (``--load-child`` processes of this script, one per
  125 tables by default), each multiplexing many tables from its own
  loopback source address (127.0.0.2, 127.0.0.3, ...: the host limits
  pending joins per address, so the processes join in parallel).  A table
  is seven real clients: seven TLS
  websockets, each joining its seat with the code (SPAKE2, identity proof)
  exactly as ``PeerSession`` does.  Once seated, the seven connections only
  read and time-stamp frames; one shared replica per table checks every
  event (chain, signatures, rules) and gives the seven seats' agents and
  ``make_policy`` bots the state to decide on, so the load generator pays
  for one replica per table rather than seven.
- **the anchor**: ``--bare-server`` processes of this script, a websockets TLS
  server (same certificate kind, TLS 1.3, the same websockets options) that
  groups connections into tables of seven and broadcasts each frame a client
  sends to the seven, wrapped like an ``events`` frame of the same size, with
  no parsing, signatures, rules or disk.  Same process layout (as many tables each),
  same load generator, same pace.

Phases: **human pace** (one action per table every ``--pace`` seconds, 3 by
default: the real game, bots deciding every move) and **saturation** (every
investigator of every table sends chat actions as fast as the host's flood
limit lets a connection send, ``--rate`` per second: signed actions that go
through the whole pipeline, signature, chain, rules, fsync and fan-out).

Measured: action-to-every-peer latency (send of the ``act`` to arrival of the
event on each of the seven connections) p50/p99, events per second, host CPU
(``/proc/PID/stat`` utime+stime over the window, in cores) and peak memory
(``VmHWM``), and per-core capacity = events/s / cores used.  ``--profile``
samples one host with py-spy during the last phase and splits its time into
signature checks, signing, JSON, fsync, websockets/TLS fan-out and the rest,
and ranks the functions that spend its CPU.  At saturation, the Ed25519 work
of one event (one verify, one sign) is timed in this process just after each
window: the issue 11 anchor is the bare server's CPU per event plus that.

Targets (issue 7): 1,000 tables on one host core at human pace with p99 <= 50 ms
and <= 1 GiB; per-core throughput at saturation >= 0.5 x the bare server.
Issue 11: at saturation, the host's CPU per event <= 1.3 x (the bare server's
CPU per event + the Ed25519 work of an event).

The parts live in ``_host/`` (one job each; see its ``__init__``).
"""

from __future__ import annotations

import signal
import sys
import tempfile
from pathlib import Path

from _common import raise_nofile
from _host import anchor, host_process, load_child, options, report
from _host.measure import run_kind
from _host.servers import KINDS


def main(argv: list[str] | None = None) -> int:
    raw = sys.argv[1:] if argv is None else argv
    if raw[:1] == ["--load-child"]:  # one load generator process
        return load_child.main()
    if raw[:1] == ["--bare-server"]:  # one anchor process: --bare-server TABLES DIR
        return anchor.main(int(raw[1]), Path(raw[2]))
    if raw[:1] == ["--domicile-host"]:  # one host process: --domicile-host HOST-OPTIONS...
        return host_process.main(raw[1:])
    # Stopped from outside (a timeout, Ctrl-C): unwind, so every host and child is stopped.
    signal.signal(signal.SIGTERM, _exit_on_signal)
    args = options.parse(__doc__.splitlines()[0], raw)
    run = options.run_options(args)
    out = report.start(args, raise_nofile())
    measured: report.Measured = {kind: {} for kind in KINDS}
    with tempfile.TemporaryDirectory(prefix="bench-host-", ignore_cleanup_errors=True) as tmp:
        for tables in args.sizes:
            phases = options.phases(args, tables)
            for kind in options.kinds(args) if phases else ():
                try:
                    results, setup = run_kind(kind, tables, phases, run, Path(tmp))
                except Exception as exc:
                    report.add_failure(out, kind, tables, exc)
                    break
                measured[kind][tables] = results
                report.add_run(out, kind, tables, results, setup)
    report.finish(out, measured, args.tables_per_host)
    out.emit()
    return 0


def _exit_on_signal(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


if __name__ == "__main__":
    sys.exit(main())
