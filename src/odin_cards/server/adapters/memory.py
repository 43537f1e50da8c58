"""In-memory table store and event log, with failures to order: for tests of the domain.

They keep the SQL adapters' promises (a seat is given once, a log key and a client id are
stored once per table, ``finished`` is written with the action) and copy every record in
and out, so nothing the domain holds is shared with what is "stored". :class:`Faults`
makes the paths that a real database shows only rarely happen on demand: a write that is
refused, a commit whose outcome is unknown (stored or not), a database that is down, and a
slow commit that holds writers until the test lets them go.
"""

from __future__ import annotations

import asyncio
import copy
from collections import deque
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal

from odin_cards.server.core.ports import (
    STATUSES,
    CommitUnknown,
    Fenced,
    LoggedAction,
    SeatTaken,
    StoredTable,
    StoreUnavailable,
    TableRecord,
)

Outcome = Literal["fail", "stored", "lost"]
"""What an injected failure does to a write: ``fail`` (refused, nothing stored),
``stored`` (stored, but the caller is told the outcome is unknown), ``lost`` (not stored,
outcome unknown)."""


class Faults:
    """The failures the next writes meet. Reads fail only while :attr:`down`."""

    def __init__(self) -> None:
        self.down = False
        """Every read and write raises :class:`StoreUnavailable` while set."""
        self.writes = 0
        """Writes attempted so far (failed ones included)."""
        self._next: deque[Outcome] = deque()
        self._open = asyncio.Event()
        self._open.set()
        self._held = 0
        self._arrived = asyncio.Condition()

    def fail_next(self, count: int = 1) -> None:
        """The next ``count`` writes are refused (:class:`StoreUnavailable`), storing nothing."""
        self._next.extend(["fail"] * count)

    def unknown_next(self, stored: bool) -> None:
        """The next write raises :class:`CommitUnknown`, having stored its data or not."""
        self._next.append("stored" if stored else "lost")

    def hold(self) -> None:
        """Writes wait (a slow commit) until :meth:`release`."""
        self._open.clear()

    def release(self) -> None:
        self._open.set()

    async def held(self, count: int) -> None:
        """Return once ``count`` writes are waiting at :meth:`hold`."""
        async with self._arrived:
            await self._arrived.wait_for(lambda: self._held >= count)

    def check_read(self) -> None:
        if self.down:
            raise StoreUnavailable("the database is down")

    async def before_write(self) -> Outcome | None:
        """Wait while held; then the injected outcome of this write (``None``: it works)."""
        self.writes += 1
        if not self._open.is_set():
            async with self._arrived:
                self._held += 1
                self._arrived.notify_all()
            try:
                await self._open.wait()
            finally:
                self._held -= 1
        if self.down:
            raise StoreUnavailable("the database is down")
        outcome = self._next.popleft() if self._next else None
        if outcome == "fail":
            raise StoreUnavailable("the database refused the write (injected)")
        return outcome


def _settle(outcome: Outcome | None) -> None:
    """After a write: tell the caller its outcome is unknown if the test ordered so."""
    if outcome is not None:
        raise CommitUnknown(f"injected: commit outcome unknown (data {outcome})")


class MemoryDatabase:
    """One in-memory database: its :attr:`store`, its :attr:`log` and its :attr:`faults`."""

    def __init__(self) -> None:
        self.tables: dict[str, TableRecord] = {}
        self.logs: dict[str, list[LoggedAction]] = {}
        self.leases: dict[str, tuple[str | None, int]] = {}
        """Table id -> (owner process, fencing token), as :mod:`.memory_cluster` keeps them."""
        self.heartbeats: dict[str, float] = {}
        """Process -> when its heartbeat expires (the test's clock)."""
        self.faults = Faults()
        self.store = MemoryTableStore(self)
        self.log = MemoryEventLog(self)


