"""The server's database, opened for its life: owned, migrated, its log writing.

:func:`open_database` is the one place that makes the SQL stores: the composition root
(``app.py``) calls it and sees the result as the core's
:class:`~odin_cards.server.core.ports.Storage`, like the in-memory bundle of the tests
(:class:`~.memory.MemoryDatabase`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from odin_cards.server.adapters.db_lock import acquire_database
from odin_cards.server.adapters.sql_accounts import SqlAccountStore
from odin_cards.server.adapters.sql_errors import FAILURES, storing
from odin_cards.server.adapters.sql_leases import SqlLeaseStore
from odin_cards.server.adapters.sql_log import SqlEventLog
from odin_cards.server.adapters.sql_matches import SqlMatchStore
from odin_cards.server.adapters.sql_people import SqlPeopleStore
from odin_cards.server.adapters.sql_ratings import SqlRatingStore
from odin_cards.server.adapters.sql_schema import make_engine, migrate
from odin_cards.server.adapters.sql_social import SqlSocialStore
from odin_cards.server.adapters.sql_store import SqlTableStore


@dataclass(frozen=True, slots=True)
class Database:
    """An open database: every store of :class:`~odin_cards.server.core.ports.Storage` on
    one engine."""

    engine: AsyncEngine
    store: SqlTableStore
    log: SqlEventLog
    social: SqlSocialStore
    accounts: SqlAccountStore
    """Accounts, sessions and login attempts (issue #10, ``core/people/accounts.py``)."""
    ratings: SqlRatingStore
    """Results and ratings (issue #10, ``core/people/ratings.py``)..."""
    profiles: SqlRatingStore
    """...and what profiles and leaderboards read of them, on the same tables."""
    people: SqlPeopleStore
    """Follows, blocks, reports, invitations (issue #10, ``core/people/friends.py``)."""
    matches: SqlMatchStore
    """Play now's queue (``core/people/matchmaking.py``)."""
    leases: SqlLeaseStore | None = None
    """Table leases, when this is one of several processes (PostgreSQL)."""

    async def healthy(self) -> bool:
        """Whether the database answers a trivial query now (``/readyz``)."""
        try:
            async with self.engine.connect() as connection:
                await connection.execute(sa.text("SELECT 1"))
        except FAILURES:
            return False
        return True


@asynccontextmanager
async def open_database(
    url: str, process: str | None = None, lease_seconds: float | None = None
) -> AsyncIterator[Database]:
    """Own the database at ``url`` (:func:`acquire_database`), bring its schema up to date
    and run its event log until the block ends.

    Raises :class:`~odin_cards.server.core.ports.DatabaseInUse` if another server owns it
    and :class:`~odin_cards.server.core.ports.StoreUnavailable` if it cannot be reached:
    ``odin serve`` reports either in one line and exits. With ``process`` (one of several
    processes, on PostgreSQL), the lock is shared, the log's appends are fenced by table
    leases and :attr:`Database.leases` holds them (``lease_seconds`` long, given with it).
    """
    if process is not None and lease_seconds is None:
        raise ValueError("one of several processes needs its lease_seconds")
    async with acquire_database(url, shared=process is not None):
        engine = make_engine(url)
        try:
            with storing("bring the schema up to date"):
                await migrate(engine)
            log = SqlEventLog(engine, process)
            log.start()
            try:
                ratings = SqlRatingStore(engine)
                yield Database(
                    engine,
                    SqlTableStore(engine),
                    log,
                    SqlSocialStore(engine),
                    accounts=SqlAccountStore(engine),
                    ratings=ratings,
                    profiles=ratings,
                    people=SqlPeopleStore(engine),
                    matches=SqlMatchStore(engine),
                    leases=None
                    if process is None or lease_seconds is None
                    else SqlLeaseStore(engine, process, lease_seconds),
                )
            finally:
                await log.stop()
        finally:
            await engine.dispose()
