"""The in-memory database's failures to order, on every store alike: a refused write
stores nothing, an unknown outcome stored or not as ordered, a database that is down
refuses every read and write, held writes wait. (What the stores keep, failures aside, is
the contract the other modules of this package check on memory and SQL alike.)"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import pytest

from odin_cards.server.adapters.memory import MemoryDatabase
from odin_cards.server.core.ports import ChatLine, CommitUnknown, StoreUnavailable
from odin_cards.server.core.ports.people import SeatResult, TableResult, Ticket

from .data import NOW, a_session, a_table, a_ticket, an_account, an_action, seated_table

Step = Callable[[MemoryDatabase], Awaitable[Any]]

LATER = NOW + timedelta(minutes=5)


async def seeded() -> MemoryDatabase:
    """Ann and Bob, a waiting table (Ann at seat 0), a playing one (a guest at seat 0), a
    finished one (Ann), Ann's session, a failed login, a follow, a block, an invitation
    and three of Play now's tickets (one claimed, one stale)."""
    db = MemoryDatabase()
    ann, bob = an_account("Ann"), an_account("Bob")
    for account in (ann, bob):
        await db.accounts.create(account)
    await seated_table(db, "t1", {0: ann}, "waiting")
    await seated_table(db, "t2", {0: None}, "playing")
    await seated_table(db, "t3", {0: ann}, "finished")
    await db.accounts.add_session(a_session("s1", ann.account.id))
    await db.accounts.count_failure("n:ann", NOW, timedelta(hours=1), 5, timedelta(hours=1))
    await db.people.follow("id-ann", "id-bob", NOW, 10)
    await db.people.block("id-bob", "id-cy", NOW, 10)
    await db.people.invite("i1", "id-bob", "id-ann", "t1", NOW)
    for ticket in (a_ticket("t-ann", "id-ann"), a_ticket("t-bob", "id-bob")):
        await db.matches.add(ticket, None)
    await db.matches.add(a_ticket("t-old", age=timedelta(hours=1)), None)
    await db.matches.claim("t-bob", NOW, NOW - timedelta(hours=1), lambda a, o, b: [a])
    return db


def result_of_t3() -> TableResult:
    seats = (SeatResult(0, True, None, 1, True, 0), SeatResult(1, False, "easy", 2, False, 9))
    return TableResult("t3", "odin", 2, NOW, seats, False, None)


async def ticket(db: MemoryDatabase, name: str) -> Ticket | None:
    return await db.matches.by_token(f"hash-{name}")


async def seat(db: MemoryDatabase, table_id: str, number: int) -> Any:
    stored = await db.store.load(table_id)
    assert stored is not None
    return stored.table.seats[number]


async def table(db: MemoryDatabase, table_id: str) -> Any:
    stored = await db.store.load(table_id)
    return None if stored is None else (stored.table, stored.log)


LINE = ChatLine(0, "s0", "Ann", 0, "hi", None, 0, NOW)

