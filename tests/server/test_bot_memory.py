"""A bot worker's memory: the quick lane's worker never loads the compiled kernels (numba
and a machine's first compilation grew every worker to about 1.1 GiB), and every worker
process's data is capped; a move past the cap gets a stand-in and a fresh worker.

Real spawned worker processes, looked at from outside through ``/proc`` (Linux).
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from odin_cards.server.adapters.bot_runner import ProcessBotRunner

from .misbehaving_bots import misbehaving
from .test_bot_runner import _gone, legal, request

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads the workers' /proc (Linux)"
)

CAP = 1536 << 20


def data_limit(pid: int) -> int | None:
    """The soft ``RLIMIT_DATA`` of process ``pid`` (``None``: unlimited)."""
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max data size"):
            soft = line.split()[3]
            return None if soft == "unlimited" else int(soft)
    raise AssertionError(f"no data limit in /proc/{pid}/limits")


def loads_numba(pid: int) -> bool:
    """Whether numba's compiled modules are mapped into process ``pid`` (imported)."""
    return "/numba/" in Path(f"/proc/{pid}/maps").read_text()


async def until(check: Callable[[], bool], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"not within {seconds} s"
        await asyncio.sleep(0.1)


async def test_the_quick_worker_never_loads_the_compiled_kernels_and_both_are_capped() -> None:
    runner = ProcessBotRunner(1, memory=CAP, hang_slack=30)
    try:
        await asyncio.wait_for(runner.started(), 60)
        quick_pid, timed_pid = runner.pids
        for n, level in enumerate(("random", "heuristic", "network")):
            asked = request(f"q{n}", level, moves=2 * n)
            assert legal(asked, await asyncio.wait_for(runner.move(asked), 30))
        from odin_cards.odin.sim import HAVE_NUMBA

        if HAVE_NUMBA:  # the check sees numba: the search's worker, started as long ago, has it
            await until(lambda: loads_numba(timed_pid), 60)
        assert not loads_numba(quick_pid)
        assert data_limit(quick_pid) == CAP
        assert data_limit(timed_pid) == CAP
    finally:
        runner.close()


async def test_a_move_past_the_cap_gets_a_stand_in_and_a_fresh_worker(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.ERROR, "odin_cards.server.adapters.bot_runner")
    runner = ProcessBotRunner(1, memory=CAP, hang_slack=30, think=misbehaving)
    try:
        await asyncio.wait_for(runner.started(), 60)
        quick_pid, timed_pid = runner.pids
        hog = request("hog-1", "heuristic", moves=3)
        assert legal(hog, await asyncio.wait_for(runner.move(hog), 30))
        assert "ran out of memory (a bot worker may use 1536 MiB" in caplog.text
        assert _gone(quick_pid)
        await asyncio.wait_for(runner.started(), 60)  # its replacement
        new_quick, new_timed = runner.pids
        assert new_quick != quick_pid and new_timed == timed_pid
        assert data_limit(new_quick) == CAP
        caplog.clear()
        after = request("fine-1", "heuristic", moves=5)
        assert legal(after, await asyncio.wait_for(runner.move(after), 30))
        assert caplog.text == ""  # the fresh worker answered
    finally:
        runner.close()
