"""Generate the protocol's byte-exact test vectors (``protocol/vectors/``).

    make vectors          # write them (and the schemas)
    make vectors-check    # exit 1 if any file differs

Every value is computed by the code under test from fixed inputs, so an
independent implementation that reproduces these files implements the
same protocol.  The vectors cover canonical JSON, the derivation stream
(bytes, ``below``, shuffles), the deal, every commitment, the signatures,
and whole games: one honest self-played game (with :class:`PlainPolicy`
and a small synthetic card set, so they change only when the protocol
does) and tampered copies of it, each with the result ``verify`` must give.
"""

from __future__ import annotations

import argparse
import functools
import json
import struct
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

from domicile_p2p.canonical import CanonicalError, decode, encode
from domicile_p2p.fairness.commit import (
    entropy_commitment,
    frame,
    ghost_commitment,
    ghost_key,
    joint_seed,
    slot_names,
    slot_openings,
    tagged_hash,
)
from domicile_p2p.fairness.deal import deal_secrets, deal_tableau
from domicile_p2p.fairness.derive import ByteStream, stream_bytes
from domicile_p2p.fairness.seeds import SelfplaySeeds
from domicile_p2p.identity import BadPublicKey, Identity, PublicKey
from domicile_p2p.packs import Pack, canonical_form, load_default_pack, load_pack
from domicile_p2p.rules import (
    LAST_DAY,
    MIN_DREAM_CARDS,
    PROTOCOL_VERSION,
    Category,
    Difficulty,
    GameState,
    Stage,
    TableConfig,
    apply,
    new_game,
)
from domicile_p2p.transcript.codec import Event, SignedAction
from domicile_p2p.transcript.files import encode_transcript
from domicile_p2p.transcript.moves import PLAY_KINDS, to_rules
from domicile_p2p.transcript.schema import (
    CardLists,
    ChatBody,
    DealBody,
    EntropyRevealBody,
    GameOverBody,
    GroupGiveBody,
    Kind,
    Opening,
    PlaceBody,
    RevealBody,
    SeanceBody,
    SlotCommitsBody,
    TableauBody,
    VerdictBody,
)
from domicile_p2p.transcript.selfplay import PlainPolicy, Seating, play_game
from domicile_p2p.transcript.verify import VerifyReport, verify
from protocol_tools.forge import Entry, entries_of, renumber, seal
from protocol_tools.rule_vectors import Base, rule_games

DEFAULT_DIR: Final = Path(__file__).resolve().parents[2] / "protocol" / "vectors"

KEY_A: Final = bytes(range(32))
KEY_B: Final = bytes(range(255, 223, -1))
GAME_ID: Final = bytes.fromhex("0123456789abcdef0123456789abcdef")

GAME_SEED: Final = 125
"""The self-play seed of the honest game: won in Stage Two, with refreshes and reshuffles."""
GAME_INVESTIGATORS: Final = 2
GAME_DIFFICULTY: Final = Difficulty.EASY
GAME_CARDS: Final = CardLists(
    tuple(f"char-{i:02d}" for i in range(1, 9)),
    tuple(f"loc-{i:02d}" for i in range(1, 9)),
    tuple(f"item-{i:02d}" for i in range(1, 9)),
    tuple(f"dream-{i:02d}" for i in range(1, 17)),
)
GAME_PACK_ID: Final = "vectors"


TINY_CARDS: Final = CardLists(
    tuple(f"char-{i:02d}" for i in range(1, 6)),
    tuple(f"loc-{i:02d}" for i in range(1, 6)),
    tuple(f"item-{i:02d}" for i in range(1, 6)),
    tuple(f"dream-{i:02d}" for i in range(1, MIN_DREAM_CARDS + 1)),
)
"""The smallest pack a table of two investigators can play (easy: 5 cards per category; the
rules' minimum of 16 dreams), so that the deck runs out and is reshuffled again and again,
and Stage Two's wrong accusations leave the Ghost just its seven cards."""
TINY_PACK_ID: Final = "tiny"

_MOTIFS: Final = ("ash", "bell", "candle", "door", "glass", "key", "moth", "rain", "rope", "salt")


