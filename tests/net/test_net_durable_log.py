"""The host's event logs: durable before any send, group commit, open logs, crash leftovers.

The server (``net/server.py``) hands each Persist to a disk thread and holds
every later effect until the sync covering it returns.  These tests drive a
real :class:`HostServer` over in-process links with hooks whose "disk" blocks
until the test lets it go, so "nothing was sent meanwhile" is observed, not
assumed.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from net_support import FINGERPRINT

from domicile_p2p.net.adapters import server as server_module
from domicile_p2p.net.adapters.files import AppendLog, read_lines
from domicile_p2p.net.adapters.server import HostServer, LocalLink
from domicile_p2p.net.adapters.store import EVENTS_FILE, HostStore
from domicile_p2p.net.sessions.effects import Close, HostEffect, Log, Persist, Send
from domicile_p2p.net.sessions.host import HostSession
from domicile_p2p.net.wire import Error, ErrorCode, Events, HostMessage, decode_host, text

SETTLE = 0.05
"""Seconds given to the loop and the disk threads to do whatever they would do."""


class GatedDisk:
    """Hooks whose persist blocks (in the disk thread) until the test opens the gate."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.gate.set()
        self.calls: list[tuple[int, list[Any]]] = []
        self.started = threading.Event()
        self.logs: list[tuple[str, dict[str, Any]]] = []
        self.failing: Exception | None = None
        self._lock = threading.Lock()

    def persist(self, table: int, lines: Sequence[bytes]) -> None:
        assert threading.current_thread() is not threading.main_thread(), "never on the loop"
        with self._lock:
            self.calls.append((table, [json.loads(line)["seq"] for line in lines]))
        self.started.set()
        if not self.gate.wait(10):
            raise TimeoutError("the test never opened the gate")
        if self.failing is not None:
            raise self.failing

    def log(self, event: str, fields: Mapping[str, Any]) -> None:
        self.logs.append((event, dict(fields)))

    def table_changed(self, table: int) -> None:
        pass

    def game_finished(self, table: int, game_id: str) -> None:
        pass


def persist(table: int, *seqs: int) -> Persist:
    return Persist(table, tuple(b'{"seq":%d}' % seq for seq in seqs))


def note(label: str) -> Error:
    return Error(ErrorCode.UNEXPECTED, label)


def received(link: LocalLink) -> list[HostMessage]:
    frames = []
    while not link.inbox.empty():
        item = link.inbox.get_nowait()
        assert isinstance(item, str)
        frames.append(decode_host(item))
    return frames


def said(link: LocalLink) -> list[str]:
    """The texts of the notes (Error frames) ``link`` received; any other frame fails."""
    texts = []
    for message in received(link):
        assert isinstance(message, Error), message
        texts.append(message.message)
    return texts


async def serve(disk: GatedDisk, links: int = 1) -> tuple[HostServer, list[LocalLink]]:
    server = HostServer(HostSession([], FINGERPRINT, nonce=secrets.token_bytes), disk)
    attached = [server.attach_local(f"test-{index}") for index in range(links)]
    await server.drained()
    for link in attached:
        received(link)  # the Welcome
    disk.logs.clear()
    return server, attached


async def test_no_send_leaves_before_the_sync_covering_its_event_returns() -> None:
    disk = GatedDisk()
    server, (link,) = await serve(disk)
    disk.gate.clear()
    server.apply(
        [
            Send(link.connection, note("before")),
            persist(1, 0),
            Send(link.connection, note("after")),
        ]
    )
    assert said(link) == ["before"], "what came first is not held"
    await asyncio.to_thread(disk.started.wait, 5)
    # A later call with no Persist of its own must still wait: per-connection order.
    server.apply([Send(link.connection, note("later")), Log("later", {})])
    await asyncio.sleep(SETTLE)
    assert received(link) == [], "nothing may leave while the sync is running"
    assert disk.logs == []
    disk.gate.set()
    await server.drained()
    assert said(link) == ["after", "later"]
    assert [event for event, _ in disk.logs] == ["later"]
    await server.close()


async def test_events_persisted_during_a_sync_share_the_next_one() -> None:
    disk = GatedDisk()
    server, links = await serve(disk, links=2)
    disk.gate.clear()
    server.apply([persist(1, 0), Send(links[0].connection, Events(0, [{"seq": 0}]))])
    await asyncio.to_thread(disk.started.wait, 5)
    # Fifty events of two tables arrive while the first sync runs.
    for seq in range(1, 51):
        table = 1 + seq % 2
        server.apply(
            [persist(table, seq), Send(links[table - 1].connection, Events(seq, [{"seq": seq}]))]
        )
    disk.gate.set()
    await server.drained()
    assert server.group_commits == 2
    assert sorted(disk.calls) == [
        (1, [0]),
        (1, list(range(2, 51, 2))),
        (2, list(range(1, 51, 2))),
    ], "one write and sync per table per group, its events in order"
    for index, link in enumerate(links):
        starts = [message.start for message in received(link) if isinstance(message, Events)]
        expected = [0, *range(2, 51, 2)] if index == 0 else list(range(1, 51, 2))
        assert starts == expected, "every send released, in order"
    await server.close()


