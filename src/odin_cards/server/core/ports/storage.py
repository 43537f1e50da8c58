"""The core's storage: every store it uses, their failures, and the bundle that holds them.

The core (tables, features, people) reads and writes only through these protocols. The
adapters implement each of them twice: on SQL (``adapters/sql_*.py``, SQLite or
PostgreSQL, opened by ``adapters/database.py``) and in memory (``adapters/memory*.py``,
with failures to order for tests). :class:`Storage` bundles one of each with a health
check: it is what the composition root opens and hands on. Both implementations keep the
same promises, which one contract suite (``tests/storage/``) checks on all three.

Every method of every store raises :class:`StoreUnavailable` when it cannot work. A
write raises :class:`CommitUnknown` when it was sent but its outcome is unknown; the
event log's callers settle that by reading back, the others treat it as a failure.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol

from odin_cards.server.core.ports.people import (
    AccountRecord,
    Attempts,
    Blocked,
    BoardEntry,
    Choice,
    HeldSeat,
    HistoryPoint,
    Invite,
    Member,
    Person,
    Played,
    PlayedTable,
    Rater,
    Rating,
    Report,
    SeatAt,
    SessionRecord,
    Settled,
    TableResult,
    Ticket,
)
from odin_cards.server.core.ports.records import ChatLine, LoggedAction, StoredTable, TableRecord

# ---------------------------------------------------------------- failures


class StoreUnavailable(Exception):
    """The store could not be used (database down, refused). Nothing is known to be written."""


class CommitUnknown(StoreUnavailable):
    """A write was sent but its outcome is unknown (e.g. the connection died during commit).

    The core settles it by reading the log back (:meth:`EventLog.read_back`).
    """


class SeatTaken(Exception):
    """The store refused to give a seat: somebody took it first."""


class NameTaken(Exception):
    """The store refused a new account: its ``name_key`` is taken."""


class DatabaseInUse(Exception):
    """Another server process owns this database (one process per database)."""


class Fenced(Exception):
    """A write refused because this process no longer holds the table's lease (another
    process took the table over: its fencing token moved on). Nothing was written; the
    process must step down from the table."""


# ---------------------------------------------------------------- tables


class TableStore(Protocol):
    """Tables and seats."""

    async def insert(self, table: TableRecord) -> None:
        """Store a new table with its seats (:class:`StoreUnavailable` if its id is taken).
        The seats' ``account`` names are not stored: they are read from the accounts."""

    async def insert_following(self, table: TableRecord, following: TableRecord) -> None:
        """Store ``following`` and set ``table.next_table`` to it, in one transaction
        (:class:`StoreUnavailable` if ``table`` is missing or has a next table already).
        Each of ``following``'s seats with a token hash gets the account of the seat that
        token holds at ``table`` as stored (none if none)."""

    async def load(self, table_id: str) -> StoredTable | None:
        """One table with its log, or ``None`` if there is none with this id (an id from
        a URL may be anything)."""

    async def load_resumable(self, waiting_since: datetime) -> list[StoredTable]:
        """Tables to hold in memory at start, oldest first: ``playing`` ones, and
        ``waiting`` ones created at or after ``waiting_since`` (older ones have expired)."""

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
        ``starts`` a ``waiting`` table becomes ``playing``.

        Raises :class:`SeatTaken` when the seat is not free (a person's, a bot's, locked)
        or not there.
        """

    async def tables_of(self, token_hashes: Sequence[str], limit: int) -> list[str]:
        """Ids of the tables where these token hashes hold a seat, newest first."""

    async def set_status(self, table_id: str, status: str, reason: str | None = None) -> None:
        """Change a table's status (e.g. ``broken`` with its reason, ``expired``);
        ``ValueError`` for a status not in :data:`~.records.STATUSES`."""

    async def lock_seat(self, table_id: str, seat: int, locked: bool) -> None:
        """Lock a free seat (nobody may take it) or free it again.

        Raises :class:`SeatTaken` when the seat is not free in the store.
        """

    async def expire_waiting(self, before: datetime) -> list[str]:
        """Mark ``waiting`` tables created before ``before`` as ``expired``; their ids,
        sorted."""

    async def broken(self) -> list[TableRecord]:
        """Every table marked ``broken`` (with ``broken_reason``), oldest first."""

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
        surely was not stored (no such table, the row's number or client id is taken),
        :class:`CommitUnknown` when it may or may not have been.
        """

    async def read_from(self, table_id: str, number: int) -> list[LoggedAction]:
        """The stored actions of the table from ``number`` on, in order (a follower that
        missed an update catches up with it)."""

    async def read_back(self, table_id: str, number: int) -> LoggedAction | None:
        """The stored action ``number`` of the table, or ``None``: settles a
        :class:`CommitUnknown`."""