WRITES: dict[str, tuple[Step, Step]] = {
    # name: (the write, what it changes)
    "insert": (lambda db: db.store.insert(a_table("new")), lambda db: table(db, "new")),
    "insert_following": (
        lambda db: db.store.insert_following(a_table("t3"), a_table("next")),
        lambda db: table(db, "next"),
    ),
    "take_seat": (
        lambda db: db.store.take_seat("t1", 1, "Bob", "h", True, "id-bob"),
        lambda db: table(db, "t1"),
    ),
    "lock_seat": (lambda db: db.store.lock_seat("t1", 1, True), lambda db: seat(db, "t1", 1)),
    "set_status": (lambda db: db.store.set_status("t2", "broken", "x"), lambda db: table(db, "t2")),
    "expire_waiting": (
        lambda db: db.store.expire_waiting(LATER),
        lambda db: table(db, "t1"),
    ),
    "save_clock": (lambda db: db.store.save_clock("t2", {"a": 1}), lambda db: table(db, "t2")),
    "append": (lambda db: db.log.append("t2", an_action(0), True), lambda db: table(db, "t2")),
    "add_chat": (lambda db: db.social.add_chat("t2", LINE), lambda db: db.social.chat_of("t2", 9)),
    "save_rematch": (
        lambda db: db.social.save_rematch("t3", {"answers": {}}),
        lambda db: db.social.rematch_of("t3"),
    ),
    "create": (
        lambda db: db.accounts.create(an_account("Cy")),
        lambda db: db.accounts.by_key("cy"),
    ),
    "set_password": (
        lambda db: db.accounts.set_password("id-ann", "new"),
        lambda db: db.accounts.by_id("id-ann"),
    ),
    "add_session": (
        lambda db: db.accounts.add_session(a_session("s2", "id-bob")),
        lambda db: db.accounts.session("s2"),
    ),
    "touch_session": (
        lambda db: db.accounts.touch_session("s1", LATER),
        lambda db: db.accounts.session("s1"),
    ),
    "end_session": (
        lambda db: db.accounts.end_session("s1"),
        lambda db: db.accounts.session("s1"),
    ),
    "end_sessions": (
        lambda db: db.accounts.end_sessions("id-ann"),
        lambda db: db.accounts.session("s1"),
    ),
    "count_failure": (
        lambda db: db.accounts.count_failure(
            "n:ann", LATER, timedelta(hours=1), 5, timedelta(hours=1)
        ),
        lambda db: db.accounts.attempts("n:ann"),
    ),
    "clear_attempts": (
        lambda db: db.accounts.clear_attempts("n:ann"),
        lambda db: db.accounts.attempts("n:ann"),
    ),
    "link_seats": (
        lambda db: db.accounts.link_seats("id-bob", ["t2-0"]),
        lambda db: db.accounts.seats_of("id-bob", 9),
    ),
    "set_seat_token": (
        lambda db: db.accounts.set_seat_token("t1", 0, "id-ann", "moved"),
        lambda db: seat(db, "t1", 0),
    ),
    "delete": (
        lambda db: db.accounts.delete("id-ann", NOW, "Former player"),
        lambda db: db.accounts.by_id("id-ann"),
    ),
    "set_banned": (
        lambda db: db.accounts.set_banned("id-ann", NOW),
        lambda db: db.accounts.by_id("id-ann"),
    ),
    "settle": (
        lambda db: db.ratings.settle(result_of_t3(), lambda accounts, current: "unrated"),
        lambda db: db.ratings.unsettled(9),
    ),
    "follow": (
        lambda db: db.people.follow("id-bob", "id-ann", NOW, 9),
        lambda db: db.people.follows("id-bob", "id-ann"),
    ),
    "unfollow": (
        lambda db: db.people.unfollow("id-ann", "id-bob"),
        lambda db: db.people.follows("id-ann", "id-bob"),
    ),
    "block": (
        lambda db: db.people.block("id-bob", "id-ann", NOW, 9),
        lambda db: db.people.follows("id-ann", "id-bob"),
    ),
    "unblock": (
        lambda db: db.people.unblock("id-bob", "id-cy"),
        lambda db: db.people.blocked_ids("id-bob"),
    ),
    "seen": (
        lambda db: db.people.seen("id-ann", LATER),
        lambda db: db.people.person("ann"),
    ),
    "invite": (
        lambda db: db.people.invite("i2", "id-ann", "id-bob", "t1", NOW),
        lambda db: db.people.invites_to("id-bob", NOW, 9),
    ),
    "answer_invite": (
        lambda db: db.people.answer_invite("i1", "id-ann"),
        lambda db: db.people.invites_to("id-ann", NOW, 9),
    ),
    "report": (
        lambda db: db.people.report("id-ann", "id-bob", "spam", None, None, NOW),
        lambda db: db.people.reports(9),
    ),
    "add": (
        lambda db: db.matches.add(a_ticket("t-cy"), None),
        lambda db: ticket(db, "t-cy"),
    ),
    "ticket_seen": (
        lambda db: db.matches.seen("t-ann", LATER),
        lambda db: ticket(db, "t-ann"),
    ),
    "cancel": (lambda db: db.matches.cancel("t-ann"), lambda db: ticket(db, "t-ann")),
    "claim": (
        lambda db: db.matches.claim("t-ann", NOW, NOW, lambda a, o, b: [a]),
        lambda db: ticket(db, "t-ann"),
    ),
    "seated": (
        lambda db: db.matches.seated({"t-bob": 0}, "t1"),
        lambda db: ticket(db, "t-bob"),
    ),
    "release": (lambda db: db.matches.release(["t-bob"]), lambda db: ticket(db, "t-bob")),
    "sweep": (
        lambda db: db.matches.sweep(NOW - timedelta(minutes=1), NOW, NOW),
        lambda db: ticket(db, "t-old"),
    ),
}

