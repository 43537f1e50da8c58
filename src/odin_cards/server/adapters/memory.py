"""The in-memory database (:class:`MemoryDatabase`, the core's
:class:`~odin_cards.server.core.ports.Storage`) and its table store and event log.

Every store keeps the SQL adapters' promises, which the contract suite
(``tests/storage/``) checks on memory, SQLite and PostgreSQL alike: a seat is given once,
a log key and a client id are stored once per table, ``finished`` is written with the
action, lists come in the same order and within the same limits. Records are copied in
and out, so nothing the core holds is shared with what is "stored". The failures to order
(:class:`~.memory_data.Faults`: refused writes, unknown outcomes, a database that is down,
held writes) apply to every store of one database.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from odin_cards.server.adapters.memory_accounts import MemoryAccountStore
from odin_cards.server.adapters.memory_data import Faults, MemoryData, Outcome
from odin_cards.server.adapters.memory_people import MemoryMatchStore, MemoryPeopleStore
from odin_cards.server.adapters.memory_ratings import MemoryRatingStore
from odin_cards.server.adapters.memory_social import MemorySocialStore
from odin_cards.server.core.ports import (
    STATUSES,
    Fenced,
    LoggedAction,
    SeatRecord,
    SeatTaken,
    StoredTable,
    StoreUnavailable,
    TableRecord,
)
from odin_cards.server.core.ports.records import MAX_REASON

__all__ = ["Faults", "MemoryDatabase", "MemoryEventLog", "MemoryTableStore", "Outcome"]


class MemoryDatabase(MemoryData):
    """One in-memory database with every store on it (its rows and :attr:`faults` are
    :class:`~.memory_data.MemoryData`'s). A new hall on the same instance finds what the
    old one stored: a restart, in tests."""

    def __init__(self) -> None:
        super().__init__()
        self.store = MemoryTableStore(self)
        self.log = MemoryEventLog(self)
        self.social = MemorySocialStore(self)
        self.accounts = MemoryAccountStore(self)
        self.ratings = MemoryRatingStore(self)
        self.profiles = self.ratings
        self.people = MemoryPeopleStore(self)
        self.matches = MemoryMatchStore(self)

    async def healthy(self) -> bool:
        return not self.faults.down


class MemoryTableStore:
    """:class:`~odin_cards.server.core.ports.TableStore` in memory."""

    def __init__(self, database: MemoryData) -> None:
        self.db = database

    async def insert(self, table: TableRecord) -> None:
        _check_status(table.status)
        async with self.db.writing() as kept:
            self._check_new(table.id)
            if kept:
                self._add(table)

    async def insert_following(self, table: TableRecord, following: TableRecord) -> None:
        _check_status(following.status)
        async with self.db.writing() as kept:
            stored = self.db.tables.get(table.id)
            if stored is None or stored.next_table is not None:
                raise StoreUnavailable(f"table {table.id} is missing or has a next table already")
            self._check_new(following.id)
            if kept:
                self._add(following)
                # A seat keeps the account its token held at the table before, as stored.
                held = {s.token_hash: s.account_id for s in reversed(stored.seats)}
                for seat in self.db.tables[following.id].seats:
                    if seat.token_hash is not None:
                        seat.account_id = held.get(seat.token_hash)
                stored.next_table = following.id

    async def load(self, table_id: str) -> StoredTable | None:
        self.db.reading()
        return self._stored(table_id) if table_id in self.db.tables else None

    async def load_resumable(self, waiting_since: datetime) -> list[StoredTable]:
        self.db.reading()
        return [
            self._stored(t.id)
            for t in self._oldest_first()
            if t.status == "playing" or (t.status == "waiting" and t.created >= waiting_since)
        ]

    async def waiting(self, game: str, since: datetime, limit: int) -> list[TableRecord]:
        self.db.reading()
        found = [
            t
            for t in self.db.tables.values()
            if t.status == "waiting"
            and t.game == game
            and t.created >= since
            and self.db.listed(t.id)
        ]
        found.sort(key=lambda t: (t.created, t.id), reverse=True)
        return [self.db.stored_table(t.id) for t in found[: max(limit, 0)]]

    async def take_seat(
        self,
        table_id: str,
        seat: int,
        name: str,
        token_hash: str,
        starts: bool,
        account_id: str | None = None,
    ) -> None:
        async with self.db.writing() as kept:
            place = self._seat(table_id, seat)
            if place.name is not None or place.bot is not None or place.locked:
                raise SeatTaken(f"seat {seat} of table {table_id} is not free")
            if kept:
                place.name, place.token_hash, place.account_id = name, token_hash, account_id
                table = self.db.tables[table_id]
                if starts and table.status == "waiting":
                    table.status = "playing"

    async def lock_seat(self, table_id: str, seat: int, locked: bool) -> None:
        async with self.db.writing() as kept:
            place = self._seat(table_id, seat)
            if place.name is not None or place.bot is not None:
                raise SeatTaken(f"seat {seat} of table {table_id} is not free")
            if kept:
                place.locked = locked

    async def tables_of(self, token_hashes: Sequence[str], limit: int) -> list[str]:
        self.db.reading()
        wanted = set(token_hashes)
        found = [
            t
            for t in self.db.tables.values()
            if any(s.token_hash is not None and s.token_hash in wanted for s in t.seats)
        ]
        found.sort(key=lambda t: t.id)
        found.sort(key=lambda t: t.created, reverse=True)
        return [t.id for t in found[: max(limit, 0)]]

    async def set_status(self, table_id: str, status: str, reason: str | None = None) -> None:
        _check_status(status)
        async with self.db.writing() as kept:
            table = self.db.tables.get(table_id)
            if table is not None and kept:
                table.status = status
                table.broken_reason = None if reason is None else reason[:MAX_REASON]

    async def expire_waiting(self, before: datetime) -> list[str]:
        async with self.db.writing() as kept:
            old = [
                t for t in self.db.tables.values() if t.status == "waiting" and t.created < before
            ]
            if kept:
                for table in old:
                    table.status = "expired"
            return sorted(t.id for t in old)

    async def broken(self) -> list[TableRecord]:
        self.db.reading()
        return [self.db.stored_table(t.id) for t in self._oldest_first() if t.status == "broken"]

    async def save_clock(self, table_id: str, clock: dict[str, Any]) -> None:
        async with self.db.writing() as kept:
            table = self.db.tables.get(table_id)
            if table is not None and kept:
                table.clock = copy.deepcopy(clock)

    def _check_new(self, table_id: str) -> None:
        if table_id in self.db.tables:
            raise StoreUnavailable(f"table {table_id} exists already")

    def _add(self, table: TableRecord) -> None:
        stored = copy.deepcopy(table)
        for seat in stored.seats:
            seat.account = None  # read from the accounts, never stored
        self.db.tables[table.id] = stored
        self.db.logs[table.id] = []

    def _seat(self, table_id: str, seat: int) -> SeatRecord:
        table = self.db.tables.get(table_id)
        places = [] if table is None else [s for s in table.seats if s.seat == seat]
        if not places:
            raise SeatTaken(f"table {table_id} has no seat {seat}")
        return places[0]

    def _stored(self, table_id: str) -> StoredTable:
        log = sorted(self.db.logs.get(table_id, []), key=lambda a: a.number)
        return StoredTable(self.db.stored_table(table_id), log)

    def _oldest_first(self) -> list[TableRecord]:
        return sorted(self.db.tables.values(), key=lambda t: (t.created, t.id))


def _check_status(status: str) -> None:
    if status not in STATUSES:
        raise ValueError(f"unknown table status {status!r}")


class MemoryEventLog:
    """:class:`~odin_cards.server.core.ports.EventLog` in memory; with ``owner``, the log of
    one of several processes sharing the database (appends fenced by its leases)."""

    def __init__(self, database: MemoryData, owner: str | None = None) -> None:
        self.db = database
        self.owner = owner

    async def append(
        self, table_id: str, action: LoggedAction, finished: bool, fence: int | None = None
    ) -> None:
        async with self.db.writing() as kept:
            if fence is not None and self.db.leases.get(table_id) != (self.owner, fence):
                raise Fenced(f"table {table_id}: lease moved on")
            table = self.db.tables.get(table_id)
            log = self.db.logs.get(table_id)
            if table is None or log is None:
                raise StoreUnavailable(f"no table {table_id} to log an action of")
            if any(a.number == action.number for a in log):
                raise StoreUnavailable(f"action {action.number} of table {table_id} is stored")
            if action.client_id is not None and any(a.client_id == action.client_id for a in log):
                raise StoreUnavailable(f"client id {action.client_id!r} is stored already")
            if kept:
                log.append(action)
                log.sort(key=lambda a: a.number)
                if finished:
                    table.status = "finished"

    async def read_back(self, table_id: str, number: int) -> LoggedAction | None:
        self.db.reading()
        for action in self.db.logs.get(table_id, []):
            if action.number == number:
                return action
        return None

    async def read_from(self, table_id: str, number: int) -> list[LoggedAction]:
        self.db.reading()
        return [a for a in self.db.logs.get(table_id, []) if a.number >= number]
