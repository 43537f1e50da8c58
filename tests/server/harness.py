"""Run the real server in the test's event loop and talk to it like a browser would.

The server is uvicorn on a loopback socket bound to port 0 (a free port); clients are
httpx (HTTP) and websockets (WebSocket). Every message a client receives is kept, so
tests can check what each seat and spectator was ever told.
"""

from __future__ import annotations

import asyncio
import json
import socket
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx
import uvicorn
from fastapi import FastAPI
from websockets.asyncio.client import ClientConnection, connect

from odin_cards.server.app import create_app
from odin_cards.server.settings import Settings
from odin_cards.server.transport.uvicorn_config import server_config

TIMEOUT = 20.0


@dataclass
class Server:
    base: str
    settings: Settings
    app: FastAPI | None = None
    ws_base: str | None = None
    """Where WebSockets go, when not to ``base`` (two processes: HTTP to one, play to
    the other)."""

    @property
    def ws(self) -> str:
        return (self.ws_base or self.base).replace("http://", "ws://")

    def http(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(base_url=self.base, timeout=TIMEOUT)


@asynccontextmanager
async def running(settings: Settings, log_level: str = "warning") -> AsyncIterator[Server]:
    """The server for ``settings`` on a free loopback port, until the block ends."""
    # IPPROTO_TCP explicitly: asyncio sets TCP_NODELAY only on sockets that say so.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    app = create_app(settings)
    config = server_config(app, settings, log_level=log_level, lifespan="on")
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started:
        if task.done():
            task.result()
            raise RuntimeError("the server stopped during start-up")
        await asyncio.sleep(0.01)
    try:
        yield Server(f"http://127.0.0.1:{port}", settings, app)
    finally:
        server.should_exit = True
        await task
        sock.close()


@asynccontextmanager
async def running_two(settings: Settings, log_level: str = "warning") -> AsyncIterator[Server]:
    """Two processes of one cluster (``settings.redis_url``), in this event loop: HTTP
    requests go to the first, WebSockets to the second, so every table created through
    the API is played through a process that does not own it."""
    async with running(settings, log_level) as first, running(settings, log_level) as second:
        yield Server(first.base, settings, first.app, ws_base=second.base)


@dataclass
class Client:
    """One WebSocket connection: a seat (with a token) or a spectator."""

    connection: ClientConnection
    token: str | None = None
    received: list[dict[str, Any]] = field(default_factory=list)
    seat: int | None = None
    version: int = 0
    state: dict[str, Any] = field(default_factory=dict)
    table: dict[str, Any] = field(default_factory=dict)

    async def send(self, message: dict[str, Any] | str) -> None:
        await self.connection.send(message if isinstance(message, str) else json.dumps(message))

    async def receive(self) -> dict[str, Any]:
        text = await asyncio.wait_for(self.connection.recv(), TIMEOUT)
        message: dict[str, Any] = json.loads(text)
        self.received.append(message)
        if message["type"] == "update":
            self.version = message["version"]
            self.state = message["state"]
        elif message["type"] == "welcome":
            self.seat = message["seat"]
            self.table = message["table"]
        elif message["type"] == "table":
            self.table = message["table"]
        return message

    async def until(self, check: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Read messages until one satisfies ``check``; return it."""
        while True:
            message = await self.receive()
            if check(message):
                return message

    async def next_of(self, kind: str) -> dict[str, Any]:
        return await self.until(lambda m: m["type"] == kind)

    async def hello(self, version: int | None = None) -> None:
        await self.send({"type": "hello", "token": self.token, "version": version})
        await self.next_of("welcome")
        await self.next_of("update")

    async def act(self, action: str, id: str | None = None) -> dict[str, Any]:
        """Send an action at the version seen; return the ``ack`` or ``error`` answer."""
        id = id or uuid.uuid4().hex
        await self.send({"type": "act", "action": action, "version": self.version, "id": id})
        return await self.until(
            lambda m: (
                (m["type"] == "ack" and m["id"] == id)
                or (m["type"] == "error" and m["id"] in (id, None))
            )
        )

    async def close(self) -> None:
        await self.connection.close()


async def open_client(server: Server, table_id: str, token: str | None = None) -> Client:
    """Connect to ``table_id`` and say hello (as the token's seat, or as a spectator)."""
    connection = await connect(f"{server.ws}/ws/{table_id}", open_timeout=TIMEOUT)
    client = Client(connection, token)
    await client.hello()
    return client


async def new_table(
    http: httpx.AsyncClient,
    players: int,
    bots: dict[int, str] | None = None,
    **options: Any,
) -> dict[str, Any]:
    answer = await http.post(
        "/api/tables",
        json={
            "players": players,
            "bots": {str(s): b for s, b in (bots or {}).items()},
            "options": options,
        },
    )
    assert answer.status_code == 201, answer.text
    table: dict[str, Any] = answer.json()["table"]
    return table


async def sit(http: httpx.AsyncClient, table_id: str, seat: int, name: str) -> str:
    answer = await http.post(f"/api/tables/{table_id}/seats/{seat}", json={"name": name})
    assert answer.status_code == 200, answer.text
    token: str = answer.json()["token"]
    return token
