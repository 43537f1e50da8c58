"""The event log's contract, on memory, SQLite and PostgreSQL alike: actions by number, a
number and a client id stored once per table, who made each move, the end of a game
written with its last action."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from odin_cards.server.core.ports import CommitUnknown, Storage, StoreUnavailable

from .data import a_table, an_action


async def test_the_log_keeps_actions_by_number(storage: Storage) -> None:
    await storage.store.insert(a_table("t1", "playing"))
    await storage.store.insert(a_table("t2", "playing"))
    # Appended out of order and mixed with another table's: loaded in number order.
    for number in (2, 0, 1):
        await storage.log.append("t1", an_action(number, client_id=f"c{number}"), False)
    await storage.log.append("t2", an_action(0), False)
    stored = await storage.store.load("t1")
    assert stored is not None
    assert stored.log == [an_action(n, client_id=f"c{n}") for n in range(3)]
    assert stored.table.status == "playing"
    assert await storage.log.read_back("t1", 1) == an_action(1, client_id="c1")
    assert await storage.log.read_back("t1", 3) is None
    assert await storage.log.read_back("t2", 0) == an_action(0)
    assert await storage.log.read_from("t1", 1) == [an_action(n, client_id=f"c{n}") for n in (1, 2)]
    assert await storage.log.read_from("t1", 3) == []
    resumed = await storage.store.load_resumable(a_table("t1").created)
    assert [len(s.log) for s in resumed] == [3, 1]


async def test_a_taken_key_or_client_id_is_refused_and_sinks_no_other_table(
    storage: Storage, backend: str
) -> None:
    for table_id in ("t1", "t2"):
        await storage.store.insert(a_table(table_id, "playing"))
    await storage.log.append("t1", an_action(0, client_id="x"), False)
    # At once (one batch on SQL): a row whose key is taken, a row whose client id is, a row
    # PostgreSQL cannot hold (a NUL: the others store it), and a good row.
    results = await asyncio.gather(
        storage.log.append("t1", an_action(1, client_id="\x00"), False),
        storage.log.append("t1", an_action(0, seat=1), False),
        storage.log.append("t1", an_action(1, client_id="x"), False),
        storage.log.append("t2", an_action(0), True),
        return_exceptions=True,
    )
    for refused in results[1:3]:
        assert isinstance(refused, StoreUnavailable) and not isinstance(refused, CommitUnknown)
    nul = backend != "postgres"
    if not nul:
        assert isinstance(results[0], StoreUnavailable)
        assert not isinstance(results[0], CommitUnknown)
    assert results[3] is None
    t1, t2 = await storage.store.load("t1"), await storage.store.load("t2")
    stored_nul = [an_action(1, client_id="\x00")] if nul else []
    assert t1 is not None and t1.log == [an_action(0, client_id="x"), *stored_nul]
    assert t2 is not None and t2.log == [an_action(0)] and t2.table.status == "finished"


async def test_an_action_for_no_table_is_refused(storage: Storage) -> None:
    with pytest.raises(StoreUnavailable) as refused:
        await storage.log.append("ghost", an_action(0), False)
    assert not isinstance(refused.value, CommitUnknown)
    assert await storage.log.read_back("ghost", 0) is None


async def test_who_made_each_move_is_stored_with_it(storage: Storage) -> None:
    await storage.store.insert(a_table("t1", "playing"))
    moves = [
        an_action(0),
        dataclasses.replace(an_action(1, seat=1, client_id="stand-in:1"), by="stand-in"),
        dataclasses.replace(an_action(2), by="bot"),
    ]
    for move in moves:
        await storage.log.append("t1", move, False)
    stored = await storage.store.load("t1")
    assert stored is not None and stored.log == moves
    assert await storage.log.read_back("t1", 1) == moves[1]
    assert await storage.log.read_from("t1", 2) == moves[2:]


async def test_a_stand_ins_client_id_is_stored_once(storage: Storage) -> None:
    await storage.store.insert(a_table("t1", "playing"))
    first = dataclasses.replace(an_action(0, client_id="stand-in:0"), by="stand-in")
    await storage.log.append("t1", first, False)
    with pytest.raises(StoreUnavailable):  # a second copy, whichever number it claims
        await storage.log.append("t1", dataclasses.replace(first, number=1), False)
    await storage.store.insert(a_table("t2", "playing"))
    await storage.log.append("t2", first, False)  # the same client id at another table
    stored = await storage.store.load("t1")
    assert stored is not None and stored.log == [first]