class SocialStore(Protocol):
    """A table's chat and its players' answers to a rematch (migration 0007)."""

    async def add_chat(self, table_id: str, line: ChatLine) -> None:
        """Store ``line``; :class:`StoreUnavailable` when its number is taken or there is
        no such table."""

    async def chat_of(self, table_id: str, limit: int) -> list[ChatLine]:
        """The table's last ``limit`` lines, in order."""

    async def save_rematch(self, table_id: str, rematch: dict[str, Any]) -> None:
        """Store the answers to the table's rematch (JSON-safe), replacing the old ones."""

    async def rematch_of(self, table_id: str) -> dict[str, Any] | None:
        """The stored answers to the table's rematch, or ``None``."""


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
        tables may have been taken over: the core checks their tokens)."""

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


# ---------------------------------------------------------------- people


class AccountStore(Protocol):
    """Accounts, sessions, login attempts and the seats accounts hold (migration 0009)."""

    async def create(self, record: AccountRecord) -> None:
        """Store a new account; :class:`NameTaken` if its ``name_key`` is taken."""

    async def by_key(self, key: str) -> AccountRecord | None:
        """The live or banned account with this name key (deleted ones have none)."""

    async def by_look_alike(self, key: str) -> AccountRecord | None:
        """A live or banned account whose name looks like ``key`` (its look-alike key)."""

    async def by_id(self, account_id: str) -> AccountRecord | None:
        """The account with this id, deleted or not."""

    async def set_password(self, account_id: str, password_hash: str) -> None: ...

    async def add_session(self, session: SessionRecord) -> None: ...

    async def session(self, session_id: str) -> tuple[SessionRecord, AccountRecord] | None:
        """The session with this (hashed) id and its account, or ``None``."""

    async def touch_session(self, session_id: str, when: datetime) -> None:
        """Set the session's ``last_used`` (and its account's ``last_seen``)."""

    async def end_session(self, session_id: str) -> None: ...

    async def end_sessions(self, account_id: str, keep: str | None = None) -> None:
        """End every session of the account but ``keep`` (a hashed id, or none)."""

    async def attempts(self, key: str) -> Attempts | None: ...

    async def count_failure(
        self, key: str, now: datetime, window: timedelta, limit: int, lock: timedelta
    ) -> Attempts:
        """Count one failure under ``key`` (a new window if the last began at or before
        ``now - window``); at ``limit`` failures the key is locked until ``now + lock``
        (once: later failures do not move the lock). Atomic across processes."""

    async def clear_attempts(self, key: str) -> None: ...

    async def link_seats(self, account_id: str, token_hashes: Sequence[str]) -> int:
        """Give the seats held by these token hashes, not yet an account's, to the
        account; how many were linked."""

    async def seats_of(self, account_id: str, limit: int) -> list[HeldSeat]:
        """The seats the account holds, newest table first (then by seat)."""

    async def set_seat_token(
        self, table_id: str, seat: int, account_id: str, token_hash: str
    ) -> bool:
        """Replace the seat's token hash if the account holds the seat; whether it did."""

    async def delete(self, account_id: str, when: datetime, neutral_name: str) -> list[HeldSeat]:
        """Mark the account deleted and free its name, end its sessions, and anonymize its
        seats (no account, ``neutral_name``) and their chat lines, in one transaction;
        the seats that changed."""

    async def set_banned(self, account_id: str, when: datetime | None) -> None:
        """Ban (``when``) or unban (``None``); a ban ends every session of the account."""


