"""Load benchmark of ``odin serve``: one process, then two processes behind nginx, one run.

For each setup (``--setups``, default ``one,two``) it starts the servers on loopback
(``bench/cluster_processes.py``): ``one`` is a single ``odin serve`` the clients reach
directly; ``two`` is two processes sharing the database and Redis (``--redis-url``)
behind nginx with ``deploy/nginx/odin.conf``. Each setup gets a fresh PostgreSQL database
on 127.0.0.1:5432 (created and dropped; ``--sqlite`` runs ``one`` on a SQLite file
instead, ``--database-url`` on a database of yours). It creates ``--tables`` tables of
``--players`` seats, all taken by clients of this script (no server-side bots), and lets
every client play: when its seat is to move it waits a think time, then sends a random
legal action. A finished game is followed by a rematch (every seat accepts), so every
table plays for the whole run.

Per setup it prints the action round trip (act sent -> the update it caused received)
p50/p90/p99/max, actions per second, the CPU of every server process (and of nginx, and
of this load generator) per action, the database's commits and inserted rows per action
(``pg_stat_database``), and Redis commands per action (``INFO commandstats``; Redis is
shared with anything else running on this machine, so the ``one`` setup, which does
not use Redis, shows that background). A table of both setups side by side ends the run.

Bounded: ``--duration`` seconds of measurement after a ``--warmup``, and a hard
``--timeout`` for the whole run. Loopback only.

    .venv/bin/python bench/load.py --tables 1000 --duration 60 --warmup 30
    .venv/bin/python bench/load.py --setups one --sqlite --tables 500 --duration 30
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import tempfile
import time
import urllib.request
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx
from cluster_processes import (
    POSTGRES_ADMIN,
    REDIS_URL,
    AddressQuotas,
    Nginx,
    Server,
    create_database,
    drop_database,
    nginx_missing,
    process_tree_cpu,
    start_server,
    wait_ready,
)
from websockets.asyncio.client import ClientConnection, connect

SETUPS = {"one": 1, "two": 2}
"""Setups by name: how many server processes (more than one: behind nginx, with Redis)."""


OWN_REDIS_COMMANDS = {"hello", "info", "client|setinfo", "client|setname"}


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    measuring: bool = False
    actions: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    games: int = 0
    connected: int = 0


@dataclass
class Seat:
    """One client: a seat's connection that plays whenever its seat is to move."""

    base: str
    table: str
    seat: int
    token: str
    think: float
    stats: Stats
    rng: random.Random
    connection: ClientConnection | None = None
    version: int = 0
    sent_at: dict[str, float] = field(default_factory=dict)
    waiting: str | None = None
    tasks: set[asyncio.Task[None]] = field(default_factory=set)

    async def run(
        self,
        stop: asyncio.Event,
        agains: dict[str, asyncio.Future[str]],
        connecting: asyncio.Semaphore,
    ) -> None:
        while not stop.is_set():
            url = self.base.replace("http://", "ws://") + f"/ws/{self.table}"
            async with connecting:  # not thousands of handshakes at once
                connection = await connect(url, max_queue=None, open_timeout=60)
            self.stats.connected += 1
            async with connection:
                self.connection = connection
                await connection.send(json.dumps({"type": "hello", "token": self.token}))
                next_table = await self._play(connection, stop, agains)
            if next_table is None:
                return
            self.table = next_table
            self.version = 0
            self.waiting = None

    async def _play(
        self,
        connection: ClientConnection,
        stop: asyncio.Event,
        agains: dict[str, asyncio.Future[str]],
    ) -> str | None:
        async for text in connection:
            if stop.is_set():
                return None
            message = json.loads(text)
            kind = message["type"]
            if kind == "update":
                self.version = message["version"]
                if self.waiting is not None and self.waiting in self.sent_at:
                    started = self.sent_at.pop(self.waiting)
                    if self.stats.measuring:
                        self.stats.latencies.append(time.perf_counter() - started)
                        self.stats.actions += 1
                    self.waiting = None
                state = message["state"]
                if state["outcome"] is not None:
                    self.stats.games += self.seat == 0
                    return await self._again(agains)
                if state["legal"] and self.waiting is None:
                    task = asyncio.create_task(self._act(connection, state["legal"], self.version))
                    self.tasks.add(task)
                    task.add_done_callback(self.tasks.discard)
            elif kind == "error":
                code = message["code"]
                self.stats.errors[code] = self.stats.errors.get(code, 0) + 1
                if message.get("id") == self.waiting:
                    self.waiting = None
        return None

    async def _act(self, connection: ClientConnection, legal: list[str], version: int) -> None:
        if self.think > 0:
            await asyncio.sleep(self.rng.uniform(self.think / 2, self.think * 1.5))
        id = uuid.uuid4().hex
        self.waiting = id
        self.sent_at[id] = time.perf_counter()
        message = {"type": "act", "action": self.rng.choice(legal), "version": version, "id": id}
        with contextlib.suppress(Exception):
            await connection.send(json.dumps(message))

    async def _again(self, agains: dict[str, asyncio.Future[str]]) -> str:
        """A rematch: every seat accepts; the answer that starts the next table tells every
        seat where it is."""
        future = agains.setdefault(self.table, asyncio.get_running_loop().create_future())
        async with httpx.AsyncClient(base_url=self.base, timeout=60) as http:
            answer = await http.post(
                f"/api/tables/{self.table}/rematch", json={"token": self.token, "answer": "accept"}
            )
        following = answer.json()["rematch"]["next_table"]
        if following is not None and not future.done():
            future.set_result(following)
        return await future