def _toml_list(words: Sequence[str]) -> str:
    return "[" + ", ".join(f'"{word}"' for word in words) + "]"


def pack_toml(pack_id: str, cards: CardLists) -> dict[str, bytes]:
    """A valid card pack with ``cards``' ids, as the five TOML files of its directory."""

    def motifs(index: int, count: int) -> str:
        return _toml_list([_MOTIFS[(index + step) % len(_MOTIFS)] for step in range(count)])

    header = (
        "[pack]\n"
        f'id = "{pack_id}"\n'
        f'name = "Protocol vectors: {pack_id}"\n'
        "version = 1\n"
        'description = "A synthetic pack of protocol/vectors, hashed as protocol/SPEC.md says."\n'
        f"motifs = {_toml_list(_MOTIFS)}\n"
    )
    files = {"pack.toml": header}
    for file, noun, ids in (
        ("characters.toml", "Character", cards.character),
        ("locations.toml", "Location", cards.location),
        ("items.toml", "Item", cards.item),
    ):
        files[file] = "".join(
            f'\n[[card]]\nid = "{card}"\nname = "{noun} {index + 1}"\n'
            f'description = "Card {index + 1} of the {noun.lower()}s."\n'
            f"motifs = {motifs(index, 4)}\n"
            for index, card in enumerate(ids)
        ).lstrip("\n")
    files["dreams.toml"] = "".join(
        f'\n[[dream]]\nid = "{dream}"\ntext = "Dream number {index + 1}."\n'
        f"motifs = {motifs(index * 3, 3)}\n"
        for index, dream in enumerate(cards.dream)
    ).lstrip("\n")
    return {name: text.encode("utf-8") for name, text in files.items()}


def _load_toml_pack(files: dict[str, bytes]) -> Pack:
    with tempfile.TemporaryDirectory() as directory:
        for name, data in files.items():
            (Path(directory) / name).write_bytes(data)
        return load_pack(directory, announce_warnings=False)  # a synthetic pack: no prose


PACK_CARDS: Final = {GAME_PACK_ID: GAME_CARDS, TINY_PACK_ID: TINY_CARDS}
"""The card ids of the vectors' two packs."""


@functools.cache
def _packs() -> dict[str, tuple[dict[str, bytes], Pack]]:
    """The vectors' two packs: their files and the pack each loads as."""
    packs = {}
    for pack_id, cards in PACK_CARDS.items():
        files = pack_toml(pack_id, cards)
        packs[pack_id] = (files, _load_toml_pack(files))
    return packs


def _pack_hash(pack_id: str) -> str:
    return _packs()[pack_id][1].content_hash


def pack_vectors() -> dict[str, Any]:
    default = load_default_pack()
    return _doc(
        "Card pack content hashes (protocol/SPEC.md, 'The card pack'). Each pack of "
        "'packs' is the directory of that name under protocol/vectors/packs/: 'canonical' "
        "is the canonical JSON of its value, 'content_hash' the SHA-256 of those bytes. "
        "'default' is the built-in pack of this release (domicile_p2p/packs/default).",
        packs=[
            {
                "directory": f"packs/{pack_id}",
                "id": pack.id,
                "canonical": encode(canonical_form(pack)).decode("utf-8"),
                "content_hash": pack.content_hash,
            }
            for pack_id, (_, pack) in _packs().items()
        ],
        default={"id": default.id, "content_hash": default.content_hash},
    )


def _doc(description: str, **content: Any) -> dict[str, Any]:
    return {"description": description, **content}


# --------------------------------------------------------------------------- encodings


