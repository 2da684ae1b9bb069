"""Crash chaos: bot games on a headless host on 127.0.0.1, with ``kill -9`` at chosen moments.

    python chaos/run.py --games 6 --seed 1            # what ``make chaos`` runs (more games)
    python chaos/run.py --games 1 --plan host@give,ghost@seance

Each game is a real ``domicile host --headless`` process and one
``domicile bot`` process per seat (the Ghost's included), all on
127.0.0.1.  The runner watches the host's on-disk event log (every event
is fsync-ed there before anyone sees it) and, when the moment of the next
planned kill comes, sends ``SIGKILL``:

- to the host, which is then started again with ``--resume``;
- or to a client (the Ghost or an investigator), which is started again
  with the same data dir, so it takes its seat back with its key and its
  saved seed or entropy.

Moments: ``setup`` (commitments and reveals), ``deal``, ``give``,
``seance``, ``stage-two`` (the group's give or the culprit séance),
``reveal`` (the game is over, the Ghost has not revealed yet), ``end`` (the
reveal is on disk, perhaps not yet sent to everyone).  A moment a
game never reaches (no Stage Two when the investigators lose first) is
counted as skipped.

A game passes when every bot process exits 0 (each verified the whole
transcript itself), every bot's transcript is byte-identical to the
host's archive, the archive verifies, and every event that was on disk at
any kill is still there, in place: nothing lost, nothing doubled.

The result is a JSON summary (``--json FILE``) and a table for the README.
Only 127.0.0.1 is used; every wait is bounded, and every process started
is ended.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

REPO: Final = Path(__file__).resolve().parents[1]
LOOPBACK: Final = "127.0.0.1"
NAMEPLATE: Final = 3
CODE: Final = "3-owl-quill"
MOMENTS: Final = ("setup", "deal", "give", "seance", "stage-two", "reveal", "end")
SETUP_KINDS: Final = frozenset({"genesis", "ghost-commit", "entropy-commit", "entropy-reveal"})


def moment_of(kinds: Sequence[str]) -> set[str]:
    """The moments the game is at, given the kinds of the events on disk so far."""
    if not kinds:
        return set()
    last = kinds[-1]
    here: set[str] = set()
    if last in SETUP_KINDS:
        here.add("setup")
    if last in ("deal", "slot-commits"):
        here.add("deal")
    if last == "give":
        here.add("give")
    if last == "seance":
        here.add("seance")
    if last in ("group-give", "culprit-seance") or (
        "group-give" in kinds and last not in ("game-over", "reveal")
    ):
        here.add("stage-two")
    if last == "game-over":
        here.add("reveal")
    if last == "reveal":
        here.add("end")
    return here


@dataclass(frozen=True, slots=True)
class Kill:
    target: str
    """``host``, ``ghost`` or ``seatN`` (an investigator)."""
    moment: str

    @classmethod
    def parse(cls, text: str) -> Kill:
        target, _, moment = text.partition("@")
        if moment not in MOMENTS or not (
            target in ("host", "ghost") or (target.startswith("seat") and target[4:].isdigit())
        ):
            raise ValueError(f"{text!r}: a kill is TARGET@MOMENT, e.g. host@give or seat2@seance")
        return cls(target, moment)

    def __str__(self) -> str:
        return f"{self.target}@{self.moment}"


@dataclass
class GameResult:
    index: int
    plan: list[str]
    kills: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    host_resumes: int = 0
    client_restarts: int = 0
    completed: bool = False
    verified: bool = False
    events: int = 0
    outcome: str | None = None
    lost: int = 0
    doubled: int = 0
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(REPO), str(REPO / "clients"), env.get("PYTHONPATH", "")]
    )
    for proxy in ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy"):
        env.pop(proxy, None)
    return env


class Process:
    """One ``domicile`` process that can be killed and started again with the same arguments."""

    def __init__(self, name: str, args: list[str], log_dir: Path) -> None:
        self.name = name
        self.args = args
        self.log_dir = log_dir
        self.starts = 0
        self.popen: subprocess.Popen[bytes] | None = None

    def start(self, *extra: str) -> None:
        self.starts += 1
        out = open(self.log_dir / f"{self.name}.{self.starts}.out", "wb")  # noqa: SIM115
        err = open(self.log_dir / f"{self.name}.{self.starts}.err", "wb")  # noqa: SIM115
        self.popen = subprocess.Popen(
            [sys.executable, "-m", "domicile_p2p", *self.args, *extra],
            stdout=out,
            stderr=err,
            stdin=subprocess.DEVNULL,
            env=environment(),
        )
        out.close()
        err.close()

    def kill(self) -> None:
        if self.popen is not None and self.popen.poll() is None:
            self.popen.send_signal(signal.SIGKILL)
            self.popen.wait(10)

    def stop(self) -> None:
        if self.popen is not None and self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
            try:
                self.popen.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    @property
    def running(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    @property
    def returncode(self) -> int | None:
        return None if self.popen is None else self.popen.poll()


def read_kinds(path: Path) -> list[bytes]:
    """The complete lines of the host's event log (a torn last line is not an event yet)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    end = data.rfind(b"\n") + 1
    return [line for line in data[:end].split(b"\n") if line]