async def setup_tables(base: str, tables: int, players: int, target: int) -> list[list[str]]:
    """Create the tables and take every seat; the tokens, table by table."""
    limit = asyncio.Semaphore(32)
    limits = httpx.Limits(max_connections=32)

    async def one(http: httpx.AsyncClient) -> list[str]:
        async with limit:
            answer = await http.post(
                "/api/tables", json={"players": players, "options": {"target": target}}
            )
            table = _answered(answer, 201)["table"]["id"]
            tokens = [table]
            for seat in range(players):
                taken = await http.post(
                    f"/api/tables/{table}/seats/{seat}", json={"name": f"L{seat}"}
                )
                tokens.append(_answered(taken, 200)["token"])
            return tokens

    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        return await asyncio.gather(*(one(http) for _ in range(tables)))


def _answered(answer: httpx.Response, status: int) -> Any:
    """The JSON of an answer with ``status``; any other stops the run, saying why."""
    if answer.status_code != status:
        request = answer.request
        why = f"{answer.status_code} {answer.text[:300]}"
        raise SystemExit(f"{request.method} {request.url.path}: {why}")
    return answer.json()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


# ---------------------------------------------------------------- what the stores did


async def database_counters(name: str | None) -> dict[str, float]:
    """``pg_stat_database`` of database ``name``: commits and rows written so far."""
    if name is None:
        return {}
    import asyncpg

    admin = await asyncpg.connect(POSTGRES_ADMIN, timeout=5)
    try:
        # Statistics reach pg_stat_database up to a second late; a delta over tens of
        # seconds is off by at most that second's share.
        row = await admin.fetchrow(
            "SELECT xact_commit, tup_inserted, tup_updated, tup_deleted"
            " FROM pg_stat_database WHERE datname = $1",
            name,
        )
    finally:
        await admin.close()
    return {key: float(value) for key, value in dict(row or {}).items()}


async def redis_counters() -> dict[str, float]:
    """Calls of each Redis command so far (the whole Redis server's)."""
    from redis.asyncio import Redis

    client = Redis.from_url(REDIS_URL, socket_timeout=5)
    try:
        stats: dict[str, Any] = await client.info("commandstats")
    except OSError:
        return {}
    finally:
        await client.aclose()
    calls = {
        name.removeprefix("cmdstat_"): float(value["calls"])
        for name, value in stats.items()
        if isinstance(value, dict) and "calls" in value
    }
    # not the servers': this function's own connection (HELLO, CLIENT SETINFO, INFO)
    return {k: v for k, v in calls.items() if k not in OWN_REDIS_COMMANDS}


def applied_actions(server: Server) -> float | None:
    """``odin_actions_total`` of one process (its ``/metrics``); ``None`` without it."""
    try:
        with urllib.request.urlopen(server.base + "/metrics", timeout=5) as answer:
            text = answer.read().decode()
    except OSError:
        return None
    total = 0.0
    for line in text.splitlines():
        if line.startswith("odin_actions_total"):
            total += float(line.rsplit(" ", 1)[1])
    return total


def delta(after: dict[str, float], before: dict[str, float]) -> dict[str, float]:
    return {
        key: after[key] - before.get(key, 0.0) for key in after if after[key] != before.get(key)
    }


# ---------------------------------------------------------------- one setup


