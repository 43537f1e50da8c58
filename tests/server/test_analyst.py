"""The server's analysis worker (issue #13): a stopping server leaves no worker behind,
busy or idle, and a later analysis starts a fresh one."""

from __future__ import annotations

import asyncio
import random
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import pytest

from odin_cards.odin.bots import Budget, ask, make_bot
from odin_cards.odin.rules import Game, Options
from odin_cards.server.adapters.analyst import WorkerAnalyst


def finished_record(seed: int = 3) -> dict[str, Any]:
    game = Game.new(2, Options(one_hand=True), seed)
    bot = make_bot("heuristic")
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(ask(bot, game, Budget(), rng))
    return game.record().to_dict()


def alive(pid: int) -> bool:
    status = Path(f"/proc/{pid}/status")
    return status.exists() and "zombie" not in status.read_text()


async def test_close_waits_for_the_idle_worker_to_exit() -> None:
    analyst = WorkerAnalyst()
    try:
        result = await asyncio.wait_for(analyst.analyse("odin", finished_record(), 5), 120)
        assert result["moves"]
        pid = analyst.pid
        assert pid is not None and alive(pid)
    finally:
        analyst.close()
    assert not alive(pid)
    assert analyst.pid is None


async def test_close_kills_a_busy_worker_at_once_and_a_later_analysis_starts_afresh() -> None:
    analyst = WorkerAnalyst()
    record = finished_record()
    try:
        await asyncio.wait_for(analyst.analyse("odin", record, 5), 120)  # the worker is up
        pid = analyst.pid
        assert pid is not None
        busy = asyncio.ensure_future(analyst.analyse("odin", record, 10**7))  # hours of work
        while not analyst.busy:
            await asyncio.sleep(0)
        started = time.monotonic()
        analyst.close()
        assert time.monotonic() - started < 10
        assert not alive(pid)
        with pytest.raises((BrokenProcessPool, asyncio.CancelledError)):
            await asyncio.wait_for(busy, 30)
        again = await asyncio.wait_for(analyst.analyse("odin", record, 5), 120)
        assert again["moves"] and analyst.pid not in (None, pid)
    finally:
        analyst.close()