class RatingStore(Protocol):
    """Results, ratings and their history (migration 0010)."""

    async def settle(self, result: TableResult, rater: Rater) -> Settled:
        """Store ``result`` and, for a rated table, the changes ``rater`` gives (called
        with the seats' accounts and their ratings read in the same transaction): all or
        nothing, once per table; a table settled before is left as it is."""

    async def unsettled(self, limit: int) -> list[str]:
        """Ids of finished tables not settled yet (oldest first)."""

    async def rating(self, account: str, rating_class: str) -> Rating:
        """The account's rating in the class (new: the prior)."""


class ProfileStore(Protocol):
    """What profiles and leaderboards read (migration 0010 and the accounts of 0009)."""

    async def person(self, name_key: str) -> Member | None:
        """The account with this name key, unless deleted."""

    async def ratings_of(self, account: str) -> dict[str, Rating]: ...

    async def history(self, account: str, limit: int) -> list[HistoryPoint]:
        """The latest ``limit`` points of each class, oldest first (heads-up, then multi)."""

    async def played(self, account: str) -> list[Played]:
        """The account's settled games by table size (a person's seat only)."""

    async def recent(self, account: str, limit: int) -> list[PlayedTable]:
        """The tables where the account holds a seat, newest first, with each seat's
        result once settled."""

    async def figures(
        self, account: str, limit: int, games: Collection[str]
    ) -> list[dict[str, Any]]:
        """The seat's figures (the game's statistics) of the latest settled games of
        ``games`` (the games whose figures a profile adds up), newest first."""

    async def board(
        self, rating_class: str, offset: int, limit: int, provisional: bool
    ) -> tuple[int, list[BoardEntry]]:
        """Live, unbanned accounts by rating (mu, highest first, then name): how many in
        all, and the page. Without ``provisional``, only established ratings."""


class BlockList(Protocol):
    """Who blocked whom, as the chat needs it: a person's blocks and a table's accounts."""

    async def blocked_ids(self, blocker: str) -> set[str]: ...

    async def seat_accounts(self, table_id: str) -> dict[int, str]:
        """Seat -> the account holding it, for the seats of accounts."""


class PeopleStore(BlockList, Protocol):
    """Follows, blocks, reports, invitations and ``last_seen`` (migration 0011)."""

    async def person(self, name_key: str) -> Person | None:
        """The live (not deleted) account with this name key."""

    async def follow(self, follower: str, followed: str, when: datetime, limit: int) -> bool:
        """``False`` when ``follower`` follows ``limit`` people already (following one
        followed already is no change, and ``True``)."""

    async def unfollow(self, follower: str, followed: str) -> None: ...

    async def following(self, follower: str, limit: int) -> list[Person]:
        """The live accounts ``follower`` follows, by name key."""

    async def follows(self, follower: str, followed: str) -> bool: ...

    async def block(self, blocker: str, blocked: str, when: datetime, limit: int) -> bool:
        """Store the block and end ``blocked``'s follow of ``blocker`` and invitations to
        ``blocker``; ``False`` over the limit."""

    async def unblock(self, blocker: str, blocked: str) -> None: ...

    async def blocked_by(self, blocker: str, limit: int) -> list[Person]:
        """The accounts ``blocker`` blocked, by name key."""

    async def blocks_between(self, a: str, b: str) -> bool:
        """Whether either of ``a`` and ``b`` blocked the other."""

    async def seen(self, account_id: str, when: datetime) -> None: ...

    async def tables_of(
        self, account_ids: Sequence[str], viewer: str, invited_since: datetime
    ) -> dict[str, list[SeatAt]]:
        """Waiting and playing tables where each of these accounts sits that ``viewer``
        may see, newest first (at most 10 each): public ones, and private ones only where
        ``viewer`` sits or was invited since ``invited_since`` (the query itself filters:
        no private table leaves the store for someone else)."""

    async def table_seated(self, table_id: str, account_id: str) -> SeatAt | None:
        """The table if ``account_id`` sits at it (waiting or playing)."""

    async def invite(
        self, invite_id: str, sender: str, recipient: str, table_id: str, when: datetime
    ) -> None:
        """Store an invitation, replacing the sender's earlier one to the same table."""

    async def invites_to(self, recipient: str, since: datetime, limit: int) -> list[Invite]:
        """Invitations to ``recipient`` since ``since`` from live accounts, newest first."""

    async def answer_invite(self, invite_id: str, recipient: str) -> str | None:
        """Remove the recipient's invitation: its table id, or ``None`` if there is none."""

    async def report(
        self,
        reporter: str,
        reported: str,
        reason: str,
        text: str | None,
        table_id: str | None,
        when: datetime,
    ) -> None: ...

    async def reports(self, limit: int) -> list[Report]:
        """The newest reports first."""


