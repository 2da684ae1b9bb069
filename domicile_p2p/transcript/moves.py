"""Between the rules engine's actions and the transcript's play events.

The acting seat is not part of a body: it is the seat that signed the
action.  Séance bodies also carry openings, which the rules engine does not
know about; :func:`to_event` leaves them ``null`` and the Ghost's agent
fills in the correct verdicts' openings.
"""

from __future__ import annotations

from typing import Final

from domicile_p2p.rules import (
    Action,
    Chat,
    CulpritSeance,
    Give,
    GroupGive,
    Lock,
    Place,
    Refresh,
    Seance,
    Unlock,
    Verdict,
)
from domicile_p2p.transcript.schema import (
    Body,
    ChatBody,
    CulpritSeanceBody,
    GiveBody,
    GroupGiveBody,
    Kind,
    LockBody,
    PlaceBody,
    RefreshBody,
    SeanceBody,
    UnlockBody,
    VerdictBody,
)

PLAY_KINDS: Final = frozenset(
    {
        Kind.GIVE,
        Kind.GROUP_GIVE,
        Kind.REFRESH,
        Kind.PLACE,
        Kind.LOCK,
        Kind.UNLOCK,
        Kind.CHAT,
        Kind.SEANCE,
        Kind.CULPRIT_SEANCE,
    }
)
"""The kinds that are moves of the rules engine."""


def to_rules(kind: Kind, body: Body, seat: int) -> Action:
    """The rules engine's action for a play event of ``seat``."""
    match body:
        case GiveBody(to=to, cards=cards):
            return Give(to, cards, by=seat)
        case GroupGiveBody(cards=cards):
            return GroupGive(cards, by=seat)
        case RefreshBody():
            return Refresh(by=seat)
        case PlaceBody(card=card):
            return Place(seat, card)
        case LockBody():
            return Lock(seat)
        case UnlockBody():
            return Unlock(seat)
        case ChatBody(text=text):
            return Chat(seat, text)
        case SeanceBody(verdicts=verdicts):
            return Seance(tuple(Verdict(v.seat, v.correct) for v in verdicts), by=seat)
        case CulpritSeanceBody(correct=correct):
            return CulpritSeance(correct, by=seat)
    raise ValueError(f"{kind.value} is not a move of the game")


def to_event(action: Action) -> tuple[Kind, Body]:
    """The kind and body of a rules action (séance openings left ``null``)."""
    match action:
        case Give(to=to, cards=cards):
            return Kind.GIVE, GiveBody(to, tuple(cards))
        case GroupGive(cards=cards):
            return Kind.GROUP_GIVE, GroupGiveBody(tuple(cards))
        case Refresh():
            return Kind.REFRESH, RefreshBody()
        case Place(card=card):
            return Kind.PLACE, PlaceBody(card)
        case Lock():
            return Kind.LOCK, LockBody()
        case Unlock():
            return Kind.UNLOCK, UnlockBody()
        case Chat(text=text):
            return Kind.CHAT, ChatBody(text)
        case Seance(verdicts=verdicts):
            ordered = sorted(verdicts, key=lambda verdict: verdict.seat)
            return Kind.SEANCE, SeanceBody(
                tuple(VerdictBody(v.seat, v.correct, None) for v in ordered)
            )
        case CulpritSeance(correct=correct):
            return Kind.CULPRIT_SEANCE, CulpritSeanceBody(correct, None)
    raise ValueError(f"unknown action {action!r}")  # pragma: no cover
