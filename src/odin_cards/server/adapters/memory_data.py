"""What one in-memory database holds, and the failures its writes meet on order.

:class:`MemoryData` keeps every row the SQL schema has (tables, seats, the log, chat,
accounts, results and ratings, people, Play now's tickets, leases), as plain records,
so that a store reaches another's rows as SQL joins them (an account's name on its seats,
a deleted account's chat lines). Each in-memory store (``memory*.py``) works on one; the
bundle :class:`~.memory.MemoryDatabase` is one with every store on it.

:class:`Faults` makes the paths that a real database shows only rarely happen on demand,
on every store alike: a write that is refused, a commit whose outcome is unknown (stored
or not), a database that is down, and a slow commit that holds writers until the test
lets them go. A store writes inside :meth:`MemoryData.writing`: it checks first (a
refusal stores nothing and is never an unknown outcome, as on SQL, where refusals come
before the commit), then changes its rows only if the write is to be kept.
"""

from __future__ import annotations

import asyncio
import copy
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from odin_cards.server.core.ports import (
    ChatLine,
    CommitUnknown,
    LoggedAction,
    StoreUnavailable,
    TableRecord,
)
from odin_cards.server.core.ports.people import (
    Account,
    AccountRecord,
    Attempts,
    Rating,
    Report,
    SessionRecord,
    Ticket,
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


@dataclass(slots=True)
class AccountRow:
    """An account's row (``accounts``), changed in place."""

    id: str
    name: str
    name_key: str
    password_hash: str
    created: datetime
    deleted: datetime | None = None
    banned: datetime | None = None
    last_seen: datetime | None = None
    look_alike: str = ""

    def record(self) -> AccountRecord:
        account = Account(self.id, self.name, self.created, self.banned, self.deleted)
        return AccountRecord(account, self.name_key, self.password_hash, self.look_alike)


@dataclass(frozen=True, slots=True)
class ResultRow:
    """A settled table (``table_results``)."""

    table_id: str
    game: str
    players: int
    rating_class: str
    finished: datetime
    rated: bool
    note: str | None


@dataclass(frozen=True, slots=True)
class SeatResultRow:
    """One seat's result (``seat_results``): a person's or a bot's seat."""

    table_id: str
    seat: int
    person: bool
    bot: str | None
    place: int
    won: bool
    score: int
    statistics: dict[str, Any]


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """An account's rating before and after one rated table (``rating_history``)."""

    account_id: str
    table_id: str
    rating_class: str
    seat: int
    place: int
    players: int
    before: Rating
    after: Rating
    created: datetime


@dataclass(frozen=True, slots=True)
class InviteRow:
    id: str
    sender: str
    recipient: str
    table_id: str
    created: datetime


@dataclass(eq=False)
class MemoryData:
    """Every row of one in-memory database, and the :class:`Faults` of its writes."""

    faults: Faults = field(default_factory=Faults)
    tables: dict[str, TableRecord] = field(default_factory=dict)
    """Table id -> the table with its seats (seats' ``account`` names are not kept: they
    are read from :attr:`account_rows`)."""
    logs: dict[str, list[LoggedAction]] = field(default_factory=dict)
    """Table id -> its log, by number."""
    leases: dict[str, tuple[str | None, int]] = field(default_factory=dict)
    """Table id -> (owner process, fencing token), as :mod:`.memory_cluster` keeps them."""
    heartbeats: dict[str, float] = field(default_factory=dict)
    """Process -> when its heartbeat expires (the test's clock)."""
    chat: dict[str, list[ChatLine]] = field(default_factory=dict)
    rematches: dict[str, dict[str, Any]] = field(default_factory=dict)
    account_rows: dict[str, AccountRow] = field(default_factory=dict)
    sessions: dict[str, SessionRecord] = field(default_factory=dict)
    attempts: dict[str, Attempts] = field(default_factory=dict)
    results: dict[str, ResultRow] = field(default_factory=dict)
    seat_results: dict[tuple[str, int], SeatResultRow] = field(default_factory=dict)
    rating_rows: dict[tuple[str, str], Rating] = field(default_factory=dict)
    """(account id, rating class) -> the rating."""
    history: dict[tuple[str, str], HistoryRow] = field(default_factory=dict)
    """(account id, table id) -> the rating's change at that table."""
    tickets: dict[str, Ticket] = field(default_factory=dict)
    follows: dict[tuple[str, str], datetime] = field(default_factory=dict)
    """(follower, followed) -> since when."""
    blocks: dict[tuple[str, str], datetime] = field(default_factory=dict)
    """(blocker, blocked) -> since when."""
    invites: dict[str, InviteRow] = field(default_factory=dict)
    reports: list[Report] = field(default_factory=list)

    def reading(self) -> None:
        """Before a read: :class:`StoreUnavailable` while the database is down."""
        self.faults.check_read()

    @asynccontextmanager
    async def writing(self) -> AsyncIterator[bool]:
        """One write (a transaction): waits while writes are held and fails as ordered;
        gives whether its changes are to be kept (an unknown outcome that did not store,
        ``lost``: not), and raises :class:`CommitUnknown` at its end when ordered so."""
        outcome = await self.faults.before_write()
        yield outcome != "lost"
        if outcome is not None:
            raise CommitUnknown(f"injected: commit outcome unknown (data {outcome})")

    def live_name(self, account_id: str | None) -> str | None:
        """The name of a live (not deleted) account, as a seat shows it."""
        row = None if account_id is None else self.account_rows.get(account_id)
        return None if row is None or row.deleted is not None else row.name

    def listed(self, table_id: str) -> bool:
        """Whether the table may be shown to anyone (it exists and is not private): every
        listing for someone who does not sit at a table filters on this, as on SQL."""
        table = self.tables.get(table_id)
        return table is not None and table.settings.get("visibility") != "private"

    def stored_table(self, table_id: str) -> TableRecord:
        """A copy of a stored table whose seats carry their accounts' names (a join)."""
        table = copy.deepcopy(self.tables[table_id])
        for seat in table.seats:
            seat.account = self.live_name(seat.account_id)
        return table
