"""The client's one door into the game package (``domicile_p2p.client_api``): it offers what
the client uses and nothing more, and mypy's view of each name is the one it is at run time."""

from __future__ import annotations

import ast
from pathlib import Path

import domicile_p2p.client_api as client_api

ROOT = Path(__file__).resolve().parents[1]
CLIENT = ROOT / "clients" / "domicile_tui"
API = ROOT / "domicile_p2p" / "client_api.py"


def names_the_client_imports() -> set[str]:
    names: set[str] = set()
    for path in CLIENT.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "domicile_p2p.client_api":
                names |= {alias.name for alias in node.names}
    return names


def test_the_client_api_offers_what_the_client_uses_and_nothing_more() -> None:
    assert set(client_api.__all__) == names_the_client_imports()


def test_each_name_is_typed_from_the_module_it_is_imported_from() -> None:
    # The names under TYPE_CHECKING are what mypy sees; _EXPORTS is what runs.
    typed: dict[str, str] = {}
    for node in ast.walk(ast.parse(API.read_text(encoding="utf-8"))):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name):
            for statement in node.body:
                assert isinstance(statement, ast.ImportFrom) and statement.module is not None
                module = statement.module.removeprefix("domicile_p2p.")
                typed |= {alias.name: module for alias in statement.names}
    assert typed == client_api._EXPORTS
    assert sorted(typed) == sorted(client_api.__all__)
