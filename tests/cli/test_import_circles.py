"""The command line's modules import each other in no circle, imports made inside a
function included (docs/architecture.md: imports flow one way): `referee completion` once
reached the command tree through `tree -> main -> environment -> completion -> tree`."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT

PACKAGE = "referee.cli"


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> list[str]:
    """Every module a file's code may import as it runs (not under `if TYPE_CHECKING`)."""
    found: list[str] = []
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _is_type_checking(node):
            found += [name for child in node.orelse for name in _imports(child)]
            continue
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found += [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        found += _imports(node)
    return found


def import_graph(folder: Path, package: str) -> dict[str, set[str]]:
    """The modules of `folder` (the package `package`) and those of them each imports."""
    modules = {f"{package}.{path.stem}": path for path in folder.glob("*.py") if path.stem != "__init__"}
    return {
        name: {imported for imported in _imports(ast.parse(path.read_text(encoding="utf-8"))) if imported in modules}
        for name, path in modules.items()
    }


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of `graph`: each a path that comes back to where it began."""
    found: list[list[str]] = []
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            found.append([*path[path.index(name) :], name])
            return
        if name in done:
            return
        for imported in sorted(graph[name]):
            visit(imported, [*path, name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])
    return found


def test_the_finder_sees_a_circle_made_inside_a_function(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("import pkg.b\n")
    (tmp_path / "b.py").write_text("def f():\n    from pkg import a\n")
    (tmp_path / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.a\n")
    assert circles(import_graph(tmp_path, "pkg")) == [["pkg.a", "pkg.b", "pkg.a"]]


def test_the_command_line_has_no_import_circle() -> None:
    graph = import_graph(ROOT / "referee" / "cli", PACKAGE)
    assert "referee.cli.completion" in graph and "referee.cli.main" in graph["referee.cli.manual"]
    assert circles(graph) == []
