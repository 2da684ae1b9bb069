"""The host's data dir: its tables, their event logs, their hosted bots, finished games.

Layout (under the ``--data-dir``)::

    identity-ed25519.pem              the host's signing key (``domicile_p2p.identity``)
    host/tls-cert.pem, tls-key.pem    the TLS certificate: the host's fingerprint
    host/tables/<nameplate>/table.json    the table: code, name, seats, difficulty, timer, bots
    host/tables/<nameplate>/events.jsonl  the current game's transcript so far, one event per
                                          line, fsync-ed (a table's next game starts a new one)
    host/tables/<nameplate>/bots/seat<N>/ a hosted bot's own data dir (its key, its secrets)
    games/<game id>.json                  every finished game's transcript (``domicile verify``)

``--resume`` reads ``host/tables`` back; a fresh start moves unfinished
tables of an earlier run to ``host/discarded/<time>/`` rather than deleting them.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from domicile_p2p import canonical
from domicile_p2p.fairness.commit import GAME_ID_BYTES
from domicile_p2p.net.adapters.disk_trouble import DescriptorReserve
from domicile_p2p.net.adapters.files import (
    AppendLog,
    NotAFile,
    check_file,
    read_lines,
    write_atomic,
)
from domicile_p2p.net.errors import BadJoinCode
from domicile_p2p.net.join.codes import NAMEPLATES, JoinCode, parse_code
from domicile_p2p.net.sessions.room import RoomConfig
from domicile_p2p.rules import MAX_INVESTIGATORS, MAX_TIMER, MIN_TIMER, Difficulty
from domicile_p2p.text import inert
from domicile_p2p.transcript import Event, Replica, TranscriptError
from domicile_p2p.transcript.files import write_transcript
from domicile_p2p.transcript.names import name_problem

HOST_DIR: Final = "host"
TABLES_DIR: Final = "tables"
GAMES_DIR: Final = "games"
TABLE_FILE: Final = "table.json"
EVENTS_FILE: Final = "events.jsonl"


class StoreError(Exception):
    """A file of the host's data dir that cannot be used (named, with what to do)."""


@dataclass(frozen=True, slots=True)
class StoredTable:
    """What ``table.json`` keeps: enough to rebuild the room with the same code.

    A table hosted from a player's laptop (``domicile play``) also keeps its ``owner``'s
    seat and the ``port`` it listened on, so that it comes back as it was.  A table that
    went on to its next game keeps which one that is (``games``) and the id of the game
    before it (``previous``): its event log, if still there, is that game's, archived.
    """

    config: RoomConfig
    bot_seats: frozenset[int]
    owner: int | None = None
    port: int | None = None
    games: int = 1
    previous: str | None = None
    bot_players: frozenset[int] = frozenset()
    """Seats of the game under way that bots hold (the host's or ``domicile bot``
    processes): a resumed table still tells its bots that no person there waits to be
    heard."""

    def to_json(self) -> bytes:
        config = self.config
        value: dict[str, Any] = {
            "nameplate": config.nameplate,
            "code": str(config.code),
            "name": config.name,
            "investigators": config.investigators,
            "difficulty": config.difficulty.value,
            "timer": config.timer,
            "bots": sorted(self.bot_seats),
        }
        if self.owner is not None:
            value["owner"] = self.owner
        if self.port is not None:
            value["port"] = self.port
        if self.games != 1:
            value["games"] = self.games
        if self.previous is not None:
            value["previous"] = self.previous
        if self.bot_players:
            value["bot_players"] = sorted(self.bot_players)
        return canonical.encode(value)

    @classmethod
    def from_json(cls, data: bytes, source: Path) -> StoredTable:
        """The table ``source`` holds, or :class:`StoreError` naming the file and what is
        wrong with it (every field is checked here: nothing a table starts from can fail
        later)."""
        try:
            value: Any = canonical.decode(data)
            if not isinstance(value, dict):
                raise TypeError("not a JSON object")
            code: JoinCode = parse_code(value["code"])
            config = RoomConfig(
                nameplate=_whole(value["nameplate"], "nameplate", NAMEPLATES),
                code=code,
                name=_name(value["name"]),
                investigators=_whole(
                    value["investigators"], "investigators", range(1, MAX_INVESTIGATORS + 1)
                ),
                difficulty=Difficulty(value["difficulty"]),
                timer=_timer(value.get("timer")),
            )
            bots = _seats(value["bots"], "bots", "a bot seat", config.seats)
            bot_players = _seats(
                value.get("bot_players", []), "bot_players", "a bot player's seat", config.seats
            )
            owner = _whole(value["owner"], "owner", config.seats) if "owner" in value else None
            port = _whole(value["port"], "port", range(65536)) if "port" in value else None
            games = _whole(value.get("games", 1), "games", range(1, 2**53))
            previous = _game_id(value["previous"]) if "previous" in value else None
        except KeyError as exc:
            raise StoreError(f"{source} is damaged (no field {exc}); {_AFRESH}") from None
        except (canonical.CanonicalError, BadJoinCode, TypeError, ValueError) as exc:
            raise StoreError(f"{source} is damaged ({exc}); {_AFRESH}") from None
        if code.nameplate != config.nameplate:
            raise StoreError(
                f"{source} is damaged (the code {code} is not table {config.nameplate}'s); "
                f"{_AFRESH}"
            )
        return cls(config, bots, owner, port, games, previous, bot_players)


