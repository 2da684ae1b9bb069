"""Where tables come from: the ways this app can sit down at one.

The app asks a :class:`TableDoor` for a session and never builds one
itself, so the same screens serve the offline table, a table hosted on
this laptop and a table joined across the LAN.
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from domicile_p2p.client_api import (
    Identity,
    Pack,
    default_data_dir,
    load_or_create_identity,
)
from domicile_tui.pacing import SEANCE_PAUSE, BotPace
from domicile_tui.session import Role, TableSession, TableSettings
from domicile_tui.ticket import JoinTicket

if TYPE_CHECKING:  # the network stack: loaded off the first frame (see ``load``)
    from domicile_p2p.client_api import Clock, DiscoveredTable, UnfinishedTable
    from domicile_tui.networked import NetworkTable, Prelude

DISCOVERY_WINDOW = 2.0
"""Seconds one look for tables on the LAN listens for answers."""
FINDING_WINDOW = 1.0
"""Seconds each look listens while a person waits for one table in particular."""


def unfinished_table(data_dir: Path) -> UnfinishedTable | None:
    """The table hosted from ``data_dir`` by ``domicile play`` whose game is not over, if any
    (:class:`~domicile_p2p.net.adapters.store.StoreError` when its files are damaged)."""
    from domicile_p2p.client_api import HostStore
    from domicile_tui.networked import HOST_DIR

    tables = HostStore(data_dir / HOST_DIR).unfinished_tables()
    return next((table for table in tables if _worth_resuming(table)), None)


def _worth_resuming(table: UnfinishedTable) -> bool:
    """A table ``domicile play`` hosted, with something to come back to: a game under way,
    or the lobby of a next game (a first lobby left before anyone played is not offered:
    a new table is the same thing)."""
    return table.stored.owner is not None and (table.game_id is not None or table.stored.games > 1)


@dataclass(frozen=True, slots=True)
class TableDoor:
    """How to open a session, with what the command line fixed.

    ``data_dir`` keeps this player's identity key, pinned hosts and game
    secrets (the user data dir by default); ``interface`` is the address to
    host and discover on (every interface by default); ``port`` the port to
    host on (the usual one by default, or any free one if it is taken).
    With ``lan`` off (``--offline``) nothing touches the network: no
    hosting, no joining, no looking for tables.  An offline table (and each
    chapter of the tutorial) is a table hosted in this process with no
    listener (``networked``), dealt from ``seed`` when there is one, its bots
    deciding with ``policy_factory`` (the real bots by default), its sand-glass
    running on ``clock`` (the loop's by default; tests move one on by hand).  ``browser_seats``
    (``--browser-seats``): a table hosted here serves that many of its
    investigator seats to browsers, on ``browser_port`` (0: any free one).
    """

    pack: Pack
    pace: BotPace = field(default_factory=BotPace)
    seed: int | None = None
    data_dir: Path | None = None
    interface: str | None = None
    port: int | None = None
    advertise: bool = True
    lan: bool = True
    browser_seats: int = 0
    browser_port: int = 0
    policy_factory: Callable[[int, Pack, int], Any] | None = None
    clock: Clock | None = None

    @property
    def home(self) -> Path:
        return self.data_dir if self.data_dir is not None else default_data_dir()

    def identity(self) -> Identity:
        """This player's identity key, from the data directory (created on first use)."""
        return load_or_create_identity(self.home)

    def load(self) -> None:
        """Import what this door's tables run on (the network stack: an offline table is
        hosted too, with no listener), so that opening one later does not hold up the
        screen."""
        if self.lan:
            importlib.import_module("domicile_p2p.net.adapters.discovery")
        importlib.import_module("domicile_tui.networked")

    def bot_policy(self, seat: int, pack: Pack, seed: int) -> Any:
        """The policy this door's bots play ``seat`` with (the real bots by default)."""
        if self.policy_factory is not None:
            return self.policy_factory(seat, pack, seed)
        from domicile_p2p.client_api import make_policy

        return make_policy(seat, pack, seed)

    def with_policies(self, policies: Callable[[int, Pack, int], Any]) -> TableDoor:
        """This door, its bots deciding with ``policies``."""
        return replace(self, policy_factory=policies)

    def offline(
        self,
        settings: TableSettings,
        *,
        seed: int | None = None,
        prelude: Prelude | None = None,
        bot_pace: Callable[[Any], float] | None = None,
    ) -> NetworkTable:
        """A table of the player and bots in this process: hosted with no listener
        (``seed``: deal from it instead of the door's; ``prelude``: play the player's seat
        for them until it says it is over; ``bot_pace``: the bots' pace, from their view)."""
        from domicile_tui.networked import NetworkTable, Offline

        offline = Offline(
            seed=self.seed if seed is None else seed,
            policies=self.policy_factory,
            bot_pace=bot_pace,
            clock=self.clock,
            prelude=prelude,
        )
        return NetworkTable.offline_table(
            settings,
            self.pack,
            self.home,
            offline=offline,
            pace=self.pace,
            seance_pause=self._seance_pause,
        )

    def host(
        self, settings: TableSettings, resuming: UnfinishedTable | None = None
    ) -> TableSession:
        """A table hosted on this laptop for the LAN, the player seated at it (``resuming``:
        that unfinished table of this laptop's, back with its code, seats and game)."""
        if not self.lan:
            return self.offline(settings)
        from domicile_tui.networked import NetworkTable  # the network stack, only when needed

        return NetworkTable.hosted(
            settings,
            self.pack,
            self.home,
            interface=self.interface,
            port=self.port,
            pace=self.pace,
            advertise=self.advertise,
            seance_pause=self._seance_pause,
            resuming=resuming,
            browser_seats=self.browser_seats,
            browser_port=self.browser_port,
        )

    def unfinished(self) -> UnfinishedTable | None:
        """The table this laptop hosted whose game is not over (after a crash, a lid closed or
        a quit), if there is one; it reads and checks the saved log, so call it off the loop."""
        return unfinished_table(self.home) if self.lan else None

    def resume(self, unfinished: UnfinishedTable, player_name: str) -> TableSession:
        """The unfinished table this laptop hosted, back with its code, seats and game."""
        from domicile_tui.networked import resumed_settings

        return self.host(resumed_settings(unfinished, player_name), unfinished)

    @property
    def _seance_pause(self) -> float:
        # A human Ghost's séance waits like a bot would (none at all for instant bots).
        return min(SEANCE_PAUSE, 1.2 * self.pace.mean)

    def join(self, ticket: JoinTicket, name: str, role: Role | None) -> TableSession:
        """A seat at a table across the network (``role`` ``None``: any free seat)."""
        from domicile_p2p.client_api import Role as WireRole
        from domicile_tui.networked import NetworkTable  # the network stack, only when needed

        wire_role = WireRole.ANY if role is None else WireRole(role.value)
        return NetworkTable(
            self.pack,
            self.home,
            name=name,
            role=wire_role,
            ticket=ticket,
            interface=self.interface,
            seance_pause=self._seance_pause,
        )

    def watch(self, ticket: JoinTicket, name: str) -> TableSession:
        """Watch a table across the network without a seat (the investigators' public view)."""
        from domicile_p2p.client_api import Role as WireRole
        from domicile_tui.networked import NetworkTable  # the network stack, only when needed

        return NetworkTable(
            self.pack,
            self.home,
            name=name,
            role=WireRole.ANY,
            ticket=ticket,
            interface=self.interface,
            watch=True,
        )

    async def find(self, nameplate: int, within: float) -> list[DiscoveredTable]:
        """The tables numbered ``nameplate`` on the LAN, as soon as one answers (looking for
        up to ``within`` seconds; none then, or when the LAN is off)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        while self.lan:
            window = min(FINDING_WINDOW, deadline - loop.time())
            if window <= 0:
                break
            tables = await self.discover(window)
            matches = [table for table in tables if table.advert.nameplate == nameplate]
            if matches:
                return matches
        return []

    async def discover(self, window: float = DISCOVERY_WINDOW) -> list[DiscoveredTable]:
        """The tables advertised on the LAN right now (none when the LAN is off)."""
        if not self.lan:
            return []
        from domicile_p2p.client_api import discover

        return await discover(window, self.interface)
