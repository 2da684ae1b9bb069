"""Client start-up: ``domicile play`` to its first rendered frame, against a bare Textual app.

    python benchmarks/bench_startup.py
    python benchmarks/bench_startup.py --rounds 15

Two measurements, each against its anchor in the same run, round-robin:

- **process**: the wall time from ``fork`` to the first frame that shows the
  screen's text on a real pseudo-terminal (120 x 40, ``TERM=xterm-256color``),
  for ``domicile play --offline`` (the lobby of a table: the default start,
  offline so that nothing listens on the network), ``domicile play --menu``
  (the start screen alone) and the anchor, a bare Textual app that shows one
  line of text.  This is what a person waits for, imports included.  The
  lobby's first frame is its title (the table's name) with "Opening the
  table..." while the card pack and the game load behind it; the time until
  the lobby is filled in (seats, rules, the hint to press Enter) is reported
  too, from the same process.  ``domicile replay FILE`` too, for a short
  game (1 investigator, easy) and a long one (6 investigators, very
  difficult), both made by ``domicile selfplay --seed``: its first frame is
  the viewer's "Verifying FILE..." line; then the verdict and the first
  event, which come once the file is verified and folded in a worker, are
  timed in the same process.  Each process is stopped once all is seen.
- **in-process**: ``App.run_test()`` from constructing the app to the moment
  its first screen is mounted (composed, its widgets styled), imports already
  done, for the same two screens and a bare ``App`` with one ``Static``.

Targets: ``domicile play`` <= 1.3 x the bare Textual app (issue 7);
``domicile replay``'s first frame <= 1.3 x it at any game length (issue 24).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import pty
import re
import select
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _common import Report, Target, ms, parser, ratio, venv_bin

TARGET_RATIO = 1.3
COLUMNS, LINES = 120, 40
TABLE_NAME = "Benchmark Manor"
LOBBY_FILLED_MARKER = "Press Enter to light the candles"
MENU_MARKER = "Play offline against bots"
BARE_MARKER = "bare textual app ready"
REPLAY_MARKER = "Verifying "
REPLAY_VERDICT_MARKER = "every check passed"
REPLAY_GAMES = {"replay_short": (1, "easy", 1), "replay_long": (6, "very-difficult", 11)}
"""Each replayed game: investigators, difficulty, selfplay seed (seed 11 made the longest
6-investigator, very difficult game of seeds 1-12 with the bots of 2026-12-02's morning, 173
events; the row names the count of each run)."""
BARE_APP = f"""
from textual.app import App, ComposeResult
from textual.widgets import Static


class Bare(App[None]):
    def compose(self) -> ComposeResult:
        yield Static({BARE_MARKER!r})


Bare().run()
"""
_ESCAPES = re.compile(rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[\]P_^][^\x07\x1b]*(?:\x07|\x1b\\)")
_SYNC_QUERY = b"\x1b[?2026$p"
_SYNC_SUPPORTED = b"\x1b[?2026;2$y"


class NoFrame(RuntimeError):
    """The program never showed its marker (it crashed, or its screen changed)."""


def first_frames(
    command: list[str], markers: tuple[str, ...], env: dict[str, str], timeout: float
) -> list[float]:
    """Seconds from fork to the moment each of ``markers`` is first on the pseudo-terminal."""
    wanted = [marker.encode("utf-8") for marker in markers]
    seen: list[float] = []
    started = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # the child: become the program, on the pty
        try:
            os.execve(command[0], command, env)
        finally:
            os._exit(127)
    try:
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", LINES, COLUMNS, 0, 0))
        output = b""
        while time.perf_counter() - started < timeout:
            ready, _, _ = select.select([fd], [], [], 0.02)
            if not ready:
                continue
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break  # the program ended
            if not chunk:
                break
            output += chunk
            if _SYNC_QUERY in chunk:
                # Answer as a modern terminal would, so Textual renders as it does for people.
                os.write(fd, _SYNC_SUPPORTED)
            screen = _ESCAPES.sub(b"", output)
            while len(seen) < len(wanted) and wanted[len(seen)] in screen:
                seen.append(time.perf_counter() - started)
            if len(seen) == len(wanted):
                return seen
        text = _ESCAPES.sub(b" ", output).decode("utf-8", "replace")
        missing = markers[len(seen)]
        raise NoFrame(f"{command[-1]!r} never showed {missing!r}; it printed: {text[-400:]!r}")
    finally:
        _stop(pid)
        os.close(fd)


def _stop(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            return
        time.sleep(0.01)
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)


def selfplay(directory: Path, investigators: int, difficulty: str, seed: int) -> Path:
    """A transcript of a bots' game, the same on every run; it must verify."""
    path = directory / f"replay-{investigators}-{difficulty}-{seed}.jsonl"
    subprocess.run(
        [
            venv_bin("domicile"),
            "selfplay",
            "--investigators",
            str(investigators),
            "--difficulty",
            difficulty,
            "--seed",
            str(seed),
            "--transcript",
            str(path),
        ],
        check=True,
        capture_output=True,
    )
    return path


