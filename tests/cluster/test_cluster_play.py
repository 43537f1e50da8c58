"""Two ``odin serve`` processes on one PostgreSQL and Redis: a table plays to the end with
its seats connected to different processes; every process's connections see every update
in order, each only its own cards; the lobby of each process lists every open table."""

from __future__ import annotations

import asyncio
import subprocess

import httpx
import pytest

from .checks import check_game
from .conftest import Cluster
from .harness import ODIN, Player, create_table, free_port, take_seat

pytestmark = [pytest.mark.multiprocess, pytest.mark.postgres, pytest.mark.redis]

OPTIONS = {"target": 8}


async def test_seats_on_different_processes_play_to_the_end(
    cluster: Cluster, database_url: str
) -> None:
    a, b = await cluster(2)
    table = await create_table(a, 3, {2: "random"}, OPTIONS)
    # The lobby of the other process lists the open table (read from the database).
    async with httpx.AsyncClient(base_url=b.base) as http:
        listed = (await http.get("/api/tables?status=open")).json()["tables"]
    assert [t["id"] for t in listed] == [table["id"]]
    # Seats are taken through the process that does not own the table.
    tokens = [await take_seat(b, table["id"], 0, "Ann"), await take_seat(a, table["id"], 1, "Bo")]
    players = [
        Player([b, a], table["id"], tokens[0]),
        Player([a, b], table["id"], tokens[1]),
    ]
    watcher = Player([b, a], table["id"], None)
    await asyncio.gather(*(p.play() for p in [*players, watcher]))
    await check_game(database_url, a, table["id"], players)
    assert all(p.reconnects == 0 for p in [*players, watcher])
    # No connection was ever sent another seat's hand.
    for player in players:
        assert {s["seat"] for s in player.seen_cards} == {players.index(player)}
    assert all(s["hand"] is None for s in watcher.seen_cards)


async def test_a_single_process_server_and_a_cluster_exclude_each_other(
    cluster: Cluster, database_url: str
) -> None:
    (node,) = await cluster(1)
    alone = subprocess.run(
        [str(ODIN), "serve", "--port", str(free_port()), "--database-url", database_url],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert alone.returncode != 0
    assert "another odin serve is using the PostgreSQL database" in alone.stderr
    assert node.alive
