"""Who wrote an event and where it sits: the hash chain, the signatures, the counters.

:class:`Chain` checks the authenticity of events before the
:class:`~domicile_p2p.transcript.ledger.Ledger` looks at what they mean:

- the hash chain: event ``n`` has ``seq == n`` and ``prev`` is the link hash
  of event ``n - 1`` (so nothing can be dropped, inserted or swapped);
- the host's signature on every event;
- for a player's action: the seat exists, the seat's key signed it, and its
  counter is exactly one more than that seat's previous action (so an
  action cannot be replayed, in this game or, thanks to the game id in the
  signature, in another).

Each signature is verified exactly once.
"""

from __future__ import annotations

from domicile_p2p.transcript.codec import GENESIS_PREV, Event, SignedAction
from domicile_p2p.transcript.errors import HOST, Check, Fault
from domicile_p2p.transcript.ledger import TableSetup


def host_signature_fault() -> Fault:
    """What to raise when an event's ``host_sig`` does not verify."""
    return Fault(Check.HOST_SIGNATURES, HOST, "the host's signature does not verify")


class Chain:
    """The authenticity state of a transcript: the next ``seq``, the head link, the counters."""

    __slots__ = ("_counters", "_game", "_seats", "head", "next_seq", "table_setup")

    def __init__(self, table_setup: TableSetup) -> None:
        self.table_setup = table_setup
        self._game = table_setup.genesis.game
        self._seats = table_setup.seats  # asked for every action: built once
        self.next_seq = 0
        self.head = GENESIS_PREV
        self._counters = [0] * len(table_setup.seats)

    def last_counter(self, seat: int) -> int:
        """The counter of ``seat``'s last accepted action (0 before its first)."""
        return self._counters[seat]

    # ----------------------------------------------------------------- checks

    def check_link(self, event: Event) -> None:
        if event.seq != self.next_seq:
            raise Fault(
                Check.HASH_CHAIN,
                HOST,
                f"event number {event.seq} where event {self.next_seq} was due "
                "(an event was dropped, inserted or moved)",
            )
        if event.prev != self.head:
            raise Fault(
                Check.HASH_CHAIN,
                HOST,
                "prev is not the hash of the previous event (the history was changed)",
            )

    def check_host_signature(self, event: Event) -> None:
        if not event.host_signature_valid(self.table_setup.host_key, self.table_setup.game_id):
            raise host_signature_fault()

    def check_player(self, event: Event) -> None:
        """The signature and counter of the action inside ``event`` (a host fault if wrong)."""
        seat, counter = event.seat, event.counter
        if seat is None or counter is None:
            return
        self.check_seat(seat, blame=HOST)
        if not event.player_signature_valid(self.table_setup.seat_keys[seat], self._game):
            raise self.signature_fault(seat, blame=HOST)
        self.check_counter(seat, counter, blame=HOST)

    def check_action(self, action: SignedAction, *, blame: str) -> None:
        """Check a signed action: right game, a seat of this table, its key, the next counter."""
        if action.game != self._game:
            raise Fault(Check.PLAYER_SIGNATURES, blame, "the action was signed for another game")
        self.check_seat(action.seat, blame=blame)
        if not action.signature_valid(self.table_setup.seat_keys[action.seat]):
            raise self.signature_fault(action.seat, blame=blame)
        self.check_counter(action.seat, action.counter, blame=blame)

    def check_seat(self, seat: int, *, blame: str) -> None:
        """The seat must be one of this table's (only then does it have a key)."""
        if seat not in self._seats:
            raise Fault(Check.PLAYER_SIGNATURES, blame, f"there is no seat {seat}")

    def signature_fault(self, seat: int, *, blame: str) -> Fault:
        """What to raise when an action's signature is not its seat's."""
        return Fault(
            Check.PLAYER_SIGNATURES,
            blame,
            f"the signature is not {self.table_setup.describe(seat)}'s",
        )

    def check_counter(self, seat: int, counter: int, *, blame: str) -> None:
        """The counter must be exactly one more than the seat's previous action's."""
        expected = self._counters[seat] + 1
        if counter != expected:
            raise Fault(
                Check.PLAYER_SIGNATURES,
                blame,
                f"{self.table_setup.describe(seat)}'s action counter is {counter}, "
                f"but {expected} was due" + (" (a replayed action)" if counter < expected else ""),
            )

    def check(self, event: Event) -> None:
        """Every authenticity check of ``event``, in order."""
        self.check_link(event)
        self.check_host_signature(event)
        self.check_player(event)

    # ----------------------------------------------------------------- update

    def accept(self, event: Event) -> None:
        """Move past ``event`` (already checked)."""
        self.next_seq = event.seq + 1
        self.head = event.link().hex()
        # An unknown seat is the player-signature check's to refuse; the link passes
        # of ``verify`` move past it before that check runs.
        seat = event.seat
        if seat is not None and seat in self._seats and event.counter is not None:
            self._counters[seat] = event.counter