def first_event_marker(transcript: Path) -> str:
    """What the viewer shows with the first event of a game of this many events."""
    events = transcript.read_bytes().count(b"\n")
    return f"(1 of {events})"


# ----------------------------------------------------------------- in-process


def in_process_timers(data_dir: Path) -> dict[str, Callable[[], float]]:
    """Coroutines-in-a-loop that build an app and return the seconds until run_test hands over."""
    from textual.app import App, ComposeResult
    from textual.screen import Screen
    from textual.widgets import Static

    from domicile_p2p.packs import load_default_pack
    from domicile_p2p.rules import Difficulty
    from domicile_tui.app import DomicileApp
    from domicile_tui.connect import TableDoor
    from domicile_tui.pacing import BotPace
    from domicile_tui.screens.lobby import LobbyScreen
    from domicile_tui.screens.start import StartScreen
    from domicile_tui.session import Role, TableSettings

    class Bare(App[None]):
        def compose(self) -> ComposeResult:
            yield Static(BARE_MARKER)

    door = TableDoor(pack=load_default_pack(), pace=BotPace(0), data_dir=data_dir)
    settings = TableSettings(
        table_name=TABLE_NAME,
        player_name="Bench",
        role=Role.INVESTIGATOR,
        difficulty=Difficulty.NORMAL,
        investigators=3,
    )

    def timer(make: Callable[[], App[None]], first: type[Screen[Any]]) -> Callable[[], float]:
        async def measure() -> float:
            started = time.perf_counter()
            app = make()
            async with app.run_test(size=(COLUMNS, LINES)) as pilot:
                # The app may show its first screen just after the harness hands over.
                while not (isinstance(app.screen, first) and app.screen.is_mounted):
                    await asyncio.sleep(0)
                elapsed = time.perf_counter() - started
                await pilot.pause()
            return elapsed

        return lambda: asyncio.run(measure())

    return {
        "bare": timer(Bare, Screen),
        "play": timer(
            lambda: DomicileApp(door, defaults=settings, open_at_once=True, offline=True),
            LobbyScreen,
        ),
        "menu": timer(
            lambda: DomicileApp(door, defaults=settings, open_at_once=False), StartScreen
        ),
    }