@dataclass
class Figures:
    setup: str
    processes: int
    tables: int
    connections: int
    seconds: float
    actions: int
    actions_per_second: float
    round_trip_ms: dict[str, float]
    games: int
    errors: dict[str, int]
    server_cpu: list[float]
    """Share of one core used by each server process (with its bot workers)."""
    server_actions: list[float | None]
    """Actions each process applied while measured (its /metrics; None without them)."""
    nginx_cpu: float | None
    client_cpu: float
    database: dict[str, float]
    redis: dict[str, float]

    def cpu_ms_per_action(self) -> list[float | None]:
        """Each process's CPU milliseconds per action it applied."""
        return [
            cpu * self.seconds * 1000 / actions if actions else None
            for cpu, actions in zip(self.server_cpu, self.server_actions, strict=True)
        ]


@dataclass
class Cluster:
    servers: list[Server]
    nginx: Nginx | None
    database: str | None
    directory: Path

    @property
    def base(self) -> str:
        return self.nginx.base if self.nginx is not None else self.servers[0].base

    def stop(self) -> None:
        if self.nginx is not None:
            self.nginx.stop()
        for server in self.servers:
            server.stop()
        if self.database is not None:
            drop_database(self.database)


def start_cluster(name: str, args: argparse.Namespace) -> Cluster:
    processes = SETUPS[name]
    directory = Path(tempfile.mkdtemp(prefix=f"odin-load-{name}-"))
    sockets = args.tables * args.players + 100
    # Every simulated person connects from 127.0.0.1: the per-address quotas that protect
    # a public server from one client would refuse the crowd, so they are raised to fit it.
    options = ["--bot-delay", "0", "--rate-limit", "1000", "--log-level", "warning"]
    options += ["--tables-per-hour", str(args.tables + 100)]
    options += ["--waiting-tables-per-ip", str(args.tables + 100)]
    options += ["--bot-work-burst", str(10 * (args.tables + 100))]
    options += ["--connections-per-ip", str(sockets), "--max-connections", str(sockets)]
    options += ["--workers", str(args.workers)]
    database = None
    if args.database_url:
        options += ["--database-url", args.database_url]
    elif args.sqlite:
        options += ["--data-dir", str(directory / "data")]
    else:
        database, url = create_database("load")
        options += ["--database-url", url]
    if processes > 1:
        options += [
            "--redis-url",
            REDIS_URL,
            "--redis-prefix",
            f"odin-load-{uuid.uuid4().hex[:12]}:",
        ]
    servers = [start_server(options, directory) for _ in range(processes)]
    print(f"[{name}] server: odin serve", " ".join(options), flush=True)
    nginx = None
    if processes > 1:
        nginx = Nginx(
            directory / "nginx",
            [f"127.0.0.1:{s.port}" for s in servers],
            # Each socket is two of nginx's connections (the client's and the upstream one),
            # and for a moment four when a rematch moves it to the next table; at 8,256 for
            # 4,000 sockets nginx ran out ("worker_connections are not enough") and some
            # handshakes never finished.
            connections=4 * sockets + 1024,
            # the load generator is one address: the deployed per-address share is far less
            quotas=AddressQuotas(sockets=sockets, tables=args.tables + 100),
        )
    cluster = Cluster(servers, nginx, database, directory)
    try:
        for server in servers:
            wait_ready(server)
        if nginx is not None:
            nginx.start()
            print(f"[{name}] nginx: {nginx.config}", flush=True)
    except BaseException:
        cluster.stop()
        raise
    return cluster


async def run_setup(name: str, args: argparse.Namespace) -> Figures:
    cluster = await asyncio.to_thread(start_cluster, name, args)
    try:
        return await measure(name, cluster, args)
    finally:
        await asyncio.to_thread(cluster.stop)


