"""A disk that fails (full, broken, out of descriptors): the table pauses, retries and loses
nothing; the host never exits for it.

The failures are injected at the adapter's file layer (``files.AppendLog`` and the
archive's writer) under a real host on 127.0.0.1 with two network bots playing a whole
game: some appends write half their lines and fail, some fail at the sync, some cannot
even start.  The game must finish, verify, and the table's log must be exactly the
transcript (no line twice, none missing).
"""

from __future__ import annotations

import asyncio
import errno
import threading
from collections.abc import Iterable
from pathlib import Path

import pytest
from flood_support import honest_pair
from hostile_support import Records
from live_support import loopback_config, same_transcripts

from domicile_p2p.net.adapters import files, store
from domicile_p2p.net.adapters.disk_trouble import DescriptorReserve, DiskTrouble
from domicile_p2p.net.adapters.files import AppendLog, read_lines
from domicile_p2p.net.adapters.host import start_host
from domicile_p2p.net.adapters.store import EVENTS_FILE
from domicile_p2p.net.join.codes import JoinCode
from domicile_p2p.transcript.files import read_transcript

CODE = JoinCode(6, "owl", "quill")


class FailingDisk:
    """Makes the ``n``-th append attempts (counted from 1) fail, each in its own way."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, failing: dict[int, str]) -> None:
        self.failing = failing
        self.attempts = 0
        self.failed = 0
        self._lock = threading.Lock()
        original_write, original_sync = AppendLog.write, AppendLog.sync
        pending: dict[int, str] = {}

        def write(log: AppendLog, lines: Iterable[bytes]) -> None:
            lines = list(lines)
            with self._lock:
                self.attempts += 1
                how = self.failing.get(self.attempts)
            if how == "no-descriptor":
                self._fail(errno.EMFILE)
            if how == "half-written":
                original_write(log, lines[: max(1, len(lines) // 2)])
                self._fail(errno.ENOSPC)
            original_write(log, lines)
            if how == "sync":
                pending[id(log)] = how

        def sync(log: AppendLog) -> None:
            if pending.pop(id(log), None) is not None:
                self._fail(errno.EIO)
            original_sync(log)

        monkeypatch.setattr(files.AppendLog, "write", write)
        monkeypatch.setattr(files.AppendLog, "sync", sync)

    def _fail(self, code: int) -> None:
        with self._lock:
            self.failed += 1
        raise OSError(code, f"injected: {errno.errorcode[code]}")


async def test_a_log_that_fails_to_write_pauses_the_table_and_loses_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    disk = FailingDisk(
        monkeypatch,
        {3: "half-written", 4: "half-written", 6: "sync", 9: "no-descriptor", 10: "sync"},
    )
    archive_failures = [OSError(errno.ENOSPC, "injected: ENOSPC")] * 2
    original_transcript = store.write_transcript

    def flaky_transcript(path: Path, events: Iterable[object]) -> None:
        if archive_failures:
            raise archive_failures.pop()
        original_transcript(path, events)  # type: ignore[arg-type]

    monkeypatch.setattr(store, "write_transcript", flaky_transcript)
    log = Records()
    host = await start_host(loopback_config(tmp_path / "host", investigators=1, codes=(CODE,)), log)
    try:
        bots = honest_pair(tmp_path, host.port, CODE)
        outcomes = await asyncio.wait_for(asyncio.gather(*(bot.play() for bot in bots)), 240)
        await asyncio.wait_for(host.wait_done(), 60)
        assert host.failure is None
    finally:
        await host.close()
    assert disk.failed == 5, "every injected failure happened"
    assert all(outcome.valid for outcome in outcomes), [o.report.summary for o in outcomes]
    assert same_transcripts(outcomes)
    lines = read_lines(tmp_path / "host" / "host" / "tables" / str(CODE.nameplate) / EVENTS_FILE)
    assert lines == [event.line for event in outcomes[0].events], "no line twice, none lost"
    assert len(log.named("persist-paused")) == len(log.named("persist-resumed")) >= 3
    assert all("injected" in record["reason"] for record in log.named("persist-paused"))
    assert not log.named("persist-failed") and not log.named("failed")
    assert [r["event"] for r in log if r["event"].startswith("archive")] == [
        "archive-paused",
        "archive-resumed",
    ]
    [ended] = log.named("game-ended")
    assert ended["verified"]
    assert [e.line for e in read_transcript(Path(ended["transcript"]))] == lines


def test_an_append_that_failed_is_cut_back_before_the_next(tmp_path: Path) -> None:
    path = tmp_path / EVENTS_FILE
    log = AppendLog(path)
    log.append([b"one"])
    log.write([b"tw"])  # what a failed append may leave behind (a torn, unsynced line)
    log._torn = True
    log.append([b"two", b"three"])
    log.close()
    assert path.read_bytes() == b"one\ntwo\nthree\n"


async def test_a_host_that_closes_while_the_disk_fails_stops_and_keeps_what_was_synced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = Records()
    host = await start_host(loopback_config(tmp_path / "host", investigators=1, codes=(CODE,)), log)
    FailingDisk(monkeypatch, {n: "sync" for n in range(1, 10_000)})
    bots = honest_pair(tmp_path, host.port, CODE)
    playing = [asyncio.ensure_future(bot.play()) for bot in bots]
    try:
        for _ in range(600):  # the game's first event cannot be written: the table pauses
            if log.named("persist-paused"):
                break
            await asyncio.sleep(0.1)
        assert log.named("persist-paused")
    finally:
        await asyncio.wait_for(host.close(), 60)
        for task in playing:
            task.cancel()
        await asyncio.gather(*playing, return_exceptions=True)
    assert host.failure is None, "a failing disk never makes the host exit"
    [failed] = log.named("persist-failed")
    assert "injected" in failed["reason"]
    path = tmp_path / "host" / "host" / "tables" / str(CODE.nameplate) / EVENTS_FILE
    assert read_lines(path) == [], "nothing that was not synced is left in the log"


def test_an_outage_is_logged_three_times_however_long_it_lasts() -> None:
    logged: list[str] = []
    now = [0.0]
    trouble = DiskTrouble(
        lambda event, _fields: logged.append(event), "persist", clock=lambda: now[0]
    )
    delays = []
    for _attempt in range(2000):  # 2,000 failed attempts: nearly three hours
        delays.append(trouble.failed(OSError(errno.ENOSPC, "No space left on device"), {}))
        now[0] += delays[-1]
    trouble.recovered({})
    assert delays[:4] == [0.05, 0.1, 0.2, 0.4] and max(delays) == 5.0
    assert logged[0] == "persist-paused" and logged[-1] == "persist-resumed"
    assert set(logged[1:-1]) == {"persist-still-failing"}
    assert len(logged) <= 2 + now[0] / 30 + 1


def test_the_reserve_gives_its_descriptors_back_for_the_hosts_own_files(tmp_path: Path) -> None:
    reserve = DescriptorReserve()
    reserve.keep(4)
    assert reserve.held == 4
    with reserve.spent():
        assert reserve.held == 0
        (tmp_path / "archive.json").write_bytes(b"{}")
    assert reserve.held == 4
    reserve.close()
    assert reserve.held == 0
