"""``verify``: check a whole transcript offline, one named check after another.

The checks run in the order of :class:`~domicile_p2p.transcript.errors.Check`
and stop at the first failure, which names the event ``seq``, the party at
fault and the reason.  The first six are passes over the whole file, each
complete before the next starts:

1. format: every line is the canonical JSON of a well-formed event;
2. genesis: event 0 describes a valid table;
3. card pack: the pack at hand is the one played (when one is given);
4. host signatures: every event is signed by the genesis' host key (so a changed
   event is caught at the event itself);
5. hash chain: ``seq`` runs 0, 1, 2... and every ``prev`` links to the event
   before (so nothing was dropped, inserted or moved);
6. player signatures and counters: every action is signed by its seat, counters 1, 2, 3...

Then one pass replays the game through the
:class:`~domicile_p2p.transcript.ledger.Ledger` (as a live peer would, minus
the signatures already checked): event order, entropy commitments, joint
seed and tableau, public rules, séance openings, game over; at the reveal,
ghost seed, slot commitments, and the replay with the secrets (séance
verdicts, dream cards, culprit); last, that the transcript is complete.

Checks of that pass interleave, so when it stops at event ``n`` the checks
other than the failing one are reported as *not checked* past ``n``, not
as passed.  Every signature is verified once: ``verify`` costs about one
Ed25519 verification per signature plus a few hashes per event and one
replay of the game through the rules engine: the Ghost's seed is read
ahead from its reveal, so the fold plays every move with the secrets and
projects the public state from them (:mod:`~domicile_p2p.transcript.reveal`).

The signatures can be checked on several threads (``jobs``; by default one
per CPU): :class:`~domicile_p2p.transcript.batch.SignatureBatch` checks them
while this thread makes the other checks of 4 to 6 (links, seats, counters)
and, when those pass, replays the game ahead of time.  The report is
assembled afterwards in the order above, so it is the same, first failure
included, whatever the threads and their timing: the replay's outcome is
used only once every signature verified, as if it had run after them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Final, NamedTuple

from domicile_p2p.rules import RULE_VERSIONS, Outcome, Phase, Stage
from domicile_p2p.rules.records import Record
from domicile_p2p.rules.records import set_field as _set
from domicile_p2p.transcript.batch import SignatureBatch, SignatureCheck, default_jobs
from domicile_p2p.transcript.chain import Chain, host_signature_fault
from domicile_p2p.transcript.codec import Event
from domicile_p2p.transcript.errors import (
    GHOST_PARTY,
    HOST,
    Check,
    Fault,
    MalformedEvent,
    Violation,
)
from domicile_p2p.transcript.files import (
    declared_protocol,
    looks_like_transcript,
    read_bytes,
    split_lines,
    unsupported_version,
)
from domicile_p2p.transcript.ledger import Ledger, Step, TableSetup, read_genesis
from domicile_p2p.transcript.moves import PLAY_KINDS
from domicile_p2p.transcript.packref import PackIdentity
from domicile_p2p.transcript.replica import Replica
from domicile_p2p.transcript.schema import (
    GenesisBody,
    GiveBody,
    GroupGiveBody,
    Kind,
    RevealBody,
    SeanceBody,
)

_FOLD: Final = (
    Check.EVENT_ORDER,
    Check.ENTROPY,
    Check.DEAL,
    Check.PUBLIC_RULES,
    Check.OPENINGS,
    Check.GAME_OVER,
)
_REVEAL: Final = (Check.GHOST_SEED, Check.SLOT_COMMITMENTS)
_REPLAY: Final = (Check.VERDICTS, Check.DREAM_CARDS, Check.CULPRIT)


class CheckResult(Record):
    """One check that ran over the whole transcript: passed (``ok``) or failed."""

    name: str
    ok: bool
    detail: str

    __slots__ = ("detail", "name", "ok")
    __match_args__ = ("name", "ok", "detail")
    __record_fields__ = ("name", "ok", "detail")

    def __init__(self, name: str, ok: bool, detail: str) -> None:
        _set(self, "name", name)
        _set(self, "ok", ok)
        _set(self, "detail", detail)

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__qualname__}("
            f"name={self.name!r}, "
            f"ok={self.ok!r}, "
            f"detail={self.detail!r})"
        )

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return (self.name, self.ok, self.detail) == (other.name, other.ok, other.detail)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.name, self.ok, self.detail))


class NotChecked(Record):
    """A check that did not run (or not to the end), and why."""

    name: str
    detail: str

    __slots__ = ("detail", "name")
    __match_args__ = ("name", "detail")
    __record_fields__ = ("name", "detail")

    def __init__(self, name: str, detail: str) -> None:
        _set(self, "name", name)
        _set(self, "detail", detail)

    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}(name={self.name!r}, detail={self.detail!r})"

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return (self.name, self.detail) == (other.name, other.detail)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.name, self.detail))


class VerifyError(Record):
    """The first failure: at event ``seq`` (``None`` for the file as a whole), who, why."""

    seq: int | None
    reason: str
    check: str
    party: str | None

    __slots__ = ("check", "party", "reason", "seq")
    __match_args__ = ("seq", "reason", "check", "party")
    __record_fields__ = ("seq", "reason", "check", "party")

    def __init__(self, seq: int | None, reason: str, check: str, party: str | None) -> None:
        _set(self, "seq", seq)
        _set(self, "reason", reason)
        _set(self, "check", check)
        _set(self, "party", party)

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__qualname__}("
            f"seq={self.seq!r}, "
            f"reason={self.reason!r}, "
            f"check={self.check!r}, "
            f"party={self.party!r})"
        )

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return (self.seq, self.reason, self.check, self.party) == (
                other.seq,
                other.reason,
                other.check,
                other.party,
            )
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.seq, self.reason, self.check, self.party))


class VerifyReport(Record):
    """The outcome of :func:`verify`."""

    checks: tuple[CheckResult, ...]
    not_checked: tuple[NotChecked, ...]
    error: VerifyError | None
    events: int
    game: str | None
    outcome: str | None
    """``"won"``, ``"lost"``, ``"aborted"``, or ``None`` when the game did not end."""
    summary: str
    recognized: bool
    """False when the input is not a transcript at all (``domicile verify`` exits 2)."""
    replica: Replica | None

    __slots__ = (
        "checks",
        "error",
        "events",
        "game",
        "not_checked",
        "outcome",
        "recognized",
        "replica",
        "summary",
    )
    __match_args__ = (
        "checks",
        "not_checked",
        "error",
        "events",
        "game",
        "outcome",
        "summary",
        "recognized",
        "replica",
    )
    __record_fields__ = (
        "checks",
        "not_checked",
        "error",
        "events",
        "game",
        "outcome",
        "summary",
        "recognized",
        "replica",
    )
    __record_hidden__ = frozenset(("replica",))

    def __init__(
        self,
        checks: tuple[CheckResult, ...],
        not_checked: tuple[NotChecked, ...],
        error: VerifyError | None,
        events: int,
        game: str | None = None,
        outcome: str | None = None,
        summary: str = "",
        recognized: bool = True,
        replica: Replica | None = None,
    ) -> None:
        _set(self, "checks", checks)
        _set(self, "not_checked", not_checked)
        _set(self, "error", error)
        _set(self, "events", events)
        _set(self, "game", game)
        _set(self, "outcome", outcome)
        _set(self, "summary", summary)
        _set(self, "recognized", recognized)
        _set(self, "replica", replica)

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__qualname__}("
            f"checks={self.checks!r}, "
            f"not_checked={self.not_checked!r}, "
            f"error={self.error!r}, "
            f"events={self.events!r}, "
            f"game={self.game!r}, "
            f"outcome={self.outcome!r}, "
            f"summary={self.summary!r}, "
            f"recognized={self.recognized!r})"
        )

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return (
                self.checks,
                self.not_checked,
                self.error,
                self.events,
                self.game,
                self.outcome,
                self.summary,
                self.recognized,
            ) == (
                other.checks,
                other.not_checked,
                other.error,
                other.events,
                other.game,
                other.outcome,
                other.summary,
                other.recognized,
            )
        return NotImplemented

    def __hash__(self) -> int:
        return hash(
            (
                self.checks,
                self.not_checked,
                self.error,
                self.events,
                self.game,
                self.outcome,
                self.summary,
                self.recognized,
            )
        )

    @property
    def valid(self) -> bool:
        return self.recognized and self.error is None

    def to_json(self) -> dict[str, Any]:
        """The report as ``domicile verify --json`` prints it."""
        return {
            "valid": self.valid,
            "recognized": self.recognized,
            "game": self.game,
            "events": self.events,
            "outcome": self.outcome,
            "summary": self.summary,
            "checks": [{"name": c.name, "ok": c.ok, "detail": c.detail} for c in self.checks],
            "not_checked": [{"name": c.name, "detail": c.detail} for c in self.not_checked],
            "error": None
            if self.error is None
            else {
                "seq": self.error.seq,
                "reason": self.error.reason,
                "check": self.error.check,
                "party": self.error.party,
            },
        }


def _signature(text: str) -> bytes:
    """A signature's bytes (the schema holds it to hex; anything else fails to verify)."""
    try:
        return bytes.fromhex(text)
    except ValueError:
        return b""


