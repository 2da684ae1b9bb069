"""A host with no listener: an offline table (the player against bots, the tutorial).

It is the LAN's host (:class:`~domicile_p2p.net.adapters.host.TableHost`: the same
``HostSession``, rooms, games, deadlines and hosted bots) with everything that
reaches outside the process left out: nobody can dial it (its players, the
person's seat among them, come in over local links, ``local_dialer``), it
advertises nothing, and it keeps its tables, logs, keys and the seats' secrets
in memory.  Only a finished game's transcript is written, to ``data_dir/games``,
as every table keeps its games.

Its draws (``draws.py``) and its clock (``clock.py``) are given: an offline table
fixed by a seed deals and plays the same game every time, and a test moves the
clock on when it likes (a sand-glass runs out then, and only then).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from domicile_p2p.fairness.seeds import HOST
from domicile_p2p.identity import Identity
from domicile_p2p.net.adapters.clock import Clock
from domicile_p2p.net.adapters.draws import Draws
from domicile_p2p.net.adapters.host import HostConfig, TableHost
from domicile_p2p.net.adapters.logs import LogSink
from domicile_p2p.net.adapters.server import HostServer
from domicile_p2p.net.adapters.store import HostStore, StoredTable
from domicile_p2p.transcript import Event

FINGERPRINT_BYTES = 32


class MemoryStore(HostStore):
    """A host's tables and event logs in memory; finished games go to ``data_dir/games``."""

    def __init__(self, data_dir: Path) -> None:
        super().__init__(data_dir)
        self._logs_in_memory: dict[int, list[bytes]] = {}

    def stored_tables(self) -> list[StoredTable]:
        return []  # nothing outlives the process: nothing to resume

    def discard_all(self) -> Path | None:
        return None

    def save_table(self, table: StoredTable) -> None:
        pass

    def keep_reserve(self) -> None:
        pass

    def open_log(self, nameplate: int) -> None:
        self._logs_in_memory.setdefault(nameplate, [])

    def append_events(self, nameplate: int, lines: Iterable[bytes]) -> None:
        self._logs_in_memory.setdefault(nameplate, []).extend(lines)

    def close(self) -> None:
        pass

    def forget_events(self, nameplate: int) -> None:
        self._logs_in_memory.pop(nameplate, None)

    def events_age(self, nameplate: int) -> float:
        return 0.0 if self._logs_in_memory.get(nameplate) else float("inf")

    def load_events(self, nameplate: int) -> list[Event]:
        return [Event.from_json(line) for line in self._logs_in_memory.get(nameplate, [])]


class DrawnSecrets:
    """The seats' secrets, each drawn when first asked and kept in memory (nobody resumes
    an offline table, so nothing needs them after the process)."""

    def __init__(self, draws: Draws) -> None:
        self._draws = draws
        self._kept: dict[tuple[str, int], bytes] = {}

    def for_seat(self, game_id: str, seat: int) -> bytes:
        key = (game_id, seat)
        if key not in self._kept:
            self._kept[key] = self._draws.secret(game_id, seat)
        return self._kept[key]


class InMemoryHost(TableHost):
    """A host reached over local links alone; see the module docstring."""

    persist_inline = True

    def __init__(
        self, config: HostConfig, log: LogSink, *, draws: Draws, clock: Clock | None = None
    ) -> None:
        super().__init__(
            config,
            log,
            MemoryStore(config.data_dir),
            draws.identity(HOST),
            draws=draws,
            clock=clock,
        )
        self.secrets = DrawnSecrets(draws)
        """The secrets of every seat of this process's (the bots', and the person's)."""
        self._fingerprint = draws.token_bytes(FINGERPRINT_BYTES)
        self._bot_keys: dict[tuple[int, int], Identity] = {}

    @property
    def fingerprint(self) -> bytes:
        return self._fingerprint

    async def _serve(self, server: HostServer) -> None:
        server.keep_time()

    def _bot_identity(self, nameplate: int, seat: int) -> Identity:
        key = (nameplate, seat)
        if key not in self._bot_keys:
            self._bot_keys[key] = self.draws.identity(seat)
        return self._bot_keys[key]

    def _bot_secrets(self, nameplate: int, seat: int) -> DrawnSecrets:
        return self.secrets

    def _has_bot(self, nameplate: int, seat: int) -> bool:
        return (nameplate, seat) in self._bot_keys


async def start_in_memory_host(
    config: HostConfig, *, draws: Draws, clock: Clock | None = None, log: LogSink | None = None
) -> InMemoryHost:
    """Start a host with no listener (see the module docstring)."""
    host = InMemoryHost(config, log or (lambda event, fields: None), draws=draws, clock=clock)
    try:
        await host.start()
    except BaseException:
        await host.close()
        raise
    return host