def canonical_vectors() -> dict[str, Any]:
    values: list[Any] = [
        {"b": 1, "a": [True, False, None], "c": "x"},
        {"B": 1, "_": 2, "a": 3, "aa": 4, "a-b": 5},
        {"nested": {"z": [], "y": {}}, "n": [0, -1, 9007199254740991, -9007199254740991]},
        'quote " backslash \\ slash /',
        "controls \b\f\n\r\t \u0000 \u001f and delete \u007f",
        "accents é ü, line separator \u2028, astral 🜏",
        "",
    ]
    refused = [
        ("1.5", "a float"),
        ("1e3", "a float in exponent form"),
        ('{"a":1,"a":2}', "a duplicate key"),
        ("9007199254740992", "an integer outside the safe range"),
        ("NaN", "not JSON"),
        ('"\\ud800"', "a lone surrogate"),
        ('{"é":1}', "a non-ASCII key"),
    ]
    respelled = ['{ "b" : 1 , "a" : 2 }', '"\\u00e9"', '"\\/"', "[1,\n2]"]
    return _doc(
        "Canonical JSON (protocol/SPEC.md, 'Encoding'). 'valid': value -> canonical UTF-8 "
        "text (and its hex). 'refused': texts a decoder must refuse. 'respelled': texts "
        "that decode but are not canonical, with their canonical form.",
        valid=[
            {"value": v, "canonical": encode(v).decode(), "hex": encode(v).hex()} for v in values
        ],
        refused=[{"text": text, "why": why} for text, why in refused if _refused(text)],
        respelled=[
            {"text": t, "canonical": encode(decode(t.encode())).decode()} for t in respelled
        ],
    )


def _refused(text: str) -> bool:
    try:
        decode(text.encode())
    except CanonicalError:
        return True
    raise AssertionError(f"{text!r} should be refused")


# --------------------------------------------------------------------------- derivation


def derive_vectors() -> dict[str, Any]:
    streams = [
        (KEY_A, "domicile-p2p/v1/tableau/character", 100),
        (KEY_B, "domicile-p2p/v1/deck", 64),
        (KEY_A, "domicile-p2p/v1/salt/culprit", 32),
    ]
    bounds = [1, 2, 3, 7, 52, 1000, 2**31 + 1, 2**32]
    rejection_bound = 3 * 2**30  # a quarter of all words are rejected for this bound
    items = [f"card-{i}" for i in range(10)]
    return _doc(
        "The HMAC-SHA256 counter-mode stream and what is drawn from it "
        "(protocol/SPEC.md, 'Derivation'). Keys and bytes are hex. 'below': every bound is "
        "drawn in turn from ONE stream (key, label), in the order listed, each draw going on "
        "where the one before stopped. 'rejection': every 4-byte word read by those draws, "
        "accepted or not. 'shuffle': a Fisher-Yates shuffle on a fresh stream.",
        streams=[
            {"key": k.hex(), "label": lbl, "length": n, "bytes": stream_bytes(k, lbl, n).hex()}
            for k, lbl, n in streams
        ],
        below={
            "key": KEY_A.hex(),
            "label": "domicile-p2p/v1/vectors/below",
            "bounds": bounds,
            "values": _draws(KEY_A, "domicile-p2p/v1/vectors/below", bounds),
        },
        rejection=_rejection(KEY_B, "domicile-p2p/v1/vectors/rejection", rejection_bound, 12),
        shuffle={
            "key": KEY_B.hex(),
            "label": "domicile-p2p/v1/vectors/shuffle",
            "items": items,
            "result": list(ByteStream(KEY_B, "domicile-p2p/v1/vectors/shuffle").shuffle(items)),
        },
    )


def _draws(key: bytes, name: str, bounds: Sequence[int]) -> list[int]:
    stream = ByteStream(key, name)
    return [stream.below(bound) for bound in bounds]


def _rejection(key: bytes, name: str, bound: int, count: int) -> dict[str, Any]:
    """``count`` draws of ``below(bound)`` with every 4-byte word read, accepted or not."""
    words = ByteStream(key, name)
    limit = 2**32 - (2**32 % bound)
    trace: list[dict[str, Any]] = []
    values: list[int] = []
    while len(values) < count:
        (word,) = struct.unpack(">I", words.read(4))
        accepted = word < limit
        trace.append({"word": word, "accepted": accepted})
        if accepted:
            values.append(word % bound)
    stream = ByteStream(key, name)
    assert values == [stream.below(bound) for _ in range(count)]
    assert any(not step["accepted"] for step in trace), "pick a name whose trace shows a rejection"
    return {"key": key.hex(), "label": name, "bound": bound, "words": trace, "values": values}


