"""What only the SQL storage does, on a real SQLite file and a real PostgreSQL database:
the event log's group commit and its unknown outcomes, a database that cannot be reached,
expiry without ``RETURNING``, and the leases of several processes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta

import pytest
import sqlalchemy as sa

from odin_cards.server.adapters import Database, SqlEventLog, SqlTableStore, open_database, sql_log
from odin_cards.server.adapters.sql_accounts import SqlAccountStore
from odin_cards.server.adapters.sql_matches import SqlMatchStore
from odin_cards.server.adapters.sql_people import SqlPeopleStore
from odin_cards.server.adapters.sql_ratings import SqlRatingStore
from odin_cards.server.adapters.sql_schema import make_engine
from odin_cards.server.adapters.sql_social import SqlSocialStore
from odin_cards.server.core.ports import CommitUnknown, LoggedAction, StoreUnavailable

from .data import NOW, a_table, an_account, an_action

UNREACHABLE = "postgresql+asyncpg://postgres@127.0.0.1:1/none"


@pytest.fixture
async def database(database_url: str) -> AsyncIterator[Database]:
    async with open_database(database_url) as database:
        yield database


async def test_an_open_database_is_healthy(database: Database) -> None:
    assert await database.healthy()
    assert database.leases is None  # one process owns it


async def test_expiry_without_returning_is_the_same(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    # SQLite before 3.35 has no UPDATE ... RETURNING: the store selects, then updates.
    monkeypatch.setattr(database.engine.dialect, "update_returning", False)
    await database.store.insert(a_table("old", "waiting", age=timedelta(days=2)))
    await database.store.insert(a_table("new", "waiting"))
    await database.store.insert(a_table("playing", "playing", age=timedelta(days=2)))
    assert await database.store.expire_waiting(NOW - timedelta(days=1)) == ["old"]
    assert await database.store.expire_waiting(NOW - timedelta(days=1)) == []
    statuses = [(await database.store.load(i)) for i in ("old", "new", "playing")]
    assert [s.table.status for s in statuses if s] == ["expired", "waiting", "playing"]


async def test_a_database_that_cannot_be_reached_is_unavailable_and_unhealthy() -> None:
    engine = make_engine(UNREACHABLE)
    log = SqlEventLog(engine)
    database = Database(
        engine,
        SqlTableStore(engine),
        log,
        SqlSocialStore(engine),
        accounts=SqlAccountStore(engine),
        ratings=SqlRatingStore(engine),
        profiles=SqlRatingStore(engine),
        people=SqlPeopleStore(engine),
        matches=SqlMatchStore(engine),
    )
    log.start()
    try:
        assert not await database.healthy()
        for attempt in (
            database.store.insert(a_table("t1")),
            database.store.load("t1"),
            database.log.append("t1", an_action(0), False),
            database.log.read_back("t1", 0),
            database.accounts.create(an_account("Ann")),
            database.profiles.person("ann"),
            database.people.follows("a", "b"),
            database.matches.cancel("t"),
        ):
            with pytest.raises(StoreUnavailable) as raised:
                await attempt
            assert not isinstance(raised.value, CommitUnknown)
    finally:
        await log.stop()
        await engine.dispose()


@pytest.mark.postgres
@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
@pytest.mark.parametrize("finished", [False, True], ids=["row", "row-and-end"])
async def test_a_commit_without_answer_is_unknown_and_read_back_settles_it(
    database_url: str, finished: bool
) -> None:
    # PostgreSQL only: the database cuts the connection from its side. A batch of rows is
    # one self-committing INSERT (cut as it is sent); a batch that also ends a game is a
    # transaction (cut just before COMMIT).
    async with open_database(database_url) as database:
        await database.store.insert(a_table("t1", "playing"))

        def cut(connection: sa.Connection, *rest: object) -> None:
            statement = rest[1] if rest else "COMMIT"
            if isinstance(statement, str) and statement.startswith(
                ("INSERT INTO events", "COMMIT")
            ):
                connection.exec_driver_sql("SELECT pg_terminate_backend(pg_backend_pid())")

        event = "commit" if finished else "before_cursor_execute"
        sa.event.listen(database.engine.sync_engine, event, cut)
        try:
            with pytest.raises(CommitUnknown):
                await database.log.append("t1", an_action(0), finished)
        finally:
            sa.event.remove(database.engine.sync_engine, event, cut)
        assert await database.log.read_back("t1", 0) is None
        await database.log.append("t1", an_action(0), finished)  # the resend is stored
        assert await database.log.read_back("t1", 0) == an_action(0)


async def test_an_unforeseen_failure_of_the_log_is_an_unknown_outcome(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    await database.store.insert(a_table("t1", "playing"))

    def broken(*batches: object) -> None:
        raise RuntimeError("a bug in the log")

    with monkeypatch.context() as patch:
        patch.setattr(sql_log, "_statements", broken)  # SQLite, and batches that end a game
        patch.setattr(sql_log, "_columns", broken)  # PostgreSQL's batches of rows
        with pytest.raises(CommitUnknown):
            await database.log.append("t1", an_action(0), False)
    await database.log.append("t1", an_action(0), False)  # the log still runs
    assert await database.log.read_back("t1", 0) == an_action(0)


async def test_an_append_after_the_server_stopped_is_unavailable(database_url: str) -> None:
    async with open_database(database_url) as database:
        await database.store.insert(a_table("t1", "playing"))
        log: SqlEventLog = database.log
    with pytest.raises(StoreUnavailable):
        await log.append("t1", LoggedAction(0, 0, "x", None, NOW), False)


@pytest.mark.postgres
@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
async def test_one_of_several_processes_gets_its_leases_with_the_database(
    database_url: str,
) -> None:
    with pytest.raises(ValueError):
        async with open_database(database_url, "p1"):
            pass
    async with open_database(database_url, "p1", lease_seconds=5.0) as database:
        assert database.leases is not None and database.leases.owner == "p1"
        await database.store.insert(a_table("t1", "playing"))
        assert await database.leases.acquire("t1") == 1
        await database.log.append("t1", an_action(0), False, fence=1)
        assert await database.log.read_back("t1", 0) == an_action(0)
        await database.leases.stop()
