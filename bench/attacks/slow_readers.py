"""Slow readers: spectators of a finished 6-player game that ask for it again and again.

Each attacker is a WebSocket with a tiny receive buffer that never reads and sends
``hello`` (under the rate limit) many times a second: every hello makes the server
queue the whole game (welcome and a full resync update) for a client that takes
nothing. 0.1 counted queued messages, not bytes: 143 MiB became 999 MiB in 30 s.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass
from typing import Any

from websockets.asyncio.client import connect

from .common import ATTACKER, Server, http_client, peer_closed, raw_websocket, ws_frame

HELLO = json.dumps({"type": "hello", "token": None, "version": None})


@dataclass
class Config:
    connections: int = 4
    rate: float = 19.0
    """hellos a second per connection (under the default limit of 20)"""
    seconds: float = 30.0
    rcvbuf: int = 1024
    reconnect: bool = True
    """a connection the server closes is opened again, for the whole attack"""
    players: int = 6
    target: int = 100
    """points that end the game: a long game makes a big resync, as in the issue"""


async def finished_game(server: Server, players: int, target: int) -> tuple[str, int]:
    """An all-bot game of ``players`` random bots, watched until it ends; (id, resync bytes)."""
    async with http_client(server.base, ATTACKER) as http:
        bots = {str(seat): "random" for seat in range(players)}
        answer = await http.post(
            "/api/tables", json={"players": players, "bots": bots, "options": {"target": target}}
        )
        if answer.status_code != 201:
            raise RuntimeError(f"creating the bot table: {answer.status_code} {answer.text}")
        table = answer.json()["table"]["id"]
    url = server.base.replace("http://", "ws://") + f"/ws/{table}"
    # Watched, so that a server that pauses unwatched bot tables lets it play.
    async with connect(url, max_size=None, local_addr=(ATTACKER, 0)) as watcher:
        await watcher.send(HELLO)
        while True:
            message = json.loads(await asyncio.wait_for(watcher.recv(), 120))
            if message["type"] == "update" and message["state"]["outcome"] is not None:
                break
        await watcher.send(HELLO)  # what one hello makes the server send: the whole game
        size = 0
        while True:
            text = await asyncio.wait_for(watcher.recv(), 30)
            size += len(text)
            if json.loads(text)["type"] == "update":
                return table, size


async def _attacker(
    server: Server, table: str, config: Config, started: float, record: dict[str, Any]
) -> None:
    """One slow reader; closed by the server, it connects again (``reconnect``)."""
    loop = asyncio.get_running_loop()
    frame = ws_frame(HELLO)
    interval = 1 / config.rate
    due = time.monotonic()
    end = started + config.seconds
    while time.monotonic() < end:
        if "socket" not in record:
            try:
                record["socket"] = await raw_websocket(
                    server.port, f"/ws/{table}", ATTACKER, config.rcvbuf
                )
            except (OSError, TimeoutError) as error:  # refused: try again in a while
                record["refused"] = record.get("refused", 0) + 1
                record["refused_by"] = str(error)[:60]
                await asyncio.sleep(1)
                continue
        try:  # never cancelled midway: a torn frame would be a protocol error
            await loop.sock_sendall(record["socket"], frame)
            record["sent"] += 1
        except OSError as error:
            record["closes"].append(round(time.monotonic() - started, 1))
            record["closed_by"] = type(error).__name__
            record.pop("socket").close()
            if not config.reconnect:
                return
        due += interval
        await asyncio.sleep(max(0.0, due - time.monotonic()))


async def prepare(server: Server, config: Config) -> tuple[str, int]:
    """The finished game to watch (the long part: both versions play theirs at once)."""
    return await finished_game(server, config.players, config.target)


async def run(
    server: Server, config: Config, sampler: Any, prepared: tuple[str, int]
) -> dict[str, Any]:
    table, resync = prepared
    since = sampler.take().at
    started = time.monotonic()
    records: list[dict[str, Any]] = [{"sent": 0, "closes": []} for _ in range(config.connections)]
    tasks = [
        asyncio.wait_for(_attacker(server, table, config, started, r), config.seconds + 15)
        for r in records
    ]
    results = await asyncio.gather(*tasks, return_exceptions=True)
    attack_end = sampler.take().at
    await asyncio.sleep(2)  # a server that closes late still shows it here
    for record, result in zip(records, results, strict=True):
        if isinstance(result, BaseException):
            record["error"] = repr(result)
        sock = record.get("socket")
        if sock is not None and peer_closed(sock):
            record["closes"].append("after")
    after = sampler.take().at
    codes = await asyncio.gather(*(_close_code(r["socket"]) for r in records if "socket" in r))
    for record, code in zip([r for r in records if "socket" in r], codes, strict=True):
        record["close_code"] = code
        record.pop("socket").close()
    figures: dict[str, Any] = sampler.summary(since, after)
    end = [s for s in sampler.samples if s.at <= attack_end]
    figures["rss_attack_end_mib"] = end[-1].server / 1024 if end else None
    figures["rss_timeline"] = sampler.timeline(since, after, max(1.0, config.seconds / 6))
    figures["resync_bytes"] = resync
    figures["connections"] = records
    figures["closes"] = sum(len(r["closes"]) for r in records)
    return figures


async def _close_code(sock: Any, limit: float = 5.0) -> int | None:
    """Read what the server left for us (up to ``limit`` s); the close frame's code if any.

    Only the tail matters: the close frame is the last thing a server sends.
    """
    loop = asyncio.get_running_loop()
    tail = b""
    deadline = time.monotonic() + limit
    sock.setblocking(False)
    try:
        while time.monotonic() < deadline:
            chunk = await asyncio.wait_for(
                loop.sock_recv(sock, 1 << 20), deadline - time.monotonic()
            )
            if not chunk:
                break
            tail = (tail + chunk)[-(1 << 16) :]
    except (TimeoutError, OSError):
        pass
    return _last_close(tail)


def _last_close(tail: bytes) -> int | None:
    """The close code of a close frame at the end of ``tail`` (0x88, size, code, reason)."""
    for at in range(len(tail) - 4, max(-1, len(tail) - 200), -1):
        if tail[at] == 0x88 and tail[at + 1] < 126 and at + 2 + tail[at + 1] == len(tail):
            return int.from_bytes(tail[at + 2 : at + 4], "big")
    return None