class MatchStore(Protocol):
    """Play now's queue (migration 0011), shared by every process."""

    async def add(self, ticket: Ticket, replaces: str | None) -> None:
        """Store a new waiting ticket. ``replaces`` (an account id or a token hash): the
        waiting tickets of that account, or with that token hash, are cancelled first."""

    async def by_token(self, token_hash: str) -> Ticket | None: ...

    async def seen(self, ticket_id: str, now: datetime) -> None:
        """The ticket's page polled: a waiting ticket stays alive."""

    async def cancel(self, ticket_id: str) -> bool:
        """Cancel a waiting ticket; ``False`` if it is no longer waiting."""

    async def counts(self, choice: Choice, stale_before: datetime) -> tuple[int, int]:
        """(tickets waiting with this choice, tickets waiting in all), fresh ones only
        (seen at or after ``stale_before``)."""

    async def waiting_of(self, address: str, stale_before: datetime) -> int:
        """Fresh waiting tickets of one client address."""

    async def claim(
        self,
        anchor_id: str,
        stale_before: datetime,
        now: datetime,
        pick: Callable[[Ticket, list[Ticket], Blocked], list[Ticket] | None],
    ) -> list[Ticket] | None:
        """In one transaction: lock the fresh waiting tickets of the anchor's choice that
        nobody else holds (oldest first, the banned and deleted accounts' left out), read
        the blocks between their accounts, let ``pick`` choose a group (the anchor first)
        and mark it ``matching``; the group, or ``None`` (a banned anchor is cancelled)."""

    async def seated(self, seats: Mapping[str, int], table_id: str) -> None:
        """The claimed tickets (id -> seat) were seated at ``table_id``: ``matched``."""

    async def release(self, ticket_ids: Sequence[str]) -> None:
        """Claimed tickets whose table could not be made wait again."""

    async def sweep(self, stale_before: datetime, stuck_before: datetime, now: datetime) -> int:
        """Expire stale waiting tickets; stuck ``matching`` ones wait again (seen ``now``).
        How many."""


class Ratings(Protocol):
    """What the queue needs of the ratings: a player's current rating for a table of
    ``players`` (heads-up and 3-6 are rated apart), in rating points."""

    async def rating_for(self, account_id: str, players: int) -> float: ...


# ---------------------------------------------------------------- the bundle


class Storage(Protocol):
    """Every store of one database, and whether it answers: what the composition root
    opens (SQL: ``adapters.database.open_database``; memory: ``MemoryDatabase``) and hands
    to the core and the transport. The table leases of several processes are not here:
    each process has its own (:class:`LeaseStore`, with the cluster's other ports)."""

    @property
    def store(self) -> TableStore: ...

    @property
    def log(self) -> EventLog: ...

    @property
    def social(self) -> SocialStore: ...

    @property
    def accounts(self) -> AccountStore: ...

    @property
    def ratings(self) -> RatingStore: ...

    @property
    def profiles(self) -> ProfileStore: ...

    @property
    def people(self) -> PeopleStore: ...

    @property
    def matches(self) -> MatchStore: ...

    async def healthy(self) -> bool:
        """Whether the database answers now (``/readyz``); never raises."""
