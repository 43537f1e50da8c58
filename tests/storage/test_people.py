"""The people store's contract, on memory, SQLite and PostgreSQL alike: follows, blocks,
invitations, reports, who sits where, and when a person was last seen."""

from __future__ import annotations

from datetime import timedelta

from odin_cards.server.core.ports import Storage
from odin_cards.server.core.ports.people import Invite, Person, Report, SeatAt

from .data import NOW, a_table, an_account, seated_table

NAMES = ("Ann", "Bob", "Cy", "Dee")


async def people(storage: Storage) -> list[str]:
    """Ann, Bob, Cy and Dee's accounts; their ids."""
    for name in NAMES:
        await storage.accounts.create(an_account(name))
    return [an_account(name).account.id for name in NAMES]


async def test_a_person_is_found_by_name_key_with_when_they_were_seen(storage: Storage) -> None:
    ann, bob, *_ = await people(storage)
    assert await storage.people.person("ann") == Person(ann, "Ann", None)
    await storage.people.seen(ann, NOW)
    assert await storage.people.person("ann") == Person(ann, "Ann", NOW)
    assert await storage.people.person("nobody") is None
    await storage.accounts.delete(bob, NOW, "Former player")
    assert await storage.people.person("bob") is None


async def test_follows_are_kept_once_listed_by_name_and_limited(storage: Storage) -> None:
    ann, bob, cy, dee = await people(storage)
    for followed in (dee, bob, cy):
        assert await storage.people.follow(ann, followed, NOW, 3)
    assert await storage.people.follow(ann, bob, NOW, 3)  # followed already: no change
    assert not await storage.people.follow(ann, ann, NOW, 3)  # a fourth is over the limit
    assert [p.name for p in await storage.people.following(ann, 10)] == ["Bob", "Cy", "Dee"]
    assert [p.name for p in await storage.people.following(ann, 2)] == ["Bob", "Cy"]
    assert await storage.people.follows(ann, bob) and not await storage.people.follows(bob, ann)
    await storage.people.unfollow(ann, cy)
    await storage.accounts.delete(dee, NOW, "Former player")
    assert await storage.people.following(ann, 10) == [Person(bob, "Bob")]
    assert await storage.people.following(bob, 10) == []


async def test_a_block_ends_the_blocked_ones_follow_and_invitations(storage: Storage) -> None:
    ann, bob, cy, dee = await people(storage)
    await storage.people.follow(bob, ann, NOW, 10)
    await storage.people.follow(ann, bob, NOW, 10)
    await storage.people.invite("i1", bob, ann, "t1", NOW)
    await storage.people.invite("i2", cy, ann, "t1", NOW)
    assert await storage.people.block(ann, bob, NOW, 2)
    assert not await storage.people.follows(bob, ann)
    assert await storage.people.follows(ann, bob)  # the blocker's own follow stays
    assert [i.id for i in await storage.people.invites_to(ann, NOW, 10)] == ["i2"]
    assert await storage.people.block(ann, bob, NOW, 2)  # blocked already: no change
    assert await storage.people.block(ann, dee, NOW, 2)
    assert not await storage.people.block(ann, cy, NOW, 2)  # over the limit
    assert await storage.people.blocks_between(bob, ann)
    assert await storage.people.blocks_between(ann, dee)
    assert not await storage.people.blocks_between(bob, cy)
    assert await storage.people.blocked_ids(ann) == {bob, dee}
    assert await storage.people.blocked_ids(bob) == set()
    await storage.accounts.delete(dee, NOW, "Former player")  # still listed, anonymized
    assert [p.name for p in await storage.people.blocked_by(ann, 10)] == ["Bob", "Former player"]
    assert [p.id for p in await storage.people.blocked_by(ann, 1)] == [bob]
    await storage.people.unblock(ann, bob)
    assert not await storage.people.blocks_between(ann, bob)


async def test_the_tables_people_sit_at_and_their_accounts(storage: Storage) -> None:
    ann, bob, *_ = await people(storage)
    holders = {name: await storage.accounts.by_id(i) for name, i in (("ann", ann), ("bob", bob))}
    await seated_table(storage, "old", {0: holders["ann"]}, "playing", timedelta(hours=3), 3)
    await seated_table(
        storage, "mid", {0: holders["bob"], 1: holders["ann"]}, "waiting", timedelta(hours=2)
    )
    private = a_table("hid", age=timedelta(hours=1), players=4)
    private.settings = {"visibility": "private"}
    await storage.store.insert(private)
    await storage.store.take_seat("hid", 2, "Ann", "hid-2", False, ann)
    await storage.store.lock_seat("hid", 0, True)
    await seated_table(storage, "done", {0: holders["ann"]}, "finished")
    assert await storage.people.seat_accounts("mid") == {0: bob, 1: ann}
    assert await storage.people.seat_accounts("ghost") == {}
    since = NOW - timedelta(days=1)
    found = await storage.people.tables_of([ann, bob, "nobody"], ann, since)
    assert found == {
        ann: [
            SeatAt("hid", "waiting", True, 2, 4),
            SeatAt("mid", "waiting", False, 0, 2),
            SeatAt("old", "playing", False, 2, 3),
        ],
        bob: [SeatAt("mid", "waiting", False, 0, 2)],
    }
    assert await storage.people.tables_of([], ann, since) == {}
    assert await storage.people.table_seated("mid", ann) == SeatAt("mid", "waiting", False, 0, 2)
    assert await storage.people.table_seated("done", ann) is None
    assert await storage.people.table_seated("old", bob) is None


