"""Records to store in the storage tests (memory, SQLite, PostgreSQL) and in tests of the
core that reach the stores."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta

from odin_cards.server.core.ports import LoggedAction, SeatRecord, Storage, TableRecord
from odin_cards.server.core.ports.people import (
    Account,
    AccountRecord,
    Choice,
    SessionRecord,
    Ticket,
)

NOW = datetime(2026, 11, 22, 12, 0, 0, 123456, tzinfo=UTC)


def a_table(
    table_id: str,
    status: str = "waiting",
    age: timedelta = timedelta(0),
    players: int = 2,
    bots: dict[int, str] | None = None,
) -> TableRecord:
    bots = bots or {}
    return TableRecord(
        id=table_id,
        game="odin",
        rules_version=1,
        players=players,
        setup={"colours": 6, "target": 15},
        seed=2**62 + 12345,
        status=status,
        created=NOW - age,
        seats=[SeatRecord(seat, bot=bots.get(seat)) for seat in range(players)],
    )


def an_action(number: int, seat: int = 0, client_id: str | None = None) -> LoggedAction:
    return LoggedAction(number, seat, f"play {number}", client_id, NOW + timedelta(seconds=number))


def an_account(name: str, age: timedelta = timedelta(0), number: int = 0) -> AccountRecord:
    """An account called ``name`` (id ``id-<name>``, or ``id-<name>-<number>``; key its
    lower case)."""
    account_id = f"id-{name.lower()}" + (f"-{number}" if number else "")
    account = Account(account_id, name, NOW - age)
    return AccountRecord(account, name.lower(), f"hash of {name}")


def a_session(session_id: str, account_id: str, age: timedelta = timedelta(0)) -> SessionRecord:
    when = NOW - age
    return SessionRecord(
        session_id, account_id, f"csrf-{session_id}", when, when + timedelta(days=30), when
    )


FOUR = Choice(4, "15", "normal", "odin")


def a_ticket(
    ticket_id: str,
    account_id: str | None = None,
    choice: Choice = FOUR,
    age: timedelta = timedelta(0),
    address: str = "192.0.2.1",
    rating: float | None = None,
) -> Ticket:
    when = NOW - age
    return Ticket(
        ticket_id,
        f"hash-{ticket_id}",
        choice,
        ticket_id.capitalize(),
        account_id,
        rating,
        address,
        when,
        when,
    )


async def seated_table(
    storage: Storage,
    table_id: str,
    holders: Mapping[int, AccountRecord | None],
    status: str = "playing",
    age: timedelta = timedelta(0),
    players: int = 2,
) -> TableRecord:
    """A stored table whose seats in ``holders`` are taken (by an account, or a guest for
    ``None``; token hashes ``<table>-<seat>``); the others are free."""
    table = a_table(table_id, status, age, players)
    await storage.store.insert(table)
    for seat, holder in holders.items():
        name = holder.account.name if holder is not None else f"Guest{seat}"
        account = holder.account.id if holder is not None else None
        await storage.store.take_seat(table_id, seat, name, f"{table_id}-{seat}", False, account)
    return table
