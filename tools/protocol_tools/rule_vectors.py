"""One tampered game per public rule of ``protocol/SPEC.md`` §12.2, for ``protocol/vectors``.

The games are data: ``rule_vectors.toml`` beside this file says, for each, which honest
game it changes (the vectors' ``honest``, ``time-up`` or a very-difficult game of the same
seed), where, how, and where verification must first fail.  This module finds the places
it names in the game (:data:`PLACES`), makes the change, counts, chains and signs the
events again with the game's keys (:func:`~protocol_tools.forge.seal`), as a cheating
host with its players' keys could, and checks that the first failure is the one the file
says (the check, the ``seq``, the party and the rule's words in the reason) before a
vector is written: a game that fails for another reason is a bug here or in the file,
not a vector.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Final

import msgspec

from domicile_p2p.rules import HAND_SIZE, Phase
from domicile_p2p.transcript.codec import Event
from domicile_p2p.transcript.errors import Check
from domicile_p2p.transcript.files import encode_transcript
from domicile_p2p.transcript.replica import Replica
from domicile_p2p.transcript.schema import (
    BODY_TYPES,
    Body,
    DealBody,
    Kind,
    PlaceBody,
    SeanceBody,
    TimeUpBody,
    VerdictBody,
)
from domicile_p2p.transcript.selfplay import Seating
from domicile_p2p.transcript.verify import verify
from protocol_tools.forge import Entry, entries_of, renumber, seal

RULES_FILE: Final = Path(__file__).with_name("rule_vectors.toml")
"""The rule games, as data."""

Change = Callable[[list[Entry]], list[Entry]]


@dataclass(frozen=True, slots=True)
class RuleGame:
    """A tampered game: which rule it breaks, and where verification must first fail."""

    rule: str
    what: str
    data: bytes
    check: Check
    seq: int
    party: str


@dataclass(frozen=True)
class Base:
    """An honest game to tamper with, and the keys it was played with."""

    events: tuple[Event, ...]
    seating: Seating

    def entries(self) -> list[Entry]:
        return entries_of(self.events)

    def seq(self, kind: Kind, nth: int = 0) -> int:
        """The ``seq`` of the ``nth`` event of ``kind`` (from 0)."""
        found = [event.seq for event in self.events if event.kind is kind]
        return found[nth]

    def after(self, kind: Kind, seq: int) -> int:
        """The ``seq`` of the first event of ``kind`` after ``seq``."""
        return next(e.seq for e in self.events[seq + 1 :] if e.kind is kind)

    def state_after(self, seq: int) -> Replica:
        replica = Replica(self.events[0])
        for event in self.events[1 : seq + 1]:
            replica.receive(event)
        return replica

    def seal(self, entries: Sequence[Entry]) -> bytes:
        events = seal(renumber(entries), host=self.seating.host, seats=self.seating.identities)
        return encode_transcript(events)

    @cached_property
    def places(self) -> dict[str, int]:
        """Every place of :data:`PLACES` this game has, by name."""
        found = {}
        for name, place in PLACES.items():
            try:
                found[name] = place(self)
            except (IndexError, StopIteration):
                continue  # not in this game (a time-up in a game without a sand-glass)
        return found


def _done_give(base: Base) -> int:
    """The first give of a round in which seat 1 already holds its three cards."""
    for event in base.events:
        if event.kind is Kind.GIVE:
            state = base.state_after(event.seq - 1).ledger.state
            if state is not None and state.investigator(1).done:
                return event.seq
    raise StopIteration


def _dry(base: Base) -> int:
    """The first ``seq`` at which the Ghost may refresh but cannot draw a whole new hand."""
    replica = Replica(base.events[0])
    for event in base.events[1:]:
        replica.receive(event)
        state = replica.ledger.state
        if (
            state is not None
            and state.phase is Phase.DREAMS
            and state.deck_size + state.discard_size < HAND_SIZE
            and state.refreshes_this_round == 0
        ):
            return event.seq + 1
    raise StopIteration


PLACES: Final[dict[str, Callable[[Base], int]]] = {
    "ghost_commit": lambda b: b.seq(Kind.GHOST_COMMIT),
    "deal": lambda b: b.seq(Kind.DEAL),
    "slots": lambda b: b.seq(Kind.SLOT_COMMITS),
    "first_give": lambda b: b.seq(Kind.GIVE),
    "second_give": lambda b: b.seq(Kind.GIVE, 1),
    "first_place": lambda b: b.seq(Kind.PLACE),
    "first_lock": lambda b: b.seq(Kind.LOCK),
    "first_refresh": lambda b: b.seq(Kind.REFRESH),
    "first_seance": lambda b: b.seq(Kind.SEANCE),
    "done_give": _done_give,
    "dry": _dry,
    "group_give": lambda b: b.seq(Kind.GROUP_GIVE),
    "stage_two_place": lambda b: b.after(Kind.PLACE, b.seq(Kind.GROUP_GIVE)),
    "culprit_seance": lambda b: b.seq(Kind.CULPRIT_SEANCE),
    "time_up": lambda b: b.seq(Kind.TIME_UP),
    "seance_after_time_up": lambda b: b.after(Kind.SEANCE, b.seq(Kind.TIME_UP)),
    "accusation_after_last_time_up": lambda b: b.after(
        Kind.CULPRIT_SEANCE, b.seq(Kind.TIME_UP, -1)
    ),
    "reveal": lambda b: b.seq(Kind.REVEAL),
}
"""The places of a game a rule game may name (``at``, ``copy`` and ``@place`` values)."""


def rule_games(honest: Base, timed: Base, very_difficult: Base) -> dict[str, RuleGame]:
    """Every rule's tampered game, by file name (without ``.jsonl``), from :data:`RULES_FILE`."""
    bases = {"honest": honest, "timed": timed, "very-difficult": very_difficult}
    specs = tomllib.loads(RULES_FILE.read_text("utf-8"))["vector"]
    games: dict[str, RuleGame] = {}
    for spec in specs:
        name = spec["name"]
        if name in games:
            raise ValueError(f"{RULES_FILE.name}: {name} is there twice")
        games[name] = _game(spec, bases[spec["base"]])
    return games


