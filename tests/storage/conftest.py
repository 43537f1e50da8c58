"""The storage under test: the in-memory database, a SQLite file and a fresh PostgreSQL
database (skipped, with its reason, when the server is not reachable).

``storage`` is typed as the core's :class:`~odin_cards.server.core.ports.Storage` and is
given both bundles (``MemoryDatabase`` and the SQL ``Database``): mypy proves they fit it.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from odin_cards.server.adapters import open_database
from odin_cards.server.adapters.memory import MemoryDatabase
from odin_cards.server.core.ports import Storage
from odin_cards.server.settings import sqlite_url

POSTGRES = "postgresql+asyncpg://postgres@127.0.0.1:5432/{name}"
POSTGRES_ADMIN = "postgresql://postgres@127.0.0.1:5432/test"

SQL = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
EVERY = ["memory", *SQL]


async def _fresh(kind: str, tmp_path: Path) -> AsyncIterator[str]:
    """The URL of a new, empty database of ``kind`` (``sqlite`` or ``postgres``)."""
    if kind == "sqlite":
        yield sqlite_url(tmp_path)
        return
    import asyncpg

    try:
        admin = await asyncpg.connect(POSTGRES_ADMIN, timeout=3)
    except (OSError, asyncpg.PostgresError) as error:
        pytest.skip(f"PostgreSQL on 127.0.0.1:5432 is not reachable ({error})")
    name = f"odin_storage_{secrets.token_hex(6)}"
    await admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield POSTGRES.format(name=name)
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


@pytest.fixture(params=SQL)
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A new, empty SQL database: a SQLite file in tmp_path, or a fresh PostgreSQL one."""
    async for url in _fresh(str(request.param), tmp_path):
        yield url


@pytest.fixture(params=EVERY)
def backend(request: pytest.FixtureRequest) -> str:
    """Which storage the test runs on: ``memory``, ``sqlite`` or ``postgres``."""
    return str(request.param)


@pytest.fixture
async def storage(backend: str, tmp_path: Path) -> AsyncIterator[Storage]:
    """Every store of one new, empty database of the ``backend``."""
    if backend == "memory":
        memory: Storage = MemoryDatabase()
        yield memory
        return
    async for url in _fresh(backend, tmp_path):
        async with open_database(url) as database:
            opened: Storage = database
            yield opened
