"""Play now's queue store's contract, on memory, SQLite and PostgreSQL alike: tickets
added, replaced, counted and kept alive; a group claimed in one transaction; the stuck and
the stale swept."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest

from odin_cards.server.core.ports import Storage, StoreUnavailable
from odin_cards.server.core.ports.people import Blocked, Choice, Ticket

from .data import FOUR, NOW, a_ticket, an_account

MINUTE = timedelta(minutes=1)
OTHER_GAME = Choice(4, "15", "normal", "other")
"""FOUR's seats, preset and clock in another game: never counted or matched with it."""
STALE = NOW - 2 * MINUTE


async def state(storage: Storage, ticket_id: str) -> str:
    ticket = await storage.matches.by_token(f"hash-{ticket_id}")
    assert ticket is not None
    return ticket.state


async def test_tickets_are_stored_counted_and_kept_alive(storage: Storage) -> None:
    matches = storage.matches
    three = Choice(3, "15", "normal", "odin")
    await matches.add(a_ticket("ann", rating=512.5), None)
    await matches.add(a_ticket("bob", address="192.0.2.9"), None)
    await matches.add(a_ticket("cy", choice=three), None)
    await matches.add(a_ticket("old", age=3 * MINUTE), None)  # not seen for too long
    await matches.add(a_ticket("dee", choice=OTHER_GAME), None)
    assert await matches.by_token("hash-ann") == a_ticket("ann", rating=512.5)
    assert await matches.by_token("hash-dee") == a_ticket("dee", choice=OTHER_GAME)
    assert await matches.by_token("hash-nobody") is None
    assert await matches.counts(FOUR, STALE) == (2, 4)
    assert await matches.counts(three, STALE) == (1, 4)
    assert await matches.counts(OTHER_GAME, STALE) == (1, 4)
    assert await matches.waiting_of("192.0.2.1", STALE) == 3
    await matches.seen(a_ticket("old").id, NOW)
    assert await matches.counts(FOUR, STALE) == (3, 5)
    assert await matches.cancel("bob")
    assert not await matches.cancel("bob")  # no longer waiting
    await matches.seen("bob", NOW + MINUTE)  # a cancelled ticket is not kept alive
    bob = await matches.by_token("hash-bob")
    assert bob is not None and (bob.state, bob.seen) == ("cancelled", NOW)
    assert await matches.counts(FOUR, STALE) == (2, 4)


async def test_a_new_ticket_replaces_the_waiting_ones_of_its_person(storage: Storage) -> None:
    matches = storage.matches
    await matches.add(a_ticket("a1", account_id="id-ann"), None)
    await matches.add(a_ticket("g1"), None)
    await matches.add(a_ticket("a2", account_id="id-ann"), "id-ann")
    await matches.add(a_ticket("g2"), "hash-g1")  # this browser's previous ticket
    assert [await state(storage, t) for t in ("a1", "a2", "g1", "g2")] == [
        "cancelled",
        "waiting",
        "cancelled",
        "waiting",
    ]
    taken = dataclasses.replace(a_ticket("g3"), token_hash="hash-g1")
    with pytest.raises(StoreUnavailable):  # a token hash is given once, ever
        await matches.add(taken, None)
    assert await matches.counts(FOUR, STALE) == (2, 2)


async def test_a_claim_offers_the_fresh_same_choice_tickets_and_marks_the_group(
    storage: Storage,
) -> None:
    for name in ("Ann", "Bob", "Cy", "Dee", "Eve"):
        await storage.accounts.create(an_account(name))
    matches = storage.matches
    await matches.add(a_ticket("ann", "id-ann", age=MINUTE), None)
    await matches.add(a_ticket("dee", "id-dee", age=MINUTE / 2), None)
    await matches.add(a_ticket("bob", "id-bob"), None)
    await matches.add(a_ticket("gus"), None)
    await matches.add(a_ticket("cy", "id-cy", choice=Choice(2, "15", "normal", "odin")), None)
    await matches.add(a_ticket("eve", "id-eve"), None)
    await matches.add(a_ticket("stale", age=5 * MINUTE), None)
    await matches.add(a_ticket("zed", choice=OTHER_GAME), None)
    await storage.people.block("id-dee", "id-bob", NOW, 10)
    await storage.accounts.set_banned("id-eve", NOW)
    offered: list[tuple[Ticket, list[str], Blocked]] = []

    def pick(anchor: Ticket, others: list[Ticket], blocked: Blocked) -> list[Ticket] | None:
        offered.append((anchor, [t.id for t in others], blocked))
        return [anchor, *[t for t in others if t.id == "bob"]]

    group = await matches.claim("ann", STALE, NOW, pick)
    [(anchor, others, blocked)] = offered
    assert anchor == a_ticket("ann", "id-ann", age=MINUTE)
    # Oldest first; not Cy (2 seats), Eve (banned), the stale ticket, Zed (another game).
    assert others == ["dee", "bob", "gus"]
    assert set(blocked) == {frozenset(("id-dee", "id-bob"))}
    assert group is not None and [t.id for t in group] == ["ann", "bob"]
    claimed = await matches.by_token("hash-bob")
    assert claimed is not None and (claimed.state, claimed.claimed) == ("matching", NOW)
    assert await matches.claim("ann", STALE, NOW, pick) is None  # claimed already
    assert len(offered) == 1
    assert await matches.claim("eve", STALE, NOW, pick) is None  # banned: cancelled
    assert await state(storage, "eve") == "cancelled"
    assert await matches.claim("dee", STALE, NOW, lambda *_: None) is None
    assert await state(storage, "dee") == "waiting"
    await matches.seated({"ann": 0, "bob": 1}, "t1")
    seated = await matches.by_token("hash-ann")
    assert seated is not None and (seated.state, seated.table_id, seated.seat) == (
        "matched",
        "t1",
        0,
    )


async def test_a_released_group_waits_again_and_the_sweep_cleans_up(storage: Storage) -> None:
    matches = storage.matches
    for name in ("ann", "bob", "cy", "dee"):
        await matches.add(a_ticket(name), None)
    await matches.add(a_ticket("gone", age=5 * MINUTE), None)

    def alone(anchor: Ticket, others: list[Ticket], blocked: Blocked) -> list[Ticket]:
        return [anchor]

    await matches.claim("ann", STALE, NOW - 10 * MINUTE, alone)
    await matches.claim("bob", STALE, NOW, alone)
    await matches.claim("cy", STALE, NOW, alone)
    await matches.release(["cy", "dee"])  # dee was not claimed: it just waits on
    assert [await state(storage, t) for t in ("ann", "bob", "cy", "dee")] == [
        "matching",
        "matching",
        "waiting",
        "waiting",
    ]
    later = NOW + MINUTE
    swept = await matches.sweep(STALE, NOW - 5 * MINUTE, later)
    assert swept == 2  # the stale ticket expired; Ann's claim (10 minutes old) waits again
    ann = await matches.by_token("hash-ann")
    assert ann is not None and (ann.state, ann.claimed, ann.seen) == ("waiting", None, later)
    assert await state(storage, "gone") == "expired"
    assert await state(storage, "bob") == "matching"
    assert await matches.sweep(STALE, NOW - 5 * MINUTE, later) == 0
