"""The SQL table store and event log on a real SQLite file and a real PostgreSQL database."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest
import sqlalchemy as sa

from odin_cards.server.adapters import (
    Database,
    SqlEventLog,
    SqlTableStore,
    open_database,
    sql_log,
)
from odin_cards.server.adapters.sql_schema import make_engine
from odin_cards.server.core.ports import (
    CommitUnknown,
    LoggedAction,
    SeatTaken,
    StoreUnavailable,
)

from .storage_data import NOW, a_table, an_action


@pytest.fixture
async def database(database_url: str) -> AsyncIterator[Database]:
    async with open_database(database_url) as database:
        yield database


async def test_a_table_comes_back_as_it_was_stored(database: Database) -> None:
    table = a_table("t1", bots={1: "expert"})
    table.seats[0].name, table.seats[0].token_hash = "Ada", "ab" * 32
    table.settings = {"clock": {"move": 40}, "visibility": "private"}
    await database.store.insert(table)
    stored = await database.store.load("t1")
    assert stored is not None and stored.log == []
    assert stored.table == table
    assert stored.table.created.utcoffset() == timedelta(0)
    for unknown in ("nope", "a\x00b", "x" * 5000):  # ids from a URL may be anything
        assert await database.store.load(unknown) is None
        assert await database.log.read_back(unknown, 0) is None


async def test_the_log_keeps_actions_by_number(database: Database) -> None:
    await database.store.insert(a_table("t1", "playing"))
    await database.store.insert(a_table("t2", "playing"))
    # Appended out of order and mixed with another table's: loaded in number order.
    for number in (2, 0, 1):
        await database.log.append("t1", an_action(number, client_id=f"c{number}"), False)
    await database.log.append("t2", an_action(0), False)
    stored = await database.store.load("t1")
    assert stored is not None
    assert stored.log == [an_action(n, client_id=f"c{n}") for n in range(3)]
    assert await database.log.read_back("t1", 1) == an_action(1, client_id="c1")
    assert await database.log.read_back("t1", 3) is None
    assert await database.log.read_back("t2", 0) == an_action(0)


async def test_a_taken_key_or_client_id_is_refused_and_sinks_no_other_table(
    database: Database,
) -> None:
    for table_id in ("t1", "t2"):
        await database.store.insert(a_table(table_id, "playing"))
    await database.log.append("t1", an_action(0, client_id="x"), False)
    # In one batch: a row whose key is taken, a row whose client id is, a row the database
    # cannot hold (PostgreSQL refuses a NUL, SQLite does not), and a good row.
    results = await asyncio.gather(
        database.log.append("t1", an_action(1, client_id="\x00"), False),
        database.log.append("t1", an_action(0, seat=1), False),
        database.log.append("t1", an_action(1, client_id="x"), False),
        database.log.append("t2", an_action(0), True),
        return_exceptions=True,
    )
    for refused in results[1:3]:
        assert isinstance(refused, StoreUnavailable) and not isinstance(refused, CommitUnknown)
    if database.engine.dialect.name == "postgresql":
        assert isinstance(results[0], StoreUnavailable)
        assert not isinstance(results[0], CommitUnknown)
    assert results[3] is None
    t1, t2 = await database.store.load("t1"), await database.store.load("t2")
    stored_nul = (
        [] if database.engine.dialect.name == "postgresql" else [an_action(1, client_id="\x00")]
    )
    assert t1 is not None and t1.log == [an_action(0, client_id="x"), *stored_nul]
    assert t2 is not None and t2.log == [an_action(0)] and t2.table.status == "finished"


async def test_an_action_for_no_table_is_refused(database: Database) -> None:
    with pytest.raises(StoreUnavailable):
        await database.log.append("ghost", an_action(0), False)


async def test_one_of_two_takers_of_a_seat_gets_it(database: Database) -> None:
    await database.store.insert(a_table("t1", bots={1: "easy"}))
    store = database.store
    results = await asyncio.gather(
        store.take_seat("t1", 0, "Ada", "a" * 64, True),
        store.take_seat("t1", 0, "Bo", "b" * 64, True),
        return_exceptions=True,
    )
    assert sorted(type(r).__name__ for r in results) == ["NoneType", "SeatTaken"]
    stored = await store.load("t1")
    assert stored is not None and stored.table.status == "playing"
    winner = "Ada" if results[0] is None else "Bo"
    assert stored.table.seats[0].name == winner
    with pytest.raises(SeatTaken):  # a bot's seat is not free either
        await store.take_seat("t1", 1, "Cy", "c" * 64, False)
    with pytest.raises(SeatTaken):
        await store.take_seat("t1", 7, "Cy", "c" * 64, False)


async def test_waiting_tables_expire_and_only_live_tables_resume(database: Database) -> None:
    store = database.store
    day = timedelta(days=1)
    await store.insert(a_table("old-wait", "waiting", age=2 * day))
    await store.insert(a_table("new-wait", "waiting", age=timedelta(hours=1)))
    await store.insert(a_table("old-play", "playing", age=3 * day))
    await store.insert(a_table("done", "finished"))
    await store.insert(a_table("bad", "playing"))
    await store.set_status("bad", "broken", "action 3 does not replay: not your turn")
    assert await store.expire_waiting(NOW - day) == ["old-wait"]
    assert await store.expire_waiting(NOW - day) == []
    resumed = await store.load_resumable(NOW - day)
    assert [s.table.id for s in resumed] == ["old-play", "new-wait"]
    expired = await store.load("old-wait")
    assert expired is not None and expired.table.status == "expired"
    broken = await store.broken()
    assert [(t.id, t.status, t.broken_reason) for t in broken] == [
        ("bad", "broken", "action 3 does not replay: not your turn")
    ]


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


async def test_play_again_links_both_tables_once(database: Database) -> None:
    store = database.store
    first = a_table("t1", "finished")
    await store.insert(first)
    following = a_table("t2", "playing")
    following.previous_table = "t1"
    await store.insert_following(first, following)
    with pytest.raises(StoreUnavailable):  # a table has one next table: no fork
        await store.insert_following(first, a_table("t3", "playing"))
    assert await store.load("t3") is None
    loaded = [await store.load(i) for i in ("t1", "t2")]
    assert [(s.table.previous_table, s.table.next_table) for s in loaded if s] == [
        (None, "t2"),
        ("t1", None),
    ]


async def test_a_players_tables_newest_first(database: Database) -> None:
    store = database.store
    for i in range(4):
        table = a_table(f"t{i}", age=timedelta(minutes=10 - i))
        await store.insert(table)
        await store.take_seat(table.id, 0, "Ada", "a" * 64 if i % 2 == 0 else "b" * 64, False)
    assert await store.tables_of(["a" * 64, "b" * 64], 3) == ["t3", "t2", "t1"]
    assert await store.tables_of(["a" * 64], 10) == ["t2", "t0"]
    assert await store.tables_of([], 10) == []


async def test_a_database_that_cannot_be_reached_is_unavailable() -> None:
    engine = make_engine("postgresql+asyncpg://postgres@127.0.0.1:1/none")
    store, log = SqlTableStore(engine), SqlEventLog(engine)
    log.start()
    try:
        for attempt in (
            store.insert(a_table("t1")),
            store.load("t1"),
            log.append("t1", an_action(0), False),
            log.read_back("t1", 0),
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
