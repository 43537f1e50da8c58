"""The in-memory table store and event log: the same promises as SQL, and failures on order."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from odin_cards.server.adapters.memory import MemoryDatabase
from odin_cards.server.core.ports import CommitUnknown, SeatTaken, StoreUnavailable

from .storage_data import NOW, a_table, an_action


async def test_stored_records_are_copies() -> None:
    db = MemoryDatabase()
    table = a_table("t1")
    await db.store.insert(table)
    table.seats[0].name = "changed after storing"
    stored = await db.store.load("t1")
    assert stored is not None and stored.table.seats[0].name is None
    stored.table.status = "changed after loading"
    again = await db.store.load("t1")
    assert again is not None and again.table.status == "waiting"


async def test_keys_client_ids_and_seats_are_given_once() -> None:
    db = MemoryDatabase()
    await db.store.insert(a_table("t1", "playing"))
    with pytest.raises(StoreUnavailable):
        await db.store.insert(a_table("t1"))
    await db.log.append("t1", an_action(0, client_id="x"), False)
    for duplicate in (an_action(0, seat=1), an_action(1, client_id="x")):
        with pytest.raises(StoreUnavailable):
            await db.log.append("t1", duplicate, False)
    with pytest.raises(StoreUnavailable):
        await db.log.append("ghost", an_action(0), False)
    await db.log.append("t1", an_action(1), True)
    stored = await db.store.load("t1")
    assert stored is not None and stored.table.status == "finished"
    assert [a.number for a in stored.log] == [0, 1]
    await db.store.insert(a_table("t2"))
    await db.store.take_seat("t2", 0, "Ada", "a" * 64, False)
    with pytest.raises(SeatTaken):
        await db.store.take_seat("t2", 0, "Bo", "b" * 64, True)


async def test_a_failed_write_stores_nothing_and_the_next_one_works() -> None:
    db = MemoryDatabase()
    await db.store.insert(a_table("t1", "playing"))
    db.faults.fail_next()
    with pytest.raises(StoreUnavailable) as raised:
        await db.log.append("t1", an_action(0), False)
    assert not isinstance(raised.value, CommitUnknown)
    assert await db.log.read_back("t1", 0) is None
    await db.log.append("t1", an_action(0), False)
    assert await db.log.read_back("t1", 0) == an_action(0)


@pytest.mark.parametrize("stored", [True, False])
async def test_an_unknown_commit_is_settled_by_reading_back(stored: bool) -> None:
    db = MemoryDatabase()
    await db.store.insert(a_table("t1", "playing"))
    db.faults.unknown_next(stored=stored)
    with pytest.raises(CommitUnknown):
        await db.log.append("t1", an_action(0), True)
    assert (await db.log.read_back("t1", 0) is not None) is stored
    table = await db.store.load("t1")
    assert table is not None and (table.table.status == "finished") is stored


async def test_a_database_that_is_down_refuses_reads_and_writes() -> None:
    db = MemoryDatabase()
    await db.store.insert(a_table("t1", "playing"))
    db.faults.down = True
    for attempt in (
        db.store.load("t1"),
        db.store.load_resumable(NOW),
        db.store.take_seat("t1", 0, "Ada", "a" * 64, False),
        db.store.set_status("t1", "broken", "x"),
        db.log.append("t1", an_action(0), False),
        db.log.read_back("t1", 0),
    ):
        with pytest.raises(StoreUnavailable):
            await attempt
    db.faults.down = False
    stored = await db.store.load("t1")
    assert stored is not None and stored.log == [] and stored.table.status == "playing"


async def test_held_writes_wait_until_released() -> None:
    db = MemoryDatabase()
    await db.store.insert(a_table("t1", "playing"))
    db.faults.hold()
    takers = [
        asyncio.create_task(db.store.take_seat("t1", 0, name, name * 64, False))
        for name in ("a", "b")
    ]
    await db.faults.held(2)
    assert (await db.store.load("t1")).table.seats[0].name is None  # type: ignore[union-attr]
    db.faults.release()
    results = await asyncio.gather(*takers, return_exceptions=True)
    assert sorted(type(r).__name__ for r in results) == ["NoneType", "SeatTaken"]


async def test_expiry_resumable_broken_and_a_players_tables() -> None:
    db = MemoryDatabase()
    day = timedelta(days=1)
    await db.store.insert(a_table("old-wait", age=2 * day))
    await db.store.insert(a_table("new-wait", age=timedelta(hours=1)))
    await db.store.insert(a_table("old-play", "playing", age=3 * day))
    await db.store.insert(a_table("done", "finished"))
    await db.store.set_status("new-wait", "broken", "does not replay")
    assert await db.store.expire_waiting(NOW - day) == ["old-wait"]
    assert [s.table.id for s in await db.store.load_resumable(NOW - day)] == ["old-play"]
    assert [(t.id, t.broken_reason) for t in await db.store.broken()] == [
        ("new-wait", "does not replay")
    ]
    await db.store.take_seat("done", 0, "Ada", "a" * 64, False)
    await db.store.take_seat("old-play", 1, "Ada", "a" * 64, False)
    assert await db.store.tables_of(["a" * 64], 10) == ["done", "old-play"]
    assert await db.store.tables_of(["a" * 64], 1) == ["done"]
