"""The offline table behind the session interface: a real game through the real protocol,
hosted in this process with no listener (the LAN's host and sessions over local links)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
from tui_support import (
    DATA_DIR,
    PACK,
    Clairvoyant,
    Recorder,
    ghost_knowledge,
    investigator_bot,
    settings,
    turns,
)

from domicile_p2p.bots import make_policy
from domicile_p2p.net.adapters.in_memory import InMemoryHost
from domicile_p2p.rules import (
    GHOST,
    Action,
    Chat,
    GhostKnowledge,
    Give,
    Lock,
    Outcome,
    Phase,
    Place,
    Seance,
    Stage,
    View,
)
from domicile_p2p.transcript.verify import verify
from domicile_tui.connect import TableDoor
from domicile_tui.networked import KEPT_GAMES, NetworkTable
from domicile_tui.news import (
    ActionRefused,
    ChatPosted,
    GameVerified,
    LobbyChanged,
    SessionClosed,
    StatusChanged,
    TranscriptKept,
    ViewChanged,
)
from domicile_tui.pacing import BotPace
from domicile_tui.session import Role, SettingsError, TableSettings
from domicile_tui.status import SeatKind


def offline(
    role: Role = Role.INVESTIGATOR, seed: int = 7, data_dir: Path | None = None, **door: object
) -> NetworkTable:
    home = data_dir or DATA_DIR
    table_door = TableDoor(PACK, pace=BotPace(0), seed=seed, lan=False, data_dir=home, **door)  # type: ignore[arg-type]
    return table_door.offline(settings(role))


def game_id(table: NetworkTable) -> str:
    host = table.host
    assert host is not None
    [info] = host.tables()
    assert info.game_id is not None
    return info.game_id


async def started(role: Role = Role.INVESTIGATOR, seed: int = 7) -> Recorder:
    table = offline(role, seed)
    recorder = Recorder(table)
    await table.open()
    await table.start_game()
    await recorder.until(lambda: bool(recorder.of(ViewChanged)), "the first view")
    return recorder


async def test_the_table_opens_on_a_lobby_of_the_player_and_bots() -> None:
    table = offline()
    recorder = Recorder(table)
    await table.open()
    await recorder.until(lambda: bool(recorder.of(LobbyChanged)), "the lobby")
    assert recorder.of(StatusChanged)[0].status.text.startswith("Offline table")
    lobby = recorder.of(LobbyChanged)[0].lobby
    assert not lobby.started and lobby.offline and lobby.is_host
    assert [seat.kind for seat in lobby.seats] == [
        SeatKind.BOT,
        SeatKind.YOU,
        SeatKind.BOT,
        SeatKind.BOT,
    ]
    assert lobby.seat(1).name == "Ada"
    await recorder.stop()
    assert isinstance(recorder.events[-1], SessionClosed)


async def test_an_investigator_never_sees_the_ghosts_secrets() -> None:
    recorder = await started()
    for event in recorder.of(ViewChanged):
        assert event.view.seat == 1
        assert event.view.ghost is None
        assert event.view.state.secrets is None
    await recorder.stop()


async def test_the_ghost_sees_its_hand_and_its_columns() -> None:
    recorder = await started(Role.GHOST)
    first = recorder.of(ViewChanged)[0].view
    assert first.seat == GHOST
    assert first.ghost is not None and len(first.ghost.hand) == 7
    assert len(first.ghost.columns) == 3
    await recorder.stop()


async def test_a_move_against_the_rules_comes_back_with_the_rules_own_words() -> None:
    recorder = await started()

    def served() -> bool:
        return recorder.of(ViewChanged)[-1].view.state.investigator(1).served

    # Wait for the Ghost's first give to Ada: before it, every marker is refused for that.
    await recorder.until(served, "Ada's first dreams")
    view = recorder.of(ViewChanged)[-1].view
    location = view.state.tableau.location[0]
    await recorder.table.act(Place(1, location))
    await recorder.until(lambda: bool(recorder.of(ActionRefused)), "a refusal")
    assert recorder.of(ActionRefused)[0].message == "Ada must find a Character before a Location"
    await recorder.stop()


async def test_nobody_can_act_for_another_seat() -> None:
    recorder = await started()
    await recorder.table.act(Lock(2))
    await recorder.until(lambda: bool(recorder.of(ActionRefused)), "a refusal")
    assert "seat 1 cannot sign a move of seat 2" in recorder.of(ActionRefused)[0].message
    await recorder.stop()


async def test_chat_reaches_the_table_but_the_ghost_never_speaks() -> None:
    recorder = await started()
    await recorder.table.chat("  the well, surely  ")
    await recorder.until(lambda: bool(recorder.of(ChatPosted)), "the chat line")
    line = recorder.of(ChatPosted)[0].line
    assert (line.seat, line.name, line.text) == (1, "Ada", "the well, surely")
    await recorder.table.chat("   ")
    await recorder.until(lambda: bool(recorder.of(ActionRefused)), "a refusal")
    assert recorder.of(ActionRefused)[0].message == "a chat message cannot be empty"
    await recorder.stop()

    ghost = await started(Role.GHOST)
    await ghost.table.chat("boo")
    await ghost.table.act(Chat(GHOST, "boo"))
    await ghost.until(lambda: len(ghost.of(ActionRefused)) == 2, "two refusals")
    assert {r.message for r in ghost.of(ActionRefused)} == {"the Ghost may never speak"}
    assert not ghost.of(ChatPosted)
    await ghost.stop()


async def play_out(
    recorder: Recorder, choose: Callable[[View], Action | None] | None = None
) -> None:
    """Play the player's seat with ``choose`` (an investigator bot's moves by default) until
    the game is verified."""
    choose = choose or investigator_bot().act
    async for _ in turns(pause=0.001):
        if recorder.of(GameVerified):
            return
        action = choose(recorder.of(ViewChanged)[-1].view)
        if action is None:
            await asyncio.sleep(0.001)
            continue
        before = len(recorder.events)
        await recorder.table.act(action)
        await recorder.until(lambda b=before: len(recorder.events) > b, "the table to answer")
    raise AssertionError("the game did not end")


async def test_a_whole_game_ends_verified_and_its_transcript_checks_out(tmp_path: Path) -> None:
    recorder = await started()
    await play_out(recorder)
    assert not recorder.of(ActionRefused)
    final = recorder.of(ViewChanged)[-1].view.state
    assert final.phase is Phase.ENDED and final.outcome is not None
    verification = recorder.of(GameVerified)[0].verification
    assert verification.ok, verification.summary
    assert {check.name for check in verification.checks if check.ok} >= {
        "hash chain",
        "ghost seed",
        "slot commitments",
        "séance verdicts",
        "dream cards",
    }
    truth = ghost_knowledge(recorder.table)
    assert verification.reveal is not None
    assert verification.reveal.columns == truth.columns
    assert verification.reveal.culprit == truth.culprit

    path = await recorder.table.export_transcript(tmp_path / "games" / "evening.jsonl")
    report = verify(path)
    assert report.valid, report.summary
    assert report.outcome == final.outcome.value
    await recorder.stop()


async def test_a_human_ghosts_seance_is_announced_for_it() -> None:
    recorder = await started(Role.GHOST)
    for seat in (1, 2, 3):
        view = recorder.of(ViewChanged)[-1].view
        assert view.ghost is not None
        before = len(recorder.of(ViewChanged))
        await recorder.table.act(Give(seat, (view.ghost.hand[0],)))
        await recorder.until(lambda b=before: len(recorder.of(ViewChanged)) > b, "the give")
    assert not recorder.of(ActionRefused)
    await recorder.until(
        lambda: any(e.view.state.day == 2 for e in recorder.of(ViewChanged)), "the next day"
    )
    seances = [e.action for e in recorder.of(ViewChanged) if isinstance(e.action, Seance)]
    assert len(seances) == 1 and len(seances[0].verdicts) == 3
    await recorder.stop()


async def test_play_again_goes_back_to_the_lobby_and_deals_a_new_game() -> None:
    recorder = await started()
    first_game = game_id(recorder.table)
    await play_out(recorder)
    await recorder.table.play_again()
    await recorder.until(lambda: not recorder.of(LobbyChanged)[-1].lobby.started, "the lobby")
    shown = len(recorder.of(ViewChanged))
    await recorder.table.start_game()
    await recorder.until(lambda: recorder.of(LobbyChanged)[-1].lobby.started, "the new game")
    await recorder.until(lambda: len(recorder.of(ViewChanged)) > shown, "its first view")
    assert game_id(recorder.table) != first_game
    assert recorder.of(ViewChanged)[-1].view.state.day == 1
    await recorder.stop()


def test_the_same_seed_deals_the_same_game() -> None:
    async def tableau(seed: int):  # type: ignore[no-untyped-def]
        recorder = await started(seed=seed)
        dealt = recorder.of(ViewChanged)[0].view.state.tableau
        await recorder.stop()
        return dealt

    async def both():  # type: ignore[no-untyped-def]
        return await tableau(7), await tableau(7), await tableau(8)

    first, again, other = asyncio.run(both())
    assert first == again
    assert first != other


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"player_name": "   "}, "the player name cannot be empty"),
        ({"table_name": "x" * 41}, "the table name has at most 40 characters"),
        ({"player_name": "Ann\u202e"}, "the player name cannot contain the bidi control U+202E"),
        (
            {"player_name": "Bo\u200bb"},
            "the player name cannot contain the zero-width character U+200B",
        ),
        (
            {"player_name": "\u3164"},
            "the player name cannot contain the zero-width character U+3164",
        ),
        ({"table_name": "Hall\x1b]0;x"}, "the table name cannot contain the C0 control U+001B"),
        ({"investigators": 7}, "a table has 1 to 6 investigators, not 7"),
        ({"open_seats": frozenset({1})}, "the host's own seat cannot be left open"),
        ({"open_seats": frozenset({5})}, "open seats [5] are not at the table"),
        ({"difficulty": "impossible"}, "'impossible' is not a valid Difficulty"),
    ],
)
def test_table_settings_refuse_what_cannot_make_a_table(
    changes: dict[str, object], message: str
) -> None:
    values: dict[str, object] = {"table_name": "Hall", "player_name": "Ada", **changes}
    with pytest.raises(SettingsError) as caught:
        TableSettings(**values)  # type: ignore[arg-type]
    assert str(caught.value) == message


def test_an_offline_table_has_no_open_seats() -> None:
    door = TableDoor(PACK, pace=BotPace(0), lan=False, data_dir=DATA_DIR)
    with pytest.raises(SettingsError, match="no open seats"):
        door.offline(TableSettings("Hall", "Ada", open_seats=frozenset({2})))


async def test_stage_two_is_reached_and_the_culprit_named_by_a_table_that_knows_the_truth() -> None:
    holder: list[NetworkTable] = []

    def truth() -> GhostKnowledge:
        return ghost_knowledge(holder[0])

    def policies(seat: int, pack: object, seed: int) -> object:
        if seat == GHOST:
            return make_policy(seat, PACK, seed)
        return Clairvoyant(seat, truth)

    table = offline(policy_factory=policies)
    holder.append(table)
    recorder = Recorder(table)
    await table.open()
    await table.start_game()
    await recorder.until(lambda: bool(recorder.of(ViewChanged)), "the first view")
    me = Clairvoyant(1, truth)

    def choose(view: View) -> Action | None:
        state = view.state
        if state.stage is Stage.CULPRIT and state.phase is Phase.INVESTIGATION:
            truth = me.truth()
            culprit = truth.column(truth.culprit).character
            mine = state.investigator(1)
            return None if mine.locked else Lock(1) if mine.marker == culprit else Place(1, culprit)
        return me.act(view)

    await play_out(recorder, choose)
    final = recorder.of(ViewChanged)[-1].view.state
    assert final.stage is Stage.CULPRIT
    assert final.outcome is Outcome.WON
    assert recorder.of(GameVerified)[0].verification.ok
    await recorder.stop()


async def test_an_offline_table_is_a_hosted_table_with_no_listener(tmp_path: Path) -> None:
    """The LAN's host in this process, reached over local links alone: nothing listens, and
    of its files only the finished game is kept, in ``offline/games`` of the data dir."""
    recorder = Recorder(offline(data_dir=tmp_path))
    await recorder.table.open()
    await recorder.table.start_game()
    host = recorder.table.host
    assert isinstance(host, InMemoryHost) and host.port == 0 and host.urls == []
    await recorder.until(lambda: bool(recorder.of(ViewChanged)), "the first view")
    await play_out(recorder)
    await recorder.until(lambda: bool(recorder.of(TranscriptKept)), "the game kept")
    kept = recorder.of(TranscriptKept)[0].path
    assert kept == tmp_path / KEPT_GAMES / f"{game_id(recorder.table)}.json"
    files = sorted(path for path in tmp_path.rglob("*") if path.is_file())
    assert files == [kept]
    assert verify(kept).valid
    await recorder.stop()
