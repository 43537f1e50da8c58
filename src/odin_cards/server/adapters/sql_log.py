"""The event log on SQL, with group commit: the actions of every table that acted
meanwhile are written together, one transaction a batch (on PostgreSQL one self-committing
statement when the batch only adds rows, as nearly every batch does).

A table's action is final once its row is committed; the core waits for that (under the
table's lock) before it changes the game or tells anybody. Batching keeps SQLite's one
writer fast under load: SQLite batches are written by one thread with a plain (not async)
connection, and a checkpoint task copies the WAL into the database file away from it.
PostgreSQL commits several batches at once while each waits for its fsync.

A batch the database refuses (a duplicate key) is written again row by row, so one refused
row sinks no other table's action. A batch whose commit fails without an answer is
*unknown* for every row in it: the core settles each by :meth:`SqlEventLog.read_back`.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from odin_cards.server.adapters import sql_schema as schema
from odin_cards.server.adapters.sql_errors import Refused, committing, storing
from odin_cards.server.adapters.sql_store import event_row, logged_action, possible_id, reading
from odin_cards.server.core.ports import CommitUnknown, Fenced, LoggedAction, StoreUnavailable

log = logging.getLogger(__name__)

MAX_BATCH = 500
PARALLEL_COMMITS = 4
CHECKPOINT_SECONDS = 2.0


@dataclass(slots=True)
class Entry:
    """One table's write: its action's row, and whether its game ended with it."""

    table_id: str
    row: dict[str, Any]
    finished: bool
    fence: tuple[str, int] | None
    """(owner, token) the table's lease must still hold (several processes)."""
    done: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class SqlEventLog:
    """:class:`~odin_cards.server.core.ports.EventLog` on SQLite or PostgreSQL: the single
    writer of the log. :meth:`start` it before the first append, :meth:`stop` it at
    shut-down."""

    def __init__(self, engine: AsyncEngine, owner: str | None = None) -> None:
        self.engine = engine
        self.owner = owner
        """This process's id in ``table_leases`` when appends are fenced (several processes)."""
        self.queue: asyncio.Queue[Entry] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self.commits: set[asyncio.Task[None]] = set()
        """Batches being committed."""
        self.checkpoints: asyncio.Task[None] | None = None
        self.writer = schema.make_sqlite_writer(engine)
        self.thread = ThreadPoolExecutor(1, thread_name_prefix="event-log") if self.writer else None

    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name="event-log")
        if self.writer is not None:
            self.checkpoints = asyncio.create_task(self._checkpoints(), name="checkpoints")

    async def stop(self) -> None:
        """Stop writing; actions still waiting are lost unacknowledged, as in a crash."""
        for task in (self.task, self.checkpoints):
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        self.task = self.checkpoints = None
        for task in list(self.commits):
            task.cancel()
        await asyncio.gather(*self.commits, return_exceptions=True)
        while not self.queue.empty():
            entry = self.queue.get_nowait()
            if not entry.done.done():
                entry.done.set_exception(StoreUnavailable("the server is stopping"))
        if self.thread is not None:
            self.thread.shutdown(wait=True)
        if self.writer is not None:
            self.writer.dispose()

    async def append(
        self, table_id: str, action: LoggedAction, finished: bool, fence: int | None = None
    ) -> None:
        if self.task is None:
            raise StoreUnavailable("the event log is not running")
        if fence is not None and (self.owner is None or self.writer is not None):
            raise StoreUnavailable("fenced appends need PostgreSQL and a process id")
        owned = None if fence is None or self.owner is None else (self.owner, fence)
        entry = Entry(table_id, event_row(table_id, action), finished, owned)
        self.queue.put_nowait(entry)
        await entry.done

    async def read_back(self, table_id: str, number: int) -> LoggedAction | None:
        if not possible_id(table_id):
            return None
        e = schema.events.c
        async with reading(self.engine, "read the log back") as connection:
            row = (
                await connection.execute(
                    sa.select(schema.events).where(e.table_id == table_id, e.number == number)
                )
            ).one_or_none()
        return None if row is None else logged_action(row)

    async def read_from(self, table_id: str, number: int) -> list[LoggedAction]:
        if not possible_id(table_id):
            return []
        e = schema.events.c
        async with reading(self.engine, "read the log") as connection:
            rows = await connection.execute(
                sa.select(schema.events)
                .where(e.table_id == table_id, e.number >= number)
                .order_by(e.number)
            )
            return [logged_action(row) for row in rows]

    async def _checkpoints(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(CHECKPOINT_SECONDS)
            try:
                await loop.run_in_executor(None, schema.checkpoint, self.engine)
            except Exception:
                log.exception("SQLite checkpoint failed (will try again)")

    async def _run(self) -> None:
        # Batches of different tables may commit concurrently: a table appends under its
        # own lock, so it never has two rows in flight. SQLite has one writer.
        slots = asyncio.Semaphore(1 if self.writer is not None else PARALLEL_COMMITS)
        while True:
            first = await self.queue.get()
            await slots.acquire()
            batch = [first]
            while len(batch) < MAX_BATCH and not self.queue.empty():
                batch.append(self.queue.get_nowait())
            task = asyncio.create_task(self._settle(batch))
            self.commits.add(task)
            task.add_done_callback(self.commits.discard)
            task.add_done_callback(lambda _: slots.release())

    async def _settle(self, batch: list[Entry]) -> None:
        """Commit ``batch`` and tell each entry's table how it went."""
        try:
            await self._commit(batch)
        except asyncio.CancelledError:
            for entry in batch:  # stopped mid-commit: nobody may wait for ever
                _fail(entry, CommitUnknown("the server stopped while writing the log"))
            raise
        except Refused:
            if len(batch) == 1:
                _fail(batch[0], Refused("the database refused the action (duplicate key?)"))
                return
            # One refused row must not sink the others: write each on its own.
            for entry in batch:
                await self._settle([entry])
            return
        except StoreUnavailable as error:
            log.error("the event log could not write %d actions: %s", len(batch), error)
            for entry in batch:
                _fail(entry, type(error)(str(error)))
            return
        except Exception:
            # Not a database failure we know: whether anything was written is unknown.
            log.exception("the event log failed writing %d actions", len(batch))
            for entry in batch:
                _fail(entry, CommitUnknown("the event log failed; its outcome is unknown"))
            return
        for entry in batch:
            if not entry.done.done():
                entry.done.set_result(None)

    async def _commit(self, batch: list[Entry]) -> None:
        """One transaction for the whole batch; the ports' errors on failure. Entries whose
        lease moved on are failed with :class:`Fenced` and not written."""
        if self.writer is not None:
            statements = _statements(batch, batch)
            await asyncio.get_running_loop().run_in_executor(
                self.thread, _commit_sync, self.writer, statements
            )
            return
        alike = len({entry.fence is None for entry in batch}) == 1  # all fenced, or none
        if alike and not any(entry.finished for entry in batch):
            await self._insert_alone(batch)
            return
        with storing("write the log"):
            connection = await self.engine.connect()
        try:
            with storing("write the log"):
                await connection.begin()
                fenced = [entry for entry in batch if entry.fence is not None]
                unfenced = [entry for entry in batch if entry.fence is None]
                batch = unfenced + await _insert_fenced(connection, fenced)
                for statement, rows in _statements(unfenced, batch) if batch else ():
                    await connection.execute(statement, rows)
            with committing("writing the log"):
                await connection.commit()
        finally:
            try:
                await connection.close()
            except Exception:
                log.debug("closing a failed connection failed", exc_info=True)

    async def _insert_alone(self, batch: list[Entry]) -> None:
        """The common batch, rows and nothing else, all fenced or none: one statement that
        commits itself.

        A single ``INSERT`` is atomic on its own, so it runs outside a transaction block
        (autocommit): one round trip to PostgreSQL instead of three (``BEGIN``, the insert,
        ``COMMIT``), which cost a quarter of a busy server's CPU. As with a commit, a
        failure that is not a refusal leaves its outcome unknown."""
        with storing("write the log"):
            connection = await self.engine.connect()
            await connection.execution_options(isolation_level="AUTOCOMMIT")
        try:
            with committing("writing the log"):
                if batch[0].fence is not None:
                    await _insert_fenced(connection, batch)
                else:
                    await connection.execute(INSERT, _columns(batch))
        finally:
            try:
                await connection.close()
            except Exception:
                log.debug("closing a failed connection failed", exc_info=True)


_ROWS = """
    FROM unnest(
        CAST(:table_ids AS varchar[]), CAST(:numbers AS integer[]), CAST(:seats AS integer[]),
        CAST(:actions AS varchar[]), CAST(:client_ids AS varchar[]),
        CAST(:created AS timestamptz[]), CAST(:by AS varchar[]), CAST(:tokens AS bigint[])
    ) AS v(table_id, number, seat, action, client_id, created, by, token)
"""

INSERT = sa.text(
    "INSERT INTO events (table_id, number, seat, action, client_id, created, by) "
    "SELECT v.table_id, v.number, v.seat, v.action, v.client_id, v.created, v.by" + _ROWS
)
"""Unfenced rows (one process on PostgreSQL) in one statement: all of them or none."""

FENCED_INSERT = sa.text(
    """
    INSERT INTO events (table_id, number, seat, action, client_id, created, by)
    SELECT v.table_id, v.number, v.seat, v.action, v.client_id, v.created, v.by
    """
    + _ROWS
    + """
    JOIN table_leases AS lease
        ON lease.table_id = v.table_id AND lease.owner = :owner AND lease.token = v.token
    ORDER BY lease.table_id
    FOR SHARE OF lease
    RETURNING events.table_id
    """
)
"""The fenced entries' rows, each written only while its table's lease still holds its
(owner, token): one statement, whose lease rows stay locked until the commit (a takeover
waits for it; they are locked in the tables' order, as a takeover's are). Its text never
changes with the batch's size, so PostgreSQL plans it once per connection."""


async def _insert_fenced(connection: Any, fenced: list[Entry]) -> list[Entry]:
    """Write ``fenced`` (:data:`FENCED_INSERT`); the entries written. The others fail,
    :class:`Fenced`: their lease moved on, and they were not written."""
    if not fenced:
        return []
    owners = {entry.fence[0] for entry in fenced if entry.fence is not None}
    if len(owners) != 1:
        raise StoreUnavailable("one batch of fenced appends has one owner")
    written = await connection.execute(FENCED_INSERT, {**_columns(fenced), "owner": owners.pop()})
    held = {row.table_id for row in written}
    kept = []
    for entry in fenced:
        if entry.table_id in held:
            kept.append(entry)
        elif not entry.done.done():
            entry.done.set_exception(Fenced(f"table {entry.table_id}: lease moved on"))
    return kept


def _columns(entries: list[Entry]) -> dict[str, list[Any]]:
    """The entries' rows as the arrays :data:`_ROWS` reads (tokens: none when unfenced)."""
    rows = [entry.row for entry in entries]
    return {
        "table_ids": [row["table_id"] for row in rows],
        "numbers": [row["number"] for row in rows],
        "seats": [row["seat"] for row in rows],
        "actions": [row["action"] for row in rows],
        "client_ids": [row["client_id"] for row in rows],
        "created": [row["created"] for row in rows],
        "by": [row["by"] for row in rows],
        "tokens": [None if entry.fence is None else entry.fence[1] for entry in entries],
    }


def _fail(entry: Entry, error: StoreUnavailable) -> None:
    if not entry.done.done():
        entry.done.set_exception(error)


Statement = tuple[sa.Executable, list[dict[str, Any]] | None]


def _statements(inserted: list[Entry], batch: list[Entry]) -> list[Statement]:
    """The statements that write ``batch``: the rows of ``inserted`` (the others are written
    already) and the end of every game that ended with its action."""
    statements: list[Statement] = []
    if inserted:
        statements.append((sa.insert(schema.events), [e.row for e in inserted]))
    finished = [e.table_id for e in batch if e.finished]
    if finished:
        finish = sa.update(schema.tables).where(schema.tables.c.id.in_(finished))
        statements.append((finish.values(status="finished"), None))
    return statements


def _commit_sync(writer: sa.Engine, statements: list[Statement]) -> None:
    with storing("write the log"):
        connection = writer.connect()
    try:
        with storing("write the log"):
            connection.begin()
            for statement, rows in statements:
                connection.execute(statement, rows)
        with committing("writing the log"):
            connection.commit()
    finally:
        try:
            connection.close()
        except Exception:
            log.debug("closing a failed connection failed", exc_info=True)
