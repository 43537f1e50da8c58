"""The table store's contract, on memory, SQLite and PostgreSQL alike: tables and seats
come back as stored, a seat is given once, and lists come in the same order and limits."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import timedelta

import pytest

from odin_cards.server.core.ports import (
    MAX_REASON,
    CommitUnknown,
    SeatTaken,
    Storage,
    StoreUnavailable,
)

from .data import NOW, a_table, an_account, seated_table


async def test_a_table_comes_back_as_it_was_stored(storage: Storage) -> None:
    table = a_table("t1", bots={1: "expert"})
    table.seats[0].name, table.seats[0].token_hash = "Ada", "ab" * 32
    table.settings = {"clock": {"move": 40}, "visibility": "private"}
    table.creator_hash = "cc" * 32
    await storage.store.insert(table)
    stored = await storage.store.load("t1")
    assert stored is not None and stored.log == []
    assert stored.table == table
    assert stored.table.created.utcoffset() == timedelta(0)
    for unknown in ("nope", "a\x00b", "x" * 5000):  # ids from a URL may be anything
        assert await storage.store.load(unknown) is None
        assert await storage.log.read_back(unknown, 0) is None
        assert await storage.log.read_from(unknown, 0) == []


async def test_what_is_stored_is_a_copy(storage: Storage) -> None:
    table = a_table("t1")
    await storage.store.insert(table)
    table.seats[0].name = "changed after storing"
    stored = await storage.store.load("t1")
    assert stored is not None and stored.table.seats[0].name is None
    stored.table.status = "changed after loading"
    stored.table.seats[1].name = "changed after loading"
    again = await storage.store.load("t1")
    assert again is not None and again.table == a_table("t1")


async def test_a_taken_id_is_refused_and_changes_nothing(storage: Storage) -> None:
    await storage.store.insert(a_table("t1", "playing"))
    with pytest.raises(StoreUnavailable) as refused:
        await storage.store.insert(a_table("t1", players=4))
    assert not isinstance(refused.value, CommitUnknown)
    stored = await storage.store.load("t1")
    assert stored is not None and stored.table == a_table("t1", "playing")
    with pytest.raises(ValueError):
        await storage.store.insert(a_table("t2", "sleeping"))
    assert await storage.store.load("t2") is None


async def test_one_of_two_takers_of_a_seat_gets_it(storage: Storage) -> None:
    await storage.store.insert(a_table("t1", bots={1: "easy"}))
    store = storage.store
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
    assert stored.table.seats[0].token_hash == winner[0].lower() * 64
    with pytest.raises(SeatTaken):  # a bot's seat is not free either
        await store.take_seat("t1", 1, "Cy", "c" * 64, False)
    for table_id, seat in (("t1", 7), ("ghost", 0)):
        with pytest.raises(SeatTaken):
            await store.take_seat(table_id, seat, "Cy", "c" * 64, False)


async def test_a_seat_starts_only_a_waiting_table(storage: Storage) -> None:
    await storage.store.insert(a_table("t1", "finished", players=3))
    await storage.store.take_seat("t1", 0, "Ada", "a" * 64, True)
    await storage.store.insert(a_table("t2", players=3))
    await storage.store.take_seat("t2", 0, "Ada", "a" * 64, False)
    statuses = [await storage.store.load(t) for t in ("t1", "t2")]
    assert [s.table.status for s in statuses if s] == ["finished", "waiting"]


async def test_the_store_never_gives_a_locked_seat(storage: Storage) -> None:
    await storage.store.insert(a_table("t1"))
    await storage.store.lock_seat("t1", 1, True)
    with pytest.raises(SeatTaken):
        await storage.store.take_seat("t1", 1, "Eve", "ee" * 32, False)
    stored = await storage.store.load("t1")
    assert stored is not None and stored.table.seats[1].locked
    await storage.store.lock_seat("t1", 1, True)  # locked again: no change
    await storage.store.lock_seat("t1", 1, False)
    await storage.store.take_seat("t1", 1, "Ann", "aa" * 32, False)
    with pytest.raises(SeatTaken):  # a taken seat is not locked
        await storage.store.lock_seat("t1", 1, True)
    with pytest.raises(SeatTaken):
        await storage.store.lock_seat("ghost", 0, True)


async def test_waiting_tables_expire_and_only_live_tables_resume(storage: Storage) -> None:
    store = storage.store
    day = timedelta(days=1)
    await store.insert(a_table("old-wait", "waiting", age=2 * day))
    await store.insert(a_table("new-wait", "waiting", age=timedelta(hours=1)))
    await store.insert(a_table("edge-wait", "waiting", age=day))  # created exactly then
    await store.insert(a_table("old-play", "playing", age=3 * day))
    await store.insert(a_table("done", "finished"))
    await store.insert(a_table("bad", "playing"))
    await store.set_status("bad", "broken", "action 3 does not replay: not your turn")
    assert await store.expire_waiting(NOW - day) == ["old-wait"]
    assert await store.expire_waiting(NOW - day) == []
    resumed = await store.load_resumable(NOW - day)
    assert [s.table.id for s in resumed] == ["old-play", "edge-wait", "new-wait"]
    expired = await store.load("old-wait")
    assert expired is not None and expired.table.status == "expired"
    broken = await store.broken()
    assert [(t.id, t.status, t.broken_reason) for t in broken] == [
        ("bad", "broken", "action 3 does not replay: not your turn")
    ]


async def test_a_status_is_one_of_the_known_and_a_reason_is_kept_to_its_limit(
    storage: Storage,
) -> None:
    await storage.store.insert(a_table("t1", "playing"))
    with pytest.raises(ValueError):
        await storage.store.set_status("t1", "sleeping")
    await storage.store.set_status("t1", "broken", "x" * (MAX_REASON + 50))
    [broken] = await storage.store.broken()
    assert broken.broken_reason == "x" * MAX_REASON
    await storage.store.set_status("t1", "playing")  # repaired: no reason any more
    stored = await storage.store.load("t1")
    assert stored is not None and (stored.table.status, stored.table.broken_reason) == (
        "playing",
        None,
    )
    await storage.store.set_status("ghost", "broken", "no such table")  # nothing to change
    await storage.store.save_clock("ghost", {"started": "now"})
    assert await storage.store.load("ghost") is None


async def test_play_again_links_both_tables_once(storage: Storage) -> None:
    store = storage.store
    first = a_table("t1", "finished")
    await store.insert(first)
    following = a_table("t2", "playing")
    following.previous_table = "t1"
    await store.insert_following(first, following)
    with pytest.raises(StoreUnavailable):  # a table has one next table: no fork
        await store.insert_following(first, a_table("t3", "playing"))
    with pytest.raises(StoreUnavailable):  # nor has a table that is not there
        await store.insert_following(a_table("ghost"), a_table("t4", "playing"))
    assert await store.load("t3") is None and await store.load("t4") is None
    loaded = [await store.load(i) for i in ("t1", "t2")]
    assert [(s.table.previous_table, s.table.next_table) for s in loaded if s] == [
        (None, "t2"),
        ("t1", None),
    ]


async def test_a_following_table_keeps_the_accounts_its_tokens_held(storage: Storage) -> None:
    ann, bob = an_account("Ann"), an_account("Bob")
    for account in (ann, bob):
        await storage.accounts.create(account)
    first = await seated_table(storage, "t1", {0: ann, 1: None}, "finished", players=3)
    # Bob signs up after the table was read into memory: his guest seat is his account's.
    await storage.accounts.link_seats(bob.account.id, ["t1-1"])
    following = a_table("t2", "playing", players=3)
    for seat, token in ((0, "t1-0"), (1, "t1-1"), (2, "someone-else")):
        following.seats[seat].name, following.seats[seat].token_hash = f"P{seat}", token
    following.seats[2].account_id = ann.account.id  # not what the old table says: dropped
    await storage.store.insert_following(first, following)
    stored = await storage.store.load("t2")
    assert stored is not None
    assert [(s.account_id, s.account) for s in stored.table.seats] == [
        (ann.account.id, "Ann"),
        (bob.account.id, "Bob"),
        (None, None),
    ]


async def test_seats_show_their_accounts_name_until_it_is_deleted(storage: Storage) -> None:
    ann = an_account("Ann")
    await storage.accounts.create(ann)
    table = a_table("t1")
    table.seats[1].account = "Never stored"
    await storage.store.insert(table)
    await storage.store.take_seat("t1", 0, "Ann", "t1-0", False, ann.account.id)
    stored = await storage.store.load("t1")
    assert stored is not None
    assert [(s.name, s.account_id, s.account) for s in stored.table.seats] == [
        ("Ann", ann.account.id, "Ann"),
        (None, None, None),
    ]
    [listed] = await storage.store.waiting("odin", NOW - timedelta(days=1), 10)
    assert listed.seats[0].account == "Ann"
    await storage.accounts.delete(ann.account.id, NOW, "Former player")
    stored = await storage.store.load("t1")
    assert stored is not None
    assert (stored.table.seats[0].name, stored.table.seats[0].account) == ("Former player", None)


async def test_a_players_tables_newest_first(storage: Storage) -> None:
    store = storage.store
    for i in range(4):
        table = a_table(f"t{i}", age=timedelta(minutes=10 - i))
        await store.insert(table)
        await store.take_seat(table.id, 0, "Ada", "a" * 64 if i % 2 == 0 else "b" * 64, False)
    await store.take_seat("t3", 1, "Ada", "a" * 64, False)  # two seats: listed once
    for tie in ("u2", "u1"):  # created at the same moment: by id
        await store.insert(a_table(tie, age=timedelta(minutes=30)))
        await store.take_seat(tie, 0, "Ada", "a" * 64, False)
    assert await store.tables_of(["a" * 64, "b" * 64], 3) == ["t3", "t2", "t1"]
    assert await store.tables_of(["a" * 64], 10) == ["t3", "t2", "t0", "u1", "u2"]
    assert await store.tables_of([], 10) == []
    assert await store.tables_of(["a" * 64], 0) == []


async def test_the_lobby_lists_public_waiting_tables_of_its_game_newest_first(
    storage: Storage,
) -> None:
    store = storage.store
    since = NOW - timedelta(hours=1)
    for table_id, age in (("a", 10), ("b", 20), ("c", 30), ("old", 90)):
        await store.insert(a_table(table_id, age=timedelta(minutes=age)))
    for tie in ("d2", "d1"):  # created at the same moment as "a": by id, highest first
        await store.insert(a_table(tie, age=timedelta(minutes=10)))
    private = a_table("hidden")
    private.settings = {"visibility": "private"}
    other = dataclasses.replace(a_table("other"), game="name-of-odin")
    playing = a_table("busy", "playing")
    for table in (private, other, playing):
        await store.insert(table)
    listed = await store.waiting("odin", since, 10)
    assert [t.id for t in listed] == ["d2", "d1", "a", "b", "c"]
    assert [t.id for t in await store.waiting("odin", since, 2)] == ["d2", "d1"]
    assert [t.id for t in await store.waiting("name-of-odin", since, 10)] == ["other"]
    assert await store.waiting("odin", since, 0) == []
    assert listed[0] == a_table("d2", age=timedelta(minutes=10))


async def test_a_tables_clock_facts_are_kept(storage: Storage) -> None:
    table = a_table("t1", "playing")
    table.settings = {"clock": {"kind": "turn", "preset": "24h", "move": 86400}}
    await storage.store.insert(table)
    loaded = await storage.store.load("t1")
    assert loaded is not None and loaded.table.clock == {}  # nothing before the game starts
    facts = {
        "started": "2026-11-22T12:00:00+00:00",
        "bots": {"1": {"level": "heuristic", "why": "left"}},
    }
    await storage.store.save_clock("t1", facts)
    facts["bots"] = {}  # changed after storing: the store kept its own copy
    again = await storage.store.load("t1")
    assert again is not None and again.table.clock["bots"] == {
        "1": {"level": "heuristic", "why": "left"}
    }
    assert again.table.settings == table.settings
