"""Fixtures: the database (a SQLite file, and a fresh PostgreSQL database) and the server."""

from __future__ import annotations

import dataclasses
import secrets
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from odin_cards.server.settings import Settings, sqlite_url

from .harness import Server, running, running_two

POSTGRES = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"


async def _postgres_admin() -> object:
    import asyncpg

    try:
        return await asyncpg.connect("postgresql://postgres@127.0.0.1:5432/test", timeout=3)
    except (OSError, asyncpg.PostgresError) as error:
        pytest.skip(f"PostgreSQL on 127.0.0.1:5432 is not reachable ({error})")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A new, empty database: a SQLite file in tmp_path, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        yield sqlite_url(tmp_path)
        return
    admin = await _postgres_admin()
    name = f"odin_test_{secrets.token_hex(6)}"
    await admin.execute(f'CREATE DATABASE "{name}"')  # type: ignore[attr-defined]
    try:
        yield POSTGRES.rsplit("/", 1)[0] + f"/{name}"
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')  # type: ignore[attr-defined]
        await admin.close()  # type: ignore[attr-defined]


@pytest.fixture
def settings(database_url: str) -> Settings:
    """Fast bots (no delay, a thread) and scripted clients faster than people are allowed."""
    return Settings(database_url=database_url, bot_delay=0, bot_workers=0, rate=1000, burst=1000)


REDIS = "redis://127.0.0.1:6379/0"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Modules with ``TWO_PROCESSES = True`` run their ``server`` tests against one
    process and against two (PostgreSQL and Redis: HTTP to one, WebSockets to the other)."""
    if getattr(metafunc.module, "TWO_PROCESSES", False) and "server" in metafunc.fixturenames:
        two = pytest.param("two", marks=[pytest.mark.multiprocess, pytest.mark.redis])
        metafunc.parametrize("processes", ["one", two], indirect=True)


def _two_on_sqlite(item: pytest.Item) -> bool:
    callspec = getattr(item, "callspec", None)
    params = callspec.params if callspec is not None else {}
    return params.get("processes") == "two" and params.get("database_url") == "sqlite"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Two processes share a PostgreSQL database, never a SQLite file: that combination of
    the parameters is deselected, not skipped (in CI a skip reads as a missing service)."""
    impossible = [item for item in items if _two_on_sqlite(item)]
    if impossible:
        config.hook.pytest_deselected(items=impossible)
        items[:] = [item for item in items if not _two_on_sqlite(item)]


@pytest.fixture
def processes(request: pytest.FixtureRequest) -> str:
    return str(getattr(request, "param", "one"))


def _redis_reachable() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=2) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@pytest.fixture
async def server(settings: Settings, processes: str) -> AsyncIterator[Server]:
    if processes == "one":
        async with running(settings) as server:
            yield server
        return
    if not settings.database_url.startswith("postgresql"):
        pytest.skip("two processes share a PostgreSQL database")
    if not _redis_reachable():
        pytest.skip("Redis on 127.0.0.1:6379 is not reachable")
    clustered = dataclasses.replace(
        settings, redis_url=REDIS, redis_prefix=f"odin-test-{secrets.token_hex(4)}:"
    )
    async with running_two(clustered) as server:
        yield server
