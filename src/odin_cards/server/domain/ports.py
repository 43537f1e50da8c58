"""The ports of the server's domain: what it needs from storage, bots, connections and time.

The domain (tables, seats, lobby, the order check -> store -> apply -> ack -> broadcast, bot
scheduling) talks only to these protocols. SQL lives in adapters that implement
:class:`TableStore` and :class:`EventLog`; worker processes implement :class:`BotRunner`;
WebSocket connections are :class:`Subscriber`s; the clock is injected so tests control it.
In-memory adapters make every failure path testable without a database.

Nothing here is specific to Odin: a table stores its game's key, rules version, setup and
seed, and a log of actions keyed by action number (0, 1, 2, ...). The wire protocol's
``version`` is derived from the game (its public history length), never a storage key.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

# ---------------------------------------------------------------- stored data

STATUSES = ("waiting", "playing", "finished", "expired", "broken")
"""A table's status; ``expired`` and ``broken`` tables are never loaded at start."""


@dataclass(slots=True)
class SeatRecord:
    """One seat as stored: a person's name and token hash, or a bot level, or free."""

    seat: int
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None


@dataclass(slots=True)
class TableRecord:
    """A table's definition as stored (everything but its log)."""

    id: str
    game: str
    """The game's key in :data:`odin_cards.games.GAMES` (``"odin"``)."""
    rules_version: int
    """The rules version the table was created with; replay refuses a version it lacks."""
    players: int
    setup: dict[str, Any]
    """The game's normalized setup (Odin: its options), JSON-safe."""
    seed: int
    status: str
    """``waiting``, ``playing``, ``finished``, ``expired`` or ``broken``."""
    created: datetime
    seats: list[SeatRecord]
    previous_table: str | None = None
    next_table: str | None = None
    broken_reason: str | None = None


@dataclass(frozen=True, slots=True)
class LoggedAction:
    """One accepted action: the log's row. ``number`` counts actions from 0 per table."""

    number: int
    seat: int
    action: str
    client_id: str | None
    created: datetime


@dataclass(slots=True)
class StoredTable:
    """A table and its whole log, in order: what the domain replays."""

    table: TableRecord
    log: list[LoggedAction] = field(default_factory=list)


# ---------------------------------------------------------------- failures


class StoreUnavailable(Exception):
    """The store could not be used (database down, refused). Nothing is known to be written."""


class CommitUnknown(StoreUnavailable):
    """A write was sent but its outcome is unknown (e.g. the connection died during commit).

    The domain settles it by reading the log back (:meth:`EventLog.read_back`).
    """


class SeatTaken(Exception):
    """The store refused to give a seat: somebody took it first."""


class DatabaseInUse(Exception):
    """Another server process owns this database (one process per database)."""


# ---------------------------------------------------------------- ports


class TableStore(Protocol):
    """Tables and seats. Every method raises :class:`StoreUnavailable` when it cannot work."""

    async def insert(self, table: TableRecord) -> None:
        """Store a new table with its seats."""

    async def insert_following(self, table: TableRecord, following: TableRecord) -> None:
        """Store ``following`` and set ``table.next_table`` to it, in one transaction."""

    async def load(self, table_id: str) -> StoredTable | None:
        """One table with its log, or ``None`` if there is none with this id."""

    async def load_resumable(self, waiting_since: datetime) -> list[StoredTable]:
        """Tables to hold in memory at start: ``playing`` ones, and ``waiting`` ones created
        at or after ``waiting_since`` (older waiting tables have expired)."""

    async def take_seat(
        self, table_id: str, seat: int, name: str, token_hash: str, starts: bool
    ) -> None:
        """Give a free seat to a person; with ``starts`` the table becomes ``playing``.

        Raises :class:`SeatTaken` when the seat is not free in the store.
        """

    async def tables_of(self, token_hashes: Sequence[str], limit: int) -> list[str]:
        """Ids of the tables where these token hashes hold a seat, newest first."""

    async def set_status(self, table_id: str, status: str, reason: str | None = None) -> None:
        """Change a table's status (e.g. ``broken`` with its reason, ``expired``)."""

    async def expire_waiting(self, before: datetime) -> list[str]:
        """Mark ``waiting`` tables created before ``before`` as ``expired``; their ids."""

    async def broken(self) -> list[TableRecord]:
        """Every table marked ``broken`` (with ``broken_reason``)."""


class EventLog(Protocol):
    """The append-only log of accepted actions, keyed by (table, action number)."""

    async def append(self, table_id: str, action: LoggedAction, finished: bool) -> None:
        """Return once ``action`` is durably stored (and, with ``finished``, the table's
        status is ``finished`` in the same transaction).

        Raises :class:`StoreUnavailable` when it surely was not stored (e.g. the row's key
        is taken), :class:`CommitUnknown` when it may or may not have been.
        """

    async def read_back(self, table_id: str, number: int) -> LoggedAction | None:
        """The stored action ``number`` of the table, or ``None``: settles a
        :class:`CommitUnknown`. Raises :class:`StoreUnavailable` if it cannot read."""


class Subscriber(Protocol):
    """A connection to one table, as the domain sees it (a seat or, with ``None``, a
    spectator). ``send`` never waits: the transport queues and bounds what it holds."""

    seat: int | None
    version: int
    """The last version this subscriber was sent."""

    def send(self, text: str) -> None: ...

    def close(self, code: int) -> None: ...


class Broadcaster(Protocol):
    """Who listens to which table. In one process a dict of sets; across processes (the
    scale-out issue) an adapter that fans out through Redis."""

    def join(self, table_id: str, subscriber: Subscriber) -> None: ...

    def leave(self, table_id: str, subscriber: Subscriber) -> None: ...

    def subscribers(self, table_id: str) -> Collection[Subscriber]: ...


@dataclass(frozen=True, slots=True)
class BotRequest:
    """What a bot needs to choose a move: the table's game from its definition and log."""

    table_id: str
    seat: int
    level: str
    game: str
    players: int
    setup: dict[str, Any]
    seed: int
    actions: tuple[str, ...]
    """Every accepted action's text, in order."""


class BotRunner(Protocol):
    """Where bots think. Shares thinking time fairly between tables: no table can hold the
    workers. ``move`` returns the chosen action's text; a bot that fails or takes too long
    is replaced by a legal stand-in move (logged), so a table never stalls."""

    async def move(self, request: BotRequest) -> str: ...

    def cancel(self, table_id: str) -> None:
        """Drop the table's queued bot work (its table paused, ended or left memory)."""

    def close(self) -> None: ...


class Clock(Protocol):
    """Time, injected: the system clock in production, a fake one in tests."""

    def now(self) -> datetime:
        """Aware UTC wall-clock time (stored timestamps, expiry)."""

    def monotonic(self) -> float:
        """Seconds on a monotonic clock (delays, idle times)."""

    async def sleep(self, seconds: float) -> None: ...
