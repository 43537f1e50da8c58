"""Load benchmark of ``odin serve``: many simultaneous tables of WebSocket clients.

Starts the server (a subprocess on loopback, a fresh SQLite file, or ``--database-url``),
creates ``--tables`` tables of ``--players`` seats, all taken by clients of this script
(no server-side bots), and lets every client play: when its seat is to move it waits a
think time, then sends a random legal action from its state. A finished game is followed
by "play again", so every table plays for the whole run. It prints the action round
trip (act sent -> the update it caused received) p50/p90/p99/max and actions per second.

Bounded: ``--duration`` seconds of measurement after a ``--warmup``, and a hard
``--timeout`` for the whole run. Loopback only.

    .venv/bin/python bench/load.py --tables 500 --duration 30
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from websockets.asyncio.client import ClientConnection, connect


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
        """Play again: one request per table (seat 0's), every seat follows to the new table."""
        future = agains.setdefault(self.table, asyncio.get_running_loop().create_future())
        if self.seat == 0:
            async with httpx.AsyncClient(base_url=self.base, timeout=60) as http:
                answer = await http.post(
                    f"/api/tables/{self.table}/again", json={"token": self.token}
                )
                future.set_result(answer.json()["table"]["id"])
        return await future


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


async def wait_ready(base: str, process: subprocess.Popen[bytes], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient(base_url=base) as http:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise SystemExit("odin serve exited during start-up")
            with contextlib.suppress(httpx.TransportError):
                if (await http.get("/api/levels")).status_code == 200:
                    return
            await asyncio.sleep(0.1)
    raise SystemExit("odin serve did not start")


async def setup_tables(base: str, tables: int, players: int, target: int) -> list[list[str]]:
    """Create the tables and take every seat; the tokens, table by table."""
    limit = asyncio.Semaphore(32)
    limits = httpx.Limits(max_connections=32)

    async def one(http: httpx.AsyncClient) -> list[str]:
        async with limit:
            answer = await http.post(
                "/api/tables", json={"players": players, "options": {"target": target}}
            )
            table = answer.json()["table"]["id"]
            tokens = [table]
            for seat in range(players):
                taken = await http.post(
                    f"/api/tables/{table}/seats/{seat}", json={"name": f"L{seat}"}
                )
                tokens.append(taken.json()["token"])
            return tokens

    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        return await asyncio.gather(*(one(http) for _ in range(tables)))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def main(args: argparse.Namespace) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    process: subprocess.Popen[bytes] | None = None
    if args.url:
        base = args.url.rstrip("/")
    else:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        data = Path(tempfile.mkdtemp(prefix="odin-load-"))
        odin = Path(sys.executable).with_name("odin")
        command = [str(odin), "serve", "--port", str(port), "--data-dir", str(data)]
        command += ["--bot-delay", "0", "--rate-limit", "1000", "--log-level", "warning"]
        # Every simulated person connects from 127.0.0.1: the per-address quotas that
        # protect a public server from one client would refuse the crowd, so they are
        # raised to fit it (the totals stay the server's defaults where they suffice).
        sockets = args.tables * args.players + 100
        command += ["--tables-per-hour", str(args.tables + 100)]
        command += ["--connections-per-ip", str(sockets), "--max-connections", str(sockets)]
        if args.database_url:
            command += ["--database-url", args.database_url]
        print("server:", " ".join(command), flush=True)
        with (data / "serve.log").open("wb") as log:
            process = subprocess.Popen(command, stderr=log)
    try:
        if process is not None:
            await wait_ready(base, process, 60)
        started = time.monotonic()
        tokens = await setup_tables(base, args.tables, args.players, args.target)
        print(
            f"{args.tables} tables created and seated in {time.monotonic() - started:.1f} s",
            flush=True,
        )
        stats = Stats()
        stop = asyncio.Event()
        agains: dict[str, asyncio.Future[str]] = {}
        rng = random.Random(args.seed)
        seats = [
            Seat(base, row[0], seat, token, args.think, stats, random.Random(rng.random()))
            for row in tokens
            for seat, token in enumerate(row[1:])
        ]
        connecting = asyncio.Semaphore(64)

        tasks = [asyncio.create_task(seat.run(stop, agains, connecting)) for seat in seats]
        await asyncio.sleep(args.warmup)
        print(f"{stats.connected} connections opened during the warm-up", flush=True)
        pid = process.pid if process is not None else None
        cpu_before = _cpu(pid)
        own_before = time.process_time()
        stats.measuring = True
        measured = time.monotonic()
        await asyncio.sleep(args.duration)
        stats.measuring = False
        elapsed = time.monotonic() - measured
        cpu = _cpu(pid) - cpu_before
        own = time.process_time() - own_before
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        lat = stats.latencies
        print(f"connections: {len(seats)} ({args.tables} tables of {args.players})")
        print(
            f"think time: {args.think} s mean per move; measured {elapsed:.1f} s "
            f"after {args.warmup:.0f} s warm-up; database: {args.database_url or 'SQLite'}"
        )
        if lat:
            p50, p90, p99 = (percentile(lat, q) * 1000 for q in (0.5, 0.9, 0.99))
            print(
                f"action round trip: p50 {p50:.1f} ms, p90 {p90:.1f} ms, p99 {p99:.1f} ms,"
                f" max {max(lat) * 1000:.1f} ms"
            )
        print(
            f"actions: {stats.actions} ({stats.actions / elapsed:.0f} actions/s); "
            f"games finished: {stats.games}; errors: {stats.errors or 'none'}"
        )
        print(
            f"CPU: server {cpu / elapsed * 100:.0f}%, clients {own / elapsed * 100:.0f}% of one"
            f" core; load average now {os.getloadavg()[0]:.2f} (shared machine, 2 cores)"
        )
    finally:
        if process is not None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()


def _cpu(pid: int | None) -> float:
    """CPU seconds used so far by the process ``pid`` (Linux /proc; 0 if unknown)."""
    if pid is None:
        return 0.0
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def cli() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument(
        "--think",
        type=float,
        default=1.0,
        help="mean seconds a client waits before it moves (0: at once)",
    )
    parser.add_argument("--target", type=int, default=100, help="points that end a game")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds measured")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--timeout", type=float, default=300.0, help="hard limit, seconds")
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--url", default=None, help="a running server (loopback) instead of starting one"
    )
    args = parser.parse_args()
    if args.database_url and not any(h in args.database_url for h in ("@127.0.0.1", "@localhost")):
        parser.error("the benchmark is loopback only: a database on 127.0.0.1 or localhost")
    if args.url and not args.url.startswith(("http://127.0.0.1:", "http://localhost:")):
        parser.error("the benchmark is loopback only: --url http://127.0.0.1:PORT")
    return args


if __name__ == "__main__":
    arguments = cli()
    try:
        import uvloop  # installed with uvicorn[standard]; the clients need their CPU too

        uvloop.run(asyncio.wait_for(main(arguments), arguments.timeout))
    except TimeoutError:
        raise SystemExit(f"stopped by --timeout {arguments.timeout} s") from None