# ----------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    options = parser(__doc__.splitlines()[0])
    options.add_argument("--rounds", type=int, default=9, help="start-ups of each (median)")
    options.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for a frame")
    args = options.parse_args(argv)
    if args.quick:
        args.rounds = 1
    report = Report(
        "startup",
        {"rounds": args.rounds, "terminal": f"{COLUMNS}x{LINES}"},
        ("what", "process to first frame ms", "x bare", "in-process run_test ms", "x bare"),
    )
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as tmp:
        directory = Path(tmp)
        bare_script = directory / "bare_app.py"
        bare_script.write_text(BARE_APP)
        data_dir = directory / "data"
        # Bytecode as an installed client has it (Textual's own is compiled at install): a
        # PYTHONDONTWRITEBYTECODE in the environment would make every run compile the game.
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("TEXTUAL", "PYTEST")) and key != "PYTHONDONTWRITEBYTECODE"
        }
        env.update(TERM="xterm-256color", COLUMNS=str(COLUMNS), LINES=str(LINES))
        domicile = venv_bin("domicile")
        common = ["--data-dir", str(data_dir), "--interface", "127.0.0.1"]
        commands: dict[str, tuple[list[str], tuple[str, ...]]] = {
            "bare": ([sys.executable, str(bare_script)], (BARE_MARKER,)),
            "play": (
                [domicile, "play", "--offline", "--table-name", TABLE_NAME, *common],
                (TABLE_NAME, LOBBY_FILLED_MARKER),
            ),
            "menu": ([domicile, "play", "--menu", *common], (MENU_MARKER,)),
        }
        games: dict[str, int] = {}
        for name, (investigators, difficulty, seed) in REPLAY_GAMES.items():
            transcript = selfplay(directory, investigators, difficulty, seed)
            games[name] = transcript.read_bytes().count(b"\n")
            commands[name] = (
                [domicile, "replay", str(transcript)],
                (REPLAY_MARKER, REPLAY_VERDICT_MARKER, first_event_marker(transcript)),
            )
        later = ("play_filled", *(f"{name}_verdict" for name in REPLAY_GAMES))
        samples: dict[str, list[float]] = {name: [] for name in (*commands, *later)}
        for command, markers in commands.values():  # warm the page cache once
            first_frames(command, markers, env, args.timeout)
        for _ in range(args.rounds):
            for name, (command, markers) in commands.items():
                times = first_frames(command, markers, env, args.timeout)
                samples[name].append(times[0])
                if name == "play":
                    samples["play_filled"].append(times[1])
                elif name in REPLAY_GAMES:
                    samples[f"{name}_verdict"].append(times[2])
        process = {name: statistics.median(values) for name, values in samples.items()}

        timers = in_process_timers(data_dir)
        inner: dict[str, list[float]] = {name: [] for name in timers}
        for timer in timers.values():
            timer()  # warm-up (first-time imports and CSS parsing caches)
        for _ in range(args.rounds):
            for name, timer in timers.items():
                inner[name].append(timer())
        in_process = {name: statistics.median(values) for name, values in inner.items()}

    labels = {
        "bare": "bare Textual app (anchor)",
        "play": "domicile play --offline (lobby)",
        "menu": "domicile play --menu (start screen)",
        **{
            name: f'domicile replay FILE, {games[name]} events ("Verifying FILE…")'
            for name in REPLAY_GAMES
        },
    }
    filled = process["play_filled"]
    for name in ("bare", "play", "menu", *REPLAY_GAMES):
        report.row(
            labels[name],
            ms(process[name]),
            ratio(process[name], process["bare"]),
            ms(in_process[name]) if name in in_process else "",
            ratio(in_process[name], in_process["bare"]) if name in in_process else "",
        )
        report.results[name] = {
            "process_s": process[name],
            "process_over_bare": ratio(process[name], process["bare"]),
        }
        if name in in_process:
            report.results[name] |= {
                "in_process_s": in_process[name],
                "in_process_over_bare": ratio(in_process[name], in_process["bare"]),
            }
        if name in REPLAY_GAMES:
            verdict = process[f"{name}_verdict"]
            report.row(
                "  ... verified: its verdict and first event",
                ms(verdict),
                ratio(verdict, process["bare"]),
                "",
                "",
            )
            report.results[f"{name}_verdict"] = {
                "process_s": verdict,
                "process_over_bare": ratio(verdict, process["bare"]),
            }
        if name == "play":
            report.row(
                "  ... its lobby filled in (seats, rules)",
                ms(filled),
                ratio(filled, process["bare"]),
                "",
                "",
            )
            report.results["play_filled"] = {
                "process_s": filled,
                "process_over_bare": ratio(filled, process["bare"]),
            }
    report.targets += [
        Target(
            "domicile play, process to first frame / bare Textual app",
            ratio(process["play"], process["bare"]),
            TARGET_RATIO,
            "lower",
            "x",
        ),
        Target(
            "start screen alone, process to first frame / bare Textual app",
            ratio(process["menu"], process["bare"]),
            TARGET_RATIO,
            "lower",
            "x",
        ),
        *(
            Target(
                f"domicile replay of {games[name]} events, process to first frame / bare "
                "Textual app",
                ratio(process[name], process["bare"]),
                TARGET_RATIO,
                "lower",
                "x",
            )
            for name in REPLAY_GAMES
        ),
        Target(
            "domicile play, in-process mount / bare Textual app",
            ratio(in_process["play"], in_process["bare"]),
            TARGET_RATIO,
            "lower",
            "x",
        ),
    ]
    report.note(
        "process: fork to the first frame showing the screen's text on a 120x40 pty "
        "(the lobby's: its title, while the table opens; filled in: its seats and rules; "
        "the replay's: 'Verifying FILE…', then its verdict with the first event); "
        "in-process: App() to its first screen mounted under run_test(), imports done"
    )
    report.emit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
