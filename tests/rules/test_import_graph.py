"""The rules cores import in layers: no circle, and every import at the top of its module.

An import circle inside a core has to be closed by an import inside a function (or hidden
behind ``TYPE_CHECKING``), which hides the real order of the modules and breaks as soon as
someone moves a line. Both cores are read with :mod:`ast` (nothing is imported): every
import of a module of the same core is an edge, wherever it stands and whether or not it
is only for type checking, and the graph must have no cycle.
"""

from __future__ import annotations

import ast
from importlib import resources
from importlib.util import find_spec

import pytest

CORES = ("odin_cards.odin.rules", "odin_cards.name_of_odin.rules")


def modules(package: str) -> dict[str, ast.Module]:
    """Every module of ``package`` (its ``__init__`` as the package's own name), parsed."""
    found = {}
    for entry in resources.files(package).iterdir():
        if entry.name.endswith(".py"):
            stem = entry.name.removesuffix(".py")
            name = package if stem == "__init__" else f"{package}.{stem}"
            found[name] = ast.parse(entry.read_text(), filename=entry.name)
    return found


def imported(tree: ast.Module, here: str, package: str, known: set[str]) -> set[str]:
    """The modules of ``package`` that module ``here`` imports, anywhere in its code."""
    edges: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            edges.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = here if here == package else here.rsplit(".", 1)[0]
                for _ in range(node.level - 1):
                    parent = parent.rsplit(".", 1)[0]
                base = f"{parent}.{base}" if base else parent
            for alias in node.names:
                if f"{base}.{alias.name}" in known:
                    edges.add(f"{base}.{alias.name}")  # a submodule, as in "from . import x"
                elif base in known:
                    edges.add(base)
    edges.discard(here)
    return edges


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` (its modules in order, the first repeated), or ``None``."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state and (found := visit(target)):
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def nested_imports(tree: ast.Module) -> list[int]:
    """Lines of imports that are not statements of the module itself (in a def or class)."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            lines.update(
                inner.lineno
                for inner in ast.walk(node)
                if isinstance(inner, ast.Import | ast.ImportFrom)
            )
    return sorted(lines)


@pytest.mark.parametrize("package", CORES)
def test_the_core_has_no_import_circle(package: str) -> None:
    trees = modules(package)
    known = set(trees)
    graph = {name: imported(tree, name, package, known) for name, tree in trees.items()}
    found = cycle(graph)
    assert found is None, "import circle: " + " -> ".join(found or ())


@pytest.mark.parametrize("package", CORES)
def test_every_import_of_the_core_is_at_the_top_of_its_module(package: str) -> None:
    nested = {
        name: lines for name, tree in modules(package).items() if (lines := nested_imports(tree))
    }
    assert nested == {}


@pytest.mark.parametrize("package", CORES)
def test_the_core_imports_no_game_package_but_its_own(package: str) -> None:
    """A core depends on the standard library and the game contract only."""
    allowed = {package, "odin_cards.contract"}
    for name, tree in modules(package).items():
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names = [node.module]
            for module in names:
                top = module.split(".")[0]
                if top == "odin_cards":
                    assert any(module == a or module.startswith(a + ".") for a in allowed), (
                        f"{name} imports {module}"
                    )
                else:
                    spec = find_spec(top)
                    assert spec is not None and "site-packages" not in (spec.origin or ""), (
                        f"{name} imports {module}, which is not in the standard library"
                    )


def test_the_graph_walk_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycle(graph) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None
