"""A guest's name cannot wedge a table, and one table cannot stop another: a real
``domicile host`` process with two tables and a lobby clock (``--lobby-wait``).

Before the one rule for a name, a guest named ``" "`` sat down, and at the
lobby's deadline the genesis refused the name: the host's clock task died,
every new connection to either table was closed after its welcome, the other
table froze, and SIGTERM exited 1.  Now the name is refused at ``join`` with a
plain error, the other table's game is played out and verified, and the host
stops cleanly.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from live_support import HostProcess, network_bot

from domicile_p2p.net.errors import Refused
from domicile_p2p.net.join.codes import parse_code
from domicile_p2p.net.wire import Role
from domicile_p2p.transcript.verify import verify

pytestmark = pytest.mark.slow

WEDGED = parse_code("3-owl-quill")
HONEST = parse_code("4-raven-lantern")


async def test_a_blank_name_is_refused_at_join_and_the_other_table_plays_on(
    tmp_path: Path,
) -> None:
    host = HostProcess(
        tmp_path / "host",
        *("--tables", "2", "--code", str(WEDGED), "--code", str(HONEST)),
        *("--investigators", "1", "--bots", "1", "--lobby-wait", "1"),
    ).start()
    try:
        await host.wait_for("listening")
        url = host.url
        blank = network_bot(tmp_path / "blank", url, WEDGED, role=Role.GHOST, person=True, name=" ")
        with pytest.raises(Refused) as refused:
            await asyncio.wait_for(blank.play(), 60)
        assert refused.value.code == "bad-message"
        assert str(refused.value) == "the name ' ' cannot be blank"

        ghost = network_bot(tmp_path / "ghost", url, HONEST, role=Role.GHOST, person=True)
        outcome = await asyncio.wait_for(ghost.play(), 120)
        assert outcome.report.valid, outcome.report.summary
        ended = await host.wait_for("game-ended", 60)
        assert ended["table"] == HONEST.nameplate and ended["verified"]
        assert verify(Path(ended["transcript"])).valid
        assert await host.stop() == 0, "SIGTERM: a clean stop"
    finally:
        host.close()
    assert host.process is not None and host.process.stderr is not None
    errors = host.process.stderr.read()
    assert "Traceback" not in errors, errors
    records = host.records
    assert not [r for r in records if r["event"] in ("table-failed", "host-error")]
    assert [r["reason"] for r in records if r["event"] == "refused"] == [
        "the name ' ' cannot be blank"
    ]
