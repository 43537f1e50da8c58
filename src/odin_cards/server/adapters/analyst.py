"""The server's :class:`~..domain.ports.Analyst`: one worker process that analyses games.

Not the bot workers' pool: analysing a whole game takes tens of seconds, and a table's bot
must never wait behind it. Never a thread of the server either (not even with
``bot_workers=0``): the search holds the interpreter's lock, and the event loop serving
every table would stall behind it. One spawned process (started on the first request, at a
lower priority) analyses one game at a time; a worker that died is replaced on the next.
A stopping server kills a worker that is busy and waits for it to exit: left behind, its
queues outlive the server and multiprocessing warns of leaked semaphores at exit.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from odin_cards.workers.analysis import analyse, lower_priority
from odin_cards.workers.bot_worker import warm


class WorkerAnalyst:
    """Analyses in one worker process, one game at a time."""

    def __init__(self) -> None:
        self._executor: ProcessPoolExecutor | None = None
        self._pid: int | None = None
        """The worker's process id, once it has started."""
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

    async def analyse(self, game: str, record: dict[str, Any], iterations: int) -> dict[str, Any]:
        async with self._one:
            executor = self._start()
            loop = asyncio.get_running_loop()
            try:
                if self._pid is None:
                    self._pid = await loop.run_in_executor(executor, warm)
                return await loop.run_in_executor(executor, analyse, game, record, iterations)
            except BrokenProcessPool:
                self._executor = self._pid = None  # the next analysis starts a fresh worker
                raise

    @property
    def busy(self) -> bool:
        """Whether an analysis is running (or being handed to the worker) now."""
        return self._one.locked()

    @property
    def pid(self) -> int | None:
        """The worker's process id (``None`` before the first analysis and after close)."""
        return self._pid

    def close(self) -> None:
        """Stop the worker: killed if it is analysing, waited for either way."""
        if self._executor is None:
            return
        if self._one.locked() and self._pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self._pid, signal.SIGKILL)
        self._executor.shutdown(wait=True, cancel_futures=True)
        self._executor = self._pid = None


__all__ = ["WorkerAnalyst"]
