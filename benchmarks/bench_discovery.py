"""Discovery: from starting ``domicile host`` to its table appearing in a browser on the LAN.

    python benchmarks/bench_discovery.py
    python benchmarks/bench_discovery.py --rounds 10 --no-netns

Each round starts a browser first (zeroconf's ``AsyncServiceBrowser`` on
``_domicile._tcp.local.``, resolving each name and parsing its TXT record
with ``TableAdvert.from_txt`` exactly as ``domicile discover`` does, but
stopping at the first sight of the table instead of listening for the whole
``--timeout``), then starts ``domicile host --headless`` with a table name
unique to the round, and takes the time (``CLOCK_MONOTONIC``, one clock for
every process and namespace) at which:

- the host process was spawned (t = 0);
- the host logged ``listening`` (imports, keys, TLS, the socket: its own start-up);
- the host logged ``advertised`` (zeroconf registered the service: probing done);
- the browser had resolved the table.

Two settings: both on 127.0.0.1; and host and browser in two network
namespaces joined by a veth pair with link-local addresses (169.254.x.x),
created and removed by this script (root needed; skipped with a message
otherwise).  Target (issue 7): host start to table visible <= 0.5 s.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from _common import Report, Target, ms, parser, venv_bin

# The project's one way to make test hosts in network namespaces lives with the tests.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "net"))
import netns_support
from netns_support import Link

TARGET_SECONDS = 0.5
HOST_IP = "169.254.93.1"
CLIENT_IP = "169.254.93.2"
LOOPBACK = "127.0.0.1"


# ----------------------------------------------------------------- the browser (a child process)


async def browse(interface: str, wanted: str, timeout: float) -> None:
    """Print ``ready T``, then ``found T JSON`` when a table named ``wanted`` resolves."""
    from zeroconf import IPVersion, ServiceStateChange, Zeroconf
    from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

    from domicile_p2p.net.adapters.discovery import SERVICE_TYPE, BadAdvert, TableAdvert

    found: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    async def resolve(zeroconf: Zeroconf, name: str) -> None:
        info = AsyncServiceInfo(SERVICE_TYPE, name)
        if not await info.async_request(zeroconf, 1500):
            return
        try:
            advert = TableAdvert.from_txt(info.decoded_properties)
        except BadAdvert:
            return
        if advert.name == wanted and not found.done():
            addresses = info.parsed_addresses(IPVersion.V4Only)
            found.set_result(json.dumps({"address": addresses[:1], "port": info.port}))

    tasks: set[asyncio.Task[None]] = set()
    async with AsyncZeroconf(interfaces=[interface], ip_version=IPVersion.V4Only) as zeroconf:

        def on_change(
            zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange
        ) -> None:
            if state_change is not ServiceStateChange.Removed:
                task = asyncio.ensure_future(resolve(zeroconf, name))
                tasks.add(task)
                task.add_done_callback(tasks.discard)

        browser = AsyncServiceBrowser(zeroconf.zeroconf, SERVICE_TYPE, handlers=[on_change])
        print(f"ready {time.monotonic()}", flush=True)
        try:
            detail = await asyncio.wait_for(found, timeout)
            print(f"found {time.monotonic()} {detail}", flush=True)
        except TimeoutError:
            print("timeout", flush=True)
        finally:
            await browser.async_cancel()
            for task in tasks:
                task.cancel()


# ----------------------------------------------------------------- namespaces


def veth_link() -> contextlib.AbstractContextManager[Link | str]:
    """Two namespaces joined by a veth pair (removed on exit), or why they cannot be made."""
    return netns_support.veth_link("bench-d", 93)


# ----------------------------------------------------------------- one round


@dataclass(frozen=True, slots=True)
class Round:
    listening: float | None
    advertised: float | None
    visible: float | None


class _Lines:
    """Reads a process's stdout lines in a thread, stamping each with CLOCK_MONOTONIC."""

    def __init__(self, stream: object) -> None:
        self.lines: list[tuple[float, str]] = []
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream: object) -> None:
        for line in iter(stream.readline, ""):  # type: ignore[attr-defined]
            self.lines.append((time.monotonic(), line.strip()))

    def first(self, event: str) -> float | None:
        for stamp, line in list(self.lines):
            with contextlib.suppress(ValueError):
                if json.loads(line).get("event") == event:
                    return stamp
        return None

    def join(self) -> None:
        self._thread.join(5)


def _wrap(namespace: str | None, command: list[str]) -> list[str]:
    return command if namespace is None else ["ip", "netns", "exec", namespace, *command]