def deal_vectors() -> dict[str, Any]:
    cards = {
        Category.CHARACTER: list(GAME_CARDS.character),
        Category.LOCATION: list(GAME_CARDS.location),
        Category.ITEM: list(GAME_CARDS.item),
    }
    joint = tagged_hash("domicile-p2p/v1/vectors/joint")
    key = tagged_hash("domicile-p2p/v1/vectors/ghost-key")
    config = TableConfig(Difficulty.EASY, ("One", "Two"), GAME_CARDS.dream)
    tableau = deal_tableau(joint, cards, 5)
    setup = deal_secrets(key, config, tableau)
    discard = sorted(GAME_CARDS.dream[:6])
    return _doc(
        "The public tableau from the joint seed, and the Ghost's secrets from K "
        "(protocol/SPEC.md, 'Dealing'). Two investigators, easy (5 cards per category).",
        cards={c.value: ids for c, ids in cards.items()},
        dreams=list(GAME_CARDS.dream),
        joint_seed=joint.hex(),
        tableau={c.value: list(tableau.cards(c)) for c in cards},
        ghost_key=key.hex(),
        columns=[
            {"seat": seat, "character": col.character, "location": col.location, "item": col.item}
            for seat, col in enumerate(setup.columns, start=1)
        ],
        culprit=setup.culprit,
        deck=list(setup.deck),
        reshuffles=[
            {"number": n, "discard": discard, "deck": list(setup.reshuffle(n, tuple(discard)))}
            for n in (0, 1)
        ],
    )


# --------------------------------------------------------------------------- commitments


def commitment_vectors() -> dict[str, Any]:
    seed = bytes.fromhex("11" * 32)
    entropies = {1: bytes.fromhex("22" * 32), 2: bytes.fromhex("33" * 32)}
    commit = ghost_commitment(seed)
    joint = joint_seed(GAME_ID, commit, [entropies[1], entropies[2]])
    key = ghost_key(seed, joint)
    config = TableConfig(Difficulty.EASY, ("One", "Two"), GAME_CARDS.dream)
    cards = {
        Category.CHARACTER: GAME_CARDS.character,
        Category.LOCATION: GAME_CARDS.location,
        Category.ITEM: GAME_CARDS.item,
    }
    tableau = deal_tableau(joint, cards, 5)
    openings = slot_openings(key, deal_secrets(key, config, tableau))
    return _doc(
        "Frames, hashes and every commitment of the setup (protocol/SPEC.md, 'Commitments'). "
        "All bytes are hex.",
        frames=[
            {
                "domain": "domicile-p2p/v1/vectors/frame",
                "fields": [f.hex() for f in fields],
                "frame": frame("domicile-p2p/v1/vectors/frame", *fields).hex(),
                "hash": tagged_hash("domicile-p2p/v1/vectors/frame", *fields).hex(),
            }
            for fields in ([], [b""], [b"abc", b"", bytes(40)])
        ],
        game_id=GAME_ID.hex(),
        ghost_seed=seed.hex(),
        ghost_commit=commit.hex(),
        entropies=[
            {
                "seat": seat,
                "entropy": value.hex(),
                "commit": entropy_commitment(GAME_ID, seat, value).hex(),
            }
            for seat, value in entropies.items()
        ],
        joint_seed=joint.hex(),
        ghost_key=key.hex(),
        tableau={c.value: list(tableau.cards(c)) for c in cards},
        slots=[
            {
                "slot": slot,
                "salt": openings[slot].salt.hex(),
                "card": openings[slot].card,
                "commit": openings[slot].commitment(GAME_ID).hex(),
            }
            for slot in slot_names(2)
        ],
    )


