"""Bot fairness: many all-expert bot tables, and one small table whose bot should not wait.

The attacker creates ``tables`` six-seat tables of expert bots (about 2 s of thinking a
move) and watches each (a server may pause bot tables nobody watches). Then a person at
another table (another address) plays against one bot, moving the instant it is their
turn; measured: the time from the update that hands the bot its turn to the update with
its move. 0.1 ran bots first come, first served: 34-38 s a move. With ``spread`` every
attacker table comes from its own address (127.0.0.2, ...), past a per-client quota.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from .common import ATTACKER, GOOD, Server, http_client, latency_summary

BOT = 1
PERSON = 0
PACE = 0.1
"""Seconds the person waits before each move: 10 messages a second, under the limit of 20."""


@dataclass
class Config:
    tables: int = 20
    level: str = "expert"
    victim_level: str = "heuristic"
    seconds: float = 60.0
    spread: bool = False


@dataclass
class Tally:
    attacker_moves: int = 0
    watchers: int = 0
    watcher_errors: list[str] = field(default_factory=list)


def _url(server: Server, table: str) -> str:
    return server.base.replace("http://", "ws://") + f"/ws/{table}"


async def _watch(server: Server, table: str, address: str, tally: Tally) -> None:
    try:
        async with connect(_url(server, table), max_size=None, local_addr=(address, 0)) as ws:
            await ws.send(json.dumps({"type": "hello", "token": None, "version": None}))
            tally.watchers += 1
            version = None
            async for text in ws:
                message = json.loads(text)
                if message["type"] == "update":
                    if version is not None and message["version"] > version:
                        tally.attacker_moves += 1
                    version = message["version"]
    except Exception as error:
        tally.watcher_errors.append(type(error).__name__)


async def _person(
    server: Server, config: Config, deadline: float, latencies: list[float], info: dict[str, Any]
) -> None:
    """Seat 0 of a table with one bot: plays at once, times each of the bot's moves."""
    rng = random.Random(7)
    async with http_client(server.base, GOOD) as http:
        answer = await http.post(
            "/api/tables", json={"players": 2, "bots": {str(BOT): config.victim_level}}
        )
        if answer.status_code != 201:
            raise RuntimeError(f"the person's table: {answer.status_code} {answer.text}")
        table = answer.json()["table"]["id"]
        seat = await http.post(f"/api/tables/{table}/seats/{PERSON}", json={"name": "Good"})
        token = seat.json()["token"]
        while time.monotonic() < deadline:
            async with connect(_url(server, table), max_size=None, local_addr=(GOOD, 0)) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token, "version": None}))
                over = await _play(ws, rng, deadline, latencies, info)
            if not over:
                return
            again = await http.post(
                f"/api/tables/{table}/rematch", json={"token": token, "answer": "accept"}
            )
            table = again.json()["rematch"]["next_table"]
            info["games"] += 1


async def _play(
    ws: ClientConnection,
    rng: random.Random,
    deadline: float,
    latencies: list[float],
    info: dict[str, Any],
) -> bool:
    """Play one game; ``True`` when it ended, ``False`` at the deadline."""
    bot_since: float | None = None
    bot_version = 0
    state: dict[str, Any] = {}
    version = 0
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            if bot_since is not None:  # still waiting at the end: count the wait so far
                info["unfinished_wait_s"] = round(time.monotonic() - bot_since, 1)
            return False
        try:
            text = await asyncio.wait_for(ws.recv(), left)
        except TimeoutError:
            continue
        message = json.loads(text)
        now = time.monotonic()
        if message["type"] == "error":
            codes = info["errors"]
            codes[message["code"]] = codes.get(message["code"], 0) + 1
            await asyncio.sleep(1.0)  # then try again, from the state seen last
            await _act(ws, rng, state, version)
            continue
        if message["type"] != "update":
            continue
        version, state = message["version"], message["state"]
        if bot_since is not None and version > bot_version:
            latencies.append(now - bot_since)
            bot_since = None
        if state["outcome"] is not None:
            return True
        if state["to_move"] == BOT and bot_since is None:
            bot_since, bot_version = now, version
        await _act(ws, rng, state, version)


async def _act(
    ws: ClientConnection, rng: random.Random, state: dict[str, Any], version: int
) -> None:
    """Move at once, but no faster than a person may send (the server's rate limit)."""
    if state.get("to_move") == PERSON and state.get("legal"):
        await asyncio.sleep(PACE)
        action = rng.choice(state["legal"])
        message = {
            "type": "act",
            "action": action,
            "version": version,
            "id": rng.randbytes(8).hex(),
        }
        await ws.send(json.dumps(message))


async def run(server: Server, config: Config, sampler: Any, _: object = None) -> dict[str, Any]:
    since = sampler.take().at
    tally = Tally()
    watchers: list[asyncio.Task[None]] = []
    statuses: dict[str, int] = {}
    bots = {str(seat): config.level for seat in range(6)}
    for index in range(config.tables):
        address = f"127.0.0.{2 + index}" if config.spread else ATTACKER
        async with http_client(server.base, address) as http:
            answer = await http.post("/api/tables", json={"players": 6, "bots": bots})
        key = str(answer.status_code)
        if answer.status_code != 201:
            key += f" {answer.json().get('error')}"
        statuses[key] = statuses.get(key, 0) + 1
        if answer.status_code == 201:
            table = answer.json()["table"]["id"]
            watchers.append(asyncio.create_task(_watch(server, table, address, tally)))
    await asyncio.sleep(3)  # the bot tables are thinking
    server.remember_workers()
    latencies: list[float] = []
    info: dict[str, Any] = {"games": 0, "errors": {}}
    started = time.monotonic()
    moves_before = tally.attacker_moves
    try:
        await asyncio.wait_for(
            _person(server, config, started + config.seconds, latencies, info),
            config.seconds + 60,
        )
    except Exception as error:
        info["person_error"] = repr(error)
    seconds = time.monotonic() - started
    attacker_moves = tally.attacker_moves - moves_before
    server.remember_workers()
    for task in watchers:
        task.cancel()
    for task in watchers:
        with contextlib.suppress(asyncio.CancelledError):
            await task
    figures: dict[str, Any] = sampler.summary(since)
    figures["accepted"] = statuses.get("201", 0)
    figures["statuses"] = statuses
    figures["watchers"] = tally.watchers
    figures["watcher_errors"] = len(tally.watcher_errors)
    figures["bot_move"] = latency_summary(latencies)
    figures["attacker_moves_per_s"] = round(attacker_moves / seconds, 2)
    figures["person"] = info
    figures["seconds"] = round(seconds, 1)
    return figures
