"""What one action costs in a cluster of two processes (the figures of docs/server.md).

``.venv/bin/python -m tests.cluster.costs --tables 100 --seconds 30 --think 0.3`` starts
two ``odin serve`` processes on a fresh PostgreSQL database and a Redis prefix of their
own, seats ``--tables`` two-person tables with each seat connected to a different process,
lets each player move at random about ``--think`` seconds after its turn comes, and after a
``--warmup`` (5 s) prints, over ``--seconds``: actions a second, each process's CPU per
action, and ``PUBLISH``es and PostgreSQL transactions per action. Redis's command counts are
those of the whole server: other users of the same Redis add to them (run it alone).

``--pinned`` connects both seats of a table to one process, chosen by a hash of the table id,
as nginx's ``hash $table`` does (tables are still created on the processes in turn, so about
half start on the other one and move: give it ``--warmup 10``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import secrets
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

import asyncpg
import redis

from .harness import POSTGRES, POSTGRES_ADMIN, Node, Player, create_table, take_seat


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Thinker(Player):
    """A player that waits about ``think`` seconds before each move."""

    think: float = 0.3

    async def _maybe_act(self, ws: Any) -> None:
        if self.pending is None and self.state.get("legal"):
            await asyncio.sleep(random.uniform(0.5, 1.5) * self.think)
        await super()._maybe_act(ws)


async def measure(
    tables: int, seconds: float, think: float, pinned: bool = False, warmup: float = 5.0
) -> None:
    admin = await asyncpg.connect(POSTGRES_ADMIN)
    name = f"odin_costs_{secrets.token_hex(4)}"
    await admin.execute(f'CREATE DATABASE "{name}"')
    logs = Path(tempfile.mkdtemp(prefix="odin-costs-"))
    nodes = [Node(POSTGRES.format(name=name), f"{name}:", logs, 3.0, 0.0) for _ in range(2)]
    Thinker.think = think
    try:
        for node in nodes:
            node.start()
        for node in nodes:
            await node.ready()
        players = []
        for index in range(tables):
            table = await create_table(nodes[index % 2], 2, {}, {"target": 100})
            for seat in (0, 1):
                token = await take_seat(nodes[index % 2], table["id"], seat, f"P{seat}")
                if pinned:  # like nginx: every socket of a table on one process
                    node = nodes[zlib.crc32(table["id"].encode()) % 2]
                    players.append(Thinker([node], table["id"], token))
                else:
                    players.append(Thinker(nodes, table["id"], token, node=index + seat))
        playing = [asyncio.ensure_future(p.play(seconds + 300)) for p in players]
        await asyncio.sleep(warmup)
        database = await asyncpg.connect(POSTGRES_ADMIN.rsplit("/", 1)[0] + "/" + name)
        counts = redis.Redis(host="127.0.0.1", port=6379)

        async def sample() -> tuple[float, list[float], int, int, int]:
            stats: dict[str, Any] = counts.info("commandstats")
            published = int(stats.get("cmdstat_publish", {}).get("calls", 0))
            actions = int(await database.fetchval("SELECT count(*) FROM events"))
            commits = int(
                await database.fetchval(
                    "SELECT xact_commit FROM pg_stat_database WHERE datname = $1", name
                )
            )
            return (
                time.monotonic(),
                [cpu_seconds(n.pid) for n in nodes],
                published,
                actions,
                commits,
            )

        before = await sample()
        await asyncio.sleep(seconds)
        after = await sample()
        took = after[0] - before[0]
        actions = max(1, after[3] - before[3])
        where = "both seats on hash(table) % 2" if pinned else "seats on different processes"
        print(f"{tables} two-person tables, {where}, think {think} s")
        print(f"actions: {after[3] - before[3]} in {took:.1f} s ({actions / took:.1f}/s)")
        for index, (start, end) in enumerate(zip(before[1], after[1], strict=True)):
            used = end - start
            print(
                f"process {index}: {100 * used / took:.0f}% of a core, "
                f"{1000 * used / actions:.2f} ms CPU per action"
            )
        print(f"PUBLISH per action: {(after[2] - before[2]) / actions:.2f}")
        print(f"PostgreSQL transactions per action: {(after[4] - before[4]) / actions:.2f}")
        for task in playing:
            task.cancel()
        await database.close()
    finally:
        for node in nodes:
            node.kill()
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=0.3)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument(
        "--pinned", action="store_true", help="all of a table's sockets on one process"
    )
    arguments = parser.parse_args()
    asyncio.run(
        measure(
            arguments.tables,
            arguments.seconds,
            arguments.think,
            arguments.pinned,
            arguments.warmup,
        )
    )


if __name__ == "__main__":
    main()
