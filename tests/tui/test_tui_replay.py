"""The replay viewer (``domicile replay FILE``): verified first, then stepped through.

The games are the protocol's vectors, with their own card pack, and one game of
the protocol's plain players with the built-in pack (``replay_support``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from replay_support import GAMES, VECTORS_PACK, builtin_game, replay_app
from textual.pilot import Pilot
from tui_support import press_twice, rendered, wait_until

from domicile_p2p.cli import main as game_main
from domicile_p2p.transcript.schema import Kind
from domicile_tui.launcher import _play, _replay
from domicile_tui.recap import recap_of
from domicile_tui.replay import event_line, open_replay
from domicile_tui.replay_file import ReplayError
from domicile_tui.screens.recap import RecapScreen
from domicile_tui.screens.replay import ReplayScreen

SIZE = (80, 24)


async def opened(pilot: Pilot[Any]) -> ReplayScreen:
    """The viewer, once its file is verified and folded (generous: a loaded machine)."""
    app = pilot.app
    await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), what="the viewer")
    screen = app.screen
    assert isinstance(screen, ReplayScreen)
    await wait_until(pilot, lambda: screen.replay is not None, what="the verdict")
    await pilot.pause()
    return screen


def text_of(screen: ReplayScreen, selector: str) -> str:
    return rendered(screen.query_one(selector))


async def test_every_key_steps_through_the_game_in_order() -> None:
    app = replay_app(GAMES / "honest.jsonl", VECTORS_PACK)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        replay = screen.replay
        assert replay is not None and replay.report.valid
        assert screen.index == 0
        assert text_of(screen, "#replay-verdict").startswith("✓ Verified: every check passed")
        assert "won" not in text_of(screen, "#replay-verdict")  # the outcome waits for the end
        # A burst of keys: every one acts, in order.
        await pilot.press(*["right"] * 9)
        assert screen.index == 9
        await pilot.press("left", "left")
        assert screen.index == 7
        assert text_of(screen, "#replay-position").startswith("Event 7 (8 of 50)")
        starts = replay.day_starts()
        await pilot.press("pagedown")
        assert screen.index == next(s for s in starts if s > 7)
        await pilot.press("pagedown", "pageup")
        assert screen.index == next(s for s in starts if s > 7)
        await pilot.press("end")
        assert screen.index == len(replay.frames) - 1
        # On the last event, the outcome in domicile verify's words.
        assert replay.report.summary in text_of(screen, "#replay-notes")
        await pilot.press("right")
        assert screen.index == len(replay.frames) - 1
        await pilot.press("home", "left")
        assert screen.index == 0


async def test_the_ghosts_columns_show_from_the_reveal_on() -> None:
    app = replay_app(GAMES / "honest.jsonl", VECTORS_PACK)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        replay = screen.replay
        assert replay is not None
        reveal = next(i for i, f in enumerate(replay.frames) if f.event.kind is Kind.REVEAL)
        columns = screen.query_one("#replay-columns")
        for index in (6, 20, reveal - 1):
            screen.index = index
            await pilot.pause()
            assert not columns.display, f"the columns show at event {index}"
        screen.index = reveal
        await pilot.pause()
        assert columns.display
        truth = replay.frames[reveal].truth
        assert truth is not None
        culprit = replay.names(truth.column(truth.culprit).character)
        assert culprit in rendered(columns) and "☠ the culprit" in rendered(columns)


async def test_what_the_table_saw_at_that_moment() -> None:
    app = replay_app(builtin_game(), None)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        replay = screen.replay
        assert replay is not None and replay.report.valid
        place = next(i for i, f in enumerate(replay.frames) if f.event.kind is Kind.PLACE)
        await pilot.press(*["right"] * place)
        frame = replay.frames[place]
        assert frame.state is not None and frame.event.seat is not None
        marker = frame.state.investigator(frame.event.seat).marker
        assert marker is not None
        name = replay.names(marker)
        assert name != marker  # the built-in pack names its cards
        assert f"puts their marker on {name}" in text_of(screen, "#replay-position")
        assert f"leans to {name}" in text_of(screen, "#replay-seats")
        dream = frame.state.investigator(frame.event.seat).dreams[0]
        assert replay.dreams(dream)[:30] in text_of(screen, "#replay-seats")


@pytest.mark.parametrize(
    ("name", "seq"), [("altered-byte", 25), ("false-correct", 22), ("card-not-in-hand", 42)]
)
async def test_a_file_that_fails_opens_at_the_failing_event(name: str, seq: int) -> None:
    app = replay_app(GAMES / f"{name}.jsonl", VECTORS_PACK)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        replay = screen.replay
        assert replay is not None and not replay.report.valid
        assert screen.index == seq
        error = replay.report.error
        assert error is not None
        assert text_of(screen, "#replay-verdict") == f"✗ {replay.report.summary}"
        assert "Verification fails here" in text_of(screen, "#replay-notes")
        assert error.reason in text_of(screen, "#replay-notes")
        await pilot.press("right")
        assert "Verification fails here" not in text_of(screen, "#replay-notes")


async def test_a_file_cut_short_opens_at_its_last_readable_event(tmp_path: Path) -> None:
    data = (GAMES / "honest.jsonl").read_bytes()
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(data[: data.index(b"\n", 3000) + 40])
    app = replay_app(cut, VECTORS_PACK)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        replay = screen.replay
        assert replay is not None and replay.report.error is not None
        assert screen.index == len(replay.frames) - 1
        assert replay.report.summary.startswith("INVALID at event")
        assert replay.report.summary in text_of(screen, "#replay-notes")


async def test_a_file_that_cannot_be_opened_says_why(tmp_path: Path) -> None:
    app = replay_app(tmp_path / "gone.jsonl", None)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await wait_until(
            pilot,
            lambda: "Cannot open" in text_of(app.screen, "#replay-verdict"),  # type: ignore[arg-type]
        )
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and screen.replay is None
        assert "does not exist" in text_of(screen, "#replay-verdict")
        await pilot.press("right", "end", "r")  # nothing to step through: nothing breaks
        assert app.screen is screen


@pytest.mark.slow
async def test_the_recap_so_far_and_back() -> None:
    app = replay_app(GAMES / "honest.jsonl", VECTORS_PACK)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        replay = screen.replay
        assert replay is not None
        await pilot.press("pagedown", "pagedown", "pagedown")
        index = screen.index
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, RecapScreen), what="the recap")
        recap_screen = app.screen
        assert isinstance(recap_screen, RecapScreen)
        assert recap_screen.recap == recap_of(replay.timeline, upto=index + 1)
        assert recap_screen.recap is not None and recap_screen.recap.truth is None
        shown = rendered(recap_screen.query_one("#recap"))
        # Three days on, at the first give of day 3: its séance is still to come.
        assert "Day 1  seeking a Character" in shown and "Day 4" not in shown
        assert "Day 3" in shown and "no séance yet" in shown
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen, what="back to the viewer")
        assert screen.index == index


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "does not exist"),
        (b"", "not a domicile-p2p transcript: the file is empty"),
        (b"\x00\xff garbage\n", "its first line is not a genesis event"),
        (b'{"kind": "genesis", "body": {"protocol": 1}}\n', "protocol version 1"),
    ],
)
def test_domicile_replay_refuses_a_bad_file_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None, message: str
) -> None:
    path = tmp_path / "bad.jsonl"
    if content is not None:
        path.write_bytes(content)
    code = game_main(["replay", str(path)], commands={"play": _play, "replay": _replay})
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("domicile replay: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_the_viewer_shows_domicile_verify_s_own_verdict() -> None:
    from domicile_p2p.cli.verify import verify_file

    path = GAMES / "wrong-outcome.jsonl"
    replay = open_replay(path, pack_dir=str(VECTORS_PACK))
    _, report = verify_file(path, pack_dir=str(VECTORS_PACK), announce_warnings=False)
    assert replay.report.summary == report.summary and replay.report.error == report.error


@pytest.mark.slow
async def test_the_end_screen_tells_the_game_day_by_day() -> None:
    from test_tui_snapshots import at_the_end
    from tui_support import stage_two_app

    from domicile_tui.screens.end import EndScreen

    app = stage_two_app(plain_ghost=True)
    async with app.run_test(size=SIZE) as pilot:
        await at_the_end(pilot)
        verification = app.verification
        assert verification is not None and verification.recap is not None
        recap = verification.recap
        assert "R  the game told again" in rendered(app.screen.query_one("#end-recap-hint"))
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, RecapScreen), what="the recap")
        recap_screen = app.screen
        assert isinstance(recap_screen, RecapScreen) and recap_screen.recap is recap
        shown = rendered(recap_screen.query_one("#recap"))
        assert recap.truth is not None and recap.accusations
        culprit = app.pack.investigator_card(recap.truth.column(recap.truth.culprit).character)
        assert f"It was {culprit.name}. The group named them." in shown
        for story in recap.stories:
            assert story.name in shown
        await press_twice(pilot, "escape", None, EndScreen)  # the second is the recap's own
        await pilot.pause(0.6)
        assert isinstance(app.screen, EndScreen)


async def test_the_viewer_says_it_is_verifying_while_it_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import threading

    from domicile_tui import replay as opening
    from domicile_tui.screens.replay import CHECKING

    release = threading.Event()

    def slow_open(*args: Any, **options: Any) -> Any:
        release.wait(30)
        return open_replay(*args, **options)

    monkeypatch.setattr(opening, "open_replay", slow_open)
    path = GAMES / "honest.jsonl"
    app = replay_app(path, VECTORS_PACK)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), what="the viewer")
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await wait_until(
            pilot, lambda: text_of(screen, "#replay-progress") == CHECKING, what="the check"
        )
        assert text_of(screen, "#replay-verdict") == f"Verifying {path}…"
        assert screen.query_one("#replay-loading").display
        await pilot.press("right", "end")  # nothing to step through yet: nothing breaks
        release.set()
        screen = await opened(pilot)
        assert not screen.query_one("#replay-loading").display
        assert not screen.query_one("#replay-progress").display
        assert screen.index == 0


def _vectors() -> list[str]:
    return sorted(str(path.relative_to(GAMES).with_suffix("")) for path in GAMES.rglob("*.jsonl"))


@pytest.mark.parametrize("name", _vectors())
def test_every_vector_opens_at_its_failure_and_every_event_is_told(name: str) -> None:
    import json

    expected = json.loads((GAMES / "expected.json").read_text())["results"][name]
    if not expected["recognized"]:  # not a transcript at all: refused with verify's words
        with pytest.raises(ReplayError, match="not a domicile-p2p transcript"):
            open_replay(GAMES / f"{name}.jsonl", no_pack=True)
        return
    replay = open_replay(GAMES / f"{name}.jsonl", no_pack=True)  # as the vectors' results
    assert replay.report.valid is expected["valid"]
    if expected["valid"]:
        assert replay.start == 0 and replay.failing is None
    else:
        assert replay.start == replay.failing == expected["error"]["seq"]
    config = replay.timeline.config
    for frame in replay.frames:
        assert event_line(frame, config, replay.names)
    assert recap_of(replay.timeline) is not None or replay.timeline.frames[-1].state is None


def test_an_event_naming_a_seat_the_table_lacks_is_told_all_the_same() -> None:
    replay = open_replay(
        GAMES / "rules" / "g1-give-to-a-seat-not-at-the-table.jsonl", pack_dir=str(VECTORS_PACK)
    )
    assert replay.failing is not None
    frame = replay.frames[replay.failing]
    assert event_line(frame, replay.timeline.config, replay.names).endswith(" to seat 3")
