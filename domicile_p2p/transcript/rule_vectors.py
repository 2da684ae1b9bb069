"""One tampered game per public rule of ``protocol/SPEC.md`` §12.2, for ``protocol/vectors``.

Each game is an honest self-played game (the vectors' ``honest``, ``time-up``
or a very-difficult game of the same seed) with one event changed, added or
removed, then counted, chained and signed again with the game's keys
(:func:`~domicile_p2p.transcript.forge.seal`), as a cheating host with its
players' keys could.  So the first failure of each is the rule it breaks,
at the event that breaks it: :func:`rule_games` checks that it is (the
check, the party, and the rule's words in the reason) before a vector is
written, so a game that fails for another reason is a bug here, not a vector.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from domicile_p2p.rules import GHOST, HAND_SIZE, Phase
from domicile_p2p.transcript.codec import Event
from domicile_p2p.transcript.errors import HOST, Check, party
from domicile_p2p.transcript.files import encode_transcript
from domicile_p2p.transcript.forge import Entry, entries_of, renumber, seal
from domicile_p2p.transcript.replica import Replica
from domicile_p2p.transcript.schema import (
    AbortBody,
    Body,
    ChatBody,
    CulpritSeanceBody,
    DealBody,
    GiveBody,
    GroupGiveBody,
    Kind,
    LockBody,
    PlaceBody,
    RefreshBody,
    SeanceBody,
    SlotCommitsBody,
    TimeUpBody,
    UnlockBody,
    VerdictBody,
)
from domicile_p2p.transcript.selfplay import Seating
from domicile_p2p.transcript.verify import verify

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


@dataclass(frozen=True, slots=True)
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

    def state_after(self, seq: int) -> Replica:
        replica = Replica(self.events[0])
        for event in self.events[1 : seq + 1]:
            replica.receive(event)
        return replica

    def seal(self, entries: Sequence[Entry]) -> bytes:
        events = seal(renumber(entries), host=self.seating.host, seats=self.seating.identities)
        return encode_transcript(events)


def _insert(at: int, entry: Entry) -> Change:
    def change(entries: list[Entry]) -> list[Entry]:
        return [*entries[:at], entry, *entries[at:]]

    return change


def _replace(at: int, body: Body) -> Change:
    def change(entries: list[Entry]) -> list[Entry]:
        changed = list(entries)
        changed[at] = changed[at].with_body(body)
        return changed

    return change


def _action(kind: Kind, body: Body, seat: int) -> Entry:
    return Entry(kind, body, seat)


def _statement(kind: Kind, body: Body) -> Entry:
    return Entry(kind, body)


_SEAT_1: Final = party(1)
_GHOST: Final = party(GHOST)


def rule_games(honest: Base, timed: Base, very_difficult: Base) -> dict[str, RuleGame]:
    """Every rule's tampered game, by file name (without ``.jsonl``)."""
    games: dict[str, RuleGame] = {}

    def add(
        name: str,
        base: Base,
        change: Change,
        expect: tuple[Check, int, str],
        words: str,
        what: str,
    ) -> None:
        data = base.seal(change(base.entries()))
        report = verify(data)
        error = report.error
        check, seq, blamed = expect
        assert error is not None, f"{name}: the tampered game verified"
        found = (error.check, error.seq, error.party)
        assert found == (check.value, seq, blamed), f"{name}: failed {found}: {error.reason}"
        assert words in error.reason, f"{name}: {error.reason!r} does not say {words!r}"
        games[name] = RuleGame(name.split("-")[0].upper(), what, data, check, seq, blamed)

    order, rules = Check.EVENT_ORDER, Check.PUBLIC_RULES
    deal = honest.seq(Kind.DEAL)
    slots = honest.seq(Kind.SLOT_COMMITS)
    first_give = honest.seq(Kind.GIVE)
    first_place = honest.seq(Kind.PLACE)
    first_lock = honest.seq(Kind.LOCK)
    second_give = honest.seq(Kind.GIVE, 1)
    first_seance = honest.seq(Kind.SEANCE)
    group_give = honest.seq(Kind.GROUP_GIVE)
    culprit_seance = honest.seq(Kind.CULPRIT_SEANCE)
    entries = honest.entries()

    # --- protocol order (check 7)
    add(
        "p1-chat-instead-of-the-deal",
        honest,
        _insert(deal, _action(Kind.CHAT, ChatBody("hello"), 1)),
        (order, deal, HOST),
        "had to publish the deal now",
        "a chat where the host's deal is due",
    )
    add(
        "p1-give-by-an-investigator-instead-of-the-deal",
        honest,
        _insert(deal, _action(Kind.GIVE, GiveBody(2, ("dream-05",)), 1)),
        (order, deal, HOST),
        "had to publish the deal now",
        "seat 1 sends a give where the host's deal is due: P1 (the host) is tested before P2",
    )
    add(
        "p2-give-by-an-investigator",
        honest,
        _insert(first_give, _action(Kind.GIVE, GiveBody(2, ("dream-05",)), 1)),
        (order, first_give, _SEAT_1),
        "only the Ghost may send give",
        "seat 1 sends a give",
    )
    add(
        "p2-chat-by-the-ghost",
        honest,
        _insert(first_place, _action(Kind.CHAT, ChatBody("boo"), GHOST)),
        (order, first_place, _GHOST),
        "the Ghost may not send chat",
        "the Ghost chats: blamed on the Ghost, not the host",
    )
    add(
        "p3-second-ghost-commit",
        honest,
        _insert(2, entries[1]),
        (order, 2, HOST),
        "commits to its seed once",
        "the Ghost's commitment twice",
    )
    commits = entries[slots].body
    assert isinstance(commits, SlotCommitsBody)
    add(
        "p4-slot-commits-out-of-seat-order",
        honest,
        _replace(slots, SlotCommitsBody(tuple(reversed(commits.columns)), commits.culprit)),
        (order, slots, _GHOST),
        "must cover seats [1, 2] in order",
        "the slot commitments list seat 2's column before seat 1's",
    )
    add(
        "p5-place-before-the-slot-commitments",
        honest,
        _insert(slots, _action(Kind.PLACE, PlaceBody("char-08"), 1)),
        (order, slots, HOST),
        "the game has not started",
        "a move between the deal and the slot commitments",
    )
    aborted = _insert(first_place, _statement(Kind.ABORT, AbortBody("seat 2 left", (2,))))
    add(
        "p5-chat-after-an-abort",
        honest,
        lambda changed: _insert(first_place + 1, _action(Kind.CHAT, ChatBody("bye"), 1))(
            aborted(changed)
        ),
        (order, first_place + 1, HOST),
        "chat is not possible now: the game is over",
        "an investigator chats after the host aborted: only the Ghost's reveal may follow",
    )
    deal_body = entries[deal].body
    assert isinstance(deal_body, DealBody)
    add(
        "p6-second-deal",
        honest,
        _insert(first_give, _statement(Kind.DEAL, deal_body)),
        (order, first_give, HOST),
        "a deal statement is not due now",
        "the host states the deal again during play",
    )
    add(
        "p7-abort-naming-a-seat-not-at-the-table",
        honest,
        _insert(first_give, _statement(Kind.ABORT, AbortBody("seat 5 left", (5,)))),
        (order, first_give, HOST),
        "that are not this table's",
        "an abort naming seat 5 at a table of 2 investigators",
    )
    add(
        "p8-reveal-during-play",
        honest,
        _insert(first_place, entries[-1]),
        (order, first_place, HOST),
        "reveals its seed once, when the game is over or aborted",
        "the Ghost's reveal in the middle of the game",
    )
    add(
        "p9-time-up-during-the-setup",
        honest,
        _insert(2, _statement(Kind.TIME_UP, TimeUpBody((), (1, 2)))),
        (order, 2, HOST),
        "time cannot run out now",
        "a time-up before the game started",
    )

    # --- the Ghost's gives (check 10)
    give = entries[first_give].body
    assert isinstance(give, GiveBody)
    add(
        "g0-give-during-the-investigation",
        honest,
        _insert(second_give + 1, _action(Kind.GIVE, GiveBody(1, ("dream-05",)), GHOST)),
        (rules, second_give + 1, _GHOST),
        "no one may give dream cards now: the investigators are deciding",
        "a give once every investigator was served (the investigation)",
    )
    add(
        "g1-give-to-a-seat-not-at-the-table",
        honest,
        _replace(first_give, GiveBody(3, give.cards)),
        (rules, first_give, _GHOST),
        "there is no investigator in seat 3",
        "a give to seat 3 at a table of 2 investigators",
    )
    done_give = honest.seq(Kind.GIVE, 8)  # day 5: seat 1 holds three cards
    later = entries[done_give].body
    assert isinstance(later, GiveBody) and later.to == 2
    add(
        "g2-give-to-an-investigator-who-is-done",
        honest,
        _replace(done_give, GiveBody(1, later.cards)),
        (rules, done_give, _GHOST),
        "needs no more dreams",
        "a give to seat 1 after it found all three cards",
    )
    second = entries[second_give].body
    assert isinstance(second, GiveBody)
    add(
        "g3-second-give-to-one-investigator",
        honest,
        _replace(second_give, GiveBody(1, second.cards)),
        (rules, second_give, _GHOST),
        "has already received dreams today",
        "two gives to seat 1 in one round",
    )
    add(
        "g4-empty-give",
        honest,
        _replace(first_give, GiveBody(give.to, ())),
        (rules, first_give, _GHOST),
        "a give has at least one dream card",
        "a give of no card while the hand holds seven",
    )
    add(
        "g5-one-card-twice-in-a-give",
        honest,
        _replace(first_give, GiveBody(give.to, (give.cards[0], give.cards[0]))),
        (rules, first_give, _GHOST),
        "can be given only once",
        "the same dream card twice in one give",
    )
    add(
        "g6-card-not-of-the-game",
        honest,
        _replace(first_give, GiveBody(give.to, ("dream-99",))),
        (rules, first_give, _GHOST),
        "is not a dream card of this game",
        "a give of a dream id the genesis does not list",
    )
    add(
        "g7-card-already-face-up",
        honest,
        _replace(second_give, GiveBody(second.to, (give.cards[0],))),
        (rules, second_give, _GHOST),
        "is already face up on the table",
        "a give of the card seat 1 already holds face up",
    )
    add(
        "g8-more-cards-than-the-hand",
        honest,
        _replace(first_give, GiveBody(give.to, tuple(f"dream-{n:02d}" for n in range(1, 9)))),
        (rules, first_give, _GHOST),
        "holds only 7 dream cards",
        "a give of eight cards from a hand of seven",
    )
    group = entries[group_give].body
    assert isinstance(group, GroupGiveBody)
    add(
        "g9-group-give-of-two",
        honest,
        _replace(group_give, GroupGiveBody(group.cards[:2])),
        (rules, group_give, _GHOST),
        "receives exactly 3 dream cards, not 2",
        "Stage Two's group give of two cards",
    )

    # --- refreshes (check 10)
    refresh = _action(Kind.REFRESH, RefreshBody(), GHOST)
    add(
        "f1-refresh-after-the-last-give",
        honest,
        _insert(second_give + 1, refresh),
        (rules, second_give + 1, _GHOST),
        "no one may refresh the hand now",
        "a refresh once every investigator was served (the investigation)",
    )
    vd_give = very_difficult.seq(Kind.GIVE)
    add(
        "f2-refresh-at-very-difficult",
        very_difficult,
        _insert(vd_give, refresh),
        (rules, vd_give, _GHOST),
        "Very difficult allows no refreshes",
        "a refresh at a very-difficult table",
    )
    first_refresh = honest.seq(Kind.REFRESH)
    add(
        "f3-second-refresh-in-a-round",
        honest,
        _insert(first_refresh + 1, refresh),
        (rules, first_refresh + 1, _GHOST),
        "Easy allows at most 1 refresh per round",
        "two refreshes in one round at an easy table",
    )
    dry = _dry_dreams(honest)
    add(
        "f4-refresh-without-a-whole-hand-to-draw",
        honest,
        _insert(dry, refresh),
        (rules, dry, _GHOST),
        "fewer than a new hand of 7",
        "a refresh while the deck and the discard pile hold fewer than seven cards",
    )

    # --- markers (check 10)
    def marker(kind: Kind, seat: int, card: str | None = None) -> Entry:
        if kind is Kind.PLACE:
            assert card is not None
            return _action(kind, PlaceBody(card), seat)
        return _action(kind, LockBody() if kind is Kind.LOCK else UnlockBody(), seat)

    add(
        "m1-place-during-the-seance",
        honest,
        _insert(first_seance, marker(Kind.PLACE, 1, "char-01")),
        (rules, first_seance, _SEAT_1),
        "no one may move a marker now: the séance is under way",
        "a marker moved once every marker was locked",
    )
    add(
        "m1-unlock-after-the-investigation",
        honest,
        _insert(first_seance, marker(Kind.UNLOCK, 1)),
        (rules, first_seance, _SEAT_1),
        "no one may unlock a marker now: the séance is under way",
        "Stage One: an unlock after the investigation ended",
    )
    add(
        "m1-stage-two-place-before-the-group-give",
        honest,
        _insert(group_give, marker(Kind.PLACE, 1, "char-08")),
        (rules, group_give, _SEAT_1),
        "no one may move a marker now: the Ghost is sending the group",
        "Stage Two: a marker placed before the group give",
    )
    add(
        "m1-stage-two-unlock-after-the-unanimous-lock",
        honest,
        _insert(culprit_seance, marker(Kind.UNLOCK, 1)),
        (rules, culprit_seance, _SEAT_1),
        "no one may unlock a marker now: the séance of the accusation is under way",
        "Stage Two: an unlock once every marker is locked on one Character",
    )
    add(
        "m2-move-a-locked-marker",
        honest,
        _insert(first_lock + 1, marker(Kind.PLACE, 1, "char-01")),
        (rules, first_lock + 1, _SEAT_1),
        "marker is locked; unlock it first",
        "seat 1 moves its locked marker",
    )
    add(
        "m3-place-by-an-investigator-who-is-done",
        honest,
        _insert(done_give + 1, marker(Kind.PLACE, 1, "item-01")),
        (rules, done_give + 1, _SEAT_1),
        "has found all three cards and waits for the others",
        "seat 1, holding three cards, places a marker",
    )
    add(
        "m4-place-before-the-give",
        honest,
        _insert(first_give, marker(Kind.PLACE, 2, "char-01")),
        (rules, first_give, party(2)),
        "has no dreams yet today",
        "seat 2 places before the Ghost served it",
    )
    add(
        "m5-place-off-the-tableau",
        honest,
        _replace(first_place, PlaceBody("char-99")),
        (rules, first_place, _SEAT_1),
        "is not on the Clue Tableau",
        "a marker on a card the tableau does not hold",
    )
    tableau = deal_body.tableau
    add(
        "m6-place-on-the-wrong-category",
        honest,
        _replace(first_place, PlaceBody(tableau.location[0])),
        (rules, first_place, _SEAT_1),
        "must find a Character before a Location",
        "seat 1 seeks a Character and marks a Location",
    )
    stage_two_place = honest.seq(Kind.PLACE, _count_before(honest, Kind.PLACE, group_give))
    stage_two = honest.state_after(group_give).state
    assert stage_two is not None
    grouped = {investigator.found[0] for investigator in stage_two.investigators}
    stranger = next(card for card in tableau.character if card not in grouped)
    add(
        "m7-stage-two-accuse-a-character-not-grouped",
        honest,
        _replace(stage_two_place, PlaceBody(stranger)),
        (rules, stage_two_place, _SEAT_1),
        "must accuse a Character of the grouped tableau",
        "Stage Two: a marker on a Character nobody found",
    )
    add(
        "m8-lock-without-a-marker",
        honest,
        _insert(first_place, marker(Kind.LOCK, 1)),
        (rules, first_place, _SEAT_1),
        "must place the marker before locking it",
        "seat 1 locks before placing",
    )
    add(
        "m9-lock-a-locked-marker",
        honest,
        _insert(first_lock + 1, marker(Kind.LOCK, 1)),
        (rules, first_lock + 1, _SEAT_1),
        "marker is already locked",
        "seat 1 locks twice",
    )
    add(
        "m10-unlock-an-unlocked-marker",
        honest,
        _insert(first_place + 1, marker(Kind.UNLOCK, 1)),
        (rules, first_place + 1, _SEAT_1),
        "marker is not locked",
        "seat 1 unlocks a marker it never locked",
    )

    # --- chat (check 10)
    add(
        "c1-blank-chat",
        honest,
        _insert(first_place, _action(Kind.CHAT, ChatBody(" \t\u3000"), 1)),
        (rules, first_place, _SEAT_1),
        "a chat message cannot be empty",
        "a chat of whitespace only (a space, a tab, an ideographic space)",
    )

    # --- séances (check 10)
    seance = entries[first_seance].body
    assert isinstance(seance, SeanceBody)
    add(
        "s1-seance-before-every-marker-is-locked",
        honest,
        _insert(second_give + 1, entries[first_seance]),
        (rules, second_give + 1, _GHOST),
        "no one may announce the séance now",
        "the séance while seat 2 has not locked",
    )
    add(
        "s2-seance-forgets-a-seat",
        honest,
        _replace(first_seance, SeanceBody(seance.verdicts[:1])),
        (rules, first_seance, _GHOST),
        "must judge every active investigator exactly once",
        "a séance that judges seat 1 only",
    )
    add(
        "s3-verdicts-out-of-seat-order",
        honest,
        _replace(first_seance, SeanceBody(tuple(reversed(seance.verdicts)))),
        (rules, first_seance, _GHOST),
        "verdicts are listed in seat order",
        "the séance lists seat 2's verdict first",
    )
    time_up = timed.seq(Kind.TIME_UP)
    timed_entries = timed.entries()
    time_up_body = timed_entries[time_up].body
    assert isinstance(time_up_body, TimeUpBody) and time_up_body.no_guess
    after_time_up = timed.seq(Kind.SEANCE, _count_before(timed, Kind.SEANCE, time_up))
    judged = timed_entries[after_time_up].body
    assert isinstance(judged, SeanceBody)
    flattered = tuple(
        VerdictBody(v.seat, True, None) if v.seat in time_up_body.no_guess else v
        for v in judged.verdicts
    )
    add(
        "s4-no-guess-called-correct",
        timed,
        _replace(after_time_up, SeanceBody(flattered)),
        (rules, after_time_up, _GHOST),
        "made no guess today",
        "after a time-up, a seat without a marker is called correct",
    )
    same_card = _same_marker_seance(honest, first_seance)
    add(
        "s5-one-card-found-twice",
        honest,
        same_card,
        (rules, first_seance, _GHOST),
        "cannot be found twice",
        "both markers on one card, both called correct",
    )
    last_time_up = timed.seq(Kind.TIME_UP, 1)
    nobody = timed_entries[last_time_up].body
    assert isinstance(nobody, TimeUpBody) and nobody.no_guess
    accusation = timed.seq(
        Kind.CULPRIT_SEANCE, _count_before(timed, Kind.CULPRIT_SEANCE, last_time_up)
    )
    add(
        "s6-no-accusation-called-correct",
        timed,
        _replace(accusation, CulpritSeanceBody(True, None)),
        (rules, accusation, _GHOST),
        "before the group agreed on one Character",
        "Stage Two after a time-up with no marker placed: the accusation called correct",
    )

    # --- the sand-glass (check 10, the host)
    add(
        "t1-time-up-without-a-sand-glass",
        honest,
        _insert(second_give + 1, _statement(Kind.TIME_UP, TimeUpBody((1,), (2,)))),
        (rules, second_give + 1, HOST),
        "without a sand-glass",
        "a time-up at a table whose genesis has no timer",
    )
    first_timed_seance = timed.seq(Kind.SEANCE)
    add(
        "t2-time-up-during-the-seance",
        timed,
        _insert(first_timed_seance, _statement(Kind.TIME_UP, TimeUpBody((), ()))),
        (rules, first_timed_seance, HOST),
        "no one may call time now: the séance is under way",
        "a time-up once every marker was locked",
    )
    add(
        "t3-time-up-locks-a-marker-never-placed",
        timed,
        _replace(time_up, TimeUpBody((1, 2), ())),
        (rules, time_up, HOST),
        "time's up must lock the placed markers of seats [1]",
        "a time-up that locks seat 2, which had no marker",
    )
    return games


def _count_before(base: Base, kind: Kind, seq: int) -> int:
    """How many events of ``kind`` come before ``seq``: the index of the next one."""
    return sum(1 for event in base.events[:seq] if event.kind is kind)


def _dry_dreams(base: Base) -> int:
    """The first ``seq`` after which the Ghost may refresh but cannot draw a whole new hand."""
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
    raise AssertionError("the game never runs short of a new hand in a dreams phase")


def _same_marker_seance(base: Base, seance_seq: int) -> Change:
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
