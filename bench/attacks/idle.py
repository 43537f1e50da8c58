"""Idle sockets: hundreds of connections that never say ``hello`` (or never finish).

The server runs under a 1,024-file limit (``--nofile``). The attacker opens
``sockets`` connections to a table's WebSocket: with ``partial`` they send half an HTTP
request and stop, otherwise they complete the handshake and never say hello. Then a
person from another address creates a table with a bot and plays one hand. 0.1 had no
cap and no deadline: 998 idle sockets used up its files and every request failed.
With ``reopen`` the attacker opens again every socket the server closes (from
``addresses`` addresses, past a per-address cap): a deadline alone does not stop that.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import socket
import time
from dataclasses import dataclass
from typing import Any

from websockets.asyncio.client import connect

from .common import GOOD, Server, http_client, peer_closed, raw_connect, raw_websocket


@dataclass
class Config:
    sockets: int = 998
    addresses: int = 1
    """attacker addresses 127.0.1.1, 127.0.1.2, ... the sockets are spread over"""
    partial: bool = False
    hold: float = 20.0
    """seconds the sockets are kept after they are all open"""
    concurrency: int = 64
    good_timeout: float = 30.0
    open_limit: float = 60.0
    """seconds for opening the sockets (a saturated server makes each take up to 20 s)"""
    reopen: bool = False
    """open again every socket the server closes, for the whole hold"""


async def _open(server: Server, table: str, address: str, partial: bool) -> socket.socket:
    if not partial:
        return await raw_websocket(server.port, f"/ws/{table}", address, timeout=10)
    sock = await raw_connect(server.port, address, timeout=10)
    head = f"GET /ws/{table} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n".encode()
    await asyncio.get_running_loop().sock_sendall(sock, head)
    return sock


async def good_client(server: Server, timeout: float) -> dict[str, Any]:
    """Create a table with a bot, take the other seat, play one hand: did it work?"""
    started = time.monotonic()
    result: dict[str, Any] = {"ok": False}
    try:
        await asyncio.wait_for(_play_one_hand(server, result), timeout)
        result["ok"] = True
        del result["step"]
    except Exception as error:
        result["error"] = f"{type(error).__name__} {error}"[:120]
    result["seconds"] = round(time.monotonic() - started, 1)
    return result


async def _play_one_hand(server: Server, result: dict[str, Any]) -> None:
    rng = random.Random(3)
    result["step"] = "create"
    async with http_client(server.base, GOOD, timeout=10) as http:
        body = {"players": 2, "bots": {"1": "heuristic"}, "options": {"one_hand": True}}
        answer = await http.post("/api/tables", json=body)
        result["create"] = answer.status_code
        answer.raise_for_status()
        table = answer.json()["table"]["id"]
        result["step"] = "seat"
        seat = await http.post(f"/api/tables/{table}/seats/0", json={"name": "Good"})
        seat.raise_for_status()
        token = seat.json()["token"]
    url = server.base.replace("http://", "ws://") + f"/ws/{table}"
    result["step"] = "connect"
    async with connect(url, local_addr=(GOOD, 0), max_size=None, open_timeout=10) as ws:
        result["step"] = "play"
        await ws.send(json.dumps({"type": "hello", "token": token, "version": None}))
        moves = 0
        async for text in ws:
            message = json.loads(text)
            if message["type"] != "update":
                continue
            state = message["state"]
            if state["outcome"] is not None:
                result["moves"] = moves
                return
            if state["to_move"] == 0 and state["legal"]:
                action = rng.choice(state["legal"])
                act = {"type": "act", "action": action, "version": message["version"]}
                await ws.send(json.dumps({**act, "id": rng.randbytes(8).hex()}))
                moves += 1
    raise ConnectionError("the connection closed before the hand ended")


async def run(server: Server, config: Config, sampler: Any, _: object = None) -> dict[str, Any]:
    async with http_client(server.base, GOOD) as http:
        answer = await http.post("/api/tables", json={"players": 2})
        answer.raise_for_status()
        table = answer.json()["table"]["id"]
    since = sampler.take().at
    limit = asyncio.Semaphore(config.concurrency)
    started = time.monotonic()
    failures: dict[str, int] = {}

    async def one(index: int, opening: bool = True) -> socket.socket | None:
        address = f"127.0.1.{1 + index % config.addresses}"
        async with limit:
            if opening and time.monotonic() - started > config.open_limit:
                failures["not tried (time)"] = failures.get("not tried (time)", 0) + 1
                return None
            try:
                return await _open(server, table, address, config.partial)
            except Exception as error:
                name = type(error).__name__
                failures[name] = failures.get(name, 0) + 1
                return None

    opened = list(await asyncio.gather(*map(one, range(config.sockets))))
    open_seconds = time.monotonic() - started
    figures: dict[str, Any] = {"opened": sum(s is not None for s in opened)}
    figures["open_failures"] = dict(failures)
    good = await good_client(server, config.good_timeout)
    reopened = 0

    async def keep() -> None:
        """A persistent attacker: every socket the server closes is opened again."""
        nonlocal reopened
        while True:
            await asyncio.sleep(0.5)
            for index, sock in enumerate(opened):
                if sock is None or peer_closed(sock, silent=True):
                    if sock is not None:
                        sock.close()
                    opened[index] = await one(index, opening=False)
                    reopened += opened[index] is not None

    keeper = asyncio.create_task(keep()) if config.reopen else None
    await asyncio.sleep(max(0.0, config.hold - (time.monotonic() - started - open_seconds)))
    still_open = sum(s is not None and not peer_closed(s, silent=True) for s in opened)
    held = sampler.take().at
    good_after = await good_client(server, config.good_timeout)
    if keeper is not None:
        keeper.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await keeper
    for sock in opened:
        if sock is not None:
            sock.close()
    figures.update(sampler.summary(since, held))
    figures["open_seconds"] = round(open_seconds, 1)
    figures["still_open_after_hold"] = still_open
    figures["reopened"] = reopened
    figures["hold_s"] = config.hold
    figures["good_during"] = good
    figures["good_after_hold"] = good_after
    return figures