async def measure(name: str, cluster: Cluster, args: argparse.Namespace) -> Figures:
    started = time.monotonic()
    tokens = await setup_tables(cluster.base, args.tables, args.players, args.target)
    elapsed = time.monotonic() - started
    print(f"[{name}] {args.tables} tables created and seated in {elapsed:.1f} s", flush=True)
    stats = Stats()
    stop = asyncio.Event()
    agains: dict[str, asyncio.Future[str]] = {}
    rng = random.Random(args.seed)
    seats = [
        Seat(cluster.base, row[0], seat, token, args.think, stats, random.Random(rng.random()))
        for row in tokens
        for seat, token in enumerate(row[1:])
    ]
    connecting = asyncio.Semaphore(64)
    tasks = [asyncio.create_task(seat.run(stop, agains, connecting)) for seat in seats]
    opening = time.monotonic()
    while stats.connected < len(seats):  # every seat connected before the warm-up counts
        failed = next((task for task in tasks if task.done() and task.exception()), None)
        if failed is not None:  # a client that could not connect would never count
            stop.set()
            raise SystemExit(f"[{name}] a client stopped: {failed.exception()!r}")
        await asyncio.sleep(0.1)
    print(
        f"[{name}] {stats.connected} connections opened in {time.monotonic() - opening:.1f} s",
        flush=True,
    )
    await asyncio.sleep(args.warmup)

    pids = [server.process.pid for server in cluster.servers]
    nginx_pids = cluster.nginx.worker_pids() if cluster.nginx is not None else []
    database_before = await database_counters(cluster.database)
    redis_before = await redis_counters()
    applied_before = [applied_actions(server) for server in cluster.servers]
    cpu_before = [process_tree_cpu(pid) for pid in pids]
    nginx_before = sum(process_tree_cpu(pid) for pid in nginx_pids)
    own_before = resource.getrusage(resource.RUSAGE_SELF)
    stats.measuring = True
    measured = time.monotonic()
    await asyncio.sleep(args.duration)
    stats.measuring = False
    seconds = time.monotonic() - measured
    own_after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = [
        (process_tree_cpu(pid) - before) / seconds
        for pid, before in zip(pids, cpu_before, strict=True)
    ]
    nginx_cpu = sum(process_tree_cpu(pid) for pid in nginx_pids) - nginx_before
    applied_after = [applied_actions(server) for server in cluster.servers]
    database_after = await database_counters(cluster.database)
    redis_after = await redis_counters()
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)

    own = (own_after.ru_utime + own_after.ru_stime) - (own_before.ru_utime + own_before.ru_stime)
    latencies = stats.latencies
    quantiles = {"p50": 0.5, "p90": 0.9, "p99": 0.99}
    round_trip = {k: percentile(latencies, q) * 1000 for k, q in quantiles.items()}
    round_trip["max"] = max(latencies) * 1000 if latencies else 0.0
    server_actions = [
        None if before is None or after is None else after - before
        for before, after in zip(applied_before, applied_after, strict=True)
    ]
    return Figures(
        setup=name,
        processes=len(cluster.servers),
        tables=args.tables,
        connections=len(seats),
        seconds=seconds,
        actions=stats.actions,
        actions_per_second=stats.actions / seconds,
        round_trip_ms=round_trip if latencies else {},
        games=stats.games,
        errors=stats.errors,
        server_cpu=cpu,
        server_actions=server_actions,
        nginx_cpu=nginx_cpu / seconds if cluster.nginx is not None else None,
        client_cpu=own / seconds,
        database=delta(database_after, database_before),
        redis=delta(redis_after, redis_before),
    )


# ---------------------------------------------------------------- the report


def report(figures: Figures, args: argparse.Namespace) -> None:
    name, actions = figures.setup, max(1, figures.actions)
    print(f"[{name}] {figures.processes} process(es), {figures.connections} connections")
    print(
        f"[{name}] think {args.think} s mean per move; measured {figures.seconds:.1f} s after"
        f" {args.warmup:g} s warm-up"
    )
    if figures.round_trip_ms:
        rt = figures.round_trip_ms
        print(
            f"[{name}] action round trip: p50 {rt['p50']:.1f} ms, p90 {rt['p90']:.1f} ms,"
            f" p99 {rt['p99']:.1f} ms, max {rt['max']:.1f} ms"
        )
    print(
        f"[{name}] actions: {figures.actions} ({figures.actions_per_second:.0f}/s);"
        f" games finished: {figures.games}; errors: {figures.errors or 'none'}"
    )
    per_action = figures.cpu_ms_per_action()
    for index, (cpu, applied, ms) in enumerate(
        zip(figures.server_cpu, figures.server_actions, per_action, strict=True)
    ):
        share = f"{applied / actions * 100:.0f}% of the actions" if applied is not None else "?"
        cost = f"{ms:.2f} ms CPU per action it applied" if ms is not None else "no /metrics"
        print(f"[{name}] process {index + 1}: {cpu * 100:.0f}% of a core, {share}, {cost}")
    total = sum(figures.server_cpu) * figures.seconds * 1000 / actions
    print(f"[{name}] all processes: {total:.2f} ms CPU per action (measured at the clients)")
    if figures.nginx_cpu is not None:
        nginx_ms = figures.nginx_cpu * figures.seconds * 1000 / actions
        print(f"[{name}] nginx: {figures.nginx_cpu * 100:.0f}% of a core, {nginx_ms:.2f} ms/action")
    client_ms = figures.client_cpu * figures.seconds * 1000 / actions
    print(
        f"[{name}] load generator: {figures.client_cpu * 100:.0f}% of a core,"
        f" {client_ms:.2f} ms/action; load average {os.getloadavg()[0]:.2f} (2 cores)"
    )
    if figures.database:
        print(
            f"[{name}] database per action: "
            + ", ".join(f"{k} {v / actions:.2f}" for k, v in sorted(figures.database.items()))
        )
    busiest = sorted(figures.redis.items(), key=lambda kv: -kv[1])[:8]
    redis_total = sum(figures.redis.values())
    print(
        f"[{name}] Redis commands per action: {redis_total / actions:.2f} ("
        + ", ".join(f"{k} {v / actions:.2f}" for k, v in busiest)
        + ")",
        flush=True,
    )


