"""The commands that print others' words (a pack's, an advert's, a transcript's) print
them inert: ``domicile pack check`` of a pack whose card name holds a bidi override and
a zero-width space (the loader lets format characters through; issue 20)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from live_support import environment

from domicile_p2p.cli import main

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
