"""A transcript as the table lived it: one frame per event (pure: no terminal, no clock).

The replay viewer steps through these frames and the end-of-game recap reads
them (``recap.py``).  Each frame holds the event, the public game state just
before and just after it (what every seat saw), and, from the Ghost's reveal
on, the secrets the revealed seed re-derives.

The frames come from the same fold every peer makes
(:class:`~domicile_p2p.transcript.replica.Replica`), minus the signatures:
the viewer runs :func:`~domicile_p2p.transcript.verify.verify` for those, and
for its verdict.  A file that breaks the rules still makes a timeline: the
event the fold refuses is marked (``refused``), and every later frame keeps
the last state the fold could vouch for (``unchecked``), since nothing after
a refused event can be replayed by the rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from domicile_p2p.client_api import Event, Replica, Violation
from domicile_p2p.rules import Column, GameState, Stage, TableConfig


@dataclass(frozen=True, slots=True)
class Reveal:
    """The Ghost's secrets as the end of the game revealed them."""

    columns: tuple[Column, ...]
    culprit: int

    def column(self, seat: int) -> Column:
        return self.columns[seat - 1]


@dataclass(frozen=True, slots=True)
class Frame:
    """One event and the table around it."""

    event: Event
    before: GameState | None
    """The public state just before the event (``None`` until the tableau is dealt)."""
    state: GameState | None
    """The public state just after it: what the table saw at this moment."""
    truth: Reveal | None = None
    """The Ghost's columns and culprit, once its reveal is in (``None`` before)."""
    refused: Violation | None = None
    """Why the fold refused this event (the state is then the one before it)."""
    unchecked: bool = False
    """An event after a refused one: shown as written, its state is not replayed."""

    @property
    def day(self) -> int | None:
        """The day the event happened on (``None``: the setup, before the deal)."""
        state = self.before if self.before is not None else self.state
        return None if state is None else state.day

    @property
    def stage(self) -> Stage | None:
        state = self.before if self.before is not None else self.state
        return None if state is None else state.stage


@dataclass(frozen=True, slots=True)
class Timeline:
    """Every event of a transcript as a :class:`Frame`, in order."""

    config: TableConfig | None
    """The table (``None`` when the genesis itself is refused)."""
    frames: tuple[Frame, ...]

    @property
    def refused(self) -> Frame | None:
        """The first event the fold refused, if any."""
        return next((frame for frame in self.frames if frame.refused is not None), None)

    @property
    def truth(self) -> Reveal | None:
        return self.frames[-1].truth if self.frames else None


def fold(events: Sequence[Event]) -> Timeline:
    """The timeline of ``events`` (the first should be the genesis).

    Signatures and chain links are not checked here (``verify`` does that);
    everything the events mean is, as a peer's replica checks it.
    """
    if not events:
        return Timeline(None, ())
    try:
        replica = Replica(events[0], authenticated=True)
    except Violation as violation:
        first = Frame(events[0], None, None, refused=violation)
        rest = tuple(Frame(event, None, None, unchecked=True) for event in events[1:])
        return Timeline(None, (first, *rest))
    frames = [Frame(events[0], None, None)]
    stopped = False
    for event in events[1:]:
        before = replica.state
        if stopped:
            frames.append(Frame(event, before, before, truth_of(replica), unchecked=True))
            continue
        count = len(replica.events)
        try:
            replica.receive_authenticated(event)
        except Violation as violation:
            # The Ghost's reveal that proves a cheat is kept (it is the proof); anything
            # else is refused and leaves the replica as it was.
            accepted = len(replica.events) > count
            state = replica.state if accepted else before
            frames.append(Frame(event, before, state, truth_of(replica), refused=violation))
            stopped = True
            continue
        frames.append(Frame(event, before, replica.state, truth_of(replica)))
    return Timeline(replica.config, tuple(frames))


def truth_of(replica: Replica) -> Reveal | None:
    """What the Ghost's revealed seed re-derives in ``replica`` (``None`` before it, or when
    it did not open the commitments)."""
    final = replica.ledger.replay
    if final is None or final.secrets is None:
        return None
    return Reveal(final.secrets.columns, final.secrets.culprit)