READS: list[Step] = [
    lambda db: db.store.load("t1"),
    lambda db: db.store.load_resumable(NOW),
    lambda db: db.store.waiting("odin", NOW, 9),
    lambda db: db.store.tables_of(["t1-0"], 9),
    lambda db: db.store.broken(),
    lambda db: db.log.read_back("t2", 0),
    lambda db: db.log.read_from("t2", 0),
    lambda db: db.social.chat_of("t2", 9),
    lambda db: db.social.rematch_of("t2"),
    lambda db: db.accounts.by_key("ann"),
    lambda db: db.accounts.by_id("id-ann"),
    lambda db: db.accounts.session("s1"),
    lambda db: db.accounts.attempts("n:ann"),
    lambda db: db.accounts.seats_of("id-ann", 9),
    lambda db: db.ratings.unsettled(9),
    lambda db: db.ratings.rating("id-ann", "multi"),
    lambda db: db.profiles.person("ann"),
    lambda db: db.profiles.ratings_of("id-ann"),
    lambda db: db.profiles.history("id-ann", 9),
    lambda db: db.profiles.played("id-ann"),
    lambda db: db.profiles.recent("id-ann", 9),
    lambda db: db.profiles.figures("id-ann", 9, ["odin"]),
    lambda db: db.profiles.board("multi", 0, 9, True),
    lambda db: db.people.person("ann"),
    lambda db: db.people.following("id-ann", 9),
    lambda db: db.people.follows("id-ann", "id-bob"),
    lambda db: db.people.blocked_by("id-bob", 9),
    lambda db: db.people.blocks_between("id-ann", "id-bob"),
    lambda db: db.people.blocked_ids("id-bob"),
    lambda db: db.people.seat_accounts("t1"),
    lambda db: db.people.tables_of(["id-ann"], "id-bob", NOW),
    lambda db: db.people.table_seated("t1", "id-ann"),
    lambda db: db.people.invites_to("id-ann", NOW, 9),
    lambda db: db.people.reports(9),
    lambda db: db.matches.by_token("hash-t-ann"),
    lambda db: db.matches.counts(a_ticket("x").choice, NOW),
    lambda db: db.matches.waiting_of("192.0.2.1", NOW),
]


@pytest.mark.parametrize("name", WRITES)
async def test_a_refused_write_stores_nothing_and_the_next_one_works(name: str) -> None:
    write, look = WRITES[name]
    db = await seeded()
    before = await look(db)
    db.faults.fail_next()
    with pytest.raises(StoreUnavailable) as refused:
        await write(db)
    assert not isinstance(refused.value, CommitUnknown)
    assert await look(db) == before
    await write(db)
    assert await look(db) != before  # (the write changes what is looked at)


@pytest.mark.parametrize("stored", [True, False], ids=["stored", "lost"])
@pytest.mark.parametrize("name", WRITES)
async def test_an_unknown_outcome_is_stored_or_not_as_ordered(name: str, stored: bool) -> None:
    write, look = WRITES[name]
    db, done = await seeded(), await seeded()
    await write(done)
    db.faults.unknown_next(stored=stored)
    with pytest.raises(CommitUnknown):
        await write(db)
    assert await look(db) == (await look(done) if stored else await look(await seeded()))


async def test_a_database_that_is_down_refuses_every_read_and_write() -> None:
    db = await seeded()
    assert await db.healthy()
    db.faults.down = True
    assert not await db.healthy()
    for step in [*READS, *(write for write, _ in WRITES.values())]:
        with pytest.raises(StoreUnavailable):
            await step(db)
    db.faults.down = False
    assert await db.healthy()
    assert await table(db, "t2") == await table(await seeded(), "t2")
    for read in READS:
        await read(db)


async def test_held_writes_wait_until_released() -> None:
    db = MemoryDatabase()
    await db.store.insert(a_table("t1", "playing"))
    db.faults.hold()
    takers = [
        asyncio.create_task(db.store.take_seat("t1", 0, name, name * 64, False))
        for name in ("a", "b")
    ]
    chat = asyncio.create_task(db.social.add_chat("t1", LINE))
    await db.faults.held(3)
    assert (await seat(db, "t1", 0)).name is None
    assert await db.social.chat_of("t1", 9) == []
    db.faults.release()
    results = await asyncio.gather(*takers, return_exceptions=True)
    assert sorted(type(r).__name__ for r in results) == ["NoneType", "SeatTaken"]
    await chat
    assert await db.social.chat_of("t1", 9) == [LINE]
