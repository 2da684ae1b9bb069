"""Two machines on one link: host and client in two network namespaces joined by a veth pair.

The client finds the table by mDNS across the link (169.254.x.x link-local
addresses, as two laptops on a switch without DHCP would have), joins with
the code, and a bot plays a whole game against the host's bot Ghost.  The
namespaces are created by the test and always removed, even on failure.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from live_support import domicile, environment
from netns_support import Link, ip, veth_link

from domicile_p2p.transcript.files import read_transcript
from domicile_p2p.transcript.verify import verify

pytestmark = [pytest.mark.netns, pytest.mark.slow]

HOST_IP = "169.254.77.1"
CLIENT_IP = "169.254.77.2"
CODE = "2-heron-lantern"


@pytest.fixture
def link() -> Iterator[Link]:
    with veth_link("dom", 77) as made:
        if isinstance(made, str):
            pytest.skip(made)
        assert (made.host_ip, made.client_ip) == (HOST_IP, CLIENT_IP)
        yield made
    leftover = ip("netns", "list").stdout
    assert made.host_ns not in leftover and made.client_ns not in leftover


def _in(namespace: str, *command: str) -> list[str]:
    return ["ip", "netns", "exec", namespace, *command]


def test_a_client_in_another_namespace_discovers_joins_and_plays(
    link: Link, tmp_path: Path
) -> None:
    host = subprocess.Popen(
        _in(
            link.host_ns,
            *domicile(
                "host",
                "--headless",
                "--interface",
                HOST_IP,
                "--port",
                "47470",
                "--name",
                "Across the link",
                "--investigators",
                "1",
                "--ghost",
                "bot",
                "--code",
                CODE,
                "--data-dir",
                str(tmp_path / "host"),
                "--exit-when-done",
            ),
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment(),
    )
    try:
        found: list[dict[str, object]] = []
        for _ in range(3):  # the advert needs a moment to be announced
            listing = subprocess.run(
                _in(
                    link.client_ns,
                    *domicile("discover", "--json", "--timeout", "2.5", "--interface", CLIENT_IP),
                ),
                capture_output=True,
                text=True,
                env=environment(),
                timeout=60,
            )
            assert listing.returncode == 0, listing.stderr
            found = [json.loads(line) for line in listing.stdout.splitlines()]
            if [t for t in found if t["seats_free"] == 1]:
                break  # the advert says the Ghost bot has sat down
        [table] = [t for t in found if t["name"] == "Across the link"]
        assert table["address"] == HOST_IP and table["seats_free"] == 1
        bot = subprocess.run(
            _in(
                link.client_ns,
                *domicile(
                    "bot",
                    "--connect",
                    f"wss://{table['address']}:{table['port']}",
                    "--code",
                    CODE,
                    "--fingerprint",
                    str(table["fingerprint"]),
                    "--data-dir",
                    str(tmp_path / "client"),
                    "--transcript",
                    str(tmp_path / "client.json"),
                ),
            ),
            capture_output=True,
            text=True,
            env=environment(),
            timeout=120,
        )
        assert bot.returncode == 0, bot.stderr
        out, err = host.communicate(timeout=30)
        assert host.returncode == 0, err
    finally:
        if host.poll() is None:
            host.kill()
            host.wait(10)
    records = [json.loads(line) for line in out.splitlines()]
    [ended] = [r for r in records if r["event"] == "game-ended"]
    [joined] = [r for r in records if r["event"] == "join" and r["seat"] == 1]
    assert joined["remote"].startswith(CLIENT_IP), "the player came from the other namespace"
    client_events = [e.line for e in read_transcript(tmp_path / "client.json")]
    assert client_events == [e.line for e in read_transcript(Path(ended["transcript"]))]
    assert verify(tmp_path / "client.json").valid
