"""Fixtures: the database (a SQLite file, and a fresh PostgreSQL database) and the server."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from odin_cards.server import Settings, sqlite_url

from .harness import Server, running

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


@pytest.fixture
async def server(settings: Settings) -> AsyncIterator[Server]:
    async with running(settings) as server:
        yield server