def one_round(
    name: str,
    data_dir: Path,
    host_ip: str,
    client_ip: str,
    link: Link | None,
    timeout: float,
) -> Round:
    env = dict(os.environ)
    browser = subprocess.Popen(
        _wrap(
            link.client_ns if link else None,
            [sys.executable, __file__, "--browse-child", client_ip, name, str(timeout)],
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    host: subprocess.Popen[str] | None = None
    try:
        ready = browser.stdout.readline() if browser.stdout else ""
        if not ready.startswith("ready"):
            problem = browser.stderr.read() if browser.stderr else ""
            raise RuntimeError(f"the browser did not start: {ready!r} {problem!r}")
        command = [
            venv_bin("domicile"),
            "host",
            "--headless",
            "--interface",
            host_ip,
            "--port",
            "0",
            "--name",
            name,
            "--data-dir",
            str(data_dir),
        ]
        started = time.monotonic()
        host = subprocess.Popen(
            _wrap(link.host_ns if link else None, command),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        lines = _Lines(host.stdout)
        answer = browser.stdout.readline() if browser.stdout else ""
        visible = float(answer.split()[1]) - started if answer.startswith("found") else None
        deadline = time.monotonic() + 5
        while lines.first("advertised") is None and time.monotonic() < deadline:
            time.sleep(0.01)  # the log line can trail the packet a browser already heard
        listening, advertised = lines.first("listening"), lines.first("advertised")
        return Round(
            None if listening is None else listening - started,
            None if advertised is None else advertised - started,
            visible,
        )
    finally:
        for process in (host, browser):
            if process is None:
                continue
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)


def _median(values: list[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return statistics.median(present) if present else None


def run_setting(
    label: str,
    rounds: int,
    host_ip: str,
    client_ip: str,
    link: Link | None,
    timeout: float,
) -> dict[str, float | int | None]:
    with tempfile.TemporaryDirectory(prefix="bench-discovery-") as tmp:
        data_dir = Path(tmp) / "host"
        results = []
        for index in range(rounds + 1):  # round 0 makes the keys and certificate: not timed
            name = f"bench {os.getpid()} {label} {index}"
            outcome = one_round(name, data_dir, host_ip, client_ip, link, timeout)
            if index > 0:
                results.append(outcome)
    missed = sum(1 for r in results if r.visible is None)
    return {
        "listening_s": _median([r.listening for r in results]),
        "advertised_s": _median([r.advertised for r in results]),
        "visible_s": _median([r.visible for r in results]),
        "visible_max_s": max((r.visible for r in results if r.visible is not None), default=None),
        "visible_after_listening_s": _median(
            [
                r.visible - r.listening
                for r in results
                if r.visible is not None and r.listening is not None
            ]
        ),
        "not_found": missed,
    }


def main(argv: list[str] | None = None) -> int:
    if argv is None and len(sys.argv) > 1 and sys.argv[1] == "--browse-child":
        _, _, interface, wanted, timeout = sys.argv
        asyncio.run(browse(interface, wanted, float(timeout)))
        return 0
    options = parser(__doc__.splitlines()[0])
    options.add_argument("--rounds", type=int, default=5, help="host starts per setting (median)")
    options.add_argument("--timeout", type=float, default=10.0, help="seconds a browser waits")
    options.add_argument("--no-netns", action="store_true", help="loopback only")
    args = options.parse_args(argv)
    if args.quick:
        args.rounds, args.no_netns = 1, True
    report = Report(
        "discovery",
        {"rounds": args.rounds, "timeout_s": args.timeout},
        (
            "setting",
            "host listening ms",
            "host advertised ms",
            "visible to browser ms (median)",
            "worst ms",
            "visible after listening ms",
            "not found",
        ),
    )
    settings: list[tuple[str, str, str, Link | None]] = [("loopback", LOOPBACK, LOOPBACK, None)]
    netns_reason = "skipped (--no-netns)" if args.no_netns else ""
    with contextlib.ExitStack() as stack:
        if not args.no_netns:
            link = stack.enter_context(veth_link())
            if isinstance(link, Link):
                settings.append(("two namespaces (veth, 169.254/16)", HOST_IP, CLIENT_IP, link))
            else:
                netns_reason = link
        for label, host_ip, client_ip, setting_link in settings:
            key = "loopback" if setting_link is None else "netns"
            result = run_setting(key, args.rounds, host_ip, client_ip, setting_link, args.timeout)
            report.results[key] = result
            report.row(
                label,
                _ms(result["listening_s"]),
                _ms(result["advertised_s"]),
                _ms(result["visible_s"]),
                _ms(result["visible_max_s"]),
                _ms(result["visible_after_listening_s"]),
                result["not_found"],
            )
            visible = result["visible_s"]
            report.targets.append(
                Target(
                    f"host start to table visible, {key}",
                    None if visible is None else float(visible),
                    TARGET_SECONDS,
                    "lower",
                    " s",
                )
            )
    if netns_reason:
        report.results["netns"] = {"skipped": netns_reason}
        report.targets.append(
            Target(
                "host start to table visible, netns",
                None,
                TARGET_SECONDS,
                "lower",
                " s",
                note=netns_reason,
            )
        )
        report.note(f"two-namespace setting not measured: {netns_reason}")
    report.note(
        "t=0 is the spawn of `domicile host`; `domicile discover` itself always listens for its "
        "whole --timeout, so the browser here is the same zeroconf browse stopping at first sight"
    )
    report.emit()
    return 0


def _ms(value: float | int | None) -> float | None:
    return None if value is None else ms(float(value))


if __name__ == "__main__":
    sys.exit(main())
