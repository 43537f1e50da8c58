"""The server's :class:`~..domain.ports.Analyst`: one worker process that analyses games.

Not the bot workers' pool: analysing a whole game takes tens of seconds, and a table's bot
must never wait behind it. Never a thread of the server either (not even with
``bot_workers=0``): the search holds the interpreter's lock, and the event loop serving
every table would stall behind it. One spawned process (started on the first request, at a
lower priority) analyses one game at a time; a worker that died is replaced on the next.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ...analysis.worker import analyse, lower_priority


class WorkerAnalyst:
    """Analyses in one worker process, one game at a time."""

    def __init__(self) -> None:
        self._executor: ProcessPoolExecutor | None = None
        self._one = asyncio.Lock()

    def _start(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=lower_priority,
                initargs=(os.getpid(),),
            )
        return self._executor

    async def analyse(self, record: dict[str, Any], iterations: int) -> dict[str, Any]:
        async with self._one:
            executor = self._start()
            try:
                return await asyncio.get_running_loop().run_in_executor(
                    executor, analyse, record, iterations
                )
            except BrokenProcessPool:
                self._executor = None  # the next analysis starts a fresh worker
                raise

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


__all__ = ["WorkerAnalyst"]
