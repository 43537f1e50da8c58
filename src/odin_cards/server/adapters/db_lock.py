"""One server process owns a database: a second one is refused at once (unless all are
started as several processes, with ``--redis-url``: they share the lock, and table leases
decide who serves what).

Tables live in the memory of the process that serves them; two processes on one database
would disagree about every table. SQLite: an exclusive, non-blocking ``flock`` on a lock
file beside the database file (``odin.sqlite3.lock``), held while the server runs; the
kernel drops it when the process dies, even by ``kill -9``. PostgreSQL: a session-level
advisory lock, held by a connection of its own while the server runs; the database drops
it when that connection ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import os
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from odin_cards.server.adapters.sql_errors import FAILURES, storing
from odin_cards.server.adapters.sql_schema import sqlite_path
from odin_cards.server.core.ports import DatabaseInUse, StoreUnavailable

ADVISORY_KEY = int.from_bytes(hashlib.sha256(b"odin-cards server").digest()[:8], "big", signed=True)
"""The PostgreSQL advisory lock's key (advisory locks are per database)."""


def lock_path(database: Path) -> Path:
    """The lock file of a SQLite database file."""
    return database.with_name(database.name + ".lock")


@asynccontextmanager
async def acquire_database(url: str, shared: bool = False) -> AsyncIterator[None]:
    """Own the database at ``url`` until the block ends.

    Raises :class:`DatabaseInUse` at once if another process (or another acquisition in
    this one) owns it, :class:`StoreUnavailable` if it cannot be reached. ``shared`` (one
    of several processes, PostgreSQL only): the lock is shared by such processes and
    still refuses a single-process server, which refuses them in turn.
    """
    backend = sa.make_url(url).get_backend_name()
    if shared and backend != "postgresql":
        raise StoreUnavailable("several processes (--redis-url) need a PostgreSQL database")
    if backend == "sqlite":
        path = sqlite_path(url)
        if path is None:  # an in-memory database belongs to its connection anyway
            yield
            return
        with _flock(path):
            yield
    elif backend == "postgresql":
        async with _advisory_lock(url, shared):
            yield
    else:
        raise StoreUnavailable(f"unsupported database {backend!r} (use SQLite or PostgreSQL)")


def check_database(url: str, shared: bool = False) -> None:
    """Raise :class:`DatabaseInUse` now if another process owns the database at ``url``, or
    :class:`StoreUnavailable` (one line, saying why) if it cannot be reached.

    ``odin serve`` calls it before it starts, so a second server is one line of error, not
    a traceback from the web server's start-up; the server then takes the lock for real
    (:func:`acquire_database`) for its whole life.
    """

    async def probe() -> None:
        async with acquire_database(url, shared):
            pass

    try:
        asyncio.run(probe())
    except DatabaseInUse:
        raise
    except StoreUnavailable as error:
        cause = " ".join(str(error.__cause__ or "").split())[:200]
        raise StoreUnavailable(f"{error}{': ' + cause if cause else ''}") from None


@contextlib.contextmanager
def _flock(database: Path) -> Iterator[None]:
    path = lock_path(database)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as error:
        raise StoreUnavailable(f"cannot open the lock file {path}: {error.strerror}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise DatabaseInUse(
                f"another odin serve is using the database {database} (lock file {path})"
            ) from None
        yield
    finally:
        os.close(fd)  # closing the only descriptor releases the lock


@asynccontextmanager
async def _advisory_lock(url: str, shared: bool) -> AsyncIterator[None]:
    engine = create_async_engine(
        url, poolclass=sa.pool.NullPool, connect_args={"timeout": 5, "command_timeout": 10}
    )
    try:
        with storing("be reached (to take its lock)"):
            connection = await engine.connect()
        try:
            with storing("be reached (to take its lock)"):
                take = (
                    sa.func.pg_try_advisory_lock_shared if shared else sa.func.pg_try_advisory_lock
                )
                owned = await connection.scalar(sa.select(take(ADVISORY_KEY)))
                # A session's advisory lock outlives its transaction: end it, or the
                # connection would sit "idle in transaction" for the server's life.
                await connection.commit()
            if not owned:
                name = engine.url.database
                raise DatabaseInUse(
                    f"another odin serve is using the PostgreSQL database {name}"
                    + (" alone (without --redis-url)" if shared else "")
                )
            yield
        finally:
            with contextlib.suppress(*FAILURES):
                await connection.close()  # ending the session releases the lock
    finally:
        await engine.dispose()