async def test_a_failed_write_holds_everything_after_it_until_the_disk_works_again() -> None:
    disk = GatedDisk()
    server, (link,) = await serve(disk)
    disk.failing = OSError(28, "No space left on device")
    server.apply([persist(1, 0), Send(link.connection, note("held")), Log("held", {})])
    for _ in range(200):
        if len(disk.calls) >= 3:  # the write was tried again, and again
            break
        await asyncio.sleep(SETTLE)
    server.apply([Send(link.connection, note("later"))])
    await asyncio.sleep(SETTLE)
    assert received(link) == [], "an event not on disk is never sent, nor anything after it"
    assert [event for event, _ in disk.logs] == ["persist-paused"]
    assert "No space left" in disk.logs[0][1]["reason"]
    disk.failing = None
    await server.drained()
    assert said(link) == ["held", "later"], "nothing lost, in order"
    assert [event for event, _ in disk.logs] == ["persist-paused", "persist-resumed", "held"]
    assert all(call == (1, [0]) for call in disk.calls), "the same events each time"
    await server.close()


async def test_a_write_that_fails_for_another_reason_means_nothing_is_sent_any_more() -> None:
    disk = GatedDisk()
    server, (link,) = await serve(disk)
    disk.failing = ValueError("a defect, not the disk")
    server.apply(
        [persist(1, 0), Send(link.connection, note("lost")), Close(link.connection, 1000, "")]
    )
    await server.drained()
    server.apply([Send(link.connection, note("from memory")), Log("still logged", {})])
    await asyncio.sleep(SETTLE)
    assert received(link) == [], "an event not on disk is never sent, nor anything after it"
    assert [event for event, _ in disk.logs] == ["persist-failed", "still logged"]
    assert "a defect" in disk.logs[0][1]["reason"]
    await server.close()


async def test_a_broadcast_is_encoded_once(monkeypatch: pytest.MonkeyPatch) -> None:
    encoded: list[HostMessage] = []

    def counting_text(message: HostMessage) -> str:
        encoded.append(message)
        return text(message)

    monkeypatch.setattr(server_module, "text", counting_text)
    disk = GatedDisk()
    server, links = await serve(disk, links=3)
    encoded.clear()
    frames = [Events(0, [{"seq": 0}]), Events(1, [{"seq": 1}])]
    effects: list[HostEffect] = [persist(1, 0, 1)]
    effects += [Send(link.connection, frame) for link in links for frame in frames]
    server.apply(effects)
    await server.drained()
    assert encoded == frames
    for link in links:
        assert received(link) == frames
    await server.close()


def test_a_table_log_stays_open_and_reopens_after_close(tmp_path: Path) -> None:
    store = HostStore(tmp_path)
    store.append_events(3, [b'{"seq":0}'])
    opened = store._logs[3]
    store.append_events(3, [b'{"seq":1}', b'{"seq":2}'])
    assert store._logs[3] is opened, "one open file for the table's whole run"
    store.close()
    assert opened.closed
    store.append_events(3, [b'{"seq":3}'])
    path = store.table_dir(3) / EVENTS_FILE
    assert read_lines(path) == [b'{"seq":%d}' % seq for seq in range(4)]
    store.close()


def test_discarding_old_tables_does_not_keep_writing_into_them(tmp_path: Path) -> None:
    store = HostStore(tmp_path)
    store.append_events(2, [b'{"old":true}'])
    discarded = store.discard_all()
    assert discarded is not None
    store.append_events(2, [b'{"new":true}'])
    assert read_lines(store.table_dir(2) / EVENTS_FILE) == [b'{"new":true}']
    assert read_lines(discarded / "2" / EVENTS_FILE) == [b'{"old":true}']
    store.close()


_CRASHING_WRITER = """
import os, signal, sys
from pathlib import Path
from domicile_p2p.net.adapters.store import HostStore

store = HostStore(Path(sys.argv[1]))
for seq in range(5):
    store.append_events(1, [b'{"seq":%d}' % seq])
log = store._logs[1]
log.write([b'{"seq":5}'])                       # written, not synced: never acknowledged
os.write(log._fd, b'{"seq":6,"half')            # the crash came in the middle of a write
print("synced", flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_after_kill_9_the_synced_events_are_there_and_a_torn_line_is_cut(tmp_path: Path) -> None:
    finished = subprocess.run(
        [sys.executable, "-c", _CRASHING_WRITER, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert finished.returncode == -9, finished.stderr
    assert finished.stdout == "synced\n"
    store = HostStore(tmp_path)
    path = store.table_dir(1) / EVENTS_FILE
    # The unsynced line may or may not survive a power cut; a kill -9 keeps it.
    assert read_lines(path) == [b'{"seq":%d}' % seq for seq in range(6)]
    assert path.read_bytes().endswith(b"}\n"), "the torn line was cut from the file"
    store.append_events(1, [b'{"seq":6}'])
    assert [event for event in read_lines(path)][-2:] == [b'{"seq":5}', b'{"seq":6}']
    store.close()


def test_a_new_log_file_starts_empty_and_appends_lines(tmp_path: Path) -> None:
    log = AppendLog(tmp_path / "deep" / "events.jsonl")
    log.write([b"a", b"b"])
    log.write([])
    log.sync()
    log.close()
    log.close()  # closing twice is harmless
    assert (tmp_path / "deep" / "events.jsonl").read_bytes() == b"a\nb\n"
