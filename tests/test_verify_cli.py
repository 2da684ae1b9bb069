"""``domicile verify``: exit 0 valid, 1 invalid, 2 unreadable; check lines or one JSON object."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from transcript_support import honest_game, transcript

from domicile_p2p.cli import main
from domicile_p2p.packs import default_pack_dir
from domicile_p2p.transcript import Check
from domicile_p2p.transcript.verify import PACK_NOT_CHECKED


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A game with the default pack and the real bots."""
    path = tmp_path_factory.mktemp("game") / "game.jsonl"
    args = ["--investigators", "2", "--difficulty", "easy", "--seed", "3"]
    assert main(["selfplay", *args, "--transcript", str(path)]) == 0
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["verify", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_valid_game_exits_0_with_one_line_per_check(
    played: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    code, out, _ = run(capsys, str(played))
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith(f"{played}: game ")
    assert lines[-1].startswith("VALID")
    rows = lines[1:-1]
    assert len(rows) == len(Check)
    assert all(row.lstrip().startswith(("✓", "·")) for row in rows)
    assert any("card pack" in row and "✓" in row for row in rows)


def test_json_output(played: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    code, out, _ = run(capsys, str(played), "--json")
    assert code == 0
    report = json.loads(out)
    assert report["valid"] is True and report["error"] is None
    assert [c["name"] for c in report["checks"]] == [c.value for c in Check]
    assert all(set(c) == {"name", "ok", "detail"} for c in report["checks"])


def _tampered(played: Path, tmp_path: Path) -> Path:
    lines = played.read_bytes().split(b"\n")
    at = lines[7].index(b'"prev":"') + 8
    lines[7] = (
        lines[7][:at] + (b"1" if lines[7][at : at + 1] == b"0" else b"0") + lines[7][at + 1 :]
    )
    path = tmp_path / "tampered.jsonl"
    path.write_bytes(b"\n".join(lines))
    return path


def test_an_invalid_game_exits_1_naming_the_event(
    played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    code, out, _ = run(capsys, str(_tampered(played, tmp_path)))
    assert code == 1
    assert "✗ host signatures" in out
    assert out.splitlines()[-1].startswith("INVALID at event 7 (host)")
    code, out, _ = run(capsys, str(_tampered(played, tmp_path)), "--json")
    assert code == 1
    report = json.loads(out)
    assert report["valid"] is False
    assert report["error"]["seq"] == 7 and report["error"]["check"] == "host signatures"


@pytest.mark.parametrize(
    "content",
    [b"", b"hello\n", b'{"kind":"place"}\n', b"\xff\xfe\n", b"[1,2]\n"],
)
def test_a_file_that_is_not_a_transcript_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes
) -> None:
    path = tmp_path / "x.jsonl"
    path.write_bytes(content)
    code, out, err = run(capsys, str(path))
    assert code == 2
    assert "not a domicile-p2p transcript" in err and "Traceback" not in err
    code, out, _ = run(capsys, str(path), "--json")
    assert code == 2
    assert json.loads(out)["valid"] is False


def test_a_protocol_1_transcript_exits_2_with_a_plain_message(
    capsys: pytest.CaptureFixture[str],
) -> None:
    fixture = Path(__file__).resolve().parent / "data" / "protocol-v1-honest.jsonl"
    code, out, err = run(capsys, str(fixture))
    assert code == 2 and out == ""
    assert err.startswith("domicile verify: this transcript is of protocol version 1")
    assert "refresh rule" in err and len(err.strip().splitlines()) == 1
    code, out, _ = run(capsys, str(fixture), "--no-pack", "--json")
    assert code == 2
    assert json.loads(out)["recognized"] is False


def test_a_protocol_2_transcript_is_verified_by_protocol_2s_rules(
    capsys: pytest.CaptureFixture[str],
) -> None:
    fixture = Path(__file__).resolve().parent / "data" / "protocol-v2" / "honest.jsonl"
    code, out, _ = run(capsys, str(fixture), "--no-pack")
    assert code == 0
    assert "VALID: the game was played fairly and won on day 6 in Stage Two" in out


def test_a_lone_surrogate_in_the_first_line_exits_2_as_not_a_transcript(
    capsys: pytest.CaptureFixture[str],
) -> None:
    vectors = Path(__file__).resolve().parents[1] / "protocol" / "vectors" / "games"
    code, out, err = run(capsys, str(vectors / "surrogate-in-the-first-line.jsonl"), "--no-pack")
    assert code == 2 and out == ""
    assert "not a domicile-p2p transcript" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("name", ["missing.jsonl", "."])
def test_a_file_that_cannot_be_read_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    code, out, err = run(capsys, str(tmp_path / name))
    assert code == 2
    assert err.startswith("domicile verify: ") and len(err.strip().splitlines()) == 1
    assert out == ""


def test_a_game_of_another_pack_fails_the_card_pack_check_naming_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "synthetic.jsonl"
    path.write_bytes(transcript(honest_game(1, 2)))
    code, out, _ = run(capsys, str(path))
    assert code == 1
    assert "✗ card pack" in out and "card pack 'synthetic' with content hash" in out
    assert "but the pack given is 'default'" in out and "--pack DIR" in out
    code, out, _ = run(capsys, str(path), "--json")
    report = json.loads(out)
    assert code == 1 and report["recognized"] is True
    assert (report["error"]["check"], report["error"]["seq"]) == ("card pack", 0)


def test_a_changed_pack_is_refused_and_the_right_one_accepted(
    played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    copy = tmp_path / "pack"
    shutil.copytree(default_pack_dir(), copy)
    code, _, _ = run(capsys, str(played), "--pack", str(copy))
    assert code == 0
    items = copy / "items.toml"
    items.write_text(items.read_text().replace('name = "', 'name = "Old ', 1))
    code, out, _ = run(capsys, str(played), "--pack", str(copy))
    assert code == 1 and "✗ card pack" in out and "--pack DIR" in out
    code, _, err = run(capsys, str(played), "--pack", str(tmp_path / "nowhere"))
    assert code == 2 and "cannot load the card pack" in err


def test_a_cut_genesis_is_invalid_not_unreadable(
    played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    lines = played.read_bytes().split(b"\n")
    lines[0] = lines[0].replace(b'"pack":{', b'"pack_":{')
    path = tmp_path / "cut.jsonl"
    path.write_bytes(b"\n".join(lines))
    code, out, _ = run(capsys, str(path))
    assert code == 1
    assert "✗ format" in out


def test_no_pack_checks_everything_else(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "synthetic.jsonl"
    path.write_bytes(transcript(honest_game(1, 2)))
    code, out, _ = run(capsys, str(path), "--no-pack")
    assert code == 0
    assert "· card pack" in out and "the card pack was not checked" in out
    assert out.strip().splitlines()[-1].endswith(f"({PACK_NOT_CHECKED})")


@pytest.mark.parametrize("tampered", [False, True])
def test_jobs_1_prints_the_same_report(
    played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], tampered: bool
) -> None:
    path = _tampered(played, tmp_path) if tampered else played
    capsys.readouterr()
    alone = run(capsys, str(path), "--json", "--jobs", "1")
    threaded = run(capsys, str(path), "--json", "--jobs", "3")
    assert alone == threaded
    assert alone[0] == (1 if tampered else 0)


@pytest.mark.parametrize("jobs", ["0", "-2", "many"])
def test_jobs_must_be_a_positive_number(
    played: Path, capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["verify", str(played), "--jobs", jobs])
    assert exited.value.code == 2
    assert "--jobs" in capsys.readouterr().err


def test_verify_reads_no_entry_points_and_starts_no_executor(played: Path) -> None:
    # Start-up: reading the installed entry points costs ~30 ms of imports
    # (importlib.metadata), concurrent.futures ~7 ms; `domicile verify` needs neither.
    probe = (
        "import sys\n"
        "from domicile_p2p.cli import main\n"
        f"main(['verify', {str(played)!r}])\n"
        "heavy = ('importlib.metadata', 'concurrent.futures')\n"
        "print('LOADED', [m for m in heavy if m in sys.modules], file=sys.stderr)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=False
    )
    assert "LOADED []" in result.stderr, result.stderr


def test_verify_checks_the_built_in_pack_from_its_record(
    played: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from domicile_p2p.packs import load_default_pack
    from domicile_p2p.transcript import packref

    recorded = packref.PackIdentity.builtin()
    loaded = packref.PackIdentity.of(load_default_pack())
    assert recorded == loaded
    assert recorded.character_names == loaded.character_names  # the culprit's name, recorded
    capsys.readouterr()
    with_record = run(capsys, str(played), "--json")
    monkeypatch.setattr(packref, "recorded_default", lambda: None)  # as if the pack was edited
    assert packref.PackIdentity.builtin() == recorded
    assert run(capsys, str(played), "--json") == with_record


def test_verify_imports_only_what_it_checks_with(played: Path) -> None:
    # Start-up is most of a `domicile verify` run: the pack loader (tomllib and a
    # whole pack validated), the seat agents, the host's table, key files, bots and
    # the network are none of verify's business.
    heavy = (
        "domicile_p2p.net",
        "domicile_p2p.bots",
        "domicile_p2p.sim",
        "domicile_p2p.packs.loader",
        "domicile_p2p.transcript.agents",
        "domicile_p2p.transcript.table",
        "domicile_p2p.transcript.selfplay",
        "domicile_tui.cli",
        "textual",
        "tomllib",
        "platformdirs",
        "secrets",
        "importlib.metadata",
        "concurrent.futures",
    )
    probe = (
        "import sys\n"
        f"sys.argv = ['domicile', 'verify', {str(played)!r}]\n"
        "from domicile_tui.launcher import main\n"
        "code = main()\n"
        f"print('LOADED', [m for m in {heavy!r} if m in sys.modules], code, file=sys.stderr)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=False
    )
    assert "LOADED [] 0" in result.stderr, result.stderr


def test_the_installed_command_ends_verify_at_once_with_its_output_and_code(
    played: Path, tmp_path: Path
) -> None:
    # `domicile` (the launcher's `run`) ends `verify` with os._exit once its output is
    # flushed: nothing after it runs, yet every line and the exit status are there, and
    # the collector, paused during start-up, ran again with start-up's objects frozen.
    broken = tmp_path / "broken.jsonl"
    lines = played.read_bytes().splitlines(keepends=True)
    broken.write_bytes(b"".join(lines[:-1]))
    probe = (
        "import atexit, gc, sys\n"
        "import domicile_p2p.cli.verify as command\n"
        "checked = command.run\n"
        "def run(args):\n"
        "    print('COLLECTOR', gc.isenabled(), gc.get_freeze_count() > 0, file=sys.stderr)\n"
        "    return checked(args)\n"
        "command.run = run\n"
        "atexit.register(print, 'SHUTDOWN', file=sys.stderr)\n"
        "from domicile_tui.launcher import run as launch\n"
        "sys.argv = ['domicile', 'verify', sys.argv[1]]\n"
        "launch()\n"
        "print('AFTER', file=sys.stderr)\n"
    )
    for path, code, verdict in ((played, 0, "VALID"), (broken, 1, "INVALID")):
        result = subprocess.run(
            [sys.executable, "-c", probe, str(path)], capture_output=True, text=True, check=False
        )
        assert result.returncode == code, result.stderr
        assert result.stdout.splitlines()[-1].startswith(verdict), result.stdout
        assert "COLLECTOR True True" in result.stderr
        assert "AFTER" not in result.stderr and "SHUTDOWN" not in result.stderr


def test_the_schemas_annotations_are_objects_not_text() -> None:
    # msgspec reads a Struct's annotations at its first conversion; written as text (a
    # `from __future__ import annotations`), each was compiled and evaluated there, in
    # every `domicile verify` run.
    import msgspec

    from domicile_p2p.transcript import schema

    structs = [
        value
        for value in vars(schema).values()
        if isinstance(value, type) and issubclass(value, msgspec.Struct)
    ]
    assert len(structs) > 10
    for struct in structs:
        for name, annotation in struct.__annotations__.items():
            assert not isinstance(annotation, str), (struct.__name__, name)


def test_watch_checks_the_card_pack_as_verify_does(played: Path) -> None:
    # `domicile watch` said "the card pack was not checked" where verify checks the
    # built-in pack (issue 23 §10): both choose the pack through one function.
    from domicile_p2p.cli import build_parser
    from domicile_p2p.cli._packs import chosen_pack
    from domicile_p2p.transcript.files import parse_transcript
    from domicile_p2p.transcript.packref import PackIdentity
    from domicile_p2p.transcript.verify import verify

    table = ["--connect", "wss://127.0.0.1:1", "--code", "3-owl-quill"]
    parser = build_parser("watch")
    for args, verify_args in (([], []), (["--no-pack"], ["--no-pack"])):
        watching = chosen_pack(parser.parse_args(["watch", *table, *args]))
        verifying = build_parser("verify").parse_args(["verify", "f", *verify_args])
        assert watching == chosen_pack(verifying)
    assert chosen_pack(parser.parse_args(["watch", *table])) == PackIdentity.builtin()
    with_pack = verify(parse_transcript(played.read_bytes()), pack=PackIdentity.builtin())
    assert with_pack.valid and PACK_NOT_CHECKED not in with_pack.summary
