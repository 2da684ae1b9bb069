"""``verify``: an honest game passes every check; every kind of cheat fails exactly its check.

Each forgery below is what a cheating host, Ghost or player could actually
produce: it is signed again with the game's keys wherever the cheater holds
them, so the verifier must find the lie by what it means, not by a broken
signature.  Every test checks the failing check's name, the event ``seq``
and the party blamed, and that every check before it passed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from msgspec.structs import replace as revise
from transcript_support import (
    CARDS,
    PACK_HASH,
    PACK_ID,
    CheatingGhost,
    Game,
    forge,
    honest_game,
    index_of,
    reseal,
    transcript,
)

from domicile_p2p.fairness.commit import slot_commitment
from domicile_p2p.rules import GHOST, Give, Phase, Stage
from domicile_p2p.transcript import Check, Event
from domicile_p2p.transcript.files import encode_transcript
from domicile_p2p.transcript.packref import PackIdentity
from domicile_p2p.transcript.schema import (
    AbortBody,
    ChatBody,
    CulpritSeanceBody,
    DealBody,
    EntropyCommitBody,
    GameOverBody,
    GenesisBody,
    GhostCommitBody,
    Kind,
    Opening,
    PlaceBody,
    RevealBody,
    SeanceBody,
    SlotCommitsBody,
    TableauBody,
    VerdictBody,
)
from domicile_p2p.transcript.selfplay import PlainPolicy
from domicile_p2p.transcript.verify import VerifyReport, verify
from protocol_tools.forge import Entry, entries_of, renumber

DATA = Path(__file__).resolve().parent / "data"
"""``protocol-v1-honest.jsonl``: the protocol vectors' honest game as protocol 1 wrote it."""

LOST = (1, 2)
"""Seed and investigators of an honest game lost in Stage One (some slots never opened)."""
WON = (4, 1)
"""Seed and investigators of an honest game won in Stage Two."""

ORDER = [check.value for check in Check]


