"""Ownership follows the connections: a table created through one process, whose sockets
are all on the other (as nginx's ``hash $table`` does), moves to the process with the
sockets while it is played, and the first process stops holding it at all."""

from __future__ import annotations

import asyncio

import pytest

from .checks import check_game, owner_pid
from .conftest import Cluster
from .harness import Node, Player, create_table, metric, take_seat, wait_for

pytestmark = [pytest.mark.multiprocess, pytest.mark.postgres, pytest.mark.redis]


async def tables_held(node: Node) -> float:
    text = await node.metrics()
    return sum(
        metric(text, "odin_tables", state=state)
        for state in ("waiting", "playing", "finished", "expired", "abandoned", "broken")
    )


async def test_a_table_moves_to_the_process_holding_its_sockets(
    cluster: Cluster, database_url: str
) -> None:
    a, b = await cluster(2, lease_seconds=1.5, bot_delay=0.15)
    table = await create_table(a, 3, {2: "random"}, {"target": 15})
    tokens = [await take_seat(a, table["id"], seat, f"P{seat}") for seat in (0, 1)]
    assert await owner_pid(database_url, table["id"]) == a.pid
    players = [Player([b], table["id"], token) for token in tokens]
    game = asyncio.gather(*(p.play() for p in players))
    try:

        async def b_owns() -> bool:
            return await owner_pid(database_url, table["id"]) == b.pid

        await wait_for(b_owns, 10, "b to own the table")
        assert not game.done(), "the game ended before the hand-over: make it longer"
        assert metric(await a.metrics(), "odin_lease_changes_total", event="released") == 1

        async def a_lets_go() -> bool:
            return await tables_held(a) == 0

        await wait_for(a_lets_go, 10, "a to drop its replica")
        moved = sum(p.version for p in players)
        await wait_for(
            lambda: sum(p.version for p in players) > moved or game.done(), 20, "play to go on"
        )
        await game
    finally:
        game.cancel()
    await check_game(database_url, b, table["id"], players)
    assert all(p.reconnects == 0 for p in players)
    assert await tables_held(a) == 0  # the whole game long, after the hand-over
