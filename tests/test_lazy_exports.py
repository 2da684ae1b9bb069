"""A package's lazy exports: each name from its module when first asked, a typo an error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import domicile_p2p.client_api as client_api
import domicile_p2p.packs as packs
import domicile_p2p.rules as rules
import domicile_p2p.transcript as transcript
import domicile_tui.screens as screens


@pytest.mark.parametrize("package", [client_api, packs, rules, screens, transcript])
def test_every_listed_name_resolves_and_is_listed_by_dir(package: object) -> None:
    names = package.__all__  # type: ignore[attr-defined]
    for name in names:
        assert getattr(package, name) is not None
    assert set(names) <= set(dir(package))


def test_an_unknown_name_is_an_attribute_error_naming_the_package() -> None:
    with pytest.raises(AttributeError, match=r"'domicile_p2p\.transcript' has no attribute 'Nope'"):
        transcript.Nope  # type: ignore[attr-defined]  # noqa: B018


def test_asking_for_one_layer_does_not_import_the_others() -> None:
    probe = (
        "import sys, domicile_p2p.transcript as t, domicile_p2p.packs as p\n"
        "t.Event; p.PACK_FILE\n"
        "heavy = ('domicile_p2p.transcript.agents', 'domicile_p2p.transcript.table',"
        " 'domicile_p2p.packs.loader')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize("package", [packs, rules, screens, transcript])
def test_no_exported_name_is_also_a_submodule(package: object) -> None:
    # Importing a submodule sets the package's attribute of that name to the module, so an
    # exported function named like its module is shadowed whenever the module is imported
    # first (rules.due was, when rules.Investigation was asked for before it).
    directory = Path(package.__file__).parent  # type: ignore[attr-defined]
    submodules = {p.stem for p in directory.glob("*.py")} | {
        p.name for p in directory.iterdir() if (p / "__init__.py").is_file()
    }
    assert not set(package.__all__) & submodules  # type: ignore[attr-defined]


def test_rules_due_is_the_query_whatever_is_asked_for_first() -> None:
    probe = (
        "from domicile_p2p.rules import Investigation, Due\n"
        "from domicile_p2p.rules import due\n"
        "print(callable(due) and due.__name__)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "due"


def test_the_client_api_imports_nothing_of_the_game_until_a_name_is_asked_for() -> None:
    # The client's first screens import names from it (domicile_tui.cli): each pays for its
    # own module only, never for the network, the transcript or the bots.
    probe = (
        "import sys, domicile_p2p.client_api as api\n"
        "api.CommandError\n"
        "heavy = ('domicile_p2p.net', 'domicile_p2p.transcript', 'domicile_p2p.bots',"
        " 'domicile_p2p.identity')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "[]"
