"""Build transcripts that a cheating host, Ghost or player could produce.

The verifier is only as good as the forgeries it is shown.  Given every
key (self-play derives them all from a seed), :func:`seal` turns a list of
:class:`Entry` values into properly chained and signed events *without any
of the table's checks*, so a test or a test vector can take an honest game,
change one thing (a verdict, a commitment, a seed, the order) and sign it
all again, exactly as a host colluding with the Ghost could.

Nothing in the game uses this module: it exists for ``protocol/vectors``
and the tests.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from domicile_p2p.identity import Identity
from domicile_p2p.rules.records import replace
from domicile_p2p.transcript.codec import GENESIS_PREV, Event, SignedAction
from domicile_p2p.transcript.schema import Body, GenesisBody, Kind


@dataclass(frozen=True, slots=True)
class Entry:
    """One event before sealing: a host statement (``seat=None``) or a player's action.

    A player's action keeps its original ``sig`` when one is given (a replay
    needs no key); with ``sig=None`` it is signed afresh with the seat's key.
    """

    kind: Kind
    body: Body
    seat: int | None = None
    counter: int | None = None
    sig: str | None = None

    def with_body(self, body: Body) -> Entry:
        """The same entry with another body (to be signed again)."""
        return replace(self, body=body, sig=None)


def entries_of(events: Iterable[Event]) -> list[Entry]:
    """The entries of an existing transcript (signatures kept)."""
    return [Entry(e.kind, e.body, e.seat, e.counter, e.sig) for e in events]


def renumber(entries: Sequence[Entry]) -> list[Entry]:
    """Give every player action the next counter of its seat (dropping stale signatures)."""
    counters: dict[int, int] = {}
    result = []
    for entry in entries:
        if entry.seat is None:
            result.append(entry)
            continue
        counter = counters.get(entry.seat, 0) + 1
        counters[entry.seat] = counter
        result.append(
            entry if entry.counter == counter else replace(entry, counter=counter, sig=None)
        )
    return result


def seal(entries: Sequence[Entry], *, host: Identity, seats: Sequence[Identity]) -> list[Event]:
    """Chain and sign ``entries`` (the first must be the genesis) with the given keys."""
    genesis = entries[0].body
    if not isinstance(genesis, GenesisBody):
        raise ValueError("the first entry must be a genesis")
    game = genesis.game
    game_id = bytes.fromhex(game)
    events: list[Event] = []
    prev = GENESIS_PREV
    for seq, entry in enumerate(entries):
        if entry.seat is None:
            event = Event.create(
                host, game_id=game_id, seq=seq, prev=prev, statement=(entry.kind, entry.body)
            )
        else:
            counter = entry.counter if entry.counter is not None else 1
            action = SignedAction.create(
                seats[entry.seat],
                game=game,
                seat=entry.seat,
                counter=counter,
                kind=entry.kind,
                body=entry.body,
            )
            if entry.sig is not None:
                action = replace(action, sig=entry.sig, value={**action.value, "sig": entry.sig})
            event = Event.create(host, game_id=game_id, seq=seq, prev=prev, action=action)
        events.append(event)
        prev = event.link().hex()
    return events
