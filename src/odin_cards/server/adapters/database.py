"""The server's database, opened for its life: owned, migrated, its log writing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncEngine

from odin_cards.server.adapters.db_lock import acquire_database
from odin_cards.server.adapters.sql_accounts import SqlAccountStore
from odin_cards.server.adapters.sql_errors import storing
from odin_cards.server.adapters.sql_log import SqlEventLog
from odin_cards.server.adapters.sql_people import SqlPeopleStore
from odin_cards.server.adapters.sql_ratings import SqlRatingStore
from odin_cards.server.adapters.sql_schema import make_engine, migrate
from odin_cards.server.adapters.sql_social import SqlSocialStore
from odin_cards.server.adapters.sql_store import SqlTableStore


@dataclass(frozen=True, slots=True)
class Database:
    """An open database: the domain's :attr:`store`, :attr:`log` and :attr:`social`."""

    engine: AsyncEngine
    store: SqlTableStore
    log: SqlEventLog
    social: SqlSocialStore
    accounts: SqlAccountStore
    """Accounts, sessions and login attempts (issue #10, ``core/people/accounts.py``)."""
    ratings: SqlRatingStore
    """Results, ratings, profiles and leaderboards (issue #10, ``core/people/ratings.py``)."""
    people: SqlPeopleStore
    """Play now's queue (``people.queue``), follows, blocks, reports, invitations
    (issue #10, ``core/people/matchmaking.py``, ``core/people/friends.py``)."""


@asynccontextmanager
async def open_database(url: str, process: str | None = None) -> AsyncIterator[Database]:
    """Own the database at ``url`` (:func:`acquire_database`), bring its schema up to date
    and run its event log until the block ends.

    Raises :class:`~..domain.ports.DatabaseInUse` if another server owns it and
    :class:`~..domain.ports.StoreUnavailable` if it cannot be reached: ``odin serve``
    reports either in one line and exits. With ``process`` (one of several processes, on
    PostgreSQL), the lock is shared and the log's appends are fenced by table leases.
    """
    async with acquire_database(url, shared=process is not None):
        engine = make_engine(url)
        try:
            with storing("bring the schema up to date"):
                await migrate(engine)
            log = SqlEventLog(engine, process)
            log.start()
            try:
                yield Database(
                    engine,
                    SqlTableStore(engine),
                    log,
                    SqlSocialStore(engine),
                    accounts=SqlAccountStore(engine),
                    ratings=SqlRatingStore(engine),
                    people=SqlPeopleStore(engine),
                )
            finally:
                await log.stop()
        finally:
            await engine.dispose()