class _Stop(Exception):
    """A check failed; verification stops here."""

    def __init__(self, check: Check, seq: int | None, party: str | None, reason: str) -> None:
        super().__init__(reason)
        self.check = check
        self.seq = seq
        self.party = party
        self.reason = reason


def verify(
    source: Path | str | bytes | Sequence[Event],
    *,
    pack: PackIdentity | None = None,
    jobs: int | None = None,
) -> VerifyReport:
    """Verify a transcript: a file path, its bytes, or parsed events.

    Never raises for a bad transcript: the report says what is wrong.  A
    path that cannot be read raises
    :class:`~domicile_p2p.transcript.errors.NotATranscript`.

    ``jobs`` is how many threads check signatures, the caller's included
    (``None``: one per CPU, at most :data:`~domicile_p2p.transcript.batch.MAX_JOBS`;
    ``1``: no other thread).  The report does not depend on it.
    """
    if jobs is not None and jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    if isinstance(source, Path | str):
        source = read_bytes(Path(source))
    return _Verification(pack, default_jobs() if jobs is None else jobs).run(source)


class _ChainFaults(NamedTuple):  # not a dataclass: each costs ~1 ms of start-up
    """The first fault of each non-signature check of 5 and 6 (the event index and the fault)."""

    link: tuple[int, Fault] | None
    action: tuple[int, Fault] | None
    """A seat that does not exist or a counter out of order."""
    head: str