def signature_vectors() -> dict[str, Any]:
    host = Identity.from_private_bytes(KEY_A)
    player = Identity.from_private_bytes(KEY_B)
    action = SignedAction.create(
        player, game=GAME_ID.hex(), seat=1, counter=3, kind=Kind.PLACE, body=PlaceBody("char-02")
    )
    event = Event.create(host, game_id=GAME_ID, seq=7, prev="ab" * 32, action=action)
    return _doc(
        "Ed25519 signatures of a player's action and of the host's event, and the chain "
        "link (protocol/SPEC.md, 'Signatures' and 'The hash chain'). Private keys are the "
        "32-byte RFC 8032 seeds.",
        host={"private": KEY_A.hex(), "public": host.public_hex},
        player={"private": KEY_B.hex(), "public": player.public_hex},
        action={
            "json": action.to_json().decode(),
            "signed_message": action.message().hex(),
        },
        event={
            "json": event.line.decode(),
            "signed_message": event.host_message(GAME_ID).hex(),
            "link": event.link().hex(),
        },
    )


ORDER_8_POINT: Final = bytes.fromhex(
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"
)
"""A point of order 8 of edwards25519 (a small-order point)."""


def key_vectors() -> dict[str, Any]:
    from nacl.bindings import crypto_core_ed25519_add

    valid = Identity.from_private_bytes(KEY_A).public_key.raw
    p_minus_1 = (2**255 - 20).to_bytes(32, "little")
    p_plus_1 = (2**255 - 18).to_bytes(32, "little")
    cases = [
        (valid, "the public key of signatures.json's host: a point of order L"),
        ((1).to_bytes(32, "little"), "y = 1, the identity: small order (1)"),
        (p_minus_1, "y = p - 1: the point (0, -1), small order (2)"),
        (ORDER_8_POINT, "a point of order 8: small order"),
        (
            crypto_core_ed25519_add(valid, ORDER_8_POINT),
            "the valid key plus the point of order 8: mixed order (8L)",
        ),
        (p_plus_1, "y = p + 1 >= p: not canonical, RFC 8032 5.1.3 decoding fails"),
        ((2).to_bytes(32, "little"), "y = 2: no x satisfies the curve equation"),
        ((1 | 1 << 255).to_bytes(32, "little"), "y = 1 with the sign bit set: x = 0 and x_0 = 1"),
    ]
    return _doc(
        "Ed25519 public keys a genesis may and may not name (protocol/SPEC.md, 'Keys and "
        "signatures'): a key is valid when it decodes (RFC 8032 5.1.3) to a point of order "
        "exactly L. Keys are hex.",
        keys=[{"key": key.hex(), "valid": _valid_key(key), "why": why} for key, why in cases],
    )


def _valid_key(raw: bytes) -> bool:
    try:
        PublicKey(raw)
    except BadPublicKey:
        return False
    return True


# --------------------------------------------------------------------------- games


def _self_played(
    seed: int,
    investigators: int,
    difficulty: Difficulty,
    pack_id: str,
    *,
    timer: int | None = None,
) -> tuple[list[Event], Seating]:
    """A self-played game of one of the vectors' packs, and every key it was played with."""
    seeds = SelfplaySeeds.from_number(seed)
    seating = Seating.from_seeds(seeds, investigators)
    result = play_game(
        seeds=seeds,
        seating=seating,
        difficulty=difficulty,
        cards=PACK_CARDS[pack_id],
        pack_id=pack_id,
        pack_hash=_pack_hash(pack_id),
        policies=[PlainPolicy(seat, seeds.bot_seed(seat)) for seat in range(investigators + 1)],
        timer=timer,
        time_runs_out=_time_runs_out if timer is not None else None,
    )
    return list(result.events), seating


def honest_game() -> tuple[list[Event], Seating]:
    """The vectors' self-played game, and every key it was played with."""
    return _self_played(GAME_SEED, GAME_INVESTIGATORS, GAME_DIFFICULTY, GAME_PACK_ID)


TIMER: Final = 60
"""The time-up game's sand-glass: the host calls time on day 2 and on Stage Two's day 7."""


def _time_runs_out(state: GameState) -> bool:
    return state.day == 2 or (state.stage is Stage.CULPRIT and state.day == LAST_DAY)


def timed_game() -> list[Event]:
    """The honest game's seed at a table with a sand-glass, the host calling time twice."""
    return _vector_game(GAME_DIFFICULTY, timer=TIMER)


