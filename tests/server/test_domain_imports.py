"""The domain talks to ports only: no SQL, no web framework, no sockets under ``core/``."""

from __future__ import annotations

import ast
from pathlib import Path

import odin_cards.server.core as domain

FORBIDDEN = {
    "sqlalchemy",
    "alembic",
    "asyncpg",
    "aiosqlite",
    "starlette",
    "fastapi",
    "uvicorn",
    "websockets",
    "httpx",
    "socket",
    "redis",
    "pydantic",
}
"""Top-level packages the domain must not import."""

SERVER_ALLOWED = {"settings"}
"""Server modules outside ``core/`` that it may use (not the transport, not the adapters)."""


def _imports(path: Path) -> list[tuple[str, int]]:
    """Every imported module of ``path``: (dotted name, relative level)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(alias.name, 0) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.module is None:  # from .. import a, b: each name is a module
                found += [(alias.name, node.level) for alias in node.names]
            else:
                found.append((node.module, node.level))
    return found


def test_the_domain_imports_no_sql_web_or_sockets() -> None:
    modules = sorted(Path(domain.__file__).parent.rglob("*.py"))
    assert len(modules) >= 6
    for path in modules:
        for name, level in _imports(path):
            where = f"{path.name} imports {'.' * level}{name}"
            if level == 0:
                assert name.split(".")[0] not in FORBIDDEN, where
                server = name.startswith("odin_cards.server")
                inside = name.startswith("odin_cards.server.core")
                allowed = name.removeprefix("odin_cards.server.") in SERVER_ALLOWED
                assert not server or inside or allowed, where
