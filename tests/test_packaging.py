"""What is shipped: the wheel and sdist built from this tree, and what `make play` installs."""

from __future__ import annotations

import re
import subprocess
import sys
import tarfile
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TEST_TOOLS = ("pytest", "mypy", "ruff", "hypothesis", "import-linter")


def _make_dry_run(target: str) -> list[str]:
    """The commands ``make TARGET`` would run from nothing (``-B``: as on a fresh clone)."""
    result = subprocess.run(
        ["make", "--no-print-directory", "-n", "-B", target],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.splitlines()


def test_make_play_installs_the_game_without_test_tools() -> None:
    installs = [line for line in _make_dry_run("play") if "pip install" in line]
    assert any(line.rstrip().endswith("install --quiet -e .") for line in installs), installs
    for line in installs:
        assert "[test]" not in line and "[bench]" not in line, line
        assert not any(tool in line for tool in TEST_TOOLS), line


def test_make_test_installs_the_test_extra() -> None:
    extras = re.compile(r"pip install .*-e '\.\[([a-z,]+)\]'")
    installed = [m.group(1).split(",") for m in map(extras.search, _make_dry_run("test")) if m]
    assert any("test" in names for names in installed), installed


@pytest.mark.slow
def test_the_sdist_and_the_wheel_carry_what_they_should(tmp_path: Path) -> None:
    # Without --sdist/--wheel, build makes the sdist and then the wheel *from the sdist*:
    # the wheel's being whole shows the sdist is too.
    subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel_path,) = tmp_path.glob("domicile_p2p-*.whl")
    (sdist_path,) = tmp_path.glob("domicile_p2p-*.tar.gz")

    with tarfile.open(sdist_path) as sdist:
        top = sdist_path.name.removesuffix(".tar.gz")
        sdist_names = {name.removeprefix(f"{top}/") for name in sdist.getnames()}
    for shipped in ("LICENSE", "README.md", "SECURITY.md", "Makefile", "pyproject.toml"):
        assert shipped in sdist_names
    for doc in (ROOT / "docs").glob("*.md"):
        assert f"docs/{doc.name}" in sdist_names

    with zipfile.ZipFile(wheel_path) as wheel:
        wheel_names = wheel.namelist()
        info = next(n for n in wheel_names if n.endswith(".dist-info/METADATA"))
        metadata = Parser().parsestr(wheel.read(info).decode())
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in wheel_names)
    assert any(n.startswith("domicile_p2p/cli/") for n in wheel_names)
    assert any(n.startswith("domicile_tui/") for n in wheel_names)
    assert not any(n.startswith(("tests/", "tools/")) for n in wheel_names)

    assert metadata["License"] == "MIT"
    classifiers = metadata.get_all("Classifier") or []
    assert "License :: OSI Approved :: MIT License" in classifiers
    assert "Environment :: Console" in classifiers
    # Installing the wheel alone brings no test tool: each is behind the `test` extra.
    for requirement in metadata.get_all("Requires-Dist") or []:
        name = requirement.split(";")[0].strip().lower()
        if any(name.startswith(tool) for tool in TEST_TOOLS):
            assert "extra == 'test'" in requirement, requirement