def _vector_game(difficulty: Difficulty, timer: int | None) -> list[Event]:
    """A game of the vectors' seed, seats and pack, at ``difficulty`` (with a sand-glass)."""
    events, _ = _self_played(GAME_SEED, GAME_INVESTIGATORS, difficulty, GAME_PACK_ID, timer=timer)
    return events


TINY_SEED: Final = 46
TINY_INVESTIGATORS: Final = 2
"""The self-play seed of the tiny-pack game (one investigator, easy): many reshuffles."""


def tiny_game() -> list[Event]:
    """A game with the tiny pack: the ten dreams are reshuffled into the deck again and again."""
    events, _ = _self_played(TINY_SEED, TINY_INVESTIGATORS, Difficulty.EASY, TINY_PACK_ID)
    return events


def _expected(report: VerifyReport) -> dict[str, Any]:
    error = report.error
    return {
        "recognized": report.recognized,
        "valid": report.valid,
        "outcome": report.outcome,
        "checks": [{"name": c.name, "ok": c.ok} for c in report.checks],
        "error": None
        if error is None
        else {"seq": error.seq, "check": error.check, "party": error.party},
    }


def _first(entries: Sequence[Entry], match: Callable[[Entry], bool]) -> int:
    return next(index for index, entry in enumerate(entries) if match(entry))


def tampered_games(events: Sequence[Event], seating: Seating) -> dict[str, bytes]:
    """Copies of the honest game with one thing changed, re-signed as a cheat would."""
    entries = entries_of(events)

    def sealed(changed: Sequence[Entry]) -> bytes:
        return encode_transcript(seal(changed, host=seating.host, seats=seating.identities))

    games: dict[str, bytes] = {}
    # An altered byte, no re-signing: the event's own host signature fails.
    lines = encode_transcript(events).split(b"\n")
    games["altered-byte"] = b"\n".join(
        _flip_hex_digit(line) if index == len(lines) // 2 else line
        for index, line in enumerate(lines)
    )
    # An event dropped, the rest untouched: the chain breaks.
    games["dropped-event"] = encode_transcript([*events[:10], *events[11:]])
    # A wrong verdict turned "correct" with an invented opening: caught at once.
    index = _first(entries, _has_wrong_verdict)
    seance = entries[index].body
    assert isinstance(seance, SeanceBody)
    verdicts = tuple(
        VerdictBody(v.seat, True, Opening("00" * 32, _marker_of(events, index, v.seat)))
        if not v.correct
        else v
        for v in seance.verdicts
    )
    forged = list(entries)
    forged[index] = forged[index].with_body(SeanceBody(verdicts))
    games["false-correct"] = sealed(forged)
    # Another seed revealed: it does not open the Ghost's commitment.
    forged = list(entries)
    forged[-1] = forged[-1].with_body(RevealBody("44" * 32))
    games["wrong-seed"] = sealed(forged)
    # A changed culprit commitment: caught when Stage Two's correct verdict opens it.
    index = _first(entries, lambda e: e.kind is Kind.SLOT_COMMITS)
    commits = entries[index].body
    assert isinstance(commits, SlotCommitsBody)
    forged = list(entries)
    forged[index] = forged[index].with_body(SlotCommitsBody(commits.columns, "55" * 32))
    games["changed-commitment"] = sealed(forged)
    # The host announces the other outcome.
    index = _first(entries, lambda e: e.kind is Kind.GAME_OVER)
    over = entries[index].body
    assert isinstance(over, GameOverBody)
    forged = list(entries)
    flipped = GameOverBody("lost" if over.outcome == "won" else "won", over.day)
    forged[index] = forged[index].with_body(flipped)
    games["wrong-outcome"] = sealed(forged)
    # The Ghost never reveals its seed: the game cannot be proven fair.
    games["missing-reveal"] = encode_transcript(events[:-1])
    # An action sent again with its own signature and counter: a replay.
    index = _first(entries, lambda e: e.kind is Kind.PLACE)
    games["replayed-action"] = sealed([*entries[: index + 1], *entries[index:]])
    # An investigator reveals other entropy than it committed to.
    index = _first(entries, lambda e: e.kind is Kind.ENTROPY_REVEAL)
    forged = list(entries)
    forged[index] = forged[index].with_body(EntropyRevealBody("66" * 32))
    games["wrong-entropy"] = sealed(forged)
    # The host deals the tableau in another order than the joint seed does.
    index = _first(entries, lambda e: e.kind is Kind.DEAL)
    deal = entries[index].body
    assert isinstance(deal, DealBody)
    tableau = deal.tableau
    shuffled = TableauBody(tuple(reversed(tableau.character)), tableau.location, tableau.item)
    forged = list(entries)
    forged[index] = forged[index].with_body(DealBody(deal.joint_seed, shuffled))
    games["wrong-tableau"] = sealed(forged)
    # Stage Two's group give names a dream the Ghost does not hold (it is still in the
    # deck): the public replay cannot tell, the replay with the revealed seed can.
    index = _first(entries, lambda e: e.kind is Kind.GROUP_GIVE)
    group = entries[index].body
    assert isinstance(group, GroupGiveBody)
    stranger = _not_in_hand(events, index)
    forged = list(entries)
    forged[index] = forged[index].with_body(GroupGiveBody((stranger, *group.cards[1:])))
    games["card-not-in-hand"] = sealed(forged)
    # SPEC §12, "Recognition": a lone surrogate in the genesis line's name makes the first
    # line undecodable by §2's rules, so the file is not a transcript (exit 2), not check 1.
    first, rest = encode_transcript(events).split(b"\n", 1)
    at = first.index(b'"name":"') + len(b'"name":"')
    games["surrogate-in-the-first-line"] = first[:at] + b"\\ud800" + first[at:] + b"\n" + rest
    # SPEC §12: checks 13 to 15 are made at the reveal, in the event-by-event pass, so a
    # wrong seed is the first failure even when a later event breaks the order (check 7).
    forged = list(entries)
    forged[-1] = forged[-1].with_body(RevealBody("44" * 32))
    forged.append(Entry(Kind.CHAT, ChatBody("Was that fair?"), 1))
    games["wrong-seed-then-chat-after-the-reveal"] = sealed(renumber(forged))
    return games


