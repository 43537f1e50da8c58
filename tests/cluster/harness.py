"""Several real ``odin serve`` processes on the real PostgreSQL and Redis, and players
that survive their server's death.

Each test gets a fresh PostgreSQL database and its own Redis channel prefix. A
:class:`Node` is one ``odin serve`` subprocess; :class:`Player` drives one seat through
any node, reconnecting to another when its node dies and sending its unacknowledged
action again with the same id, and records every acknowledged action.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

ODIN = Path(sys.executable).with_name("odin")
POSTGRES_ADMIN = "postgresql://postgres@127.0.0.1:5432/test"
POSTGRES = "postgresql+asyncpg://postgres@127.0.0.1:5432/{name}"
REDIS = "redis://127.0.0.1:6379/0"
START_SECONDS = 60.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


async def wait_for(check: Any, seconds: float, what: str, every: float = 0.05) -> Any:
    """Poll ``check()`` (sync or async) until it is truthy; fail after ``seconds``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while True:
        value = check()
        if asyncio.iscoroutine(value):
            value = await value
        if value:
            return value
        if loop.time() > deadline:
            raise AssertionError(f"timed out after {seconds} s waiting for {what}")
        await asyncio.sleep(every)


@dataclass
class Node:
    """One ``odin serve`` process of the cluster."""

    database_url: str
    prefix: str
    logs: Path
    lease_seconds: float = 1.5
    bot_delay: float = 0.05
    port: int = 0
    process: subprocess.Popen[bytes] | None = None
    starts: int = 0
    redis_url: str | None = REDIS
    """``None``: one process alone on its database (e.g. a SQLite file)."""
    options: tuple[str, ...] = ()
    """More ``odin serve`` options, after (so overriding) the harness's own."""

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def start(self) -> None:
        self.port = free_port()
        self.starts += 1
        command = [str(ODIN), "serve", "--port", str(self.port), "--database-url"]
        command += [self.database_url]
        if self.redis_url is not None:
            command += ["--redis-url", self.redis_url, "--redis-prefix", self.prefix]
        command += ["--lease-seconds", str(self.lease_seconds), "--bot-delay", str(self.bot_delay)]
        command += ["--workers", "0", "--rate-limit", "1000", "--log-level", "info"]
        command += ["--tables-per-hour", "100000", "--connections-per-ip", "1000"]
        command += ["--bot-seats-per-ip", "1000", "--waiting-tables-per-ip", "100000"]
        command += ["--bot-work-burst", "100000", *self.options]
        log = (self.logs / f"serve-{self.port}-{self.starts}.log").open("wb")
        self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)

    async def ready(self) -> None:
        async def answers() -> bool:
            assert self.process is not None
            assert self.process.poll() is None, f"odin serve exited: see {self.logs}"
            try:
                async with httpx.AsyncClient(base_url=self.base, timeout=2) as http:
                    return (await http.get("/readyz")).status_code == 200
            except httpx.TransportError:
                return False

        await wait_for(answers, START_SECONDS, "odin serve to be ready", every=0.1)

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def signal(self, number: int) -> None:
        assert self.process is not None
        os.kill(self.process.pid, number)

    async def stopped(self, seconds: float = 20.0) -> int:
        process = self.process
        assert process is not None
        await wait_for(lambda: process.poll() is not None, seconds, "odin serve to stop")
        return process.returncode

    def kill(self) -> None:
        if self.alive:
            self.signal(signal.SIGKILL)
            assert self.process is not None
            self.process.wait()

    def log_text(self) -> str:
        return "\n".join(p.read_text(errors="replace") for p in sorted(self.logs.glob("serve-*")))

    async def metrics(self) -> str:
        async with httpx.AsyncClient(base_url=self.base, timeout=5) as http:
            return (await http.get("/metrics")).text


def metric(text: str, name: str, **labels: str) -> float:
    """The value of one sample of a Prometheus text exposition (0 if absent)."""
    wanted = ",".join(f'{k}="{v}"' for k, v in labels.items())
    head = f"{name}{{{wanted}}}" if labels else name
    for line in text.splitlines():
        if line.startswith(head + " "):
            return float(line.split()[-1])
    return 0.0


