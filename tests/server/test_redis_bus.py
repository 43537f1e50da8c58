"""The Redis bus (``adapters/redis_bus.py``) on the real Redis of this machine.

One table whose handler is slow (it waits for its lock, or reads its log) must hold up
neither the other tables' messages nor the answers to requests: all of them arrive on one
reader. Under a thousand tables a reader that handled messages inline let requests time
out ("the table is changing hands") and subscriptions fail.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

import pytest

from odin_cards.server.adapters.redis_bus import RedisMessaging

from .conftest import REDIS, _redis_reachable

pytestmark = [pytest.mark.redis]


async def test_a_slow_table_holds_up_no_other_table_and_no_answer() -> None:
    if not _redis_reachable():
        pytest.skip("Redis on 127.0.0.1:6379 is not reachable")
    prefix = f"odin-test-{secrets.token_hex(4)}:"
    asker, follower = RedisMessaging(REDIS, prefix, "asker"), RedisMessaging(REDIS, prefix, "b")
    release, other_heard, slow_done = asyncio.Event(), asyncio.Event(), asyncio.Event()
    heard: list[tuple[str, int]] = []

    async def handle(table: str | None, message: dict[str, Any]) -> None:
        if table == "slow":
            await release.wait()
        heard.append((str(table), int(message["n"])))
        if table == "other":
            other_heard.set()
        if heard.count(("slow", 3)):
            slow_done.set()

    async def answer(body: dict[str, Any]) -> Any:
        return {"echo": body["n"]}

    await asker.start()
    await follower.start()
    try:
        follower.listen(handle)
        follower.serve(answer)
        await follower.follow("slow")
        await follower.follow("other")
        for n in (1, 2, 3):
            asker.publish("slow", {"n": n})
        asker.publish("other", {"n": 1})
        await asyncio.wait_for(other_heard.wait(), 5)
        assert await asker.request("b", {"n": 7}, 5) == {"echo": 7}
        assert heard == [("other", 1)]  # the slow table still waits
        release.set()
        await asyncio.wait_for(slow_done.wait(), 5)
        assert heard == [("other", 1), ("slow", 1), ("slow", 2), ("slow", 3)]
    finally:
        await asker.stop()
        await follower.stop()
