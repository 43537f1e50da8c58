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

from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

# ---------------------------------------------------------------- stored data

STATUSES = ("waiting", "playing", "finished", "expired", "broken", "cancelled")
"""A table's status; ``expired``, ``broken`` and ``cancelled`` (by its creator, while
waiting) tables are never loaded at start."""


@dataclass(slots=True)
class SeatRecord:
    """One seat as stored: a person's name and token hash, or a bot level, or free."""

    seat: int
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    locked: bool = False
    """Kept free by the table's creator: nobody may take it until it is freed."""
    account_id: str | None = None
    """The account that holds this seat (``seats.account_id``); ``None``: a guest, a bot or
    free. A following table's seat keeps the account of the seat its token held before."""
    account: str | None = None
    """That account's name, read with the seat (``None`` once the account is deleted): the
    pages link the seat to the account's profile. Never written from here."""


@dataclass(frozen=True, slots=True)
class SeatHolder:
    """The account that takes a seat: its id (``seats.account_id``) and its name, which
    the seat shows."""

    account_id: str
    name: str


@dataclass(slots=True)
class TableRecord:
    """A table's definition as stored (everything but its log)."""

    id: str
    game: str
    """The game's key in the game registry (:mod:`odin_cards.games`), e.g. ``"odin"``."""
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
    settings: dict[str, Any] = field(default_factory=dict)
    """How the table is run, apart from the game's rules, JSON-safe: each key belongs to one
    domain module (time control, visibility, chat...), which normalizes it; unknown keys are
    kept as they are. Stored in ``tables.settings`` (migration 0005)."""
    clock: dict[str, Any] = field(default_factory=dict)
    """The clock's stored facts (:mod:`.stand_ins`): when the game started and which
    people's seats a bot plays, JSON-safe; ``{}`` before the game starts or without a
    clock. Stored in ``tables.clock`` (migration 0006)."""
    creator_hash: str | None = None
    """SHA-256 of the creator's token (cancel a waiting table, lock seats; migration 0008)."""


@dataclass(frozen=True, slots=True)
class LoggedAction:
    """One accepted action: the log's row. ``number`` counts actions from 0 per table."""

    number: int
    seat: int
    action: str
    client_id: str | None
    created: datetime
    by: str | None = None
    """Who made the move for the seat: ``None`` its person (or its own bot), ``stand-in``
    when its clock ran out, ``bot`` the bot that took the seat (``events.by``)."""


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


class Fenced(Exception):
    """A write refused because this process no longer holds the table's lease (another
    process took the table over: its fencing token moved on). Nothing was written; the
    process must step down from the table."""


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

    async def waiting(self, game: str, since: datetime, limit: int) -> list[TableRecord]:
        """Tables of ``game`` ``waiting`` for players created at or after ``since``, newest
        first (the lobby of several processes); never a private one
        (``settings["visibility"] == "private"``)."""

    async def take_seat(
        self,
        table_id: str,
        seat: int,
        name: str,
        token_hash: str,
        starts: bool,
        account_id: str | None = None,
    ) -> None:
        """Give a free seat to a person (held by ``account_id``, or a guest's); with
        ``starts`` the table becomes ``playing``.

        Raises :class:`SeatTaken` when the seat is not free (or locked) in the store.
        """

    async def tables_of(self, token_hashes: Sequence[str], limit: int) -> list[str]:
        """Ids of the tables where these token hashes hold a seat, newest first."""

    async def set_status(self, table_id: str, status: str, reason: str | None = None) -> None:
        """Change a table's status (e.g. ``broken`` with its reason, ``expired``)."""

    async def lock_seat(self, table_id: str, seat: int, locked: bool) -> None:
        """Lock a free seat (nobody may take it) or free it again.

        Raises :class:`SeatTaken` when the seat is not free in the store.
        """

    async def expire_waiting(self, before: datetime) -> list[str]:
        """Mark ``waiting`` tables created before ``before`` as ``expired``; their ids."""

    async def broken(self) -> list[TableRecord]:
        """Every table marked ``broken`` (with ``broken_reason``)."""

    async def save_clock(self, table_id: str, clock: dict[str, Any]) -> None:
        """Replace the table's stored clock facts (:attr:`TableRecord.clock`)."""


class EventLog(Protocol):
    """The append-only log of accepted actions, keyed by (table, action number)."""

    async def append(
        self, table_id: str, action: LoggedAction, finished: bool, fence: int | None = None
    ) -> None:
        """Return once ``action`` is durably stored (and, with ``finished``, the table's
        status is ``finished`` in the same transaction).

        With ``fence`` (several processes), the row is written only if the table's lease
        still carries that fencing token, checked in the same transaction with the lease
        row locked; otherwise :class:`Fenced`. Raises :class:`StoreUnavailable` when it
        surely was not stored (e.g. the row's key is taken), :class:`CommitUnknown` when it
        may or may not have been.
        """

    async def read_from(self, table_id: str, number: int) -> list[LoggedAction]:
        """The stored actions of the table from ``number`` on, in order (a follower that
        missed an update catches up with it). Raises :class:`StoreUnavailable`."""

    async def read_back(self, table_id: str, number: int) -> LoggedAction | None:
        """The stored action ``number`` of the table, or ``None``: settles a
        :class:`CommitUnknown`. Raises :class:`StoreUnavailable` if it cannot read."""


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One line of a table's chat as stored: said by a seat's person or a spectator, in
    the order the table's owner numbered it (0, 1, 2, ...), after ``action`` actions."""

    number: int
    author: str
    """Who said it, stable for the table: ``s<seat>`` for a player, ``w<digest>`` for a
    spectator (a keyed digest of their address: not reversible, the same on every process)."""
    name: str | None
    """The name shown (a spectator may give none)."""
    seat: int | None
    """The player's seat; ``None`` for a spectator."""
    text: str | None
    """What was written (raw: every page shows it as text, never as markup)..."""
    reaction: str | None
    """...or one of the quick reactions' keys (exactly one of the two)."""
    action: int
    """How many actions the game had when it was said (the replay places it there)."""
    created: datetime


