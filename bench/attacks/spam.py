"""Table spam: one client creates thousands of waiting tables as fast as it can.

0.1 answered all 5,000 with 201; every one stays in memory and in the open list.
Afterwards a client from another address creates one table: a cap on waiting tables in
all may refuse it too, which the figures show.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

import httpx

from .common import ATTACKER, GOOD, Server, http_client


@dataclass
class Config:
    tables: int = 5000
    concurrency: int = 8


async def run(server: Server, config: Config, sampler: Any, _: object = None) -> dict[str, Any]:
    since = sampler.take().at
    statuses: Counter[str] = Counter()
    codes: Counter[str] = Counter()
    left = config.tables
    started = time.monotonic()
    limits = httpx.Limits(max_connections=config.concurrency)

    async with http_client(server.base, ATTACKER, limits=limits) as http:

        async def worker() -> None:
            nonlocal left
            while left > 0:
                left -= 1
                try:
                    answer = await http.post("/api/tables", json={"players": 2})
                except httpx.HTTPError as error:
                    statuses[type(error).__name__] += 1
                    continue
                statuses[str(answer.status_code)] += 1
                if answer.status_code != 201:
                    try:
                        codes[str(answer.json().get("error"))] += 1
                    except ValueError:
                        codes["(not JSON)"] += 1

        await asyncio.gather(*(worker() for _ in range(config.concurrency)))
    seconds = time.monotonic() - started
    await asyncio.sleep(1)
    figures: dict[str, Any] = sampler.summary(since)
    async with http_client(server.base, GOOD) as http:
        listed = await http.get("/api/tables", params={"status": "open"})
        figures["open_listed"] = len(listed.json().get("tables", ()))
        other = await http.post("/api/tables", json={"players": 2})
        figures["other_client_create"] = other.status_code
        if other.status_code != 201:
            figures["other_client_error"] = other.json().get("error")
    figures["seconds"] = round(seconds, 1)
    figures["created"] = statuses.get("201", 0)
    figures["refused"] = config.tables - figures["created"]
    figures["statuses"] = dict(statuses)
    figures["error_codes"] = dict(codes)
    return figures