def _game(spec: dict[str, Any], base: Base) -> RuleGame:
    name = spec["name"]
    at = base.places[spec["at"]] + spec.get("offset", 0)
    data = base.seal(_change(spec, base, at)(base.entries()))
    fails = spec["fails"]
    check, seq, blamed = Check(fails["check"]), at + fails.get("offset", 0), fails["party"]
    error = verify(data).error
    assert error is not None, f"{name}: the tampered game verified"
    found = (error.check, error.seq, error.party)
    assert found == (check.value, seq, blamed), f"{name}: failed {found}: {error.reason}"
    assert spec["says"] in error.reason, f"{name}: {error.reason!r} does not say {spec['says']!r}"
    return RuleGame(name.split("-")[0].upper(), spec["what"], data, check, seq, blamed)


def _change(spec: dict[str, Any], base: Base, at: int) -> Change:
    if "insert" in spec:
        inserted = [_entry(event, base) for event in spec["insert"]]
        return lambda entries: [*entries[:at], *inserted, *entries[at:]]
    if "replace" in spec:
        kind = base.events[at].kind
        body = _body(kind, spec["replace"], base)

        def replace(entries: list[Entry]) -> list[Entry]:
            changed = list(entries)
            changed[at] = changed[at].with_body(body)
            return changed

        return replace
    return CHANGES[spec["change"]](base, at)


def _entry(event: dict[str, Any], base: Base) -> Entry:
    if "copy" in event:
        return base.entries()[base.places[event["copy"]]]
    kind = Kind(event["kind"])
    return Entry(kind, _body(kind, event["body"], base), event.get("seat"))


def _body(kind: Kind, fields: dict[str, Any], base: Base) -> Body:
    values = {key: _value(value, base) for key, value in fields.items()}
    return msgspec.convert(msgspec.to_builtins(values), BODY_TYPES[kind])


_REFERENCE: Final = re.compile(r"@(?P<place>[a-z_]+)(?P<path>(\.[a-z_]+|\[[-0-9:]*\])*)")
_STEP: Final = re.compile(r"\.(?P<field>[a-z_]+)|\[(?P<index>[-0-9:]*)\]")


def _value(value: Any, base: Base) -> Any:
    """A body's value: literal, or a reference to a value of the game (see the TOML file)."""
    if isinstance(value, list):
        return [_value(item, base) for item in value]
    if not isinstance(value, str) or not value.startswith("@"):
        return value
    if value == "@null":
        return None
    if value == "@stranger":
        return _stranger(base)
    match = _REFERENCE.fullmatch(value)
    if match is None:
        raise ValueError(f"{RULES_FILE.name}: {value!r} is not a reference")
    found: Any = base.entries()[base.places[match["place"]]].body
    for step in _STEP.finditer(match["path"]):
        if step["field"] is not None:
            found = getattr(found, step["field"])
        elif ":" in step["index"]:
            found = found[
                slice(*(int(part) if part else None for part in step["index"].split(":")))
            ]
        else:
            found = found[int(step["index"])]
    return found


def _stranger(base: Base) -> str:
    """A Character of the tableau that no investigator found (Stage Two may not accuse it)."""
    deal = base.events[base.places["deal"]].body
    assert isinstance(deal, DealBody)
    state = base.state_after(base.places["group_give"]).ledger.state
    assert state is not None
    grouped = {investigator.found[0] for investigator in state.investigators}
    return next(card for card in deal.tableau.character if card not in grouped)


# --- the changes too particular for an insert or a replace --------------------------------


def _call_no_guess_correct(base: Base, seance_seq: int) -> Change:
    """The séance after a time-up calls the seats that made no guess correct."""
    entries = base.entries()
    time_up = entries[base.places["time_up"]].body
    judged = entries[seance_seq].body
    assert isinstance(time_up, TimeUpBody) and time_up.no_guess
    assert isinstance(judged, SeanceBody)
    flattered = tuple(
        VerdictBody(v.seat, True, None) if v.seat in time_up.no_guess else v
        for v in judged.verdicts
    )

    def change(changed: list[Entry]) -> list[Entry]:
        changed = list(changed)
        changed[seance_seq] = changed[seance_seq].with_body(SeanceBody(flattered))
        return changed

    return change


def _both_markers_on_one_card(base: Base, seance_seq: int) -> Change:
    """Day 1 again, seat 2's marker on seat 1's card, and both called correct."""
    entries = base.entries()
    places = [e.seq for e in base.events[:seance_seq] if e.kind is Kind.PLACE]
    first, second = places[0], places[-1]
    card = entries[first].body
    assert isinstance(card, PlaceBody)
    seance = entries[seance_seq].body
    assert isinstance(seance, SeanceBody)
    opening = seance.verdicts[0].opening
    verdicts = (seance.verdicts[0], VerdictBody(2, True, opening))

    def change(changed: list[Entry]) -> list[Entry]:
        changed = list(changed)
        changed[second] = changed[second].with_body(card)
        changed[seance_seq] = changed[seance_seq].with_body(SeanceBody(verdicts))
        return changed

    return change


CHANGES: Final[dict[str, Callable[[Base, int], Change]]] = {
    "call-no-guess-correct": _call_no_guess_correct,
    "both-markers-on-one-card": _both_markers_on_one_card,
}
"""The named changes of the TOML file's ``change``."""
