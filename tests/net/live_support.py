"""Helpers for tests over real websockets and TLS on 127.0.0.1, in-process or as subprocesses."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from domicile_p2p.net.adapters.bot import BotBrain, BotOutcome, run_bot
from domicile_p2p.net.adapters.client import Backoff, PeerClient, websocket_dialer
from domicile_p2p.net.adapters.host import HostConfig
from domicile_p2p.net.adapters.key_files import load_or_create_identity
from domicile_p2p.net.adapters.pins import PinStore
from domicile_p2p.net.adapters.seat_secrets import SeatSecrets
from domicile_p2p.net.address import Address
from domicile_p2p.net.join.codes import JoinCode
from domicile_p2p.net.sessions.peer import PeerSession
from domicile_p2p.net.wire import Role

REPO = Path(__file__).resolve().parents[2]
LOOPBACK = "127.0.0.1"


def loopback_config(data_dir: Path, **options: Any) -> HostConfig:
    """A host for the tests: on 127.0.0.1, not advertised, on a port the system picks
    unless ``port`` says otherwise; ``options`` are the rest of its :class:`HostConfig`."""
    settings: dict[str, Any] = {"interface": LOOPBACK, "port": 0, "advertise": False, **options}
    return HostConfig(data_dir=data_dir, **settings)


@dataclass
class NetworkBot:
    """One bot client over a real TLS websocket, with its own data dir."""

    client: PeerClient
    brain: BotBrain
    logs: list[dict[str, Any]] = field(default_factory=list)

    @property
    def session(self) -> PeerSession:
        return self.client.session

    async def play(self, delay: float = 0.0) -> BotOutcome:
        return await run_bot(self.client, self.brain, delay=delay)


def network_bot(
    data_dir: Path,
    url: str,
    code: JoinCode,
    *,
    role: Role = Role.ANY,
    seat: int | None = None,
    backoff: Backoff | None = None,
    seed: int = 1,
    person: bool = False,
    name: str | None = None,
) -> NetworkBot:
    """A bot client; with ``person`` it joins as a person would (the host cannot tell the
    difference except by that flag: a person may take a hosted bot's seat in the lobby).
    Its name is ``name``, or made from its data dir's."""
    address = Address.parse(url)
    pins = PinStore.in_data_dir(data_dir)
    identity = load_or_create_identity(data_dir)
    session = PeerSession(
        identity,
        code.nameplate,
        code=code,
        name=name if name is not None else f"{'Person' if person else 'Bot'} {data_dir.name}"[:40],
        role=role,
        seat=seat,
        bot=not person,
    )
    logs: list[dict[str, Any]] = []
    client = PeerClient(
        session,
        websocket_dialer(address, pins),
        SeatSecrets(data_dir),
        pins=pins,
        pin_key=address.pin_key,
        backoff=backoff or Backoff(first=0.1, cap=1.0, attempts=30),
        log=lambda event, fields: logs.append({"event": event, **fields}),
    )
    return NetworkBot(client, BotBrain(session, seed=seed), logs)


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(REPO), str(REPO / "clients"), env.get("PYTHONPATH", "")]
    )
    env.pop("HTTPS_PROXY", None)
    env.pop("https_proxy", None)
    return env


def domicile(*args: str) -> list[str]:
    return [sys.executable, "-m", "domicile_p2p", *args]


class HostProcess:
    """``domicile host --headless`` in a subprocess, its JSON log lines read as they come.

    The host listens on a port the system picks; :attr:`port` is the one it reported
    (its ``listening`` record), and a restart (``start`` again) asks for that port back,
    as a host that resumes its table does.  Never a port probed for beforehand: another
    run on the machine could take it in between."""

    def __init__(self, data_dir: Path, *extra: str, advertise: bool = False) -> None:
        self.data_dir = data_dir
        self.port = 0
        self.args = [
            "host",
            "--headless",
            "--interface",
            LOOPBACK,
            "--data-dir",
            str(data_dir),
            *([] if advertise else ["--no-advertise"]),
            *extra,
        ]
        self.records: list[dict[str, Any]] = []
        self.process: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        """The host's address, once it is listening (:meth:`wait_for` ``"listening"``)."""
        assert self.port, "the host has not said where it listens yet"
        return f"wss://{LOOPBACK}:{self.port}"

    def start(self, *more: str) -> HostProcess:
        self.records = []
        self.process = subprocess.Popen(
            domicile(*self.args, "--port", str(self.port), *more),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=environment(),
        )
        return self

    def _read_until(self, event: str, timeout: float) -> dict[str, Any]:
        assert self.process is not None and self.process.stdout is not None
        deadline = time.monotonic() + timeout
        for record in self.records:
            if record["event"] == event:
                return record
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                raise AssertionError(
                    f"the host exited before {event!r}: {self.process.wait()} "
                    f"{self.process.stderr.read() if self.process.stderr else ''}"
                )
            record = json.loads(line)
            self.records.append(record)
            if record["event"] == "listening":
                self.port = int(record["port"])
            if record["event"] == event:
                return record
        raise AssertionError(f"no {event!r} from the host within {timeout} s")

    async def wait_for(self, event: str, timeout: float = 30.0) -> dict[str, Any]:
        return await asyncio.to_thread(self._read_until, event, timeout)

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    async def exited(self, timeout: float = 20.0) -> int:
        """Wait for the host to stop by itself (``--exit-when-done``)."""
        assert self.process is not None
        return await asyncio.to_thread(self.process.wait, timeout)

    async def stop(self) -> int:
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return await asyncio.to_thread(self.process.wait, 20)

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)


def same_transcripts(outcomes: Sequence[BotOutcome]) -> bool:
    return len({tuple(event.line for event in outcome.events) for outcome in outcomes}) == 1
