"""The commands that print others' words (a pack's, an advert's, a transcript's) print
them inert: ``domicile pack check`` of a pack whose card name holds a bidi override and
a zero-width space (the loader lets format characters through; issue 20), and
``domicile verify --json`` of a game played with such a pack."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from live_support import environment

from domicile_p2p.cli import main
from domicile_p2p.packs import default_pack_dir

PACKS = Path(__file__).resolve().parents[1] / "packs"


def _pack_with_a_hostile_name(directory: Path) -> Path:
    """The tiny pack plus a Smithy that shares a name with the Forge (so ``pack check``
    quotes it in a warning), the Smithy's name holding U+202E and U+200B."""
    shutil.copytree(PACKS / "tiny", directory)
    smithy = (PACKS / "lint" / "shared-name" / "locations.toml").read_text("utf-8")
    assert 'name = "The Smithy"' in smithy
    smithy = smithy.replace('name = "The Smithy"', 'name = "The Smithy \\u202e\\u200b"')
    locations = directory / "locations.toml"
    locations.write_text(locations.read_text("utf-8") + "\n" + smithy, "utf-8")
    return directory


def test_pack_check_prints_a_cards_words_inert(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = _pack_with_a_hostile_name(tmp_path / "pack")
    main(["pack", "check", str(directory)])
    out = capsys.readouterr().out
    assert "The Smithy \\u202e\\u200b" in out
    assert "\u202e" not in out and "\u200b" not in out


def test_pack_check_json_escapes_a_cards_bidi_and_zero_width_characters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = _pack_with_a_hostile_name(tmp_path / "pack")
    main(["pack", "check", str(directory), "--json"])
    out = capsys.readouterr().out
    assert "\u202e" not in out and "\u200b" not in out
    assert "The Smithy \u202e\u200b" in json.dumps(json.loads(out), ensure_ascii=False)


# What a pack's name may hold (the loader refuses only Cc and Cs): a bidi override, a
# zero-width space, the line separator, a bidi isolate and a BOM.
HOSTILE = "\u202e\u200b\u2028\u2066\ufeff"


@pytest.fixture(scope="module")
def hostile_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A game played with the built-in pack whose every suspect's name holds
    :data:`HOSTILE` after its "The", played to a Stage Two séance, so that
    verify's culprit check names one of them; and that pack."""
    directory = tmp_path_factory.mktemp("hostile")
    pack = shutil.copytree(default_pack_dir(), directory / "pack")
    characters = pack / "characters.toml"
    text = characters.read_text("utf-8")
    escaped = "".join(f"\\u{ord(char):04x}" for char in HOSTILE)
    assert text.count('\nname = "The ') >= 3
    characters.write_text(text.replace('\nname = "The ', f'\nname = "The{escaped} '), "utf-8")
    game = directory / "game.jsonl"
    args = ["--investigators", "2", "--difficulty", "easy", "--seed", "3", "--pack", str(pack)]
    assert main(["selfplay", *args, "--transcript", str(game)]) == 0
    return game, pack


def test_verify_json_escapes_a_card_names_bidi_and_invisible_characters(
    hostile_game: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    game, pack = hostile_game
    capsys.readouterr()
    assert main(["verify", str(game), "--pack", str(pack), "--json"]) == 0
    out = capsys.readouterr().out
    assert not any(char in out for char in HOSTILE)
    culprit = {check["name"]: check["detail"] for check in json.loads(out)["checks"]}["culprit"]
    assert culprit.startswith(f"the culprit was The{HOSTILE} ")


def test_verify_json_escapes_a_c1_control_in_the_file_name_it_refuses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A C1 control cannot come from a pack (the loader refuses it) but can from a file
    name: the refusal's JSON escapes it as the card name's characters are."""
    path = tmp_path / "game \x9b31m\u202e.jsonl"
    assert main(["verify", str(path), "--json"]) == 2
    out = capsys.readouterr().out
    assert "\x9b" not in out and "\u202e" not in out
    assert json.loads(out)["error"]["reason"] == f"{path} does not exist"


def test_a_commands_error_quotes_a_file_name_inert(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file name is anyone's words too (a transcript passed along): the one line of a
    command's error shows its escape sequence as escapes."""
    path = tmp_path / "game \x1b]0;pwned\x07\u202e.jsonl"
    assert main(["verify", str(path)]) == 2
    err = capsys.readouterr().err
    assert "game \\x1b]0;pwned\\x07\\u202e.jsonl" in err
    assert "\x1b" not in err and "\u202e" not in err


def test_domicile_play_quotes_a_pack_path_inert(tmp_path: Path) -> None:
    """``python -m domicile_tui`` (``domicile play`` from a checkout) says why it cannot
    start in one line, a path's escape sequence shown as escapes."""
    pack = tmp_path / "pack \x1b]0;pwned\x07"
    done = subprocess.run(
        [sys.executable, "-m", "domicile_tui", "--offline", "--pack", str(pack)],
        capture_output=True,
        env=environment(),
        timeout=120,
    )
    assert done.returncode == 2
    assert b"pack \\x1b]0;pwned\\x07" in done.stderr
    assert b"\x1b" not in done.stderr
