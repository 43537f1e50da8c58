"""The package's layers, proved on all of it: what importing the server core loads, who
imports whom, no import circle, no server module over 600 lines.

- Importing the server core (``odin_cards.server.core`` and every module under it), in a
  fresh interpreter, loads no web framework, database driver, Redis client, NumPy or
  game: checked on ``sys.modules`` after the imports, so nothing a module imports at its
  top slips by however indirectly.
- Imports anywhere in a file (at its top, inside functions, under ``TYPE_CHECKING``) are
  read with ``ast``: the core names no adapter, transport, composition root or game even
  lazily; the adapters never import the transport, the transport never imports an adapter
  (only the composition root ``app.py`` joins them); games never import the server; a
  game's rules core imports nothing of the package but the game contract and itself.
- The graph of those imports over ``src/odin_cards`` has no circle.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import odin_cards

SOURCE = Path(odin_cards.__file__).parent
PACKAGE = "odin_cards"

FORBIDDEN = frozenset(
    {
        "fastapi",
        "starlette",
        "sqlalchemy",
        "alembic",
        "asyncpg",
        "aiosqlite",
        "redis",
        "pydantic",
        "uvicorn",
        "numpy",
        "numba",
        "websockets",
        "httpx",
        "prometheus_client",
    }
)
"""Top-level packages the server core must not load: frameworks, drivers, NumPy."""

GAMES = ("odin_cards.odin", "odin_cards.name_of_odin")
"""The games' packages (every other part asks the registry, ``odin_cards.games``)."""

CORE_MAY_LOAD = frozenset(
    {
        "odin_cards",
        "odin_cards.contract",
        "odin_cards.extras",
        "odin_cards.games",
        "odin_cards.plugin",
        "odin_cards.server",
        "odin_cards.server.settings",
    }
)
"""Modules of the package outside the core that importing the core may load: the game
contract, the plugin contract and its registry, the server's settings, and the list of
extras (the server package checks its own is installed)."""

MAX_LINES = 600


@cache
def modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``)."""
    found: dict[str, Path] = {}
    for path in sorted(SOURCE.rglob("*.py")):
        parts = [PACKAGE, *path.relative_to(SOURCE).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _absolute(name: str, path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    base = package[: len(package) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


@cache
def imported(name: str) -> frozenset[str]:
    """Every name the module ``name`` imports, anywhere in its file: a module of the
    package where the import names one (``from a import b`` is ``a.b`` when that is a
    module, else ``a``), else the imported name as written (its top-level package first)."""
    path = modules()[name]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(name, path, node)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.add(full if full in modules() else base)
    found.discard(name)
    return frozenset(found)


def under(name: str, *prefixes: str) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


def of(*prefixes: str) -> Iterator[str]:
    return (name for name in modules() if under(name, *prefixes))


# ---------------------------------------------------------------- importing the core


LOAD_THE_CORE = """
import importlib, json, pkgutil, sys
import odin_cards.server.core as core
names = [m.name for m in pkgutil.walk_packages(core.__path__, core.__name__ + ".")]
for name in names:
    importlib.import_module(name)
print(json.dumps({"imported": names, "loaded": sorted(sys.modules)}))
"""


def test_importing_the_core_loads_no_framework_database_or_game() -> None:
    run = subprocess.run(
        [sys.executable, "-c", LOAD_THE_CORE], capture_output=True, text=True, check=True
    )
    found = json.loads(run.stdout)
    assert set(found["imported"]) == set(of("odin_cards.server.core")) - {"odin_cards.server.core"}
    loaded = found["loaded"]
    assert sorted({name.split(".")[0] for name in loaded} & FORBIDDEN) == []
    ours = {name for name in loaded if under(name, PACKAGE)}
    assert sorted(ours - CORE_MAY_LOAD - set(of("odin_cards.server.core"))) == []


# ---------------------------------------------------------------- who imports whom


def refused(modules: Iterator[str], *prefixes: str) -> list[str]:
    """``module -> import`` for every import of these modules under ``prefixes``."""
    return sorted(
        f"{name} -> {target}"
        for name in modules
        for target in imported(name)
        if under(target, *prefixes)
    )


def test_the_core_never_imports_an_adapter_the_transport_or_a_game_even_lazily() -> None:
    core = list(of("odin_cards.server.core"))
    assert len(core) > 30
    assert refused(iter(core), *FORBIDDEN) == []
    outside = ("odin_cards.server.adapters", "odin_cards.server.transport", "odin_cards.server.app")
    assert refused(iter(core), *outside, "odin_cards.server.migrations", *GAMES) == []


def test_the_adapters_never_import_the_transport() -> None:
    adapters = of("odin_cards.server.adapters")
    assert refused(adapters, "odin_cards.server.transport", "odin_cards.server.app") == []


def test_the_transport_reaches_the_adapters_only_through_the_composition_root() -> None:
    transport = of("odin_cards.server.transport")
    assert refused(transport, "odin_cards.server.adapters", "odin_cards.server.app") == []
    app = imported("odin_cards.server.app")
    assert any(under(name, "odin_cards.server.adapters") for name in app)
    assert any(under(name, "odin_cards.server.transport") for name in app)


def test_games_never_import_the_server() -> None:
    assert refused(of(*GAMES), "odin_cards.server") == []


def test_a_rules_core_imports_nothing_of_the_package_but_the_contract_and_itself() -> None:
    for core in ("odin_cards.odin.rules", "odin_cards.name_of_odin.rules"):
        above = [
            f"{name} -> {target}"
            for name in of(core)
            for target in imported(name)
            if under(target, PACKAGE) and not under(target, core, "odin_cards.contract")
        ]
        assert above == [], core


# ---------------------------------------------------------------- circles and sizes


def package_graph() -> dict[str, list[str]]:
    """Each module of the package -> the modules of the package it imports."""
    return {name: sorted(t for t in imported(name) if t in modules()) for name in modules()}


def circles(graph: dict[str, list[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(start: str) -> None:
        # Iterative: the package's import chains are deeper than Python's recursion limit.
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(graph[target])))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))

    for name in graph:
        if name not in index:
            visit(name)
    return sorted(found)


def test_circles_are_found_however_long() -> None:
    graph = {"a": ["b"], "b": ["c"], "c": ["a", "d"], "d": [], "e": ["e2"], "e2": ["e"]}
    assert circles(graph) == [["a", "b", "c"], ["e", "e2"]]
    assert circles({"a": ["b"], "b": [], "c": ["a"]}) == []


def test_imports_inside_functions_and_for_types_count() -> None:
    """``cli/tables.py`` imports the core's ports inside a function; ``core/tables/
    context.py`` its parts under ``TYPE_CHECKING``: both are edges of the graph."""
    assert "odin_cards.server.core.ports" in imported("odin_cards.cli.tables")
    assert "odin_cards.server.core.tables.directory" in imported(
        "odin_cards.server.core.tables.context"
    )


def test_no_import_circle_anywhere_in_the_package() -> None:
    assert circles(package_graph()) == []


def test_no_server_module_is_over_600_lines() -> None:
    long = {
        name: lines
        for name in of("odin_cards.server")
        if (lines := len(modules()[name].read_text().splitlines())) > MAX_LINES
    }
    assert long == {}