@pytest.fixture(autouse=True)
def _one_thread_and_several_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ``verify`` below runs on one thread and on three: the reports must be equal."""
    real = verify

    def both(source: object, **options: object) -> VerifyReport:
        alone = real(source, jobs=1, **options)  # type: ignore[arg-type]
        threaded = real(source, jobs=3, **options)  # type: ignore[arg-type]
        assert threaded.to_json() == alone.to_json()
        return threaded

    monkeypatch.setitem(globals(), "verify", both)


def assert_fails(report: VerifyReport, check: Check, seq: int | None, party: str | None) -> None:
    assert not report.valid, report.summary
    assert report.error is not None
    assert (report.error.check, report.error.seq, report.error.party) == (
        check.value,
        seq,
        party,
    ), report.error
    failed = [c for c in report.checks if not c.ok]
    assert [c.name for c in failed] == [check.value]
    before = ORDER[: ORDER.index(check.value)]
    ran = {c.name for c in report.checks if c.ok}
    assert ran <= set(before)
    assert "not reached" in {n.detail for n in report.not_checked} or check is Check.COMPLETE


def kind_is(kind: Kind) -> Callable[[object], bool]:
    return lambda entry: getattr(entry, "kind", None) is kind


# --------------------------------------------------------------------------- honest games


@pytest.mark.parametrize("game", [LOST, WON, (6, 2), (0, 1)])
def test_an_honest_game_passes_every_check(game: tuple[int, int]) -> None:
    events = honest_game(*game)
    report = verify(transcript(events))
    assert report.valid, report.summary
    assert report.error is None
    assert all(check.ok for check in report.checks)
    names = [c.name for c in report.checks]
    assert names == [name for name in ORDER if name in names]
    assert report.outcome in {"won", "lost"}
    assert report.summary.startswith("VALID")
    assert report.events == len(events)


def test_every_check_runs_on_a_won_game_with_the_pack() -> None:
    pack = PackIdentity(PACK_ID, PACK_HASH, CARDS)
    report = verify(transcript(honest_game(*WON)), pack=pack)
    assert [c.name for c in report.checks] == ORDER
    assert report.not_checked == ()


def test_the_culprit_is_named_by_the_packs_name_for_the_card_when_the_pack_is_known() -> None:
    # The proof read "the culprit was char-14" to players (issue 23 §10).
    names = {card: f"The Person {card[-2:]}" for card in CARDS.character}
    named = verify(
        transcript(honest_game(*WON)), pack=PackIdentity(PACK_ID, PACK_HASH, CARDS, names)
    )
    culprit = {c.name: c.detail for c in named.checks}[Check.CULPRIT.value]
    assert culprit.startswith("the culprit was The Person ") and "char-" not in culprit
    unnamed = verify(transcript(honest_game(*WON)))  # no pack: the card's id, all there is
    assert {c.name: c.detail for c in unnamed.checks}[Check.CULPRIT.value].startswith(
        "the culprit was char-"
    )
    # Words only: the checks (what an outsider's verifier is held to) are the same.
    assert {c.name for c in named.checks} == {c.name for c in unnamed.checks} | {
        Check.CARD_PACK.value
    }


def test_parsed_events_are_counted_in_a_players_words() -> None:
    # "59 events, parsed by the caller" was the proof's first line in the client.
    events = honest_game(*LOST)
    assert verify(list(events)).checks[0].detail == f"{len(events)} events read"


def test_a_lost_stage_one_game_says_why_the_culprit_was_not_checked() -> None:
    report = verify(transcript(honest_game(*LOST)))
    skipped = {n.name: n.detail for n in report.not_checked}
    assert "Stage Two" in skipped[Check.CULPRIT.value]
    assert "no pack was given" in skipped[Check.CARD_PACK.value]


def test_parsed_events_verify_like_their_file() -> None:
    events = honest_game(*LOST)
    assert (
        verify(list(events)).to_json()["checks"][1:]
        == verify(transcript(events)).to_json()["checks"][1:]
    )


def test_the_report_as_json() -> None:
    report = verify(transcript(honest_game(*WON))).to_json()
    assert report["valid"] is True
    assert report["error"] is None
    assert all(set(c) == {"name", "ok", "detail"} for c in report["checks"])
    assert report["outcome"] == "won"


# --------------------------------------------------------------------------- the file and the chain


def test_an_altered_byte_fails_at_that_event() -> None:
    data = transcript(honest_game(*LOST))
    lines = data.split(b"\n")
    line = lines[20]
    at = line.index(b'"sig":"') + 10
    lines[20] = line[:at] + (b"0" if line[at : at + 1] != b"0" else b"1") + line[at + 1 :]
    assert_fails(verify(b"\n".join(lines)), Check.HOST_SIGNATURES, 20, "host")


def test_a_broken_line_fails_the_format_check() -> None:
    lines = transcript(honest_game(*LOST)).split(b"\n")
    lines[5] = lines[5][:-1]
    assert_fails(verify(b"\n".join(lines)), Check.FORMAT, 5, "host")


def test_a_non_canonical_line_fails_the_format_check() -> None:
    lines = transcript(honest_game(*LOST)).split(b"\n")
    lines[3] = lines[3].replace(b'{"body":', b'{ "body":', 1)
    report = verify(b"\n".join(lines))
    assert_fails(report, Check.FORMAT, 3, "host")
    assert "canonical" in report.error.reason  # type: ignore[union-attr]


@pytest.mark.parametrize("field", [b'"card":"', b'"game":"', b'"id":"', b'"host_sig":"'])
def test_a_pattern_field_ending_in_a_line_feed_fails_the_format_check(field: bytes) -> None:
    # JSON Schema's "$" is the end of the string; Python's also matches before a final
    # line feed, which once let a game id or a card id ending in "\n" through check 1.
    lines = transcript(honest_game(*LOST)).split(b"\n")
    at = next(i for i, line in enumerate(lines) if field in line)
    start = lines[at].index(field) + len(field)
    end = lines[at].index(b'"', start)
    lines[at] = lines[at][:end] + b"\\n" + lines[at][end:]
    report = verify(b"\n".join(lines))
    assert_fails(report, Check.FORMAT, at, "host")
    assert "regex" in report.error.reason  # type: ignore[union-attr]


def test_a_cut_short_file_fails_the_format_check() -> None:
    data = transcript(honest_game(*LOST))
    report = verify(data[:-1])
    assert_fails(report, Check.FORMAT, len(honest_game(*LOST)) - 1, None)


def test_a_dropped_event_breaks_the_chain() -> None:
    events = list(honest_game(*LOST))
    del events[12]
    assert_fails(verify(encode_transcript(events)), Check.HASH_CHAIN, 12, "host")


def test_two_swapped_events_break_the_chain() -> None:
    events = list(honest_game(*LOST))
    events[30], events[31] = events[31], events[30]
    assert_fails(verify(encode_transcript(events)), Check.HASH_CHAIN, 30, "host")


def test_a_host_that_reorders_and_re_signs_breaks_the_setup_order() -> None:
    def swap(entries: list[Entry]) -> list[Entry]:
        reveal = index_of(entries, kind_is(Kind.ENTROPY_REVEAL))
        entries[reveal - 1], entries[reveal] = entries[reveal], entries[reveal - 1]
        return entries

    events = forge(*LOST, swap)
    reveal = index_of(events, kind_is(Kind.ENTROPY_REVEAL))
    assert_fails(verify(encode_transcript(events)), Check.EVENT_ORDER, reveal, "host")


def test_a_replayed_action_fails_the_counters() -> None:
    def replay(entries: list[Entry]) -> list[Entry]:
        place = index_of(entries, kind_is(Kind.PLACE))
        return [*entries[: place + 1], entries[place], *entries[place + 1 :]]

    events = forge(*LOST, replay)
    place = index_of(events, kind_is(Kind.PLACE))
    report = verify(encode_transcript(events))
    assert_fails(report, Check.PLAYER_SIGNATURES, place + 1, "host")
    assert "replayed" in report.error.reason  # type: ignore[union-attr]


def test_a_skipped_counter_fails_the_counters() -> None:
    def skip(entries: list[Entry]) -> list[Entry]:
        place = index_of(entries, kind_is(Kind.PLACE))
        counter = entries[place].counter
        assert counter is not None
        entries[place] = replace(entries[place], counter=counter + 1, sig=None)
        return entries

    events = forge(*LOST, skip)
    assert_fails(
        verify(encode_transcript(events)),
        Check.PLAYER_SIGNATURES,
        index_of(events, kind_is(Kind.PLACE)),
        "host",
    )


def test_a_forged_player_signature_is_caught() -> None:
    def change_card(entries: list[Entry]) -> list[Entry]:
        place = index_of(entries, kind_is(Kind.PLACE))
        body = entries[place].body
        assert isinstance(body, PlaceBody)
        other = next(c for c in CARDS.character if c != body.card)
        entries[place] = replace(entries[place], body=PlaceBody(other))  # old signature kept
        return entries

    events = forge(*LOST, change_card)
    place = index_of(events, kind_is(Kind.PLACE))
    assert_fails(verify(encode_transcript(events)), Check.PLAYER_SIGNATURES, place, "host")


def test_an_action_signed_with_another_seats_key_is_caught() -> None:
    events = list(honest_game(*LOST))
    entries = entries_of(events)
    place = index_of(entries, lambda e: getattr(e, "seat", None) == 1 and kind_is(Kind.PLACE)(e))
    entries[place] = replace(entries[place], seat=2, sig=None)
    forged = reseal(entries, *LOST)
    forged[place] = _with_seat(forged[place], 1)  # signed by seat 2, claimed by seat 1
    sealed = reseal(entries_of(forged), *LOST)
    assert_fails(verify(encode_transcript(sealed)), Check.PLAYER_SIGNATURES, place, "host")


def _with_seat(event: Event, seat: int) -> Event:
    return replace(event, seat=seat)


def test_a_transcript_of_another_host_key_fails_the_host_signatures() -> None:
    events = list(honest_game(*LOST))
    other = list(honest_game(*WON))
    mixed = encode_transcript([*events[:1], *other[1:]])
    assert_fails(verify(mixed), Check.HOST_SIGNATURES, 1, "host")


# --------------------------------------------------------------------------- genesis and setup


def _genesis_change(change: Callable[[GenesisBody], GenesisBody]) -> list[Event]:
    def apply(entries: list[Entry]) -> list[Entry]:
        body = entries[0].body
        assert isinstance(body, GenesisBody)
        entries[0] = entries[0].with_body(change(body))
        return entries

    return forge(*LOST, apply)


@pytest.mark.parametrize("version", [1, 4])
def test_a_transcript_of_another_protocol_version_is_refused_not_judged(version: int) -> None:
    events = _genesis_change(lambda body: revise(body, protocol=version))
    for source in (encode_transcript(events), events):
        report = verify(source)
        assert not report.recognized and not report.valid
        assert f"protocol version {version}" in report.summary
        assert report.error is not None and report.error.seq is None


def test_the_kept_protocol_1_transcript_is_refused_with_the_reason() -> None:
    report = verify(DATA / "protocol-v1-honest.jsonl")
    assert not report.recognized
    assert "protocol version 1, which this program no longer verifies" in report.summary
    assert "refresh rule" in report.summary


@pytest.mark.parametrize(
    "key",
    [
        "01" + "00" * 31,  # the identity: small order
        "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",  # order 8
        "ee" + "ff" * 30 + "7f",  # y = p + 1: not canonical
        "02" + "00" * 31,  # not on the curve
    ],
)
def test_a_genesis_naming_an_invalid_key_fails_at_the_genesis_check(key: str) -> None:
    def weak(body: GenesisBody) -> GenesisBody:
        seats = list(body.seats)
        seats[2] = revise(seats[2], key=key)
        return revise(body, seats=tuple(seats))

    events = _genesis_change(weak)
    report = verify(encode_transcript(events))
    assert_fails(report, Check.GENESIS, 0, "host")
    assert report.error is not None and "prime-order subgroup" in report.error.reason


def test_a_genesis_with_one_key_for_two_seats_fails() -> None:
    def same_key(body: GenesisBody) -> GenesisBody:
        seats = list(body.seats)
        seats[2] = revise(seats[2], key=seats[0].key)
        return revise(body, seats=tuple(seats))

    assert_fails(verify(encode_transcript(_genesis_change(same_key))), Check.GENESIS, 0, "host")


def test_a_genesis_with_unsorted_cards_fails() -> None:
    def unsorted(body: GenesisBody) -> GenesisBody:
        cards = body.cards
        return revise(body, cards=revise(cards, item=tuple(reversed(cards.item))))

    assert_fails(verify(encode_transcript(_genesis_change(unsorted))), Check.GENESIS, 0, "host")


def test_a_changed_entropy_commitment_is_caught_at_the_reveal() -> None:
    def change(entries: list[Entry]) -> list[Entry]:
        commit = index_of(entries, kind_is(Kind.ENTROPY_COMMIT))
        entries[commit] = entries[commit].with_body(EntropyCommitBody("66" * 32))
        return entries

    events = forge(*LOST, change)
    seat = events[index_of(events, kind_is(Kind.ENTROPY_COMMIT))].seat
    reveal = index_of(events, lambda e: kind_is(Kind.ENTROPY_REVEAL)(e) and e.seat == seat)  # type: ignore[attr-defined]
    assert_fails(verify(encode_transcript(events)), Check.ENTROPY, reveal, f"seat {seat}")


def test_a_changed_ghost_commitment_changes_the_joint_seed() -> None:
    def change(entries: list[Entry]) -> list[Entry]:
        commit = index_of(entries, kind_is(Kind.GHOST_COMMIT))
        entries[commit] = entries[commit].with_body(GhostCommitBody("77" * 32))
        return entries

    events = forge(*LOST, change)
    deal = index_of(events, kind_is(Kind.DEAL))
    assert_fails(verify(encode_transcript(events)), Check.DEAL, deal, "host")


def test_a_dealt_tableau_that_the_seed_does_not_give_is_caught() -> None:
    def change(entries: list[Entry]) -> list[Entry]:
        deal = index_of(entries, kind_is(Kind.DEAL))
        body = entries[deal].body
        assert isinstance(body, DealBody)
        character = (*body.tableau.character[1:], body.tableau.character[0])
        tableau = TableauBody(character, body.tableau.location, body.tableau.item)
        entries[deal] = entries[deal].with_body(DealBody(body.joint_seed, tableau))
        return entries

    events = forge(*LOST, change)
    assert_fails(
        verify(encode_transcript(events)), Check.DEAL, index_of(events, kind_is(Kind.DEAL)), "host"
    )


# --------------------------------------------------------------------------- play


def test_an_illegal_move_is_caught_on_the_public_state() -> None:
    def change(entries: list[Entry]) -> list[Entry]:
        place = index_of(entries, kind_is(Kind.PLACE))
        entries[place] = entries[place].with_body(PlaceBody("item-01"))  # an Item first
        return entries

    events = forge(*LOST, change)
    place = events[index_of(events, kind_is(Kind.PLACE))]
    assert_fails(
        verify(encode_transcript(events)), Check.PUBLIC_RULES, place.seq, f"seat {place.seat}"
    )


def test_a_ghost_that_chats_breaks_the_rules() -> None:
    def chat(entries: list[Entry]) -> list[Entry]:
        place = index_of(entries, kind_is(Kind.PLACE))
        entries.insert(place, Entry(Kind.CHAT, ChatBody("boo"), seat=GHOST))
        return renumber(entries)

    events = forge(*LOST, chat)
    assert_fails(
        verify(encode_transcript(events)),
        Check.EVENT_ORDER,
        index_of(events, kind_is(Kind.CHAT)),
        "ghost",
    )


def _flip_to_correct(entries: list[Entry], events: tuple[Event, ...]) -> tuple[list[Entry], int]:
    seance = index_of(
        entries,
        lambda e: isinstance(e.body, SeanceBody) and not all(v.correct for v in e.body.verdicts),  # type: ignore[attr-defined]
    )
    body = entries[seance].body
    assert isinstance(body, SeanceBody)
    verdicts = []
    for verdict in body.verdicts:
        if not verdict.correct:
            marker = next(
                e.body.card
                for e in reversed(events[:seance])
                if e.seat == verdict.seat and isinstance(e.body, PlaceBody)
            )
            verdict = VerdictBody(verdict.seat, True, Opening("00" * 32, marker))
        verdicts.append(verdict)
    entries[seance] = entries[seance].with_body(SeanceBody(tuple(verdicts)))
    return entries, seance


def test_a_false_correct_verdict_is_caught_at_once_by_its_opening() -> None:
    events = honest_game(*LOST)
    entries, seance = _flip_to_correct(entries_of(events), events)
    report = verify(encode_transcript(reseal(entries, *LOST)))
    assert_fails(report, Check.OPENINGS, seance, "ghost")
    assert "does not match the commitment" in report.error.reason  # type: ignore[union-attr]


def test_a_correct_verdict_without_its_opening_is_caught() -> None:
    def strip(entries: list[Entry]) -> list[Entry]:
        seance = index_of(
            entries,
            lambda e: isinstance(e.body, SeanceBody) and any(v.correct for v in e.body.verdicts),  # type: ignore[attr-defined]
        )
        body = entries[seance].body
        assert isinstance(body, SeanceBody)
        verdicts = tuple(VerdictBody(v.seat, v.correct, None) for v in body.verdicts)
        entries[seance] = entries[seance].with_body(SeanceBody(verdicts))
        return entries

    events = forge(*LOST, strip)
    seance = index_of(
        events,
        lambda e: isinstance(e.body, SeanceBody) and any(v.correct for v in e.body.verdicts),  # type: ignore[attr-defined]
    )
    assert_fails(verify(encode_transcript(events)), Check.OPENINGS, seance, "ghost")


def test_a_false_wrong_verdict_is_caught_at_the_reveal() -> None:
    game = Game(20).setup()
    game.play(
        game.oracles(frozenset({7})),
        until=lambda g: g.state.day == 7 and g.state.phase is Phase.SEANCE,
    )
    assert game.state.stage is Stage.PLOT
    lie = SeanceBody(tuple(VerdictBody(s, False, None) for s in game.state.active_seats))
    (seance, over) = game.send(game.ghost.sign(Kind.SEANCE, lie))
    assert isinstance(over.body, GameOverBody) and over.body.outcome == "lost"
    report = verify(encode_transcript(game.finish()))
    assert_fails(report, Check.VERDICTS, seance.seq, "ghost")
    assert "proven by the seed" in report.error.reason  # type: ignore[union-attr]
    # Everything up to the reveal passed; the rest of the replay did not run to the end.
    passed = {c.name for c in report.checks if c.ok}
    assert {c.value for c in (Check.EVENT_ORDER, Check.PUBLIC_RULES, Check.OPENINGS)} <= passed
    assert {Check.GAME_OVER.value, Check.GHOST_SEED.value, Check.SLOT_COMMITMENTS.value} <= passed
    skipped = {n.name: n.detail for n in report.not_checked}
    assert "replay with the secrets stopped" in skipped[Check.DREAM_CARDS.value]


def test_a_dream_card_not_in_the_ghosts_hand_is_caught_at_the_reveal() -> None:
    game = Game(21).setup()
    cheat = CheatingGhost(game, PlainPolicy(GHOST, 5))
    oracles = game.oracles(frozenset({2, 3, 4, 5}))
    game.play(oracles, until=lambda g: g.state.day == 2, ghost=cheat)
    cheat.sync(game)
    secrets = cheat.state.secrets
    assert secrets is not None and secrets.deck
    card = secrets.deck[-1]
    cheat.slip(game, card)
    (give,) = game.send(cheat.sign(game, Give(1, (card,))))
    game.play(oracles, ghost=cheat)
    assert game.state.phase is Phase.ENDED
    report = verify(encode_transcript(game.finish()))
    assert_fails(report, Check.DREAM_CARDS, give.seq, "ghost")
    assert card in report.error.reason  # type: ignore[union-attr]


def test_an_honest_cheating_ghost_harness_verifies() -> None:
    # The harness of the test above, without the slip: the game must verify.
    game = Game(21).setup()
    cheat = CheatingGhost(game, PlainPolicy(GHOST, 5))
    game.play(game.oracles(frozenset({2, 3, 4, 5})), ghost=cheat)
    assert verify(encode_transcript(game.finish())).valid


def test_a_false_wrong_culprit_verdict_is_caught_at_the_reveal() -> None:
    game = Game(22).setup()
    oracles = game.oracles(frozenset({1, 2, 3, 7}))
    game.play(oracles, until=lambda g: g.state.day == 7 and g.state.phase is Phase.SEANCE)
    assert game.state.stage is Stage.CULPRIT
    (seance, _) = game.send(game.ghost.sign(Kind.CULPRIT_SEANCE, CulpritSeanceBody(False, None)))
    assert_fails(verify(encode_transcript(game.finish())), Check.CULPRIT, seance.seq, "ghost")


def test_a_false_correct_culprit_verdict_is_caught_at_once() -> None:
    game = Game(23).setup()
    game.play(
        game.oracles(frozenset({1, 2, 3})),
        until=lambda g: g.state.phase is Phase.SEANCE and g.state.stage is Stage.CULPRIT,
    )
    accused = game.state.investigators[0].marker
    assert accused is not None
    entries = entries_of(game.events)
    entries.append(
        Entry(Kind.CULPRIT_SEANCE, CulpritSeanceBody(True, Opening("00" * 32, accused)), GHOST)
    )
    events = reseal(renumber(entries), 23, 2)
    assert_fails(verify(encode_transcript(events)), Check.OPENINGS, len(events) - 1, "ghost")


def test_a_culprit_the_seed_did_not_choose_is_caught_at_the_reveal() -> None:
    game = Game(24)

    def fake_culprit(game: Game) -> object:
        # Commit the culprit slot to a Character the secrets did not choose.
        honest = game.ghost.commit_slots()
        assert isinstance(honest.body, SlotCommitsBody)
        real = game.secrets.column(game.secrets.culprit).character
        game.fake = next(c.character for c in game.secrets.columns if c.character != real)  # type: ignore[attr-defined]
        salt = bytes(32)
        commit = slot_commitment(game.replica.table_setup.game_id, "culprit", salt, game.fake)  # type: ignore[attr-defined]
        game.ghost.resync()
        return game.ghost.sign(
            Kind.SLOT_COMMITS, SlotCommitsBody(honest.body.columns, commit.hex())
        )

    game.setup(fake_culprit)  # type: ignore[arg-type]
    fake = game.fake  # type: ignore[attr-defined]
    game.play(
        game.oracles(frozenset({1, 2, 3}), accuse=fake),
        until=lambda g: g.state.phase is Phase.SEANCE and g.state.stage is Stage.CULPRIT,
    )
    opening = Opening("00" * 32, fake)
    (_, over) = game.send(game.ghost.sign(Kind.CULPRIT_SEANCE, CulpritSeanceBody(True, opening)))
    assert isinstance(over.body, GameOverBody) and over.body.outcome == "won"
    commits = index_of(game.events, kind_is(Kind.SLOT_COMMITS))
    report = verify(encode_transcript(game.finish()))
    assert_fails(report, Check.SLOT_COMMITMENTS, commits, "ghost")
    assert "culprit" in report.error.reason  # type: ignore[union-attr]


def test_a_changed_commitment_to_a_slot_never_opened_is_caught_at_the_reveal() -> None:
    events = honest_game(*LOST)
    replica_openings = {o.slot for o in _ledger(events).openings}
    entries = entries_of(events)
    commits = index_of(entries, kind_is(Kind.SLOT_COMMITS))
    body = entries[commits].body
    assert isinstance(body, SlotCommitsBody)
    seat = next(c.seat for c in body.columns if f"column/{c.seat}/item" not in replica_openings)
    columns = tuple(revise(c, item="88" * 32) if c.seat == seat else c for c in body.columns)
    entries[commits] = entries[commits].with_body(SlotCommitsBody(columns, body.culprit))
    report = verify(encode_transcript(reseal(entries, *LOST)))
    assert_fails(report, Check.SLOT_COMMITMENTS, commits, "ghost")
    assert f"column/{seat}/item" in report.error.reason  # type: ignore[union-attr]


def _ledger(events: tuple[Event, ...]):  # type: ignore[no-untyped-def]
    from domicile_p2p.transcript import Replica

    return Replica.from_events(events).ledger


def test_a_wrong_seed_reveal_is_caught() -> None:
    def change(entries: list[Entry]) -> list[Entry]:
        entries[-1] = entries[-1].with_body(RevealBody("99" * 32))
        return entries

    events = forge(*WON, change)
    assert_fails(verify(encode_transcript(events)), Check.GHOST_SEED, len(events) - 1, "ghost")


def test_a_lone_surrogate_in_the_first_line_is_not_a_transcript_and_later_fails_check_1() -> None:
    # SPEC §2 and §12 "Recognition": the first line is read with the decoder's rules, which
    # refuse lone surrogates; any later line is check 1's.
    lines = transcript(honest_game(*WON)).split(b"\n")
    at = lines[0].index(b'"name":"') + len(b'"name":"')
    first = lines[0][:at] + b"\\ud800" + lines[0][at:]
    report = verify(b"\n".join([first, *lines[1:]]))
    assert not report.recognized and not report.valid
    assert "not a domicile-p2p transcript" in report.summary
    deal = index_of(honest_game(*WON), kind_is(Kind.DEAL))
    changed = lines[deal].replace(b'"joint_seed":"', b'"joint_seed":"\\ud800', 1)
    report = verify(b"\n".join([*lines[:deal], changed, *lines[deal + 1 :]]))
    assert report.recognized
    assert_fails(report, Check.FORMAT, deal, "host")


def test_a_wrong_seed_is_the_first_failure_before_a_later_event_out_of_order() -> None:
    # SPEC §12: checks 13 to 15 take the reveal's place in the event-by-event pass.
    def change(entries: list[Entry]) -> list[Entry]:
        entries[-1] = entries[-1].with_body(RevealBody("99" * 32))
        return renumber([*entries, Entry(Kind.CHAT, ChatBody("was that fair?"), 1)])

    events = forge(*WON, change)
    reveal = len(events) - 2
    assert_fails(verify(encode_transcript(events)), Check.GHOST_SEED, reveal, "ghost")
    # Without the wrong seed, the chat after the reveal is what fails (rule P5).
    honest = entries_of(honest_game(*WON))
    late_chat = reseal(renumber([*honest, Entry(Kind.CHAT, ChatBody("hello"), 1)]), *WON)
    assert_fails(verify(encode_transcript(late_chat)), Check.EVENT_ORDER, reveal + 1, "host")


def test_an_event_out_of_order_before_the_reveal_comes_before_a_false_wrong_verdict() -> None:
    # A correct verdict called wrong is caught only at the reveal (check 15, at the séance's
    # seq), but a deal statement right after it breaks the order earlier in the pass.
    def change(entries: list[Entry]) -> list[Entry]:
        at = index_of(entries, _has_correct_verdict)
        body = entries[at].body
        assert isinstance(body, SeanceBody)
        wrong = tuple(VerdictBody(v.seat, False, None) for v in body.verdicts)
        entries[at] = entries[at].with_body(SeanceBody(wrong))
        deal = entries[index_of(entries, kind_is(Kind.DEAL))]
        return [*entries[: at + 1], deal, *entries[at + 1 :]]

    events = forge(*WON, change)
    second_deal = [event.seq for event in events if event.kind is Kind.DEAL][1]
    assert events[second_deal - 1].kind is Kind.SEANCE
    assert_fails(verify(encode_transcript(events)), Check.EVENT_ORDER, second_deal, "host")


def _has_correct_verdict(entry: object) -> bool:
    body = getattr(entry, "body", None)
    return isinstance(body, SeanceBody) and any(v.correct for v in body.verdicts)


def test_a_wrong_outcome_is_caught_at_once() -> None:
    def change(entries: list[Entry]) -> list[Entry]:
        over = index_of(entries, kind_is(Kind.GAME_OVER))
        body = entries[over].body
        assert isinstance(body, GameOverBody)
        entries[over] = entries[over].with_body(GameOverBody("won", body.day))
        return entries

    events = forge(*LOST, change)
    over = index_of(events, kind_is(Kind.GAME_OVER))
    assert_fails(verify(encode_transcript(events)), Check.GAME_OVER, over, "host")


# --------------------------------------------------------------------------- the end


def test_an_event_after_the_reveal_is_out_of_order() -> None:
    def chat(entries: list[Entry]) -> list[Entry]:
        return renumber([*entries, Entry(Kind.CHAT, ChatBody("gg"), seat=1)])

    events = forge(*LOST, chat)
    assert_fails(verify(encode_transcript(events)), Check.EVENT_ORDER, len(events) - 1, "host")


def test_a_game_without_the_reveal_is_incomplete() -> None:
    events = honest_game(*LOST)[:-1]
    assert_fails(verify(encode_transcript(events)), Check.COMPLETE, len(events) - 1, "ghost")


def test_a_transcript_cut_mid_game_is_incomplete() -> None:
    events = honest_game(*LOST)[:30]
    report = verify(encode_transcript(events))
    assert_fails(report, Check.COMPLETE, 29, None)
    assert "stops at event 29" in report.error.reason  # type: ignore[union-attr]


def test_an_aborted_setup_is_valid_and_says_so() -> None:
    game = Game(30)
    game.send(game.ghost.commit())
    game.send(game.agents[0].commit_entropy())
    game.game_table.abort_stalled()
    report = verify(encode_transcript(game.game_table.events))
    assert report.valid, report.summary
    assert report.outcome == "aborted"
    assert "seat 2" in report.summary


def test_a_game_aborted_mid_play_needs_the_ghosts_reveal() -> None:
    game = Game(31).setup()
    game.play(game.oracles(frozenset({1})), until=lambda g: g.state.day == 3)
    game.game_table.abort("the investigators went home")
    without = verify(encode_transcript(game.game_table.events))
    assert_fails(without, Check.COMPLETE, len(game.game_table.events) - 1, "ghost")
    game.replica.receive(game.game_table.events[-1])
    game.send(game.ghost.reveal())
    report = verify(encode_transcript(game.game_table.events))
    assert report.valid, report.summary
    assert report.outcome == "aborted"


def test_chat_is_checked_and_replayed() -> None:
    game = Game(32).setup()
    game.send(game.agents[0].chat("I think it was the gardener"))
    game.play(game.oracles(frozenset({1, 2, 3, 4})))
    report = verify(encode_transcript(game.finish()))
    assert report.valid, report.summary


@pytest.mark.parametrize("kind", [Kind.DEAL, Kind.GAME_OVER, Kind.GENESIS])
def test_a_host_statement_out_of_its_place_is_out_of_order(kind: Kind) -> None:
    def insert(entries: list[Entry]) -> list[Entry]:
        statement = entries[index_of(entries, kind_is(kind))]
        at = 2 if kind is not Kind.GAME_OVER else index_of(entries, kind_is(Kind.PLACE))
        entries.insert(at, statement)
        return entries

    events = forge(*LOST, insert)
    at = 2 if kind is Kind.GENESIS else index_of(events, kind_is(kind))  # the inserted one
    assert_fails(verify(encode_transcript(events)), Check.EVENT_ORDER, at, "host")


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (lambda b: revise(b, seats=b.seats[:1]), "1 to 6 investigators"),
        (lambda b: revise(b, seats=(b.seats[0], b.seats[2], b.seats[1])), "seats go 0, 1, 2"),
        (lambda b: revise(b, seats=(revise(b.seats[0], name="   "), *b.seats[1:])), "blank"),
        (lambda b: revise(b, seats=(revise(b.seats[0], name="G\x1b[2J"), *b.seats[1:])), "control"),
        (lambda b: revise(b, seats=(revise(b.seats[0], name="Ann\u202e"), *b.seats[1:])), "bidi"),
        (
            lambda b: revise(
                b, seats=(b.seats[0], revise(b.seats[1], name="Bo\u200bb"), *b.seats[2:])
            ),
            "zero-width",
        ),
        (
            lambda b: revise(
                b, seats=(b.seats[0], revise(b.seats[1], name="\u3164"), *b.seats[2:])
            ),
            "U+3164",
        ),
        (lambda b: revise(b, cards=revise(b.cards, dream=("char-01",))), "two categories"),
        (lambda b: revise(b, cards=revise(b.cards, dream=())), "no dream cards"),
        (lambda b: revise(b, cards=revise(b.cards, item=b.cards.item[:4])), "but the pack has 4"),
    ],
)
def test_a_genesis_that_describes_no_valid_table_fails(
    change: Callable[[GenesisBody], GenesisBody], why: str
) -> None:
    def build(entries: list[Entry]) -> list[Entry]:
        genesis = entries[0].body
        assert isinstance(genesis, GenesisBody)
        return [entries[0].with_body(change(genesis)), *entries[1:]]

    entries = entries_of(honest_game(*LOST))
    events = reseal(build(entries), *LOST)
    report = verify(encode_transcript(events))
    assert_fails(report, Check.GENESIS, 0, "host")
    assert why in report.error.reason  # type: ignore[union-attr]


def test_verdicts_out_of_seat_order_break_the_rules() -> None:
    def reverse(entries: list[Entry]) -> list[Entry]:
        seance = index_of(
            entries,
            lambda e: isinstance(e.body, SeanceBody) and len(e.body.verdicts) > 1,  # type: ignore[attr-defined]
        )
        body = entries[seance].body
        assert isinstance(body, SeanceBody)
        entries[seance] = entries[seance].with_body(SeanceBody(body.verdicts[::-1]))
        return entries

    events = forge(*LOST, reverse)
    seance = index_of(
        events,
        lambda e: isinstance(e.body, SeanceBody) and len(e.body.verdicts) > 1,  # type: ignore[attr-defined]
    )
    assert_fails(verify(encode_transcript(events)), Check.PUBLIC_RULES, seance, "ghost")


def test_a_wrong_verdict_with_an_opening_is_refused() -> None:
    def open_wrong(entries: list[Entry]) -> list[Entry]:
        seance = index_of(
            entries,
            lambda e: (
                isinstance(e.body, SeanceBody) and not all(v.correct for v in e.body.verdicts)
            ),  # type: ignore[attr-defined]
        )
        body = entries[seance].body
        assert isinstance(body, SeanceBody)
        verdicts = tuple(
            v if v.correct else VerdictBody(v.seat, False, Opening("00" * 32, "char-01"))
            for v in body.verdicts
        )
        entries[seance] = entries[seance].with_body(SeanceBody(verdicts))
        return entries

    events = forge(*LOST, open_wrong)
    seance = index_of(
        events,
        lambda e: isinstance(e.body, SeanceBody) and not all(v.correct for v in e.body.verdicts),  # type: ignore[attr-defined]
    )
    report = verify(encode_transcript(events))
    assert_fails(report, Check.OPENINGS, seance, "ghost")
    assert "carries an opening" in report.error.reason  # type: ignore[union-attr]


@pytest.mark.parametrize("kind", [Kind.ENTROPY_COMMIT, Kind.ENTROPY_REVEAL, Kind.SLOT_COMMITS])
def test_a_setup_step_taken_twice_is_out_of_order(kind: Kind) -> None:
    def twice(entries: list[Entry]) -> list[Entry]:
        at = index_of(entries, kind_is(kind))
        entries.insert(at + 1, replace(entries[at], sig=None))
        return renumber(entries)

    events = forge(*LOST, twice)
    at = index_of(events, kind_is(kind)) + 1
    assert_fails(verify(encode_transcript(events)), Check.EVENT_ORDER, at, "host")


def test_an_abort_naming_a_seat_of_another_table_is_out_of_order() -> None:
    game = Game(33)
    game.send(game.ghost.commit())
    entries = entries_of(game.game_table.events)
    entries.append(Entry(Kind.ABORT, AbortBody("nobody came", (5,))))
    events = reseal(entries, 33, 2)
    assert_fails(verify(encode_transcript(events)), Check.EVENT_ORDER, len(events) - 1, "host")


def test_an_abort_after_the_deal_and_the_ghosts_reveal_is_valid() -> None:
    game = Game(34)
    game.send(game.ghost.commit())
    for agent in game.agents:
        game.send(agent.commit_entropy())
    for agent in game.agents:
        game.send(agent.reveal_entropy())
    game.game_table.abort_stalled()
    game.replica.receive(game.game_table.events[-1])
    game.send(game.ghost.reveal())
    report = verify(encode_transcript(game.game_table.events))
    assert report.valid, report.summary
    assert {c.name for c in report.checks} >= {Check.GHOST_SEED.value, Check.DEAL.value}


def test_another_pack_fails_the_card_pack_check() -> None:
    data = transcript(honest_game(*LOST))
    other = PackIdentity("default", "ab" * 32, CARDS)
    assert_fails(verify(data, pack=other), Check.CARD_PACK, 0, None)
    fewer = revise(CARDS, dream=CARDS.dream[:-1])
    lying = PackIdentity(PACK_ID, PACK_HASH, fewer)
    assert_fails(verify(data, pack=lying), Check.CARD_PACK, 0, "host")
