"""What clocks store (migration 0006), on a real SQLite file and a real PostgreSQL database:
who made each logged move (``events.by``) and a table's clock facts (``tables.clock``)."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator

import pytest

from odin_cards.server.adapters import Database, open_database
from odin_cards.server.core.ports import StoreUnavailable

from .storage_data import a_table, an_action


@pytest.fixture
async def database(database_url: str) -> AsyncIterator[Database]:
    async with open_database(database_url) as database:
        yield database


async def test_who_made_each_move_is_stored_with_it(database: Database) -> None:
    await database.store.insert(a_table("t1", "playing"))
    moves = [
        an_action(0),
        dataclasses.replace(an_action(1, seat=1, client_id="stand-in:1"), by="stand-in"),
        dataclasses.replace(an_action(2), by="bot"),
    ]
    for move in moves:
        await database.log.append("t1", move, False)
    stored = await database.store.load("t1")
    assert stored is not None and stored.log == moves
    assert await database.log.read_back("t1", 1) == moves[1]
    assert await database.log.read_from("t1", 2) == moves[2:]


async def test_a_stand_ins_client_id_is_stored_once(database: Database) -> None:
    await database.store.insert(a_table("t1", "playing"))
    first = dataclasses.replace(an_action(0, client_id="stand-in:0"), by="stand-in")
    await database.log.append("t1", first, False)
    with pytest.raises(StoreUnavailable):  # a second copy, whichever number it claims
        await database.log.append("t1", dataclasses.replace(first, number=1), False)
    stored = await database.store.load("t1")
    assert stored is not None and stored.log == [first]


async def test_a_tables_clock_facts_are_kept(database: Database) -> None:
    table = a_table("t1", "playing")
    table.settings = {"clock": {"kind": "turn", "preset": "24h", "move": 86400}}
    await database.store.insert(table)
    loaded = await database.store.load("t1")
    assert loaded is not None and loaded.table.clock == {}  # nothing before the game starts
    facts = {
        "started": "2026-11-22T12:00:00+00:00",
        "bots": {"1": {"level": "heuristic", "why": "left"}},
    }
    await database.store.save_clock("t1", facts)
    again = await database.store.load("t1")
    assert again is not None and again.table.clock == facts
    assert again.table.settings == table.settings