def kind_of(line: bytes) -> str:
    return str(json.loads(line)["kind"])


class LogTail:
    """The host's event log as it grows, read a little at each look.

    The watcher looks every few milliseconds (a kill must land right after its moment
    reaches the disk), so a look that re-read and re-parsed the whole log took the CPU
    the host and the bots were playing on.  A look costs one ``stat`` when nothing was
    appended, and parses only the new complete lines when something was (a torn last
    line waits for its end).  Complete lines are never rewritten (the game checks that
    nothing on disk is lost); should the file ever shrink, it is read again from the top.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lines: list[bytes] = []
        self.kinds: list[str] = []
        self._offset = 0

    def look(self) -> None:
        try:
            size = self.path.stat().st_size
        except FileNotFoundError:
            return
        if size < self._offset:
            self.lines, self.kinds, self._offset = [], [], 0
        if size == self._offset:
            return
        with self.path.open("rb") as log:
            log.seek(self._offset)
            data = log.read()
        end = data.rfind(b"\n") + 1
        new = [line for line in data[:end].split(b"\n") if line]
        self._offset += end
        self.lines += new
        self.kinds += [kind_of(line) for line in new]


class ChaosGame:
    def __init__(
        self,
        index: int,
        directory: Path,
        plan: Sequence[Kill],
        *,
        investigators: int,
        delay: float,
        rng: random.Random,
        timeout: float,
        say: Callable[[str], None],
    ) -> None:
        self.result = GameResult(index, [str(kill) for kill in plan])
        self.directory = directory
        self.plan = list(plan)
        self.rng = rng
        self.timeout = timeout
        self.say = say
        self.port = 0  # the system picks it; the host says which (_wait_listening)
        self.investigators = investigators
        self.delay = delay
        logs = directory / "logs"
        logs.mkdir(parents=True, exist_ok=True)
        host_dir = directory / "host"
        self.events_path = host_dir / "host" / "tables" / str(NAMEPLATE) / "events.jsonl"
        self.games_dir = host_dir / "games"
        self.host = Process(
            "host",
            [
                "host",
                "--headless",
                "--interface",
                LOOPBACK,
                "--port",
                str(self.port),
                "--data-dir",
                str(host_dir),
                "--no-advertise",
                "--investigators",
                str(investigators),
                "--code",
                CODE,
                "--difficulty",
                rng.choice(["easy", "normal"]),
            ],
            logs,
        )
        self.clients: dict[str, Process] = {}
        self.on_disk_at_kills: list[list[bytes]] = []

    # ------------------------------------------------------------------ running

    def _seat_clients(self) -> None:
        """A bot process for each seat, dialling the port the host listens on."""
        for seat in range(self.investigators + 1):
            name = "ghost" if seat == 0 else f"seat{seat}"
            self.clients[name] = Process(
                name,
                [
                    "bot",
                    "--connect",
                    f"wss://{LOOPBACK}:{self.port}",
                    "--code",
                    CODE,
                    "--seat",
                    str(seat),
                    "--data-dir",
                    str(self.directory / name),
                    "--transcript",
                    str(self.directory / f"{name}.jsonl"),
                    "--bot-delay",
                    str(self.delay),
                    "--seed",
                    str(self.rng.randrange(2**31)),
                ],
                self.host.log_dir,
            )

    def _wait_listening(self) -> None:
        """Wait for the host's ``listening`` line and learn its port: the system's pick the
        first time (never a port probed for beforehand, which another run on the machine
        could take meanwhile), asked for again when the host is started after a kill."""
        out = self.host.log_dir / f"host.{self.host.starts}.out"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            for line in read_kinds(out):
                record = json.loads(line)
                if record.get("event") == "listening":
                    self.port = int(record["port"])
                    self.host.args[self.host.args.index("--port") + 1] = str(self.port)
                    return
            if not self.host.running:
                raise RuntimeError(f"the host exited with {self.host.returncode}")
            time.sleep(0.02)
        raise RuntimeError("the host did not listen within 30 s")

    def run(self) -> GameResult:
        started = time.monotonic()
        try:
            self._play()
        except Exception as exc:  # one game's failure is a result, not the end of the run
            self.result.problems.append(f"{type(exc).__name__}: {exc}")
        finally:
            for process in [*self.clients.values(), self.host]:
                process.kill()
            self.result.seconds = round(time.monotonic() - started, 2)
            self.result.host_resumes = max(0, self.host.starts - 1)
            self.result.client_restarts = sum(max(0, p.starts - 1) for p in self.clients.values())
        return self.result

    def _play(self) -> None:
        self.host.start()
        self._wait_listening()
        self._seat_clients()
        for client in self.clients.values():
            client.start()
        deadline = time.monotonic() + self.timeout
        pending = list(self.plan)
        log = LogTail(self.events_path)
        while time.monotonic() < deadline:
            log.look()
            kinds = log.kinds
            if pending and pending[0].moment in moment_of(kinds):
                self._kill(pending.pop(0), log.lines)
                continue
            if pending and self._passed(pending[0].moment, kinds):
                self.result.skipped.append(str(pending.pop(0)))
                continue
            if all(not client.running for client in self.clients.values()):
                break
            if not self.host.running:
                self.result.problems.append(f"the host died by itself ({self.host.returncode})")
                return
            time.sleep(0.003)
        else:
            self.result.problems.append(f"the game did not end within {self.timeout} s")
            return
        self.result.skipped += [str(kill) for kill in pending]
        self._check()

    @staticmethod
    def _passed(moment: str, kinds: list[str]) -> bool:
        """The game is past ``moment`` for good (it can never come again)."""
        if not kinds:
            return False
        order = {"setup": "deal", "deal": "give", "give": "game-over", "seance": "game-over"}
        if moment in order:
            return order[moment] in kinds
        if moment == "stage-two":
            return "game-over" in kinds and "group-give" not in kinds
        if moment == "reveal":
            return "reveal" in kinds or "abort" in kinds
        return False  # "end": the last event stays on disk until the game is checked

    def _kill(self, kill: Kill, lines: list[bytes]) -> None:
        process = self.host if kill.target == "host" else self.clients[kill.target]
        if not process.running:
            self.result.skipped.append(str(kill))
            return
        process.kill()
        self.on_disk_at_kills.append(read_kinds(self.events_path))
        self.result.kills.append(str(kill))
        self.say(f"  game {self.result.index}: kill -9 {kill} at event {len(lines) - 1}")
        time.sleep(self.rng.uniform(0.0, 0.3))
        if process is self.host:
            process.start("--resume")
            self._wait_listening()
        else:
            process.start()

    # ------------------------------------------------------------------ checking

    def _check(self) -> None:
        result = self.result
        for name, client in self.clients.items():
            if client.returncode != 0:
                err = self.directory / "logs" / f"{name}.{client.starts}.err"
                tail = err.read_text(errors="replace")[-400:] if err.exists() else ""
                result.problems.append(f"{name} exited with {client.returncode}: {tail.strip()}")
        archives = sorted(self.games_dir.glob("*.json")) if self.games_dir.is_dir() else []
        deadline = time.monotonic() + 10
        while not archives and time.monotonic() < deadline:
            time.sleep(0.05)
            archives = sorted(self.games_dir.glob("*.json")) if self.games_dir.is_dir() else []
        self.host.stop()
        if len(archives) != 1:
            result.problems.append(f"the host archived {len(archives)} games, not 1")
            return
        archive = archives[0].read_bytes().splitlines()
        result.events = len(archive)
        result.completed = True
        for name in self.clients:
            mine = self.directory / f"{name}.jsonl"
            if not mine.exists() or mine.read_bytes().splitlines() != archive:
                result.problems.append(f"{name}'s transcript differs from the host's archive")
        for snapshot in self.on_disk_at_kills:
            lost = sum(1 for seq, line in enumerate(snapshot) if archive[seq : seq + 1] != [line])
            result.lost = max(result.lost, lost)
        result.doubled = len(archive) - len(set(archive))
        seqs = [json.loads(line)["seq"] for line in archive]
        if seqs != list(range(len(archive))):
            result.problems.append("the archive's sequence numbers are not 0, 1, 2, ...")
        report = verify_file(archives[0])
        result.verified = bool(report["valid"])
        result.outcome = report.get("outcome")
        if not result.verified:
            result.problems.append(f"the archive does not verify: {report.get('summary')}")
        if result.lost or result.doubled:
            result.problems.append(f"{result.lost} events lost, {result.doubled} doubled")


def verify_file(path: Path) -> dict[str, Any]:
    """``domicile verify --json`` on the archive, in a process of its own."""
    done = subprocess.run(
        [sys.executable, "-m", "domicile_p2p", "verify", "--json", str(path)],
        capture_output=True,
        env=environment(),
        timeout=120,
        check=False,
    )
    try:
        report: dict[str, Any] = json.loads(done.stdout)
    except json.JSONDecodeError:
        return {"valid": False, "summary": done.stderr.decode(errors="replace")[-300:]}
    return report


def random_plan(rng: random.Random, kills: int, investigators: int) -> list[Kill]:
    """``kills`` kills in game order: the host about half the time, else a client."""
    targets = ["ghost", *(f"seat{s}" for s in range(1, investigators + 1))]
    moments = sorted(rng.choices(MOMENTS, k=kills), key=MOMENTS.index)
    plan = []
    for moment in moments:
        target = "host" if rng.random() < 0.5 else rng.choice(targets)
        plan.append(Kill(target, moment))
    return plan


@dataclass
class Summary:
    games: list[GameResult]

    def counts(self) -> dict[str, Any]:
        kills = [kill for game in self.games for kill in game.kills]
        targets = Counter(
            "host"
            if k.startswith("host")
            else ("ghost" if k.startswith("ghost") else "investigator")
            for k in kills
        )
        return {
            "games": len(self.games),
            "kills": len(kills),
            "host_kills": targets["host"],
            "ghost_kills": targets["ghost"],
            "investigator_kills": targets["investigator"],
            "host_resumes": sum(g.host_resumes for g in self.games),
            "client_restarts": sum(g.client_restarts for g in self.games),
            "kills_by_moment": {
                moment: count
                for moment in MOMENTS
                if (count := sum(k.endswith(f"@{moment}") for k in kills))
            },
            "skipped": sum(len(g.skipped) for g in self.games),
            "completed": sum(g.completed for g in self.games),
            "verified": sum(g.verified for g in self.games),
            "events_lost": sum(g.lost for g in self.games),
            "events_doubled": sum(g.doubled for g in self.games),
            "failed": sum(bool(g.problems) for g in self.games),
        }

    @property
    def ok(self) -> bool:
        return all(not g.problems and g.completed and g.verified for g in self.games)

    def table(self) -> str:
        counts = self.counts()
        rows = [
            ("games", counts["games"]),
            ("kill -9 (total)", counts["kills"]),
            ("host killed", counts["host_kills"]),
            ("host restarted with --resume", counts["host_resumes"]),
            ("Ghost's client killed", counts["ghost_kills"]),
            ("investigators' clients killed", counts["investigator_kills"]),
            ("clients restarted (same data dir)", counts["client_restarts"]),
            (
                "kills by moment",
                ", ".join(f"{m} {n}" for m, n in counts["kills_by_moment"].items()),
            ),
            ("planned kills not reached (moment never came)", counts["skipped"]),
            ("games completed", counts["completed"]),
            ("games verified", counts["verified"]),
            ("events lost / doubled", f"{counts['events_lost']} / {counts['events_doubled']}"),
        ]
        lines = ["| chaos run | count |", "|---|---|"]
        lines += [f"| {name} | {value} |" for name, value in rows]
        return "\n".join(lines)


def run_chaos(
    *,
    games: int,
    kills: int,
    seed: int,
    investigators: int = 2,
    delay: float = 0.03,
    timeout: float = 180.0,
    plans: Sequence[Sequence[Kill]] | None = None,
    directory: Path | None = None,
    say: Callable[[str], None] = print,
) -> Summary:
    """Play ``games`` chaos games; ``plans`` (one per game) overrides the random plans."""
    rng = random.Random(seed)
    base = directory or Path(tempfile.mkdtemp(prefix="domicile-chaos-"))
    results = []
    for index in range(games):
        plan = list(plans[index]) if plans else random_plan(rng, kills, investigators)
        say(f"game {index}: plan {', '.join(map(str, plan)) or 'no kills'}")
        game = ChaosGame(
            index,
            base / f"game{index}",
            plan,
            investigators=investigators,
            delay=delay,
            rng=rng,
            timeout=timeout,
            say=say,
        )
        result = game.run()
        status = "ok" if not result.problems else "FAILED: " + "; ".join(result.problems)
        say(f"game {index}: {result.events} events, {result.outcome}, {result.seconds} s, {status}")
        results.append(result)
    return Summary(results)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--kills", type=int, default=3, help="kills per game (random plans)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--investigators", type=int, default=2)
    parser.add_argument("--delay", type=float, default=0.03, help="each bot's pause per move")
    parser.add_argument("--timeout", type=float, default=180.0, help="seconds per game at most")
    parser.add_argument("--plan", help="one game's kills: TARGET@MOMENT,... (overrides --kills)")
    parser.add_argument("--dir", type=Path, help="keep every game's files here")
    parser.add_argument("--json", type=Path, help="write the summary here")
    args = parser.parse_args(argv)
    plans = None
    if args.plan:
        plan = [Kill.parse(part) for part in args.plan.split(",") if part]
        plans = [plan] * args.games
    summary = run_chaos(
        games=args.games,
        kills=args.kills,
        seed=args.seed,
        investigators=args.investigators,
        delay=args.delay,
        timeout=args.timeout,
        plans=plans,
        directory=args.dir,
    )
    print(summary.table())
    if args.json:
        payload = {
            "counts": summary.counts(),
            "games": [vars(game) for game in summary.games],
        }
        args.json.write_text(json.dumps(payload, indent=2) + "\n")
    return 0 if summary.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
