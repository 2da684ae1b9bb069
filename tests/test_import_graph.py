"""No import cycle anywhere in the packages, counting imports inside functions.

A cycle hidden in a function (``import x`` in a method, to dodge a circular
import at load time) is still a cycle of the design: two modules that cannot
be understood, tested or moved one without the other.  So this walks the
source of every module, takes each ``import`` and ``from ... import`` it
makes (at the top, in a function, anywhere) except under ``if
TYPE_CHECKING:`` (annotations only, never run), and fails naming every cycle.

An import names the deepest module it reaches: ``from a.b import c`` is an
import of ``a.b.c`` when that is a module, of ``a.b`` otherwise.  Importing
``a.b`` also runs ``a/__init__.py``, but that is how every package works and
not a cycle of its own.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES: Mapping[str, Path] = {
    "domicile_p2p": ROOT / "domicile_p2p",
    "domicile_tui": ROOT / "clients" / "domicile_tui",
}
"""Every package whose import graph must have no cycle, and where its source is (the one list)."""

Graph = dict[str, set[str]]


def modules(packages: Mapping[str, Path]) -> dict[str, Path]:
    """Every module of ``packages``: dotted name -> source file."""
    found: dict[str, Path] = {}
    for package, directory in packages.items():
        for path in sorted(directory.rglob("*.py")):
            parts = path.relative_to(directory).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join((package, *parts))] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(node: ast.AST, types: bool = False) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement under ``node``, skipping the bodies of ``if TYPE_CHECKING:``
    unless ``types``."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _is_type_checking(child.test) and not types:
            for other in child.orelse:
                yield from _imports_of(other, types)
            continue
        yield from _imports_of(child, types)


def _imports_of(node: ast.AST, types: bool) -> Iterator[ast.Import | ast.ImportFrom]:
    if isinstance(node, ast.Import | ast.ImportFrom):
        yield node
    else:
        yield from _imports(node, types)


def _base(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module a ``from`` import starts from (relative imports resolved)."""
    if node.level == 0:
        return node.module or ""
    parts = module.split(".") if is_package else module.split(".")[:-1]
    parts = parts[: len(parts) - (node.level - 1)]
    return ".".join([*parts, node.module] if node.module else parts)


def graph(found: Mapping[str, Path], *, types: bool = False) -> Graph:
    """module -> the modules of ``found`` it imports (with ``types``, for annotations too)."""
    edges: Graph = {name: set() for name in found}
    for name, path in found.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in _imports(tree, types):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = _base(name, path.name == "__init__.py", node)
                targets = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in found else base
                    for alias in node.names
                ]
            edges[name] |= {target for target in targets if target in found and target != name}
    return edges


def cycles(edges: Graph) -> list[list[str]]:
    """One cycle through each strongly connected component of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def connect(node: str) -> None:  # Tarjan's algorithm
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges[node]):
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            connect(node)
    return [_a_cycle(edges, set(component), component[0]) for component in components]


def _a_cycle(edges: Graph, component: set[str], start: str) -> list[str]:
    """A shortest path from ``start`` back to itself inside ``component``."""
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for target in sorted(edges[node] & component):
                if target == start:
                    return [*paths[node], start]
                if target not in paths:
                    paths[target] = [*paths[node], target]
                    following.append(target)
        frontier = following
    raise AssertionError(f"{start} is in a component without a cycle")  # pragma: no cover


def test_no_import_cycle_in_the_packages() -> None:
    found = modules(PACKAGES)
    assert len(found) > 50, "the packages were not found where PACKAGES says"
    named = [" -> ".join(cycle) for cycle in cycles(graph(found))]
    assert not named, "import cycles (imports inside functions count):\n" + "\n".join(named)


def test_no_design_cycle_in_the_client_counting_imports_made_for_types_only() -> None:
    # A cycle made of imports for annotations (``if TYPE_CHECKING:``) is still one of the
    # design.  A package's lazy exports count too: ``screens/__init__`` imports every
    # screen for its types, so ``screens.LobbyScreen`` is a dependency on screens.lobby.
    found = modules({"domicile_tui": PACKAGES["domicile_tui"]})
    named = [" -> ".join(cycle) for cycle in cycles(graph(found, types=True))]
    assert not named, "design cycles in the client:\n" + "\n".join(named)


def test_a_cycle_through_a_function_is_found_and_type_checking_is_not(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg.sub import b\n")
    (package / "sub" / "b.py").write_text("def late():\n    from .. import c\n")
    (package / "c.py").write_text("import pkg.a\n")
    (package / "d.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import e\n"
    )
    (package / "e.py").write_text("from pkg import d\n")
    found = modules({"pkg": package})
    assert cycles(graph(found)) == [["pkg.a", "pkg.sub.b", "pkg.c", "pkg.a"]]
    assert cycles(graph(found, types=True)) == [
        ["pkg.a", "pkg.sub.b", "pkg.c", "pkg.a"],
        ["pkg.d", "pkg.e", "pkg.d"],
    ]
