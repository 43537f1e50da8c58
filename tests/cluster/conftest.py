"""Fixtures of the multi-process tests: a fresh PostgreSQL database, a Redis key prefix,
and two (or more) ``odin serve`` processes on them; skipped when a service is absent."""

from __future__ import annotations

import secrets
import socket
from collections.abc import AsyncIterator, Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

from .harness import POSTGRES, POSTGRES_ADMIN, Node, stop_all

pytestmark = [pytest.mark.multiprocess, pytest.mark.postgres, pytest.mark.redis]


def _redis_reachable() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=2) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@pytest.fixture
async def database_url() -> AsyncIterator[str]:
    """A new PostgreSQL database for this test (dropped after it)."""
    import asyncpg

    try:
        admin = await asyncpg.connect(POSTGRES_ADMIN, timeout=3)
    except (OSError, asyncpg.PostgresError) as error:
        pytest.skip(f"PostgreSQL on 127.0.0.1:5432 is not reachable ({error})")
    if not _redis_reachable():
        await admin.close()
        pytest.skip("Redis on 127.0.0.1:6379 is not reachable")
    name = f"odin_cluster_{secrets.token_hex(6)}"
    await admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield POSTGRES.format(name=name)
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


Cluster = Callable[..., Coroutine[Any, Any, list[Node]]]


@pytest.fixture
async def cluster(database_url: str, tmp_path: Path) -> AsyncIterator[Cluster]:
    """``await cluster(2, lease_seconds=..., bot_delay=...)``: that many ready nodes on the
    test's database and Redis prefix (killed at the end); any :class:`Node` field may be
    given (``redis_url``, ``prefix``, ``options``: more ``odin serve`` options)."""
    prefix = f"odin-test-{secrets.token_hex(4)}:"
    started: list[Node] = []

    async def make(count: int = 2, **options: Any) -> list[Node]:
        channels = options.pop("prefix", prefix)
        nodes = [Node(database_url, channels, tmp_path, **options) for _ in range(count)]
        for node in nodes:
            node.start()
            started.append(node)
        for node in nodes:
            await node.ready()
        return nodes

    try:
        yield make
    finally:
        await stop_all(started)