def _not_in_hand(events: Sequence[Event], before: int) -> str:
    """A dream card neither in the Ghost's hand nor face up just before event ``before``."""
    replica = verify(encode_transcript(events)).replica
    assert replica is not None
    table_setup, tableau = replica.ledger.table_setup, replica.ledger.tableau
    deal, reveal = events[_first(entries_of(events), lambda e: e.kind is Kind.DEAL)], events[-1]
    assert isinstance(deal.body, DealBody) and isinstance(reveal.body, RevealBody)
    assert tableau is not None
    key = ghost_key(bytes.fromhex(reveal.body.seed), bytes.fromhex(deal.body.joint_seed))
    state = new_game(table_setup.config, tableau, deal_secrets(key, table_setup.config, tableau))
    for event in events[:before]:
        if event.kind in PLAY_KINDS and event.seat is not None:
            state = apply(state, to_rules(event.kind, event.body, event.seat))
    assert state.secrets is not None
    held = set(state.secrets.hand) | state.dreams_in_play
    return next(card for card in table_setup.config.dream_cards if card not in held)


def _flip_hex_digit(line: bytes) -> bytes:
    """The line with the first hex digit of its ``prev`` changed (still well-formed)."""
    at = line.index(b'"prev":"') + len(b'"prev":"')
    digit = b"1" if line[at : at + 1] == b"0" else b"0"
    return line[:at] + digit + line[at + 1 :]


def _has_wrong_verdict(entry: Entry) -> bool:
    return isinstance(entry.body, SeanceBody) and any(not v.correct for v in entry.body.verdicts)


def _marker_of(events: Sequence[Event], before: int, seat: int) -> str:
    """The card ``seat``'s marker was last placed on before event ``before``."""
    for event in reversed(events[:before]):
        if event.seat == seat and isinstance(event.body, PlaceBody):
            return event.body.card
    raise AssertionError(f"seat {seat} never placed a marker")


