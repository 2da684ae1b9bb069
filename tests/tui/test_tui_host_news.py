"""The table hosted on this laptop tells its owner on screen what its operator must know:
a log that was behind (rolled back) and taken back from the players, a table set aside."""

from __future__ import annotations

from pathlib import Path

from tui_support import PACK

from domicile_p2p.net.join.codes import parse_code
from domicile_p2p.net.wire import Role as WireRole
from domicile_tui.networked import NetworkTable
from domicile_tui.news import StatusChanged
from domicile_tui.status import Severity
from domicile_tui.ticket import JoinTicket


def _told(table: NetworkTable) -> list[object]:
    queue = table._channel._queue
    told = []
    while not queue.empty():
        told.append(queue.get_nowait())
    return told


async def test_the_owner_is_told_of_a_rolled_back_log_and_of_what_came_back(
    tmp_path: Path,
) -> None:
    table = NetworkTable(
        PACK, tmp_path, name="Ada", role=WireRole.ANY, ticket=JoinTicket(parse_code("1-wheat-owl"))
    )
    table._host_news("log-behind", {"host_events": 22, "player_events": 25})
    table._host_news("log-restored", {"events": 3})
    table._host_news("connected", {"connection": 1})  # the rest goes unsaid
    behind, restored = _told(table)
    assert isinstance(behind, StatusChanged) and behind.status.severity is Severity.WARNING
    assert behind.status.text.startswith(
        "This table's log was behind: a returning player holds 25 events of the game, "
        "the host had 22"
    )
    assert isinstance(restored, StatusChanged)
    assert restored.status.text == "The host took back 3 events its log had lost: nothing lost"
