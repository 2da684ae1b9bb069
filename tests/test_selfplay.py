"""``domicile selfplay``: the real bots, the real protocol, a reproducible transcript."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domicile_p2p.cli import main
from domicile_p2p.net.adapters.key_files import load_or_create_identity
from domicile_p2p.transcript.files import read_transcript
from domicile_p2p.transcript.schema import GenesisBody
from domicile_p2p.transcript.verify import verify


def selfplay(tmp_path: Path, name: str, *extra: str) -> tuple[int, Path]:
    path = tmp_path / name
    code = main(["selfplay", "--transcript", str(path), *extra])
    return code, path


def test_a_seed_gives_the_same_transcript_byte_for_byte(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ("--investigators", "2", "--difficulty", "normal", "--seed", "11")
    code, first = selfplay(tmp_path, "one.jsonl", *args)
    out = capsys.readouterr().out
    assert code == 0
    code, second = selfplay(tmp_path, "two.jsonl", *args)
    assert code == 0
    assert first.read_bytes() == second.read_bytes()
    events = read_transcript(first)
    assert f"{len(events)} events written to {first}" in out
    assert "on day" in out and "verified" in out
    report = verify(first)
    assert report.valid, report.summary
    assert report.outcome in out


def test_the_real_bots_play_every_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import domicile_p2p.cli.selfplay as command

    seats: list[int] = []
    real = command.make_policy

    def recording(seat: int, pack: object, seed: int) -> object:
        seats.append(seat)
        return real(seat, pack, seed)  # type: ignore[arg-type]

    monkeypatch.setattr(command, "make_policy", recording)
    code, _ = selfplay(
        tmp_path, "g.jsonl", "--investigators", "3", "--difficulty", "easy", "--seed", "2"
    )
    assert code == 0
    assert seats == [0, 1, 2, 3]
    capsys.readouterr()


def test_without_a_seed_the_host_key_is_yours(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    args = ("--investigators", "1", "--difficulty", "very-difficult", "--data-dir", str(data))
    code, first = selfplay(tmp_path, "a.jsonl", *args)
    assert code == 0
    code, second = selfplay(tmp_path, "b.jsonl", *args)
    assert code == 0
    genesis = [read_transcript(path)[0].body for path in (first, second)]
    assert all(isinstance(body, GenesisBody) for body in genesis)
    mine = load_or_create_identity(data).public_hex
    assert [body.host for body in genesis] == [mine, mine]  # type: ignore[union-attr]
    assert genesis[0].game != genesis[1].game  # type: ignore[union-attr]
    capsys.readouterr()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--investigators", "0", "--difficulty", "easy"), "1 to 6"),
        (("--investigators", "7", "--difficulty", "easy"), "1 to 6"),
        (("--investigators", "two", "--difficulty", "easy"), "must be an integer"),
        (("--investigators", "2", "--difficulty", "hard"), "must be one of"),
        (("--investigators", "2", "--difficulty", "easy", "--seed", "x"), "must be an integer"),
        (("--investigators", "2", "--difficulty", "easy", "--pack", "/nonexistent"), "card pack"),
    ],
)
def test_bad_arguments_are_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    code, path = selfplay(tmp_path, "x.jsonl", *args)
    assert code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    assert not path.exists()


def test_an_unwritable_transcript_path_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    code = main(
        [
            "selfplay",
            "--investigators",
            "1",
            "--difficulty",
            "easy",
            "--seed",
            "1",
            "--transcript",
            str(blocker / "x.jsonl"),
        ]
    )
    assert code == 2
    assert "cannot write" in capsys.readouterr().err


def test_the_summary_is_json_free_and_names_the_outcome(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, path = selfplay(
        tmp_path, "s.jsonl", "--investigators", "1", "--difficulty", "easy", "--seed", "5"
    )
    out = capsys.readouterr().out
    assert code == 0
    first = out.splitlines()[0]
    assert first.startswith("The investigators ") and ("won" in first or "lost" in first)
    with pytest.raises(json.JSONDecodeError):
        json.loads(out)
    assert path.exists()