def comparison(all_figures: list[Figures]) -> None:
    print()
    print(
        "setup | processes | tables | actions/s | p50 ms | p99 ms | server CPU ms/action"
        " | nginx ms/action | load gen CPU | db commits/action | Redis cmds/action"
    )
    for f in all_figures:
        actions = max(1, f.actions)
        rt = f.round_trip_ms or {"p50": float("nan"), "p99": float("nan")}
        server = sum(f.server_cpu) * f.seconds * 1000 / actions
        nginx = "-" if f.nginx_cpu is None else f"{f.nginx_cpu * f.seconds * 1000 / actions:.2f}"
        commits = f.database.get("xact_commit")
        db = "-" if commits is None else f"{commits / actions:.2f}"
        print(
            f"{f.setup} | {f.processes} | {f.tables} | {f.actions_per_second:.0f} |"
            f" {rt['p50']:.1f} | {rt['p99']:.1f} | {server:.2f} | {nginx} |"
            f" {f.client_cpu * 100:.0f}% | {db} | {sum(f.redis.values()) / actions:.2f}"
        )


async def main(args: argparse.Namespace) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    all_figures = []
    for name in args.setups:
        figures = await run_setup(name, args)
        report(figures, args)
        all_figures.append(figures)
    comparison(all_figures)
    if args.json:
        Path(args.json).write_text(json.dumps([asdict(f) for f in all_figures], indent=2))


def cli() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--setups",
        default=None,
        help="comma-separated: one (a process), two (two processes, Redis, nginx);"
        " default one,two (one with --sqlite or --database-url)",
    )
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument(
        "--think",
        type=float,
        default=1.0,
        help="mean seconds a client waits before it moves (0: at once)",
    )
    parser.add_argument("--target", type=int, default=100, help="points that end a game")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds measured")
    parser.add_argument("--warmup", type=float, default=20.0)
    parser.add_argument("--timeout", type=float, default=1500.0, help="hard limit, seconds")
    parser.add_argument("--workers", type=int, default=0, help="bot processes per server")
    parser.add_argument("--sqlite", action="store_true", help="setup one on a SQLite file")
    parser.add_argument("--database-url", default=None, help="setup one on this database")
    parser.add_argument("--json", default=None, help="write every figure to this file")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.setups is None:
        args.setups = "one" if args.sqlite or args.database_url else "one,two"
    args.setups = [s.strip() for s in args.setups.split(",") if s.strip()]
    unknown = [s for s in args.setups if s not in SETUPS]
    if unknown or not args.setups:
        parser.error(f"--setups: one or more of {', '.join(SETUPS)}")
    several = any(SETUPS[s] > 1 for s in args.setups)
    if several and (args.sqlite or args.database_url):
        parser.error("--sqlite and --database-url are for --setups one (two need a fresh one)")
    if args.database_url and not any(h in args.database_url for h in ("@127.0.0.1", "@localhost")):
        parser.error("the benchmark is loopback only: a database on 127.0.0.1 or localhost")
    if several and (reason := nginx_missing()):
        parser.error(reason)
    return args


if __name__ == "__main__":
    arguments = cli()
    try:
        import uvloop  # installed with uvicorn[standard]; the clients need their CPU too

        uvloop.run(asyncio.wait_for(main(arguments), arguments.timeout))
    except TimeoutError:
        raise SystemExit(f"stopped by --timeout {arguments.timeout} s") from None
