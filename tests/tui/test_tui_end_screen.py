"""The end screen at a laptop's 80x24: what everyone wants first shows at once, and the proof
scrolls to its last check with the keys, without Tab first."""

from __future__ import annotations

import pytest
from screen_text import screen_lines
from test_tui_snapshots import at_the_end
from tui_support import settle, stage_two_app

SIZES = [(80, 24), (120, 36)]


@pytest.mark.parametrize("size", SIZES)
async def test_the_end_shows_the_verdict_the_six_words_and_where_it_is_kept_at_once(
    size: tuple[int, int],
) -> None:
    app = stage_two_app(plain_ghost=True)
    async with app.run_test(size=size) as pilot:
        await at_the_end(pilot)
        await settle(pilot)
        shown = "\n".join(screen_lines(app))
        for fact in ("T H E   G H O S T", "It was ", "Every check passed", "The last link"):
            assert fact in shown, shown
        assert "kept in the data dir" in shown, shown


async def test_the_proof_scrolls_to_its_last_check_with_the_keys_at_once() -> None:
    app = stage_two_app(plain_ghost=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await at_the_end(pilot)
        await settle(pilot)

        def complete() -> bool:
            return any("✓ Complete" in line for line in screen_lines(app))

        assert not complete()
        for key in ("end", "home", "pagedown", "down"):
            for _ in range(1 if key in ("end", "home") else 40):
                await pilot.press(key)
                await settle(pilot)
                if complete() or key == "home":
                    break
            assert complete() != (key == "home"), f"after {key}:\n" + "\n".join(screen_lines(app))
            if key != "home":
                await pilot.press("home")
