"""The site every hostile test meets: ``odin serve`` on SQLite, and two ``odin serve``
processes sharing PostgreSQL and Redis (skipped, with its reason, when they are absent).

One site of each kind serves the whole package (starting processes is the slow part);
tests keep apart by visiting from addresses of their own (:meth:`Site.visitor`). A new
surface is a new module with tests taking ``site``; a new limit is a test there (give the
site a lower limit through :data:`OPTIONS` when the default takes too long to reach).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from cluster.harness import POSTGRES, POSTGRES_ADMIN, Node
from odin_cards.server.settings import sqlite_url

from .site import BOT_WORK_BURST, SOCKETS_PER_ADDRESS, WAITING_TABLES_PER_ADDRESS, Site

OPTIONS = (
    *("--connections-per-ip", str(SOCKETS_PER_ADDRESS), "--bot-delay", "0.05"),
    *("--waiting-tables-per-ip", str(WAITING_TABLES_PER_ADDRESS)),
    *("--bot-work-burst", str(BOT_WORK_BURST), "--playnow-bot-wait", "0"),
)
"""``odin serve`` options of the site, after the cluster harness's own (which lift the
rate and table quotas: scripted clients are faster than people). The per-address shares
set here are small enough for a test to reach, and each visitor is a new address: a test
needing more waiting tables or bot seats takes more visitors."""

START_SECONDS = 60.0


def _ready(node: Node) -> None:
    deadline = time.monotonic() + START_SECONDS
    while True:
        assert node.alive, f"odin serve exited: {node.log_text()[-2000:]}"
        try:
            if httpx.get(f"{node.base}/readyz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, "odin serve was not ready in time"
        time.sleep(0.1)


def _start(nodes: list[Node]) -> None:
    for node in nodes:
        node.start()
    for node in nodes:
        _ready(node)


async def _database(create: bool, name: str) -> None:
    import asyncpg

    admin = await asyncpg.connect(POSTGRES_ADMIN, timeout=3)
    try:
        if create:
            await admin.execute(f'CREATE DATABASE "{name}"')
        else:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


def _services_missing() -> str | None:
    from redis import Redis
    from redis.exceptions import RedisError

    try:
        asyncio.run(_database(False, "odin_hostile_probe"))
    except (OSError, Exception) as error:  # asyncpg's errors are not OSError
        return f"PostgreSQL on 127.0.0.1:5432 is not reachable ({type(error).__name__})"
    try:
        with Redis(host="127.0.0.1", port=6379, socket_connect_timeout=2) as redis:
            redis.ping()
    except (RedisError, OSError):
        return "Redis on 127.0.0.1:6379 is not reachable"
    return None


@pytest.fixture(
    scope="package",
    params=[
        "sqlite",
        pytest.param(
            "two",
            marks=[
                pytest.mark.postgres,
                pytest.mark.redis,
                pytest.mark.multiprocess,
                pytest.mark.slow,
            ],
        ),
    ],
)
def site(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Site]:
    """A running site (see the module docstring); its processes are killed at the end."""
    logs: Path = tmp_path_factory.mktemp(f"hostile-{request.param}")
    if request.param == "sqlite":
        nodes = [Node(sqlite_url(logs), "", logs, redis_url=None, options=OPTIONS)]
        database = None
    else:
        missing = _services_missing()
        if missing is not None:
            pytest.skip(missing)
        database = f"odin_hostile_{secrets.token_hex(6)}"
        asyncio.run(_database(True, database))
        prefix = f"odin-hostile-{secrets.token_hex(4)}:"
        url = POSTGRES.format(name=database)
        nodes = [Node(url, prefix, logs, options=OPTIONS) for _ in range(2)]
    try:
        _start(nodes)
        yield Site(request.param, nodes)
    finally:
        for node in nodes:
            node.kill()
        if database is not None:
            asyncio.run(_database(False, database))