class _Played(NamedTuple):
    """The game pass, run and kept aside until checks 4 to 6 have passed."""

    passed: list[CheckResult]
    replica: Replica | None
    stop_index: int
    stop: _Stop | None


class _Verification:
    def __init__(self, pack: PackIdentity | None, jobs: int) -> None:
        self.pack = pack
        self.jobs = jobs
        self.passed: list[CheckResult] = []
        self.events: list[Event] = []
        self.table_setup: TableSetup | None = None
        self.replica: Replica | None = None
        self.stop_index = 0

    def ok(self, check: Check, detail: str) -> None:
        self.passed.append(CheckResult(check.value, True, detail))

    # ----------------------------------------------------------------- driver

    def run(self, source: bytes | Sequence[Event]) -> VerifyReport:
        if isinstance(source, bytes):
            lines = split_lines(source)
            if not lines or not looks_like_transcript(lines[0]):
                return self._unrecognized(len(lines))
            version = declared_protocol(lines[0])
        else:
            first = source[0].body if source else None
            version = first.protocol if isinstance(first, GenesisBody) else None
        if version is not None and version not in RULE_VERSIONS:
            return self._unrecognized(0, unsupported_version(version))
        try:
            if isinstance(source, bytes):
                self._format(source, lines)
            else:
                self.events = list(source)
                if not self.events:
                    raise _Stop(Check.FORMAT, None, None, "there are no events")
                self.ok(Check.FORMAT, f"{len(self.events)} events read")
            self._genesis()
            self._pack()
            self._authenticity_then_game()
            self._complete()
        except _Stop as stop:
            return self._report(stop)
        return self._report(None)

    def _unrecognized(self, lines: int, summary: str | None = None) -> VerifyReport:
        """A file this program cannot verify: not a transcript, or of another protocol version."""
        reason = "the file is empty" if lines == 0 else "its first line is not a genesis event"
        if summary is None:
            summary = f"not a domicile-p2p transcript: {reason}"
        else:
            reason = summary
        return VerifyReport(
            checks=(CheckResult(Check.FORMAT.value, False, reason),),
            not_checked=tuple(NotChecked(c.value, "not reached") for c in list(Check)[1:]),
            error=VerifyError(None, summary, "format", None),
            events=0,
            summary=summary,
            recognized=False,
        )

    # ----------------------------------------------------------------- whole-file passes

    def _format(self, data: bytes, lines: list[bytes]) -> None:
        for index, line in enumerate(lines):
            try:
                self.events.append(Event.from_json(line))
            except MalformedEvent as exc:
                raise _Stop(Check.FORMAT, index, HOST, f"line {index + 1}: {exc}") from None
        if not data.endswith(b"\n"):
            raise _Stop(
                Check.FORMAT,
                len(lines) - 1,
                None,
                "the last line is not terminated (the file was cut short?)",
            )
        self.ok(Check.FORMAT, f"{len(lines)} events, each one line of canonical JSON")

    def _genesis(self) -> None:
        try:
            self.table_setup = read_genesis(self.events[0])
        except Fault as fault:
            raise _Stop(Check.GENESIS, 0, fault.party, fault.reason) from None
        body = self.table_setup.genesis
        self.ok(
            Check.GENESIS,
            f"protocol {body.protocol}, game {body.game}, {body.difficulty}, "
            f"the Ghost and {self.table_setup.investigators} investigator"
            f"{'s' if self.table_setup.investigators != 1 else ''}",
        )

    def _pack(self) -> None:
        if self.pack is None:
            return
        assert self.table_setup is not None
        named = self.table_setup.genesis.pack
        if (named.id, named.hash) != (self.pack.id, self.pack.hash):
            raise _Stop(
                Check.CARD_PACK,
                0,
                None,
                f"the genesis names card pack {named.id!r} with content hash {named.hash}, "
                f"but the pack given is {self.pack.id!r} with content hash {self.pack.hash} "
                "(verify with the pack the game was played with: --pack DIR)",
            )
        if self.table_setup.genesis.cards != self.pack.cards:
            raise _Stop(
                Check.CARD_PACK, 0, HOST, "the genesis lists other card ids than its pack has"
            )
        self.ok(Check.CARD_PACK, f"pack {named.id}, content hash {named.hash[:16]}…")

    def _authenticity_then_game(self) -> None:
        """Checks 4 to 6, then the game pass (ahead of time when other threads check signatures)."""
        checks, player_events = self._signature_checks()
        with SignatureBatch(checks, workers=self.jobs - 1) as batch:
            faults = self._chain_faults()
            played = None
            if batch.parallel and faults.link is None and faults.action is None:
                played = self._play_ahead()
            verdicts = batch.verdicts()
        events = len(self.events)
        self._host_signatures(verdicts[:events])
        self._hash_chain(faults)
        self._player_signatures(faults, zip(player_events, verdicts[events:], strict=True))
        if played is None:
            played = self._play()
        self.passed += played.passed
        self.replica, self.stop_index = played.replica, played.stop_index
        if played.stop is not None:
            raise played.stop

    def _signature_checks(self) -> tuple[list[SignatureCheck], list[int]]:
        """Every event's host signature in order, then every action's (and its event's index).

        An action whose seat the table does not have has no key to check: the
        seat check refuses it.
        """
        table_setup = self.table_setup
        assert table_setup is not None
        game, game_id = table_setup.genesis.game, table_setup.game_id
        checks: list[SignatureCheck] = [
            (table_setup.host_key, _signature(event.host_sig), event.host_message(game_id))
            for event in self.events
        ]
        player_events: list[int] = []
        seats = table_setup.seats
        for index, event in enumerate(self.events):
            seat = event.seat
            if seat is not None and seat in seats and event.sig is not None:
                key = table_setup.seat_keys[seat]
                checks.append((key, _signature(event.sig), event.action_message(game)))
                player_events.append(index)
        return checks, player_events

    def _chain_faults(self) -> _ChainFaults:
        """One walk for the hash chain and the seats and counters (no signature needed)."""
        assert self.table_setup is not None
        chain = Chain(self.table_setup)
        link: tuple[int, Fault] | None = None
        action: tuple[int, Fault] | None = None
        for index, event in enumerate(self.events):
            if link is None:
                try:
                    chain.check_link(event)
                except Fault as fault:
                    link = (index, fault)
            seat, counter = event.seat, event.counter
            if action is None and seat is not None and counter is not None:
                try:
                    chain.check_seat(seat, blame=HOST)
                    chain.check_counter(seat, counter, blame=HOST)
                except Fault as fault:
                    action = (index, fault)
            chain.accept(event)
        return _ChainFaults(link, action, chain.head)

    def _host_signatures(self, verdicts: Sequence[bool]) -> None:
        for index, valid in enumerate(verdicts):
            if not valid:
                fault = host_signature_fault()
                raise _Stop(Check.HOST_SIGNATURES, index, fault.party, fault.reason)
        assert self.table_setup is not None
        self.ok(
            Check.HOST_SIGNATURES,
            f"{len(self.events)} events signed by the host {self.table_setup.genesis.host[:16]}…",
        )

    def _hash_chain(self, faults: _ChainFaults) -> None:
        if faults.link is not None:
            index, fault = faults.link
            raise _Stop(Check.HASH_CHAIN, index, fault.party, fault.reason)
        self.ok(Check.HASH_CHAIN, f"{len(self.events)} events linked, head {faults.head[:16]}…")

    def _player_signatures(
        self, faults: _ChainFaults, verdicts: Iterable[tuple[int, bool]]
    ) -> None:
        """The first action refused: by its seat, its signature or its counter, in that order."""
        assert self.table_setup is not None
        forged = next((index for index, valid in verdicts if not valid), None)
        if faults.action is not None:
            index, fault = faults.action
            # At the same event a signature fails before its counter (and a missing seat
            # has no signature to check).
            if forged is None or index < forged:
                raise _Stop(Check.PLAYER_SIGNATURES, index, fault.party, fault.reason)
        if forged is not None:
            seat = self.events[forged].seat
            assert seat is not None
            fault = Chain(self.table_setup).signature_fault(seat, blame=HOST)
            raise _Stop(Check.PLAYER_SIGNATURES, forged, fault.party, fault.reason)
        actions = sum(1 for event in self.events if event.seat is not None)
        self.ok(
            Check.PLAYER_SIGNATURES, f"{actions} actions signed by their seats, counters in order"
        )

    def _play(self) -> _Played:
        """The game pass, its results kept apart from the checks already passed."""
        before, self.passed = self.passed, []
        stop = None
        try:
            self._fold()
        except _Stop as failed:
            stop = failed
        finally:
            passed, self.passed = self.passed, before
        replica, stop_index = self.replica, self.stop_index
        self.replica, self.stop_index = None, 0
        return _Played(passed, replica, stop_index, stop)

    def _play_ahead(self) -> _Played | None:
        """:meth:`_play` before the signatures are known; ``None`` if it broke down.

        The links, seats and counters passed and the game pass never looks at
        a signature, so it does exactly what it would do after them.  Should it
        raise all the same, it runs again after the signatures: a bad signature
        is then reported as it would have been, and otherwise the error repeats.
        """
        try:
            return self._play()
        except Exception:  # any error: the second run, after the signatures, raises it again
            self.replica, self.stop_index = None, 0
            return None

    # ----------------------------------------------------------------- the game

    def _fold(self) -> None:
        assert self.table_setup is not None
        replica = Replica.read_ahead(self.table_setup, self.events[0], self._foreseen_seed())
        self.replica = replica
        for index, event in enumerate(self.events[1:], start=1):
            self.stop_index = index
            try:
                replica.receive_authenticated(event)
            except Violation as violation:
                at_the_end = index == len(self.events) - 1
                if at_the_end and violation.check in (*_REVEAL, *_REPLAY):
                    # The reveal, the last event, proved a cheat: everything before it passed.
                    self._fold_details(replica.ledger, failed=violation.check)
                raise _Stop(
                    violation.check, violation.seq, violation.party, violation.reason
                ) from None
        self.stop_index = len(self.events)
        self._fold_details(replica.ledger)

    def _foreseen_seed(self) -> bytes | None:
        """The seed of the Ghost's first reveal in the file, read ahead (see ``reveal``).

        Trusted for nothing: the ledger uses it only if it opens the Ghost's
        commitment, and only for the reveal that brings it.
        """
        for event in self.events:
            if isinstance(event.body, RevealBody):
                try:
                    return bytes.fromhex(event.body.seed)
                except ValueError:
                    return None
        return None

    def _fold_details(self, ledger: Ledger, failed: Check | None = None) -> None:
        moves = [e for e in self.events if e.kind in PLAY_KINDS and e.kind is not Kind.CHAT]
        seances = [e for e in self.events if e.kind in (Kind.SEANCE, Kind.CULPRIT_SEANCE)]
        self.ok(Check.EVENT_ORDER, "every event at a step of the protocol that allows it")
        revealed = sum(1 for entropy in ledger.entropies if entropy is not None)
        if revealed:
            self.ok(Check.ENTROPY, f"{revealed} entropy reveals open their commitments")
        if ledger.joint_seed is not None and ledger.tableau is not None:
            size = len(ledger.tableau.character)
            self.ok(
                Check.DEAL,
                f"joint seed {ledger.joint_seed.hex()[:16]}…, {size} cards per category",
            )
        if ledger.slot_commits is not None:
            self.ok(Check.PUBLIC_RULES, f"{len(moves)} moves legal on the public state")
            self.ok(
                Check.OPENINGS,
                f"{len(ledger.openings)} correct verdicts opened their commitments "
                f"({len(seances)} séances)",
            )
        if ledger.game_over_seq is not None and ledger.state is not None:
            self.ok(Check.GAME_OVER, f"{ledger.state.outcome} on day {ledger.state.day}")
        if ledger.seed is not None:
            self.ok(Check.GHOST_SEED, "the revealed seed opens the Ghost's commitment")
            if ledger.slot_commits is not None and failed is not Check.SLOT_COMMITMENTS:
                self.ok(
                    Check.SLOT_COMMITMENTS,
                    f"all {len(ledger.slot_commits)} commitments re-derived from the seed",
                )
            if failed is None:
                self._replay_details(ledger, seances)

    def _replay_details(self, ledger: Ledger, seances: list[Event]) -> None:
        final = ledger.replay
        if final is None:
            return
        plot = [e.body for e in seances if isinstance(e.body, SeanceBody)]
        verdicts = sum(len(body.verdicts) for body in plot)
        self.ok(Check.VERDICTS, f"{verdicts} verdicts in {len(plot)} séances match the columns")
        given = sum(
            len(e.body.cards) for e in self.events if isinstance(e.body, GiveBody | GroupGiveBody)
        )
        self.ok(
            Check.DREAM_CARDS,
            f"{given} dream cards given, each from the Ghost's hand "
            f"({final.refreshes_used} refreshes, {final.reshuffles} reshuffles replayed)",
        )
        accusations = sum(1 for e in seances if e.kind is Kind.CULPRIT_SEANCE)
        if accusations:
            secrets = final.secrets
            assert secrets is not None
            culprit = secrets.column(secrets.culprit).character
            if self.pack is not None:  # the pack was checked: its name for the card
                culprit = self.pack.character_name(culprit)
            named = "named" if final.outcome is Outcome.WON else "not named"
            self.ok(
                Check.CULPRIT,
                f"the culprit was {culprit}: {named} in {accusations} Stage Two séance"
                f"{'s' if accusations != 1 else ''}",
            )

    def _complete(self) -> None:
        assert self.replica is not None
        ledger = self.replica.ledger
        last = len(self.events) - 1
        state = ledger.state
        match ledger.step:
            case Step.FINISHED:
                assert state is not None
                self.ok(
                    Check.COMPLETE,
                    f"the game ended ({state.outcome} on day {state.day}) and the Ghost "
                    "revealed its seed",
                )
            case Step.ABORTED if ledger.over and not ledger.played:
                assert ledger.abort is not None
                self.ok(
                    Check.COMPLETE,
                    f"the host aborted before play ({ledger.abort.reason}); no secret was used",
                )
            case Step.ABORTED if ledger.over:
                assert ledger.abort is not None and state is not None
                self.ok(
                    Check.COMPLETE,
                    f"the host aborted on day {state.day} ({ledger.abort.reason}); the Ghost "
                    "revealed its seed and everything played checks out",
                )
            case Step.ABORTED:
                assert state is not None
                raise _Stop(
                    Check.COMPLETE,
                    last,
                    GHOST_PARTY,
                    f"the game was aborted on day {state.day} and the Ghost never revealed "
                    "its seed: the wrong verdicts and its hand cannot be checked",
                )
            case Step.REVEAL:
                raise _Stop(Check.COMPLETE, last, GHOST_PARTY, "the Ghost never revealed its seed")
            case step:
                raise _Stop(
                    Check.COMPLETE,
                    last,
                    None,
                    f"the transcript stops at event {last}, during the {step.value} step",
                )

    # ----------------------------------------------------------------- the report

    def _report(self, stop: _Stop | None) -> VerifyReport:
        checks = list(self.passed)
        not_checked: list[NotChecked] = []
        done = {result.name for result in checks}
        if stop is not None:
            checks.append(CheckResult(stop.check.value, False, _where(stop)))
            done.add(stop.check.value)
        partial = self._partial(stop)
        for check in Check:
            if check.value in done:
                continue
            if check is Check.CARD_PACK and self.pack is None:
                not_checked.append(NotChecked(check.value, PACK_NOT_CHECKED))
            elif check in partial:
                not_checked.append(NotChecked(check.value, partial[check]))
            elif stop is None:
                not_checked.append(NotChecked(check.value, _not_applicable(check, self.replica)))
            else:
                not_checked.append(NotChecked(check.value, "not reached"))
        order = {check.value: index for index, check in enumerate(Check)}
        checks.sort(key=lambda result: order[result.name])
        error = (
            None
            if stop is None
            else VerifyError(stop.seq, stop.reason, stop.check.value, stop.party)
        )
        return VerifyReport(
            checks=tuple(checks),
            not_checked=tuple(not_checked),
            error=error,
            events=len(self.events),
            game=None if self.table_setup is None else self.table_setup.genesis.game,
            outcome=self._outcome(),
            summary=self._summary(error),
            replica=self.replica,
        )

    def _partial(self, stop: _Stop | None) -> dict[Check, str]:
        """The checks of the game pass that ran only part of the way before ``stop``."""
        if stop is None:
            return {}
        at = self.stop_index
        passed = {result.name for result in self.passed}
        partial: dict[Check, str] = {}
        at_reveal = stop.check in (*_REVEAL, *_REPLAY)
        if stop.check in _FOLD or (at_reveal and at < len(self.events) - 1):
            cut = f"checked up to event {at - 1} only: verification stopped at event {at}"
            for check in _FOLD:
                if check is not stop.check and check.value not in passed:
                    partial[check] = cut
        if stop.check in _REPLAY:
            replay_cut = f"the replay with the secrets stopped at event {stop.seq}"
            partial.update({check: replay_cut for check in _REPLAY if check is not stop.check})
        return partial

    def _outcome(self) -> str | None:
        if self.replica is None:
            return None
        ledger = self.replica.ledger
        if ledger.abort is not None:
            return "aborted"
        state = ledger.state
        if state is None or state.phase is not Phase.ENDED or state.outcome is None:
            return None
        return state.outcome.value

    def _summary(self, error: VerifyError | None) -> str:
        if error is not None:
            where = "the file" if error.seq is None else f"event {error.seq}"
            who = f" ({error.party})" if error.party else ""
            return f"INVALID at {where}{who}: {error.reason}"
        assert self.replica is not None and self.table_setup is not None
        ledger = self.replica.ledger
        count, difficulty = self.table_setup.investigators, self.table_setup.genesis.difficulty
        company = f"{count} investigator{'s' if count != 1 else ''}, {difficulty}"
        if ledger.abort is not None:
            unchecked = "" if self.pack is not None else f" ({PACK_NOT_CHECKED})"
            return (
                f"VALID: the game was aborted ({ledger.abort.reason}); nothing unfair "
                f"happened{unchecked}"
            )
        state = ledger.state
        assert state is not None
        stage = "Stage Two" if state.stage is Stage.CULPRIT else "Stage One"
        unchecked = "" if self.pack is not None else f" ({PACK_NOT_CHECKED})"
        return (
            f"VALID: the game was played fairly and {state.outcome} on day {state.day} "
            f"in {stage} ({company}){unchecked}"
        )


PACK_NOT_CHECKED: Final = (
    "the card pack was not checked: no pack was given, so nothing shows that the card ids "
    "mean the cards the players saw"
)


def _where(stop: _Stop) -> str:
    place = "" if stop.seq is None else f"event {stop.seq}: "
    who = "" if stop.party is None else f"{stop.party}: "
    return f"{place}{who}{stop.reason}"


def _not_applicable(check: Check, replica: Replica | None) -> str:
    ledger = None if replica is None else replica.ledger
    if check is Check.CULPRIT:
        return "not applicable: the game never got to Stage Two's séance"
    if ledger is not None and ledger.abort is not None:
        return "not applicable: the game was aborted before this could happen"
    return "not applicable"
