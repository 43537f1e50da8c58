"""The account store's contract, on memory, SQLite and PostgreSQL alike: accounts and
their unique names, sessions, failed logins counted and locked, the seats accounts hold,
deletion and bans."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest

from odin_cards.server.core.ports import ChatLine, NameTaken, Storage, StoreUnavailable
from odin_cards.server.core.ports.people import Attempts, HeldSeat

from .data import NOW, a_session, a_table, an_account, seated_table

NEUTRAL = "Former player"


async def test_an_account_is_found_by_its_key_and_id_and_its_key_is_unique(
    storage: Storage,
) -> None:
    ann = an_account("Ann")
    await storage.accounts.create(ann)
    assert await storage.accounts.by_key("ann") == ann
    assert await storage.accounts.by_id(ann.account.id) == ann
    assert await storage.accounts.by_key("bob") is None
    assert await storage.accounts.by_id("nobody") is None
    twin = an_account("ANN", number=2)  # another id, the same key
    with pytest.raises(NameTaken):
        await storage.accounts.create(twin)
    with pytest.raises(NameTaken):  # nor is an id given twice
        await storage.accounts.create(dataclasses.replace(ann, name_key="ann2"))
    assert await storage.accounts.by_id(twin.account.id) is None
    await storage.accounts.set_password(ann.account.id, "new hash")
    changed = await storage.accounts.by_key("ann")
    assert changed is not None and changed.password_hash == "new hash"


async def test_sessions_open_show_their_account_and_end(storage: Storage) -> None:
    ann, bob = an_account("Ann"), an_account("Bob")
    for account in (ann, bob):
        await storage.accounts.create(account)
    for session_id, owner in (("s1", ann), ("s2", ann), ("s3", ann), ("s4", bob)):
        await storage.accounts.add_session(a_session(session_id, owner.account.id))
    assert await storage.accounts.session("s1") == (a_session("s1", ann.account.id), ann)
    assert await storage.accounts.session("nope") is None
    with pytest.raises(StoreUnavailable):  # no such account
        await storage.accounts.add_session(a_session("s5", "nobody"))
    with pytest.raises(StoreUnavailable):  # an id is given once
        await storage.accounts.add_session(a_session("s1", bob.account.id))
    later = NOW + timedelta(minutes=5)
    await storage.accounts.touch_session("s1", later)
    touched = await storage.accounts.session("s1")
    assert touched is not None and touched[0].last_used == later
    seen = await storage.people.person("ann")
    assert seen is not None and seen.last_seen == later
    await storage.accounts.end_session("s2")
    assert await storage.accounts.session("s2") is None
    await storage.accounts.end_sessions(ann.account.id, keep="s1")
    assert await storage.accounts.session("s1") is not None
    assert await storage.accounts.session("s3") is None
    assert await storage.accounts.session("s4") is not None  # another account's
    await storage.accounts.end_sessions(ann.account.id)
    assert await storage.accounts.session("s1") is None


async def test_failures_are_counted_in_a_window_and_lock_once(storage: Storage) -> None:
    accounts = storage.accounts
    window, lock = timedelta(minutes=15), timedelta(minutes=30)
    assert await accounts.attempts("n:ann") is None
    counted = [
        await accounts.count_failure("n:ann", NOW + timedelta(minutes=i), window, 3, lock)
        for i in range(4)
    ]
    locked = NOW + timedelta(minutes=2) + lock
    assert counted == [
        Attempts(1, NOW, None),
        Attempts(2, NOW, None),
        Attempts(3, NOW, locked),
        Attempts(4, NOW, locked),  # the lock does not move
    ]
    assert await accounts.attempts("n:ann") == counted[-1]
    assert await accounts.attempts("n:bob") is None
    # A failure a whole window after the first begins a new window.
    fresh = await accounts.count_failure("n:ann", NOW + window, window, 3, lock)
    assert fresh == Attempts(1, NOW + window, None)
    await accounts.clear_attempts("n:ann")
    assert await accounts.attempts("n:ann") is None


async def test_seats_are_linked_listed_and_claimed_by_their_account(storage: Storage) -> None:
    ann, bob = an_account("Ann"), an_account("Bob")
    for account in (ann, bob):
        await storage.accounts.create(account)
    await seated_table(storage, "old", {0: None, 1: ann}, age=timedelta(hours=2))
    await seated_table(storage, "new", {0: None, 1: None}, age=timedelta(hours=1))
    await seated_table(storage, "tie", {0: None}, age=timedelta(hours=1))
    linked = await storage.accounts.link_seats(ann.account.id, ["old-0", "new-1", "tie-0"])
    assert linked == 3
    # A seat an account holds is not linked again, to anyone.
    assert await storage.accounts.link_seats(bob.account.id, ["old-1", "new-1", "x"]) == 0
    assert await storage.accounts.link_seats(bob.account.id, []) == 0
    assert await storage.accounts.seats_of(ann.account.id, 10) == [
        HeldSeat("new", 1),
        HeldSeat("tie", 0),
        HeldSeat("old", 0),
        HeldSeat("old", 1),
    ]
    assert await storage.accounts.seats_of(ann.account.id, 2) == [
        HeldSeat("new", 1),
        HeldSeat("tie", 0),
    ]
    assert await storage.accounts.seats_of(bob.account.id, 10) == []
    assert await storage.accounts.set_seat_token("new", 1, ann.account.id, "moved")
    assert not await storage.accounts.set_seat_token("new", 0, ann.account.id, "not hers")
    assert not await storage.accounts.set_seat_token("new", 1, bob.account.id, "not his")
    assert not await storage.accounts.set_seat_token("a\x00b", 1, ann.account.id, "x")
    stored = await storage.store.load("new")
    assert stored is not None
    assert [s.token_hash for s in stored.table.seats] == ["new-0", "moved"]
    assert [s.account for s in stored.table.seats] == [None, "Ann"]


async def test_deleting_an_account_frees_its_name_and_anonymizes_its_seats(
    storage: Storage,
) -> None:
    ann, bob = an_account("Ann"), an_account("Bob")
    for account in (ann, bob):
        await storage.accounts.create(account)
    await storage.accounts.add_session(a_session("s1", ann.account.id))
    await storage.accounts.touch_session("s1", NOW)
    await seated_table(storage, "t2", {0: bob, 1: ann})
    await seated_table(storage, "t1", {0: ann, 1: bob})
    await storage.store.insert(a_table("t3"))
    for table_id, seat in (("t1", 0), ("t1", 1), ("t2", 1), ("t3", 0)):
        line = ChatLine(0 if seat == 0 else 1, f"s{seat}", "Ann?", seat, "hi", None, 0, NOW)
        await storage.social.add_chat(table_id, line)
    changed = await storage.accounts.delete(ann.account.id, NOW, NEUTRAL)
    assert changed == [HeldSeat("t1", 0), HeldSeat("t2", 1)]
    assert await storage.accounts.by_key("ann") is None
    gone = await storage.accounts.by_id(ann.account.id)
    assert gone is not None and gone.account.deleted == NOW
    assert gone.account.name == NEUTRAL and gone.password_hash == ""
    assert await storage.accounts.session("s1") is None
    assert await storage.people.person("ann") is None
    assert await storage.profiles.person("ann") is None
    await storage.accounts.create(an_account("Ann", number=2))  # the name is free again
    t1, t2 = await storage.store.load("t1"), await storage.store.load("t2")
    assert t1 is not None and t2 is not None
    assert [(s.name, s.account_id) for s in t1.table.seats] == [
        (NEUTRAL, None),
        ("Bob", bob.account.id),
    ]
    assert [(s.name, s.account_id) for s in t2.table.seats] == [
        ("Bob", bob.account.id),
        (NEUTRAL, None),
    ]
    named = {
        table_id: [line.name for line in await storage.social.chat_of(table_id, 10)]
        for table_id in ("t1", "t2", "t3")
    }
    assert named == {"t1": [NEUTRAL, "Ann?"], "t2": [NEUTRAL], "t3": ["Ann?"]}
    assert await storage.accounts.seats_of(ann.account.id, 10) == []
    assert await storage.accounts.delete("nobody", NOW, NEUTRAL) == []


async def test_a_ban_ends_every_session_and_is_lifted(storage: Storage) -> None:
    ann = an_account("Ann")
    await storage.accounts.create(ann)
    for session_id in ("s1", "s2"):
        await storage.accounts.add_session(a_session(session_id, ann.account.id))
    await storage.accounts.set_banned(ann.account.id, NOW)
    banned = await storage.accounts.by_key("ann")
    assert banned is not None and banned.account.banned == NOW
    assert [await storage.accounts.session(s) for s in ("s1", "s2")] == [None, None]
    await storage.accounts.add_session(a_session("s3", ann.account.id))
    await storage.accounts.set_banned(ann.account.id, None)
    lifted = await storage.accounts.by_key("ann")
    assert lifted is not None and lifted.account.banned is None
    assert await storage.accounts.session("s3") is not None