class SocialStore(Protocol):
    """A table's chat and its players' answers to a rematch (migration 0007). Every
    method raises :class:`StoreUnavailable` when it cannot work."""

    async def add_chat(self, table_id: str, line: ChatLine) -> None:
        """Store ``line``; :class:`StoreUnavailable` (the key is taken) when its number is."""

    async def chat_of(self, table_id: str, limit: int) -> list[ChatLine]:
        """The table's last ``limit`` lines, in order."""

    async def save_rematch(self, table_id: str, rematch: dict[str, Any]) -> None:
        """Store the answers to the table's rematch (JSON-safe), replacing the old ones."""

    async def rematch_of(self, table_id: str) -> dict[str, Any] | None:
        """The stored answers to the table's rematch, or ``None``."""


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


class Analyst(Protocol):
    """Where finished games are analysed (issue #13): a worker process away from the event
    loop and from the bot workers (a whole game takes tens of seconds), one game at a time."""

    async def analyse(self, game: str, record: dict[str, Any], iterations: int) -> dict[str, Any]:
        """The analysis of a finished game of ``game`` (its plugin's ``analysis``) from its
        record's dict."""

    def close(self) -> None: ...


class LeaseStore(Protocol):
    """Who owns each running table when several processes share a database.

    A process is alive while it renews its heartbeat (``lease_seconds``); a table's lease
    names its owner process and a fencing token that grows by one on every takeover. A
    lease whose owner is dead or released may be taken by any process. The event log
    refuses an append whose token is not the table's current one (:class:`Fenced`).
    """

    owner: str
    """This process's id (unique for its life)."""

    async def renew(self) -> bool:
        """Register or extend this process's heartbeat; ``False`` if it had expired (its
        tables may have been taken over: the domain checks their tokens)."""

    async def acquire(self, table_id: str) -> int | None:
        """Take the table's lease if nobody alive holds it (or this process does); the
        new fencing token, or ``None`` if another live process holds it."""

    async def release(self, table_id: str, token: int) -> None:
        """Give the lease up (if it still carries ``token``); the next taker bumps it."""

    async def holder(self, table_id: str) -> str | None:
        """The live process holding the table's lease, or ``None`` (dead or released)."""

    async def tokens(self, table_ids: Collection[str]) -> dict[str, tuple[str | None, int]]:
        """(owner, token) of each of these tables' leases, as stored now."""

    async def orphans(self, waiting_since: datetime, limit: int) -> list[str]:
        """Running tables (``playing``, or ``waiting`` since ``waiting_since``) that no live
        process holds: to be taken over."""

    async def stop(self) -> None:
        """End this process's heartbeat (its leases count as released at once)."""


class Router(Protocol):
    """Requests to the process that owns a table, with a correlation id and a timeout."""

    async def request(self, process: str, message: dict[str, Any], timeout: float) -> Any:
        """Send ``message`` to ``process`` and return its answer; ``TimeoutError`` if none
        comes in ``timeout`` seconds (the request may or may not have been handled)."""

    def serve(self, handler: RequestHandler) -> None:
        """Answer requests to this process with ``handler`` (each in a task of its own)."""


class Bus(Protocol):
    """Fan-out between processes: each table's changes, in the order they are published,
    to every process that follows the table. At most once: a follower detects a gap by
    the action numbers and reads the log."""

    async def follow(self, table_id: str) -> None:
        """Receive the table's messages (through :meth:`listen`'s handler) from the
        moment this returns on."""

    def unfollow(self, table_id: str) -> None: ...

    def publish(self, table_id: str, message: dict[str, Any]) -> None:
        """Send ``message`` to every follower of the table (never waits; in order)."""

    def listen(self, handler: BusHandler) -> None:
        """Deliver each received message as ``handler(table_id, message)``, one at a time;
        ``handler(None, {"kind": "resync"})`` after a lost connection (messages may be lost)."""


RequestHandler = Callable[[dict[str, Any]], Awaitable[Any]]
BusHandler = Callable[[str | None, dict[str, Any]], Awaitable[None]]


class Metrics(Protocol):
    """What the domain counts for monitoring (Prometheus in production, nothing in tests)."""

    def action_applied(self, game: str, seconds: float) -> None:
        """An action went check -> store -> apply -> ack in ``seconds``."""

    def lease_changed(self, event: str) -> None:
        """``acquired``, ``renewed-lost``, ``released``, ``taken-over`` or ``fenced``."""

    def table_evicted(self) -> None: ...


class Clock(Protocol):
    """Time, injected: the system clock in production, a fake one in tests."""

    def now(self) -> datetime:
        """Aware UTC wall-clock time (stored timestamps, expiry)."""

    def monotonic(self) -> float:
        """Seconds on a monotonic clock (delays, idle times)."""

    async def sleep(self, seconds: float) -> None: ...
