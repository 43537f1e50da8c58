"""A real site for hostile clients: ``odin serve`` processes and visitors that each come
from an address of their own.

A :class:`Site` is one ``odin serve`` on a SQLite file, or two sharing PostgreSQL and
Redis (HTTP to the first, WebSockets to the second, so every table is played through a
process that does not own it). The processes are the cluster tests' :class:`Node`. They
trust ``X-Forwarded-For`` from loopback (uvicorn's default, as behind nginx), so each
:class:`Visitor` has its own client address: per-address quotas (sign-ups, lockouts,
sockets) of one test never touch another's, and one site serves the whole package.
"""

from __future__ import annotations

import itertools
import json
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import connect

from cluster.harness import Node
from server.harness import TIMEOUT, Client

SOCKETS_PER_ADDRESS = 6
"""The per-address WebSocket cap the site runs with (``--connections-per-ip``)."""

WAITING_TABLES_PER_ADDRESS = 3
"""Tables one address may have waiting for players (``--waiting-tables-per-ip``)."""

BOT_WORK_BURST = 8
"""Units of bot work one address (and one account) may start at once
(``--bot-work-burst``): four bot seats, a bot seat costing 2."""

PASSWORD = "correct horse battery"
"""Every account's password (hashing it is the slow part of signing up)."""

_addresses: Iterator[int] = itertools.count(1)


@dataclass
class Site:
    """The processes of one site and how it is stored (``sqlite`` or ``two``)."""

    kind: str
    nodes: list[Node]

    @property
    def base(self) -> str:
        return self.nodes[0].base

    @property
    def ws(self) -> str:
        return self.nodes[-1].ws

    def visitor(self) -> Visitor:
        """A new client, from an address nobody else in the run uses."""
        n = next(_addresses)
        return Visitor(self, f"10.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}")

    def log_text(self) -> str:
        return "\n".join(node.log_text() for node in self.nodes)


@dataclass
class Visitor:
    """One hostile client: its address, its cookies, what it was answered."""

    site: Site
    address: str
    answers: list[str] = field(default_factory=list)
    """Every HTTP answer's body and every WebSocket message, as text."""

    def http(self, **headers: str) -> httpx.AsyncClient:
        """An HTTP client from this visitor's address (cookies kept per client)."""
        return httpx.AsyncClient(
            base_url=self.site.base,
            timeout=TIMEOUT,
            headers={"X-Forwarded-For": self.address, **headers},
            event_hooks={"response": [self._keep]},
        )

    async def _keep(self, response: httpx.Response) -> None:
        await response.aread()
        self.answers.append(response.text)

    async def socket(self, table_id: str, token: str | None = None, **headers: str) -> Client:
        """A WebSocket to the table (as the token's seat, or a spectator), hello said."""
        connection = await connect(
            f"{self.site.ws}/ws/{table_id}",
            open_timeout=TIMEOUT,
            additional_headers={"X-Forwarded-For": self.address, **headers},
        )
        client = Client(connection, token)
        await client.hello()
        return client

    def heard(self, *clients: Client) -> list[str]:
        """Everything this visitor was answered, and every message its sockets received."""
        return self.answers + [json.dumps(m) for c in clients for m in c.received]


async def new_table(
    visitor: Visitor, players: int, bots: dict[int, str] | None = None, **setup: Any
) -> dict[str, Any]:
    """A table created by ``visitor`` (``game=`` in ``setup`` for another game than Odin)."""
    game = setup.pop("game", None)
    body: dict[str, Any] = {
        "players": players,
        "bots": {str(s): b for s, b in (bots or {}).items()},
        "options": setup,
    }
    if game is not None:
        body["game"] = game
    async with visitor.http() as http:
        answer = await http.post("/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    table: dict[str, Any] = answer.json()["table"]
    return table


async def sit(visitor: Visitor, table_id: str, seat: int, name: str) -> str:
    """``visitor`` takes the seat; its token."""
    async with visitor.http() as http:
        answer = await http.post(f"/api/tables/{table_id}/seats/{seat}", json={"name": name})
    assert answer.status_code == 200, answer.text
    token: str = answer.json()["token"]
    return token


async def signed_up(visitor: Visitor, http: httpx.AsyncClient) -> tuple[str, str]:
    """A new account, logged in on ``http`` (one of ``visitor``'s): its name and CSRF token."""
    name = f"u{secrets.token_hex(5)}"
    answer = await http.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    csrf: str = answer.json()["csrf"]
    return name, csrf
