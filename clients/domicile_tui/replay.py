"""A saved game opened for the replay viewer: verified, folded, and told in words (pure).

:func:`open_replay` does what ``domicile verify`` does (the same
:func:`~domicile_p2p.cli.verify.verify_file`, so the verdict is word for word
the same), then reads every line it can and folds them into a
:class:`~domicile_tui.timeline.Timeline`.  A file that fails verification
still opens: :attr:`Replay.failing` is the event its first failure names.
A file that cannot be opened at all (missing, unreadable, not a transcript,
of another protocol version) is a :class:`~domicile_tui.replay_file.ReplayError`
with one line saying why.

:func:`event_line` says what one event did, in the table's words, with the
names of the cards of the pack the game was played with (or their ids, when
that pack is not at hand).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from domicile_p2p.client_api import (
    AbortBody,
    CannotVerify,
    ChatBody,
    CulpritSeanceBody,
    DealBody,
    EntropyCommitBody,
    EntropyRevealBody,
    Event,
    GameOverBody,
    GenesisBody,
    GhostCommitBody,
    GiveBody,
    GroupGiveBody,
    LockBody,
    MalformedEvent,
    Pack,
    PackError,
    PlaceBody,
    RefreshBody,
    RevealBody,
    SeanceBody,
    SlotCommitsBody,
    TimeUpBody,
    UnlockBody,
    VerifyReport,
    inert,
    load_default_pack,
    load_pack,
    split_lines,
    verify_file,
)
from domicile_p2p.rules import GHOST, TableConfig
from domicile_tui.inert import inert_news
from domicile_tui.recap import CardText, card_names, dream_texts
from domicile_tui.replay_file import ReplayError
from domicile_tui.timeline import Frame, Timeline, fold


@dataclass(frozen=True, slots=True)
class Replay:
    """A transcript, its verification and its timeline."""

    path: Path
    report: VerifyReport
    timeline: Timeline
    names: CardText
    dreams: CardText
    """A dream card's text by its id (its id, when the pack is not at hand)."""

    @property
    def frames(self) -> tuple[Frame, ...]:
        return self.timeline.frames

    @property
    def failing(self) -> int | None:
        """The index of the frame verification failed at (``None``: none did, or the
        failure is of the file as a whole or of a line that could not be read)."""
        error = self.report.error
        if error is None or error.seq is None:
            return None
        return error.seq if 0 <= error.seq < len(self.frames) else None

    @property
    def start(self) -> int:
        """Where the viewer opens: at the failing event, at the last one when the failure
        is past it (a line that cannot be read), else at the first."""
        error = self.report.error
        if self.failing is not None:
            return self.failing
        if error is not None and error.seq is not None and error.seq >= len(self.frames):
            return len(self.frames) - 1
        return 0

    def day_starts(self) -> tuple[int, ...]:
        """The frame where each day (the setup first) begins, in order."""
        starts: list[int] = []
        previous: tuple[object, object] | None = None
        for index, frame in enumerate(self.frames):
            key = (frame.day, frame.stage)
            if key != previous:
                starts.append(index)
                previous = key
        return tuple(starts)


def open_replay(
    path: Path,
    *,
    pack_dir: str | None = None,
    no_pack: bool = False,
    jobs: int | None = None,
) -> Replay:
    """Verify the transcript at ``path`` as ``domicile verify`` would, then fold it."""
    try:
        data, report = verify_file(
            path, pack_dir=pack_dir, no_pack=no_pack, jobs=jobs, announce_warnings=False
        )
    except CannotVerify as error:
        raise ReplayError(str(error)) from None
    if not report.recognized:
        raise ReplayError(f"{path}: {report.summary}")
    events = _readable_events(data)
    if not events:
        raise ReplayError(f"{path}: {report.summary}")
    # A saved file's words (names, chat, a host's reasons) are inert before anything shows
    # them; the events keep theirs, and ``event_line`` makes what it tells of them inert.
    timeline = inert_news(fold(events))
    pack = _played_pack(timeline.frames[0].event, pack_dir)
    return Replay(path, inert_news(report), timeline, card_names(pack), dream_texts(pack))


def _readable_events(data: bytes) -> list[Event]:
    """Every event up to the first line that cannot be read (verification names that one)."""
    events: list[Event] = []
    for line in split_lines(data):
        try:
            events.append(Event.from_json(line))
        except MalformedEvent:
            break
    return events


