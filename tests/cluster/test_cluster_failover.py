"""Failover: ``kill -9`` of a table's owner at random moments, several times, while bots
think and people play through both processes; a rolling restart during ten games."""

from __future__ import annotations

import asyncio
import random
import signal
from functools import partial

import pytest

from .checks import check_game, owner_pid
from .conftest import Cluster
from .harness import Node, Player, create_table, take_seat, wait_for

pytestmark = [pytest.mark.multiprocess, pytest.mark.postgres, pytest.mark.redis]


async def _owner(database_url: str, table_id: str, nodes: list[Node]) -> Node:
    pid = await wait_for(lambda: owner_pid(database_url, table_id), 20, "a table owner")
    return next(node for node in nodes if node.alive and node.pid == pid)


async def _other_owner(database_url: str, table_id: str, killed: int) -> bool:
    pid = await owner_pid(database_url, table_id)
    return pid is not None and pid != killed


async def test_killing_the_owner_loses_and_doubles_nothing(
    cluster: Cluster, database_url: str
) -> None:
    nodes = await cluster(2, lease_seconds=1.5, bot_delay=0.15)
    # The search bot thinks for up to half a second a move: kills land while it thinks.
    table = await create_table(nodes[0], 4, {2: "search", 3: "heuristic"}, {"target": 15})
    tokens = [
        await take_seat(nodes[1], table["id"], 0, "Ann"),
        await take_seat(nodes[0], table["id"], 1, "Bo"),
    ]
    players = [
        Player(nodes[::-1], table["id"], tokens[0]),
        Player(nodes, table["id"], tokens[1]),
    ]
    game = asyncio.gather(*(p.play() for p in players))
    rng = random.Random()
    kills = 0
    while kills < 3 and not game.done():
        # A random moment of the game (not a wait for anything to happen).
        await asyncio.wait({game}, timeout=rng.uniform(0.5, 2.0))
        if game.done():
            break
        owner = await _owner(database_url, table["id"], nodes)
        killed = owner.pid
        owner.kill()
        kills += 1
        # The survivor takes the table over within 5 s (a 1.5 s lease, scans every 0.5 s).
        await wait_for(
            partial(_other_owner, database_url, table["id"], killed), 5, "a takeover in 5 s"
        )
        owner.start()
        await owner.ready()
    await game
    assert kills >= 2, "the game ended before the owner was killed twice"
    await check_game(database_url, nodes[0], table["id"], players)
    assert sum(p.reconnects for p in players) >= 1


async def test_a_rolling_restart_loses_nothing_in_ten_games(
    cluster: Cluster, database_url: str
) -> None:
    nodes = await cluster(2, lease_seconds=1.5, bot_delay=0.1)
    games = []
    for index in range(10):
        node = nodes[index % 2]
        table = await create_table(node, 3, {1: "random", 2: "random"}, {"target": 10})
        token = await take_seat(nodes[(index + 1) % 2], table["id"], 0, f"P{index}")
        games.append((table["id"], Player(nodes, table["id"], token, node=index)))
    play = asyncio.gather(*(p.play() for _, p in games))
    await wait_for(lambda: all(p.version > 0 for _, p in games), 30, "every game to start")
    assert not any(p.over for _, p in games), "a game ended before the restart"
    for node in nodes:  # one after the other: SIGTERM, wait for it to stop, start again
        node.signal(signal.SIGTERM)
        # uvicorn stops gracefully, then raises the signal again for its parent to see
        assert await node.stopped() in (0, -signal.SIGTERM)
        node.start()
        await node.ready()
    await play
    for table_id, player in games:
        await check_game(database_url, nodes[0], table_id, [player])


async def test_sigterm_hands_tables_over_at_once(cluster: Cluster, database_url: str) -> None:
    # A 10 s lease: a takeover within 5 s can only come from the hand-over.
    a, b = await cluster(2, lease_seconds=10, bot_delay=0.1)
    table = await create_table(a, 2, {1: "random"}, {"target": 10})
    token = await take_seat(b, table["id"], 0, "Ann")
    player = Player([b, a], table["id"], token)
    game = asyncio.ensure_future(player.play())
    await wait_for(lambda: player.version > 2, 30, "the game to be under way")
    assert await owner_pid(database_url, table["id"]) == a.pid
    a.signal(signal.SIGTERM)
    await wait_for(
        partial(_other_owner, database_url, table["id"], a.pid), 5, "the hand-over in 5 s"
    )
    assert await owner_pid(database_url, table["id"]) == b.pid
    await game
    await check_game(database_url, b, table["id"], [player])
    assert await a.stopped() in (0, -signal.SIGTERM)