class MemoryTableStore:
    """:class:`~..domain.ports.TableStore` in memory."""

    def __init__(self, database: MemoryDatabase) -> None:
        self.db = database

    async def insert(self, table: TableRecord) -> None:
        outcome = await self.db.faults.before_write()
        if outcome != "lost":
            self._add(table)
        _settle(outcome)

    async def insert_following(self, table: TableRecord, following: TableRecord) -> None:
        outcome = await self.db.faults.before_write()
        stored = self.db.tables.get(table.id)
        if stored is None or stored.next_table is not None:
            raise StoreUnavailable(f"table {table.id} is missing or has a next table already")
        if outcome != "lost":
            self._add(following)
            stored.next_table = following.id
        _settle(outcome)

    async def load(self, table_id: str) -> StoredTable | None:
        self.db.faults.check_read()
        return self._stored(table_id) if table_id in self.db.tables else None

    async def load_resumable(self, waiting_since: datetime) -> list[StoredTable]:
        self.db.faults.check_read()
        return [
            self._stored(t.id)
            for t in self._oldest_first()
            if t.status == "playing" or (t.status == "waiting" and t.created >= waiting_since)
        ]

    async def waiting(self, game: str, since: datetime, limit: int) -> list[TableRecord]:
        self.db.faults.check_read()
        found = [
            t
            for t in self.db.tables.values()
            if t.status == "waiting"
            and t.game == game
            and t.created >= since
            and t.settings.get("visibility") != "private"
        ]
        found.sort(key=lambda t: (t.created, t.id), reverse=True)
        return [copy.deepcopy(t) for t in found[:limit]]

    async def take_seat(
        self,
        table_id: str,
        seat: int,
        name: str,
        token_hash: str,
        starts: bool,
        account_id: str | None = None,
    ) -> None:
        outcome = await self.db.faults.before_write()
        table = self.db.tables.get(table_id)
        if table is None or not 0 <= seat < len(table.seats):
            raise SeatTaken(f"table {table_id} has no seat {seat}")
        place = table.seats[seat]
        if place.name is not None or place.bot is not None or place.locked:
            raise SeatTaken(f"seat {seat} of table {table_id} is not free")
        if outcome != "lost":
            place.name, place.token_hash, place.account_id = name, token_hash, account_id
            if starts and table.status == "waiting":
                table.status = "playing"
        _settle(outcome)

    async def lock_seat(self, table_id: str, seat: int, locked: bool) -> None:
        outcome = await self.db.faults.before_write()
        table = self.db.tables.get(table_id)
        if table is None or not 0 <= seat < len(table.seats):
            raise SeatTaken(f"table {table_id} has no seat {seat}")
        place = table.seats[seat]
        if place.name is not None or place.bot is not None:
            raise SeatTaken(f"seat {seat} of table {table_id} is not free")
        if outcome != "lost":
            place.locked = locked
        _settle(outcome)

    async def tables_of(self, token_hashes: Sequence[str], limit: int) -> list[str]:
        self.db.faults.check_read()
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
        if status not in STATUSES:
            raise ValueError(f"unknown table status {status!r}")
        outcome = await self.db.faults.before_write()
        table = self.db.tables.get(table_id)
        if table is not None and outcome != "lost":
            table.status, table.broken_reason = status, reason
        _settle(outcome)

    async def expire_waiting(self, before: datetime) -> list[str]:
        outcome = await self.db.faults.before_write()
        old = [t for t in self.db.tables.values() if t.status == "waiting" and t.created < before]
        if outcome != "lost":
            for table in old:
                table.status = "expired"
        _settle(outcome)
        return sorted(t.id for t in old)

    async def broken(self) -> list[TableRecord]:
        self.db.faults.check_read()
        return [copy.deepcopy(t) for t in self._oldest_first() if t.status == "broken"]

    async def save_clock(self, table_id: str, clock: dict[str, Any]) -> None:
        outcome = await self.db.faults.before_write()
        table = self.db.tables.get(table_id)
        if table is not None and outcome != "lost":
            table.clock = copy.deepcopy(clock)
        _settle(outcome)

    def _add(self, table: TableRecord) -> None:
        if table.id in self.db.tables:
            raise StoreUnavailable(f"table {table.id} exists already")
        if table.status not in STATUSES:
            raise ValueError(f"unknown table status {table.status!r}")
        self.db.tables[table.id] = copy.deepcopy(table)
        self.db.logs[table.id] = []

    def _stored(self, table_id: str) -> StoredTable:
        return StoredTable(
            copy.deepcopy(self.db.tables[table_id]), list(self.db.logs.get(table_id, []))
        )

    def _oldest_first(self) -> list[TableRecord]:
        return sorted(self.db.tables.values(), key=lambda t: (t.created, t.id))


class MemoryEventLog:
    """:class:`~..domain.ports.EventLog` in memory; with ``owner``, the log of one of
    several processes sharing the database (appends fenced by its leases)."""

    def __init__(self, database: MemoryDatabase, owner: str | None = None) -> None:
        self.db = database
        self.owner = owner

    async def append(
        self, table_id: str, action: LoggedAction, finished: bool, fence: int | None = None
    ) -> None:
        outcome = await self.db.faults.before_write()
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
        if outcome != "lost":
            log.append(action)
            log.sort(key=lambda a: a.number)
            if finished:
                table.status = "finished"
        _settle(outcome)

    async def read_back(self, table_id: str, number: int) -> LoggedAction | None:
        self.db.faults.check_read()
        for action in self.db.logs.get(table_id, []):
            if action.number == number:
                return action
        return None

    async def read_from(self, table_id: str, number: int) -> list[LoggedAction]:
        self.db.faults.check_read()
        return [a for a in self.db.logs.get(table_id, []) if a.number >= number]
