"""Two network namespaces joined by a veth pair: the project's own test hosts.

Shared by the cross-host tests and ``benchmarks/bench_discovery.py``.  The
namespaces get link-local addresses (169.254/16) and are removed on exit, so
no traffic can leave this machine.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Link:
    host_ns: str
    client_ns: str
    host_ip: str
    client_ip: str


def ip(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, timeout=10)


@contextlib.contextmanager
def veth_link(tag: str, subnet: int) -> Iterator[Link | str]:
    """Namespaces ``<tag>-h<pid>`` and ``<tag>-c<pid>`` on ``169.254.<subnet>.1/.2``.

    Yields the :class:`Link`, or the reason they cannot be made here (no
    ``ip`` command, no privilege), so a test can skip and a benchmark can say why.
    """
    if shutil.which("ip") is None:
        yield "the `ip` command (iproute2) is not installed"
        return
    suffix = str(os.getpid() % 100000)
    host_ns, client_ns = f"{tag}-h{suffix}", f"{tag}-c{suffix}"
    veth_host, veth_client = f"{tag[:3]}h{suffix}", f"{tag[:3]}c{suffix}"
    link = Link(host_ns, client_ns, f"169.254.{subnet}.1", f"169.254.{subnet}.2")
    probe = ip("netns", "add", host_ns)
    if probe.returncode != 0:
        yield f"network namespaces cannot be created here: {probe.stderr.strip()}"
        return
    try:
        steps = [
            ("netns", "add", client_ns),
            ("link", "add", veth_host, "type", "veth", "peer", "name", veth_client),
            ("link", "set", veth_host, "netns", host_ns),
            ("link", "set", veth_client, "netns", client_ns),
            ("-n", host_ns, "addr", "add", f"{link.host_ip}/16", "dev", veth_host),
            ("-n", client_ns, "addr", "add", f"{link.client_ip}/16", "dev", veth_client),
            ("-n", host_ns, "link", "set", "lo", "up"),
            ("-n", client_ns, "link", "set", "lo", "up"),
            ("-n", host_ns, "link", "set", veth_host, "up"),
            ("-n", client_ns, "link", "set", veth_client, "up"),
        ]
        for step in steps:
            result = ip(*step)
            if result.returncode != 0:
                raise RuntimeError(f"ip {' '.join(step)}: {result.stderr.strip()}")
        yield link
    finally:
        for namespace in (host_ns, client_ns):
            ip("netns", "del", namespace)  # takes its end of the veth pair with it
