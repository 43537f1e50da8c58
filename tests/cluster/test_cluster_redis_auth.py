"""Redis with a user and a password of its own (``redis://USER:PASSWORD@HOST/DB``): two
processes play through it with no more rights than docs/deploy.md gives that user; a wrong
password is one clear line at start-up; the password is in no log line and no metric.
(The URL's TLS options: tests/server/test_redis_url.py.)"""

from __future__ import annotations

import asyncio
import secrets
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .conftest import Cluster
from .harness import ODIN, Player, create_table, free_port, take_seat

pytestmark = [pytest.mark.multiprocess, pytest.mark.postgres, pytest.mark.redis]

PREFIX = "odin-acl-"


def acl_rules(password: str, prefix: str) -> list[str]:
    """The rules of docs/deploy.md's Redis user, for one channel prefix."""
    return [
        "reset",
        "on",
        f">{password}",
        "resetchannels",
        f"&{prefix}*",
        "-@all",
        "+publish",
        "+subscribe",
        "+unsubscribe",
        "+ping",
    ]


@pytest.fixture
def redis_user() -> Iterator[tuple[str, str, str]]:
    """A temporary Redis ACL user (deleted after the test): its name, password and the
    channel prefix it may use."""
    from redis import Redis

    name = f"odin-test-{secrets.token_hex(4)}"
    password = secrets.token_hex(16)
    prefix = f"{PREFIX}{secrets.token_hex(4)}:"
    with Redis(host="127.0.0.1", port=6379) as admin:
        admin.execute_command("ACL", "SETUSER", name, *acl_rules(password, prefix))
        try:
            yield name, password, prefix
        finally:
            admin.execute_command("ACL", "DELUSER", name)


async def test_two_processes_play_through_a_redis_user_with_a_password(
    cluster: Cluster, database_url: str, redis_user: tuple[str, str, str], tmp_path: Path
) -> None:
    name, password, prefix = redis_user
    url = f"redis://{name}:{password}@127.0.0.1:6379/0"
    a, b = await cluster(2, redis_url=url, prefix=prefix)
    table = await create_table(a, 2, {}, {"one_hand": True})
    tokens = [await take_seat(b, table["id"], 0, "Ann"), await take_seat(a, table["id"], 1, "Bo")]
    # Each seat plays through the process that does not own the table: every action
    # and update crosses Redis, as that user.
    players = [Player([b], table["id"], tokens[0]), Player([b], table["id"], tokens[1])]
    await asyncio.gather(*(player.play(120) for player in players))
    assert all(p.over and p.acked for p in players)
    for node in (a, b):
        assert password not in await node.metrics()
        async with httpx.AsyncClient(base_url=node.base) as http:
            assert (await http.get("/readyz")).json()["redis"] is True
    assert password not in a.log_text() + b.log_text()


def test_a_wrong_password_is_one_clear_line_at_start_up(
    database_url: str, redis_user: tuple[str, str, str]
) -> None:
    name, _, prefix = redis_user
    wrong = secrets.token_hex(16)
    url = f"redis://{name}:{wrong}@127.0.0.1:6379/0"
    command = [str(ODIN), "serve", "--port", str(free_port()), "--database-url", database_url]
    command += ["--redis-url", url, "--redis-prefix", prefix]
    refused = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert refused.returncode != 0
    assert "refused the user name or password of --redis-url" in refused.stderr
    assert f"redis://{name}:***@127.0.0.1:6379/0" in refused.stderr
    assert wrong not in refused.stderr + refused.stdout
    assert "Traceback" not in refused.stderr
