"""The protocol's vectors and schemas: the code reproduces them byte for byte.

Two kinds of test: the generators must rebuild every file exactly (so a
change to the protocol cannot slip in without the vectors changing), and
the vectors are checked again against the formulas of ``protocol/SPEC.md``
written out here with the standard library only, so the files themselves
are known to say what the spec says.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import struct
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

import domicile_p2p
from domicile_p2p.canonical import CanonicalError, decode, encode
from domicile_p2p.fairness.deal import deal_secrets, deal_tableau
from domicile_p2p.fairness.derive import ByteStream
from domicile_p2p.rules import Category, Difficulty, TableConfig
from domicile_p2p.transcript.verify import verify
from protocol_tools import schema_export, vectors

ROOT = Path(__file__).resolve().parents[1] / "protocol"
VECTORS = ROOT / "vectors"
SCHEMAS = ROOT / "schema" / "transcript"


def load(name: str) -> Any:
    return json.loads((VECTORS / name).read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- regeneration


ONE_GENERATION = pytest.mark.xdist_group("vectors")
"""The tests that read every vector file as the code makes it (13 s at load 6 on this
2-core machine), on one worker so that it is made once per run."""


@pytest.fixture(scope="module")
def generated() -> dict[str, bytes]:
    return vectors.vector_files()


@ONE_GENERATION
def test_every_vector_file_is_reproduced_byte_for_byte(generated: dict[str, bytes]) -> None:
    for name, data in generated.items():
        path = VECTORS / name
        assert path.exists(), f"{name} is missing: run make vectors"
        assert path.read_bytes() == data, f"{name} is out of date"


@ONE_GENERATION
def test_no_stray_vector_files(generated: dict[str, bytes]) -> None:
    on_disk = {p.relative_to(VECTORS).as_posix() for p in VECTORS.rglob("*") if p.is_file()}
    assert on_disk == set(generated)


def test_the_development_tools_are_not_in_the_installed_package() -> None:
    # The generator, the rule games' data and the forger live in tools/protocol_tools: the
    # wheel (domicile_p2p and domicile_tui) holds none of them, and nothing in it uses them.
    package = Path(domicile_p2p.__file__).resolve().parent
    assert not [p.name for p in (package / "transcript").glob("*.py") if p.stem in _TOOLS]
    for source in [*package.rglob("*.py"), *(ROOT.parent / "clients").rglob("*.py")]:
        text = source.read_text("utf-8")
        assert "import protocol_tools" not in text and "from protocol_tools" not in text, source
    tools = Path(vectors.__file__).resolve().parent
    assert {p.stem for p in tools.glob("*.py")} >= _TOOLS
    assert (tools / "rule_vectors.toml").is_file()


_TOOLS = {"vectors", "rule_vectors", "forge", "schema_export"}


def test_the_rule_games_are_data_every_one_a_rule_of_the_spec() -> None:
    import tomllib

    from protocol_tools.rule_vectors import RULES_FILE

    names = [spec["name"] for spec in tomllib.loads(RULES_FILE.read_text("utf-8"))["vector"]]
    assert len(names) == len(set(names)) == 49
    on_disk = {p.stem for p in (VECTORS / "games" / "rules").glob("*.jsonl")}
    assert set(names) == on_disk


def test_the_json_schemas_are_up_to_date() -> None:
    assert schema_export.stale(SCHEMAS) == [], "run make vectors"


def test_a_stale_schema_is_detected(tmp_path: Path) -> None:
    schema_export.write(tmp_path)
    assert schema_export.stale(tmp_path) == []
    (tmp_path / "body" / "give.schema.json").write_text("{}\n")
    (tmp_path / "old.schema.json").write_text("{}\n")
    assert schema_export.stale(tmp_path) == ["body/give.schema.json", "old.schema.json"]
    assert schema_export.main(["--check", "--out", str(tmp_path)]) == 1


@ONE_GENERATION
def test_a_stale_vector_is_detected(
    tmp_path: Path, generated: dict[str, bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    # What the files should hold is the code's (reproduced byte for byte above): this test
    # is about the check, which compares them with a directory, so it does not make them
    # twice more.
    monkeypatch.setattr(vectors, "vector_files", lambda: generated)
    for name, data in generated.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    assert vectors.main(["--check", "--out", str(tmp_path)]) == 0
    (tmp_path / "derive.json").write_text("{}")
    assert vectors.stale(tmp_path) == ["derive.json"]


# --------------------------------------------------------------------------- the spec, by hand


def u32(n: int) -> bytes:
    return struct.pack(">I", n)


def spec_frame(domain: str, *fields: bytes) -> bytes:
    out = u32(len(domain)) + domain.encode()
    for field in fields:
        out += u32(len(field)) + field
    return out


def spec_hash(domain: str, *fields: bytes) -> bytes:
    return hashlib.sha256(spec_frame(domain, *fields)).digest()


def spec_stream(key: bytes, label: str, length: int) -> bytes:
    out = b""
    counter = 0
    while len(out) < length:
        message = u32(len(label)) + label.encode() + struct.pack(">Q", counter)
        out += hmac.new(key, message, hashlib.sha256).digest()
        counter += 1
    return out[:length]


def test_canonical_vectors() -> None:
    data = load("canonical.json")
    for case in data["valid"]:
        assert encode(case["value"]).decode() == case["canonical"]
        assert bytes.fromhex(case["hex"]) == case["canonical"].encode()
    for case in data["refused"]:
        with pytest.raises(CanonicalError):
            decode(case["text"].encode())
    for case in data["respelled"]:
        assert encode(decode(case["text"].encode())).decode() == case["canonical"]


def test_derivation_vectors() -> None:
    data = load("derive.json")
    for case in data["streams"]:
        key = bytes.fromhex(case["key"])
        assert spec_stream(key, case["label"], case["length"]).hex() == case["bytes"]
    below = data["below"]
    stream = ByteStream(bytes.fromhex(below["key"]), below["label"])
    assert [stream.below(bound) for bound in below["bounds"]] == below["values"]
    rejection = data["rejection"]
    words = spec_stream(
        bytes.fromhex(rejection["key"]), rejection["label"], 4 * len(rejection["words"])
    )
    limit = 2**32 - 2**32 % rejection["bound"]
    values = []
    for index, step in enumerate(rejection["words"]):
        (word,) = struct.unpack(">I", words[4 * index : 4 * index + 4])
        assert word == step["word"] and (word < limit) == step["accepted"]
        if word < limit:
            values.append(word % rejection["bound"])
    assert values == rejection["values"]
    shuffle = data["shuffle"]
    stream = ByteStream(bytes.fromhex(shuffle["key"]), shuffle["label"])
    assert list(stream.shuffle(shuffle["items"])) == shuffle["result"]


def test_deal_vectors() -> None:
    data = load("deal.json")
    cards = {Category(name): ids for name, ids in data["cards"].items()}
    tableau = deal_tableau(bytes.fromhex(data["joint_seed"]), cards, 5)
    assert {c.value: list(tableau.cards(c)) for c in Category} == data["tableau"]
    config = TableConfig(Difficulty.EASY, ("One", "Two"), tuple(data["dreams"]))
    setup = deal_secrets(bytes.fromhex(data["ghost_key"]), config, tableau)
    assert [
        {"seat": s, "character": c.character, "location": c.location, "item": c.item}
        for s, c in enumerate(setup.columns, start=1)
    ] == data["columns"]
    assert setup.culprit == data["culprit"]
    assert list(setup.deck) == data["deck"]
    for case in data["reshuffles"]:
        assert list(setup.reshuffle(case["number"], tuple(case["discard"]))) == case["deck"]


def test_commitment_vectors() -> None:
    data = load("commitments.json")
    for case in data["frames"]:
        fields = [bytes.fromhex(f) for f in case["fields"]]
        assert spec_frame(case["domain"], *fields).hex() == case["frame"]
        assert spec_hash(case["domain"], *fields).hex() == case["hash"]
    game = bytes.fromhex(data["game_id"])
    seed = bytes.fromhex(data["ghost_seed"])
    commit = spec_hash("domicile-p2p/v1/ghost-commit", seed)
    assert commit.hex() == data["ghost_commit"]
    entropies = []
    for case in data["entropies"]:
        entropy = bytes.fromhex(case["entropy"])
        expected = spec_hash("domicile-p2p/v1/entropy-commit", game, u32(case["seat"]), entropy)
        assert expected.hex() == case["commit"]
        entropies.append(entropy)
    joint = spec_hash("domicile-p2p/v1/joint-seed", game, commit, *entropies)
    assert joint.hex() == data["joint_seed"]
    key = hmac.new(seed, spec_frame("domicile-p2p/v1/ghost-key", joint), hashlib.sha256).digest()
    assert key.hex() == data["ghost_key"]
    for case in data["slots"]:
        salt = spec_stream(key, "domicile-p2p/v1/salt/" + case["slot"], 32)
        assert salt.hex() == case["salt"]
        fields = (game, case["slot"].encode(), salt, case["card"].encode())
        assert spec_hash("domicile-p2p/v1/slot-commit", *fields).hex() == case["commit"]


def test_signature_vectors() -> None:
    data = load("signatures.json")
    host = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(data["host"]["private"]))
    player = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(data["player"]["private"]))
    assert host.public_key().public_bytes_raw().hex() == data["host"]["public"]
    action = json.loads(data["action"]["json"])
    core = {k: v for k, v in action.items() if k != "sig"}
    message = spec_frame("domicile-p2p/v1/action", encode(core))
    assert message.hex() == data["action"]["signed_message"]
    player.public_key().verify(bytes.fromhex(action["sig"]), message)
    assert player.sign(message).hex() == action["sig"]  # Ed25519 is deterministic
    line = data["event"]["json"].encode()
    event = json.loads(line)
    core = {k: v for k, v in event.items() if k != "host_sig"}
    message = spec_frame("domicile-p2p/v1/event", bytes.fromhex(action["game"]), encode(core))
    assert message.hex() == data["event"]["signed_message"]
    host.public_key().verify(bytes.fromhex(event["host_sig"]), message)
    assert spec_hash("domicile-p2p/v1/event-link", line).hex() == data["event"]["link"]


def test_game_vectors_verify_as_expected() -> None:
    expected = load("games/expected.json")["results"]
    assert expected["honest"]["valid"] is True
    assert {name for name in expected if name != "honest"} >= {
        "altered-byte",
        "dropped-event",
        "false-correct",
        "wrong-seed",
        "changed-commitment",
        "wrong-outcome",
    }
    for name, result in expected.items():
        report = verify(VECTORS / "games" / f"{name}.jsonl")
        assert report.valid is result["valid"], name
        got = (
            None
            if report.error is None
            else {
                "seq": report.error.seq,
                "check": report.error.check,
                "party": report.error.party,
            }
        )
        assert got == result["error"], name
        assert [{"name": c.name, "ok": c.ok} for c in report.checks] == result["checks"], name


def test_the_honest_game_links_from_a_zero_prev() -> None:
    lines = (VECTORS / "games" / "honest.jsonl").read_bytes().split(b"\n")[:-1]
    assert json.loads(lines[0])["prev"] == "00" * 32
    for before, after in pairwise(lines):
        assert json.loads(after)["prev"] == spec_hash("domicile-p2p/v1/event-link", before).hex()
