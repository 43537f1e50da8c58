"""Group commit: accepted actions from every table are written together, one commit each batch.

A table's action is final once its row is committed; the table waits for that (under its
own lock) before it changes its game or tells anybody. Batching the rows of all tables that
acted meanwhile into one transaction keeps SQLite's one-writer-at-a-time fast under load.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from . import db

log = logging.getLogger(__name__)

MAX_BATCH = 500
PARALLEL_COMMITS = 4
CHECKPOINT_SECONDS = 2.0


@dataclass(slots=True)
class Entry:
    """One table's writes: its event rows, and its new status if the game ended."""

    rows: Sequence[dict[str, Any]]
    finished: str | None = None
    """A table id whose status becomes ``finished`` in the same transaction."""
    done: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class Journal:
    """The single writer of the event log."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.queue: asyncio.Queue[Entry] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self.checkpoints: asyncio.Task[None] | None = None
        self.writer = db.make_sqlite_writer(engine)
        self.thread = ThreadPoolExecutor(1, thread_name_prefix="journal") if self.writer else None

    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name="journal")
        if self.writer is not None:
            self.checkpoints = asyncio.create_task(self._checkpoints(), name="checkpoints")

    async def _checkpoints(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(CHECKPOINT_SECONDS)
            try:
                await loop.run_in_executor(None, db.checkpoint, self.engine)
            except Exception:
                log.exception("SQLite checkpoint failed (will try again)")

    async def stop(self) -> None:
        """Stop writing; actions still waiting are lost unacknowledged, as in a crash."""
        for task in (self.task, self.checkpoints):
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        self.task = self.checkpoints = None
        if self.thread is not None:
            self.thread.shutdown(wait=True)
        if self.writer is not None:
            self.writer.dispose()

    async def write(self, rows: Sequence[dict[str, Any]], finished: str | None = None) -> None:
        """Return once ``rows`` are committed; raise if the database refused them."""
        entry = Entry(rows, finished)
        self.queue.put_nowait(entry)
        await entry.done

    async def _run(self) -> None:
        # Batches of different tables may commit concurrently: a table waits for its row
        # under its own lock, so it never has two rows in flight. SQLite has one writer;
        # a server database commits several batches at once while each waits for its fsync.
        slots = asyncio.Semaphore(1 if self.writer is not None else PARALLEL_COMMITS)
        running: set[asyncio.Task[None]] = set()
        try:
            while True:
                first = await self.queue.get()
                await slots.acquire()
                batch = [first]
                while len(batch) < MAX_BATCH and not self.queue.empty():
                    batch.append(self.queue.get_nowait())
                task = asyncio.create_task(self._settle(batch))
                running.add(task)
                task.add_done_callback(running.discard)
                task.add_done_callback(lambda _: slots.release())
        finally:
            for task in running:
                task.cancel()

    async def _settle(self, batch: list[Entry]) -> None:
        """Commit ``batch`` and tell each entry's table how it went."""
        try:
            await self._commit(batch)
        except Exception:
            # One bad entry must not sink the others: retry each on its own.
            for entry in batch:
                try:
                    await self._commit([entry])
                except Exception as error:
                    log.exception("the event log refused a write")
                    if not entry.done.done():
                        entry.done.set_exception(error)
                else:
                    if not entry.done.done():
                        entry.done.set_result(None)
        else:
            for entry in batch:
                if not entry.done.done():
                    entry.done.set_result(None)

    async def _commit(self, batch: list[Entry]) -> None:
        """One transaction for the whole batch."""
        statements = _statements(batch)
        if self.writer is not None:
            await asyncio.get_running_loop().run_in_executor(
                self.thread, _commit_sync, self.writer, statements
            )
            return
        async with self.engine.begin() as connection:
            for statement, rows in statements:
                await connection.execute(statement, rows)


Statement = tuple[sa.Executable, list[dict[str, Any]] | None]


def _statements(batch: list[Entry]) -> list[Statement]:
    rows = [row for entry in batch for row in entry.rows]
    statements: list[Statement] = [(sa.insert(db.events), rows)] if rows else []
    for entry in batch:
        if entry.finished is not None:
            finish = sa.update(db.tables).where(db.tables.c.id == entry.finished)
            statements.append((finish.values(status="finished"), None))
    return statements


def _commit_sync(writer: sa.Engine, statements: list[Statement]) -> None:
    with writer.begin() as connection:
        for statement, rows in statements:
            connection.execute(statement, rows)