async def test_a_person_lists_at_most_ten_tables_newest_first(storage: Storage) -> None:
    ann, *_ = await people(storage)
    holder = await storage.accounts.by_id(ann)
    for i in range(12):
        await seated_table(storage, f"t{i:02d}", {0: holder}, age=timedelta(minutes=i))
    found = await storage.people.tables_of([ann], ann, NOW)
    assert [t.table_id for t in found[ann]] == [f"t{i:02d}" for i in range(10)]


async def test_a_private_table_is_listed_only_to_who_sits_there_or_was_invited(
    storage: Storage,
) -> None:
    ann, bob, cy, dee = await people(storage)
    hidden = a_table("hid", age=timedelta(minutes=1), players=3)
    hidden.settings = {"visibility": "private"}
    await storage.store.insert(hidden)
    await storage.store.take_seat("hid", 0, "Ann", "hid-0", False, ann)
    await storage.store.take_seat("hid", 1, "Bob", "hid-1", False, bob)
    open_table = a_table("pub", age=timedelta(minutes=2), players=3)
    await storage.store.insert(open_table)
    await storage.store.take_seat("pub", 0, "Ann", "pub-0", False, ann)
    await storage.people.invite("i1", ann, cy, "hid", NOW - timedelta(hours=2))
    since = NOW - timedelta(hours=1)

    def ids(found: dict[str, list[SeatAt]]) -> list[str]:
        return [t.table_id for t in found.get(ann, [])]

    assert ids(await storage.people.tables_of([ann], bob, since)) == ["hid", "pub"]
    assert ids(await storage.people.tables_of([ann], ann, since)) == ["hid", "pub"]
    assert ids(await storage.people.tables_of([ann], dee, since)) == ["pub"]
    assert ids(await storage.people.tables_of([ann], cy, since)) == ["pub"]  # invited too long ago
    shown = await storage.people.tables_of([ann], cy, NOW - timedelta(hours=3))
    assert ids(shown) == ["hid", "pub"]


async def test_invitations_are_listed_answered_and_replaced(storage: Storage) -> None:
    ann, bob, cy, dee = await people(storage)
    hour = timedelta(hours=1)
    await storage.people.invite("i1", bob, ann, "t1", NOW - 2 * hour)
    await storage.people.invite("i2", cy, ann, "t2", NOW - hour)
    await storage.people.invite("i3", dee, ann, "t3", NOW - hour)
    await storage.people.invite("i4", bob, ann, "t1", NOW)  # again: replaces i1
    await storage.people.invite("i5", ann, bob, "t1", NOW)
    listed = await storage.people.invites_to(ann, NOW - 3 * hour, 10)
    assert listed == [
        Invite("i4", Person(bob, "Bob"), "t1", NOW),
        Invite("i2", Person(cy, "Cy"), "t2", NOW - hour),
        Invite("i3", Person(dee, "Dee"), "t3", NOW - hour),
    ]
    assert [
        i.id for i in await storage.people.invites_to(ann, NOW - 30 * timedelta(minutes=1), 10)
    ] == ["i4"]
    assert [i.id for i in await storage.people.invites_to(ann, NOW - 3 * hour, 2)] == ["i4", "i2"]
    assert [i.table_id for i in await storage.people.invites_to(ann, NOW, 10)] == ["t1"]
    await storage.accounts.delete(dee, NOW, "Former player")  # a deleted sender's: not shown
    assert [i.id for i in await storage.people.invites_to(ann, NOW - 3 * hour, 10)] == ["i4", "i2"]
    assert await storage.people.answer_invite("i4", bob) is None  # not his
    assert await storage.people.answer_invite("i4", ann) == "t1"
    assert await storage.people.answer_invite("i4", ann) is None  # answered already
    assert [i.table_id for i in await storage.people.invites_to(ann, NOW - 3 * hour, 10)] == ["t2"]


async def test_reports_are_kept_newest_first(storage: Storage) -> None:
    ann, bob, cy, _ = await people(storage)
    await storage.people.report(ann, bob, "spam", None, None, NOW - timedelta(hours=1))
    await storage.people.report(cy, bob, "abuse", "rude words", "t1", NOW)
    await storage.people.report(ann, cy, "name", None, None, NOW)
    reports = await storage.people.reports(10)
    first = reports[-1].id
    assert reports == [
        Report(first + 2, ann, cy, "name", None, None, NOW),
        Report(first + 1, cy, bob, "abuse", "rude words", "t1", NOW),
        Report(first, ann, bob, "spam", None, None, NOW - timedelta(hours=1)),
    ]
    assert await storage.people.reports(1) == reports[:1]