@dataclass
class Acked:
    id: str
    seat: int
    action: str


@dataclass
class Player:
    """One seat of a table, played through whichever node is alive; moves at random."""

    nodes: Sequence[Node]
    table_id: str
    token: str | None
    node: int = 0
    rng: random.Random = field(default_factory=random.Random)
    acked: dict[str, Acked] = field(default_factory=dict)
    refused: list[str] = field(default_factory=list)
    reconnects: int = 0
    version: int = 0
    state: dict[str, Any] = field(default_factory=dict)
    pending: dict[str, Any] | None = None
    over: bool = False
    seen_cards: list[dict[str, Any]] = field(default_factory=list)

    async def play(self, seconds: float = 240.0) -> None:
        """Play until the game is over (reconnecting whenever a node goes away)."""
        await asyncio.wait_for(self._play(), seconds)

    async def _play(self) -> None:
        while not self.over:
            node = self.nodes[self.node % len(self.nodes)]
            try:
                if not node.alive:
                    raise ConnectionRefusedError
                async with connect(f"{node.ws}/ws/{self.table_id}", open_timeout=5) as ws:
                    await self._session(ws)
            except (OSError, ConnectionClosed, InvalidStatus, TimeoutError):
                self.reconnects += 1
                self.node += 1
                await asyncio.sleep(0.05)

    async def _session(self, ws: Any) -> None:
        hello = {"type": "hello", "token": self.token, "version": self.version or None}
        await ws.send(json.dumps(hello))
        resend = self.pending is not None
        while not self.over:
            message = json.loads(await asyncio.wait_for(ws.recv(), 30))
            kind = message["type"]
            if kind == "update":
                self.version = message["version"]
                self.state = message["state"]
                self.seen_cards.append({"seat": message["state"]["seat"], **message["state"]})
                if message["state"].get("outcome") is not None:
                    self.over = True
                    return
                if resend and self.pending is not None:
                    resend = False
                    await ws.send(json.dumps(self.pending))
                await self._maybe_act(ws)
            elif kind == "ack":
                if self.pending is not None and message["id"] == self.pending["id"]:
                    self.acked[message["id"]] = Acked(
                        message["id"], self.state.get("seat", -1), self.pending["action"]
                    )
                    self.pending = None
                    if self.version >= message["version"]:
                        await self._maybe_act(ws)
            elif kind == "error" and self._mine(message):
                if message["code"] == "unavailable":
                    await asyncio.sleep(0.1)  # the table changes hands: the same id again
                    await ws.send(json.dumps(self.pending))
                else:
                    self.refused.append(message["code"])
                    self.pending = None
                    await self._maybe_act(ws)

    def _mine(self, message: dict[str, Any]) -> bool:
        return self.pending is not None and message.get("id") == self.pending["id"]

    async def _maybe_act(self, ws: Any) -> None:
        legal = self.state.get("legal") or []
        if self.pending is not None or not legal or self.token is None:
            return
        action = self.rng.choice(legal)
        self.pending = {
            "type": "act",
            "action": action,
            "version": self.version,
            "id": uuid.uuid4().hex,
        }
        await ws.send(json.dumps(self.pending))


async def create_table(
    node: Node, players: int, bots: dict[int, str], options: dict[str, Any]
) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=node.base, timeout=20) as http:
        answer = await http.post(
            "/api/tables",
            json={
                "players": players,
                "bots": {str(s): level for s, level in bots.items()},
                "options": options,
            },
        )
        assert answer.status_code == 201, answer.text
        table: dict[str, Any] = answer.json()["table"]
        return table


async def take_seat(node: Node, table_id: str, seat: int, name: str) -> str:
    async with httpx.AsyncClient(base_url=node.base, timeout=20) as http:
        answer = await http.post(f"/api/tables/{table_id}/seats/{seat}", json={"name": name})
        assert answer.status_code == 200, answer.text
        token: str = answer.json()["token"]
        return token


async def stop_all(nodes: Sequence[Node]) -> None:
    for node in nodes:
        with contextlib.suppress(ProcessLookupError):
            node.kill()