def _played_pack(genesis: Event, pack_dir: str | None) -> Pack | None:
    """The pack the game was played with, when it is at hand (for the cards' names)."""
    body = genesis.body
    if not isinstance(body, GenesisBody):
        return None
    try:
        pack = load_pack(pack_dir, announce_warnings=False) if pack_dir else load_default_pack()
    except PackError:
        return None
    same = (pack.id, pack.content_hash) == (body.pack.id, body.pack.hash)
    return pack if same else None


# --------------------------------------------------------------------------- in words


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def seat_name(config: TableConfig | None, seat: int | None) -> str:
    """The name of ``seat``, or what it is when the table has no such seat (a forged event
    may name one: the viewer still tells it)."""
    if seat is None:
        return "the host"
    if config is None or not 0 <= seat <= config.investigators:
        return f"seat {seat}"
    return config.name(seat)


def _names(config: TableConfig | None, seats: tuple[int, ...]) -> str:
    return ", ".join(seat_name(config, seat) for seat in seats)


def event_line(frame: Frame, config: TableConfig | None, names: CardText) -> str:
    """What ``frame``'s event did, in one sentence, inert (it quotes the chat, the names
    and the host's reasons the file holds)."""
    return inert(_event_words(frame, config, names))


def _event_words(frame: Frame, config: TableConfig | None, names: CardText) -> str:
    event = frame.event
    body = event.body
    seat = event.seat
    who = seat_name(config, seat)
    before = frame.before
    match body:
        case GenesisBody(seats=seats, difficulty=difficulty):
            players = [entry.name for entry in seats]
            return (
                f"The table is laid ({difficulty}): {players[0]} haunts the house, "
                f"{', '.join(players[1:])} investigate"
            )
        case GhostCommitBody():
            return "The Ghost commits to its secret seed"
        case EntropyCommitBody():
            return f"{who} commits to a share of the shuffle"
        case EntropyRevealBody():
            return f"{who} reveals their share of the shuffle"
        case DealBody(tableau=tableau):
            return f"The tableau is dealt: {len(tableau.character)} cards in each category"
        case SlotCommitsBody():
            return "The Ghost seals every investigator's column and the culprit"
        case GiveBody(to=to, cards=cards):
            return f"The Ghost gives {_plural(len(cards), 'dream')} to {seat_name(config, to)}"
        case GroupGiveBody(cards=cards):
            return f"The Ghost gives the group {_plural(len(cards), 'dream')}"
        case RefreshBody():
            return "The Ghost refreshes its hand"
        case PlaceBody(card=card):
            return f"{who} puts their marker on {names(card)}"
        case LockBody():
            marker = _marker(frame, seat)
            return f"{who} locks their marker" + (f" on {names(marker)}" if marker else "")
        case UnlockBody():
            return f"{who} unlocks their marker to think again"
        case ChatBody(text=text):
            return f"{who}: “{text}”"
        case SeanceBody(verdicts=verdicts):
            day = f" of day {before.day}" if before is not None else ""
            told = ", ".join(
                f"{seat_name(config, v.seat)} {'right' if v.correct else 'wrong'}" for v in verdicts
            )
            return f"The séance{day}: {told}"
        case CulpritSeanceBody(correct=correct):
            day = f" of day {before.day}" if before is not None else ""
            accused = before.accusation if before is not None else None
            named = names(accused) if accused else "no one agreed on"
            return (
                f"The séance{day}: the accusation of {named} is {'right' if correct else 'wrong'}"
            )
        case TimeUpBody(locked=locked, no_guess=no_guess):
            parts = []
            if locked:
                parts.append(f"locked where they stood: {_names(config, locked)}")
            if no_guess:
                parts.append(f"no guess: {_names(config, no_guess)}")
            return "Time is up" + (f" ({'; '.join(parts)})" if parts else "")
        case GameOverBody(outcome=outcome, day=day):
            return f"The game is over: {outcome} on day {day}"
        case RevealBody():
            return "The Ghost reveals its seed: every column and the culprit are shown"
        case AbortBody(reason=reason):
            return f"The host stops the game: {reason}"
    return event.kind.value  # pragma: no cover - every kind is matched above


def _marker(frame: Frame, seat: int | None) -> str | None:
    state = frame.state
    if state is None or seat is None or seat == GHOST or seat not in state.config.seats:
        return None
    return state.investigator(seat).marker
