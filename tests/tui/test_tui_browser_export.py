"""Export at a browser seat: the transcript goes to the browser as a download (Textual's
file delivery), written in the seat's own data dir, never to a path typed on the host."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_tui_end_to_end import play_a_whole_game
from tui_support import PACK, PreparedDoor, begin, record_notifications, settings, wait_until

from domicile_p2p.transcript.verify import verify
from domicile_tui.app import DELIVERED, DomicileApp
from domicile_tui.pacing import BotPace
from domicile_tui.screens.end import EndScreen
from domicile_tui.screens.export import ExportScreen


@pytest.mark.slow
async def test_export_in_a_browser_is_a_download_never_a_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(DomicileApp, "is_web", property(lambda _: True))
    # The game opens at Stage Two (Stage One played in the core): the export is the test.
    door = PreparedDoor(
        PACK, pace=BotPace(0), seed=1, lan=False, data_dir=tmp_path, stage_one_played=True
    )
    app = DomicileApp(door, defaults=settings(), open_at_once=True, offline=True, seance_step=0)
    delivered: list[tuple[Path, dict[str, Any]]] = []
    app.deliver_binary = lambda path, **how: delivered.append((path, how))  # type: ignore[method-assign,assignment,return-value]
    async with app.run_test(size=(120, 36)) as pilot:
        shown = record_notifications(app)
        await begin(pilot)
        await play_a_whole_game(pilot, app)
        await wait_until(pilot, lambda: isinstance(app.screen, EndScreen), what="the end")
        await pilot.press("e")
        await wait_until(pilot, lambda: bool(delivered), what="the download")
        assert not isinstance(app.screen, ExportScreen)  # no path asked for
        ((path, how),) = delivered
        assert path.parent == tmp_path / DELIVERED and how["save_filename"] == path.name
        assert verify(path).valid
        assert any("on its way to your downloads" in line for line in shown)