def game_files() -> dict[str, bytes]:
    events, seating = honest_game()
    files = {"games/honest.jsonl": encode_transcript(events)}
    keys = {
        "host": seating.host.public_hex,
        "seats": [identity.public_hex for identity in seating.identities],
    }
    expectations: dict[str, Any] = {}
    timed = timed_game()
    files["games/time-up.jsonl"] = encode_transcript(timed)
    files["games/tiny.jsonl"] = encode_transcript(tiny_game())
    for name, data in {
        "honest": files["games/honest.jsonl"],
        "time-up": files["games/time-up.jsonl"],
        "tiny": files["games/tiny.jsonl"],
        **tampered_games(events, seating),
    }.items():
        files[f"games/{name}.jsonl"] = data
        expectations[name] = _expected(verify(data))
    rules = rule_games(
        Base(tuple(events), seating),
        Base(tuple(timed), seating),
        Base(tuple(_vector_game(Difficulty.VERY_DIFFICULT, timer=None)), seating),
    )
    for name, game in rules.items():
        files[f"games/rules/{name}.jsonl"] = game.data
        expectations[f"rules/{name}"] = {
            "rule": game.rule,
            "what": game.what,
            **_expected(verify(game.data)),
        }
    files["games/expected.json"] = _render(
        _doc(
            f"Protocol {PROTOCOL_VERSION}. Self-play seed {GAME_SEED}: {GAME_INVESTIGATORS} "
            f"investigators, {GAME_DIFFICULTY.value}, a synthetic pack ('{GAME_PACK_ID}'). "
            "'honest' is the game as played; 'time-up' is the same seed at a table with a "
            "60-second sand-glass, the host calling time on day 2 and on day 7 (Stage Two); "
            f"'tiny' is seed {TINY_SEED} with the tiny pack ({TINY_INVESTIGATORS} "
            f"investigators, easy, {MIN_DREAM_CARDS} dreams: the deck is reshuffled again and "
            "again, and a refresh draws exactly the seven cards the deck and the discard pile "
            "hold); every other file changes one thing and is signed again with the game's "
            "keys, as a cheating host and Ghost could: 'rules/<rule>-*' breaks the rule of "
            "protocol/SPEC.md §12.2 its name starts with. 'results' is what verify must "
            "report for each (without the card pack check): whether the file is recognized "
            "as a transcript at all (SPEC §12, 'Recognition'), and the first failing check, "
            "the event's seq and the party at fault.",
            keys=keys,
            results=expectations,
        )
    )
    return files


# --------------------------------------------------------------------------- files


def _render(value: Any) -> bytes:
    return (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def vector_files() -> dict[str, bytes]:
    """Every vector file: path relative to ``protocol/vectors`` -> bytes."""
    files = {
        "canonical.json": _render(canonical_vectors()),
        "derive.json": _render(derive_vectors()),
        "deal.json": _render(deal_vectors()),
        "commitments.json": _render(commitment_vectors()),
        "signatures.json": _render(signature_vectors()),
        "keys.json": _render(key_vectors()),
        "packs.json": _render(pack_vectors()),
    }
    for pack_id, (pack_files, _) in _packs().items():
        files.update({f"packs/{pack_id}/{name}": data for name, data in pack_files.items()})
    files.update(game_files())
    return files


def stale(directory: Path) -> list[str]:
    problems = []
    for name, data in vector_files().items():
        path = directory / name
        if not path.exists() or path.read_bytes() != data:
            problems.append(name)
    return problems


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="generate protocol/vectors")
    parser.add_argument("--out", type=Path, default=DEFAULT_DIR, help="the vectors directory")
    parser.add_argument("--check", action="store_true", help="only report stale files")
    args = parser.parse_args(argv)
    if args.check:
        problems = stale(args.out)
        for name in problems:
            print(f"out of date: {args.out / name}", file=sys.stderr)
        return 1 if problems else 0
    for name, data in vector_files().items():
        path = args.out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