_AFRESH: Final = (
    "fix it, or move its table's directory out of host/tables to start that table afresh"
)


def _missing(path: Path) -> str:
    others = sorted(entry.name for entry in path.parent.iterdir())
    holds = f" (it holds {', '.join(others)})" if others else ""
    return (
        f"{path} is missing: table {path.parent.name}'s code and seats are lost{holds}; "
        f"restore it, or move {path.parent} out of host/tables to start that table afresh"
    )


def _unusable(path: Path, error: Exception) -> str:
    if isinstance(error, NotAFile):
        return str(error)
    if isinstance(error, OSError):
        return f"{path} cannot be read ({error.strerror or error})"
    return f"{path}: {error}"


def _seats(value: object, what: str, each: str, seats: range) -> frozenset[int]:
    """A field that lists seats of this table (``each``: what one of them is called)."""
    if not isinstance(value, list):
        raise TypeError(f"{what} is {value!r}, not a list of seats")
    return frozenset(_whole(seat, each, seats) for seat in value)


def _whole(value: object, what: str, allowed: range) -> int:
    """An integer field within ``allowed`` (a JSON true is not a number here)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} is {value!r}, not a whole number")
    if value not in allowed:
        raise ValueError(f"{what} is {value}, not {allowed.start} to {allowed.stop - 1}")
    return value


def _name(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"name is {value!r}, not text")
    problem = name_problem(value)
    if problem is not None:
        raise ValueError(f"the table's name {inert(value)!r} {problem}")
    return value


def _game_id(value: object) -> str:
    if (
        not isinstance(value, str)
        or len(value) != 2 * GAME_ID_BYTES
        or value.strip("0123456789abcdef")
    ):
        raise ValueError(f"previous is {value!r}, not a game id")
    return value


@dataclass(frozen=True, slots=True)
class UnfinishedTable:
    """A table of an earlier run that ``--resume`` would bring back: still in its lobby
    (``game_id`` and ``day`` ``None``) or in the middle of a game."""

    stored: StoredTable
    game_id: str | None = None
    day: int | None = None
    names: Mapping[int, str] = field(default_factory=dict)
    """Who sits where in the game (from its genesis)."""


class HostStore:
    """The host's data dir; each table's event log stays open from :meth:`open_log` on.

    :meth:`append_events` is called from the server's disk threads (one table's
    appends never overlap; different tables' may), the rest from the event loop.
    A table's log is opened when the table is set up (:meth:`open_log`), before any
    connection could take its descriptor, and the files written later on the event
    loop (a finished game's transcript, a table's settings) use a small reserve of
    descriptors (:class:`DescriptorReserve`): a connection flood that fills the
    descriptor table cannot stop the tables from being written.
    """

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.host_dir = data_dir / HOST_DIR
        self.tables_dir = self.host_dir / TABLES_DIR
        self.games_dir = data_dir / GAMES_DIR
        self._logs: dict[int, AppendLog] = {}
        self._logs_lock = threading.Lock()
        self._reserve = DescriptorReserve()

    def table_dir(self, nameplate: int) -> Path:
        return self.tables_dir / str(nameplate)

    def bot_dir(self, nameplate: int, seat: int) -> Path:
        return self.table_dir(nameplate) / "bots" / f"seat{seat}"

    def stored_tables(self) -> list[StoredTable]:
        """Every table of ``host/tables``; :class:`StoreError` naming the first file that
        is damaged or missing (a table's directory without its ``table.json``: its code
        and seats are lost, and its game must not be thrown away without a word)."""
        if not self.tables_dir.is_dir():
            return []
        tables = []
        for directory in sorted(self.tables_dir.iterdir()):
            if not directory.is_dir():
                continue  # not a table's directory
            path = directory / TABLE_FILE
            try:
                check_file(path)
                data = path.read_bytes()
            except FileNotFoundError:
                raise StoreError(_missing(path)) from None
            except (NotAFile, OSError) as exc:
                raise StoreError(f"{_unusable(path, exc)}; {_AFRESH}") from None
            stored = StoredTable.from_json(data, path)
            if directory.name != str(stored.config.nameplate):
                raise StoreError(
                    f"{path} is damaged (it is table {stored.config.nameplate}'s, in the "
                    f"directory of table {directory.name}); {_AFRESH}"
                )
            tables.append(stored)
        return tables

    def previous_left_behind(self, stored: StoredTable, game_id: str, ended: bool) -> bool:
        """Whether the game ``game_id`` of table ``stored``'s log is the one ``table.json``
        names as archived (``previous``): the host stopped after the next game's lobby
        opened, before that log went.  :class:`StoreError` when that game is not over:
        only a finished game is ever archived, so ``table.json`` and the log disagree,
        and the unfinished game must not be archived on that word."""
        if game_id != stored.previous:
            return False
        if not ended:
            nameplate = stored.config.nameplate
            raise StoreError(
                f"{self.table_dir(nameplate) / TABLE_FILE} is damaged (it names game "
                f"{game_id} as the previous, archived one, but "
                f"{self.table_dir(nameplate) / EVENTS_FILE} holds that game unfinished); "
                "fix previous (remove it to resume that game)"
            )
        return True

    def unfinished_tables(self) -> list[UnfinishedTable]:
        """The tables of an earlier run whose game is not over (their logs checked again)."""
        unfinished = []
        for stored in self.stored_tables():
            events = self.load_events(stored.config.nameplate)
            if not events:
                unfinished.append(UnfinishedTable(stored))
                continue
            try:
                replica = Replica.from_events(events)
            except TranscriptError as exc:
                path = self.table_dir(stored.config.nameplate) / EVENTS_FILE
                raise StoreError(f"{path} does not check out: {exc}") from None
            if self.previous_left_behind(stored, replica.game_id, replica.ledger.ended):
                unfinished.append(UnfinishedTable(stored))  # the lobby of its next game
                continue
            if replica.over:
                continue
            state = replica.state
            names = {entry.seat: entry.name for entry in replica.table_setup.genesis.seats}
            day = state.day if state is not None else None
            unfinished.append(UnfinishedTable(stored, replica.game_id, day, names))
        return unfinished

    def discard_all(self) -> Path | None:
        """Move the tables of an earlier run out of the way; where they went, if anywhere."""
        if not self.tables_dir.is_dir() or not any(self.tables_dir.iterdir()):
            return None
        target = self.host_dir / "discarded" / time.strftime("%Y%m%d-%H%M%S")
        suffix = 0
        while target.exists():
            suffix += 1
            target = target.with_name(f"{target.name}-{suffix}")
        target.parent.mkdir(parents=True, exist_ok=True)
        self.close()  # an open log would follow its file to the discarded dir
        self.tables_dir.rename(target)
        return target

    def save_table(self, table: StoredTable) -> None:
        with self._reserve.spent():
            write_atomic(self.table_dir(table.config.nameplate) / TABLE_FILE, table.to_json())

    def keep_reserve(self) -> None:
        """Hold a few descriptors back for the files written on the event loop, from now
        until :meth:`release` (a host does; a client reading the dir does not need to)."""
        self._reserve.keep()

    def open_log(self, nameplate: int) -> None:
        """Open table ``nameplate``'s event log now, before the game needs it (on the
        event loop: from the descriptor reserve if the table is full)."""
        with self._reserve.spent():
            self._log(nameplate)

    def append_events(self, nameplate: int, lines: Iterable[bytes]) -> None:
        """Append ``lines`` to table ``nameplate``'s log and fdatasync before returning;
        after an ``OSError`` nothing of them is in the log (the same call may be retried)."""
        self._log(nameplate).append(lines)

    def _log(self, nameplate: int) -> AppendLog:
        with self._logs_lock:
            log = self._logs.get(nameplate)
            if log is None:
                path = self.table_dir(nameplate) / EVENTS_FILE
                try:
                    log = self._logs[nameplate] = AppendLog(path)
                except NotAFile as exc:
                    raise StoreError(f"{exc}; {_AFRESH}") from None
            return log

    def close(self) -> None:
        """Close the open event logs (a later append opens its log again)."""
        with self._logs_lock:
            logs, self._logs = list(self._logs.values()), {}
        for log in logs:
            log.close()

    def forget_events(self, nameplate: int) -> None:
        """Table ``nameplate``'s game is archived: its log goes, for the next game's.

        Call it only once ``table.json`` names that game as ``previous``: a crash in
        between leaves a log that :meth:`load_events` callers recognise as archived.
        """
        with self._logs_lock:
            log = self._logs.pop(nameplate, None)
        if log is not None:
            log.close()
        (self.table_dir(nameplate) / EVENTS_FILE).unlink(missing_ok=True)

    def release(self) -> None:
        """Close everything the store holds open, its descriptor reserve included."""
        self.close()
        self._reserve.close()

    def events_age(self, nameplate: int) -> float:
        """Seconds since table ``nameplate``'s event log last changed (infinite: no log)."""
        try:
            changed = (self.table_dir(nameplate) / EVENTS_FILE).stat().st_mtime
        except FileNotFoundError:
            return float("inf")
        return max(0.0, time.time() - changed)

    def load_events(self, nameplate: int) -> list[Event]:
        path = self.table_dir(nameplate) / EVENTS_FILE
        try:
            lines = read_lines(path)
        except (NotAFile, OSError) as exc:
            raise StoreError(f"{_unusable(path, exc)}; {_AFRESH}") from None
        events = []
        for number, line in enumerate(lines, start=1):
            try:
                events.append(Event.from_json(line))
            except Exception as exc:
                raise StoreError(f"{path} line {number} is damaged: {exc}") from None
        return events

    def archive(self, game_id: str, events: Iterable[Event]) -> Path:
        path = self.games_dir / f"{game_id}.json"
        with self._reserve.spent():
            write_transcript(path, events)
        return path


def _timer(value: object) -> int | None:
    """The stored sand-glass (absent in a table saved before there was one: no timer)."""
    if value is None:
        return None
    return _whole(value, "the timer", range(MIN_TIMER, MAX_TIMER + 1))
