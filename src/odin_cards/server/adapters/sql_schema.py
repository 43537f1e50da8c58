"""The database's schema, engines and migrations (SQLAlchemy Core, SQLite or PostgreSQL).

Three tables: ``tables`` (a game's definition: its game key, rules version, setup, seed,
status and play-again links), ``seats`` (names, bot levels and SHA-256 hashes of seat
tokens) and ``events`` (the append-only log of accepted actions, keyed by the table and
the action's number: 0, 1, 2, ...). Several processes on one PostgreSQL database add
``processes`` (heartbeats) and ``table_leases`` (each running table's owner and fencing
token). The same code runs on SQLite (aiosqlite) and
PostgreSQL (asyncpg); Alembic migrations (``migrations/``) bring any older database to
this schema on start.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from odin_cards.server.core.ports import records

MIGRATIONS = Path(__file__).parent.parent / "migrations"

MIGRATION_KEY = 0x6F64696E6D696772
"""The PostgreSQL advisory lock (per transaction) that serializes migrations."""

MAX_REASON = records.MAX_REASON
"""Characters kept of a broken table's reason."""

ID_LENGTH = 16
"""The longest table id the schema holds."""

metadata = sa.MetaData()

tables = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(ID_LENGTH), primary_key=True),
    sa.Column("game", sa.String(16), nullable=False, server_default="odin"),
    sa.Column("rules_version", sa.Integer, nullable=False, server_default="1"),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("setup", sa.JSON, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("status", sa.String(10), nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    sa.Column("previous_table", sa.String(ID_LENGTH), nullable=True),
    sa.Column("next_table", sa.String(ID_LENGTH), nullable=True),
    sa.Column("broken_reason", sa.String(MAX_REASON), nullable=True),
    sa.Column("settings", sa.JSON, nullable=False, server_default="{}"),
    sa.Column("creator_hash", sa.String(64), nullable=True),
    sa.Column("clock", sa.JSON, nullable=False, server_default="{}"),
)
sa.Index("tables_status", tables.c.status)


def listed_table() -> sa.ColumnElement[bool]:
    """A table anyone may be shown (not ``settings["visibility"] == "private"``): every
    query that lists tables to someone who does not sit at them filters on this."""
    visibility = sa.func.coalesce(tables.c.settings["visibility"].as_string(), "public")
    return visibility != "private"


seats = sa.Table(
    "seats",
    metadata,
    sa.Column("table_id", sa.String(ID_LENGTH), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(32), nullable=True),
    sa.Column("bot", sa.String(32), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("locked", sa.Boolean, nullable=False, server_default=sa.false()),
)
sa.Index("seats_token_hash", seats.c.token_hash)

events = sa.Table(
    "events",
    metadata,
    sa.Column("table_id", sa.String(ID_LENGTH), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action", sa.String(64), nullable=False),
    sa.Column("client_id", sa.String(64), nullable=True),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    sa.Column("by", sa.String(16), nullable=True),
    sa.UniqueConstraint("table_id", "client_id", name="events_client_id"),
)

CHAT_TEXT_LENGTH = 800
"""Room for a chat line (the core allows 200 characters; a character may take 4 bytes)."""

PROCESS_ID_LENGTH = 40
"""The longest server process id (``host-pid-random``, cut)."""

processes = sa.Table(
    "processes",
    metadata,
    sa.Column("id", sa.String(PROCESS_ID_LENGTH), primary_key=True),
    sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
)
"""Server processes sharing the database (several processes only): a heartbeat each."""

table_leases = sa.Table(
    "table_leases",
    metadata,
    sa.Column("table_id", sa.String(ID_LENGTH), primary_key=True),
    sa.Column("owner", sa.String(PROCESS_ID_LENGTH), nullable=True),
    sa.Column("token", sa.BigInteger, nullable=False),
)
"""Which process owns a running table, and its fencing token (+1 on every takeover)."""
sa.Index("table_leases_owner", table_leases.c.owner)

chat_lines = sa.Table(
    "chat_lines",
    metadata,
    sa.Column("table_id", sa.String(ID_LENGTH), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),
    sa.Column("author", sa.String(16), nullable=False),
    sa.Column("name", sa.String(32), nullable=True),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("text", sa.String(CHAT_TEXT_LENGTH), nullable=True),
    sa.Column("reaction", sa.String(16), nullable=True),
    sa.Column("action", sa.Integer, nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
)
"""Each table's chat, numbered by the table's owner (migration 0007)."""

rematches = sa.Table(
    "rematches",
    metadata,
    sa.Column("table_id", sa.String(ID_LENGTH), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("state", sa.JSON, nullable=False),
)
"""The players' answers to a finished table's rematch (migration 0007)."""

# --- accounts (issue #10) ---

ACCOUNT_ID_LENGTH = 32
"""An account id: 16 random bytes in hex."""

LOOK_ALIKE_LENGTH = 128
"""An account name's look-alike key (a prototype may be several characters: at most 20
characters of name, each mapped to at most 4 in practice)."""

accounts = sa.Table(
    "accounts",
    metadata,
    sa.Column("id", sa.String(ACCOUNT_ID_LENGTH), primary_key=True),
    sa.Column("name", sa.String(32), nullable=False),
    sa.Column("name_key", sa.String(32), nullable=False),
    sa.Column("password_hash", sa.String(255), nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    sa.Column("deleted", sa.DateTime(timezone=True), nullable=True),
    sa.Column("banned", sa.DateTime(timezone=True), nullable=True),
    sa.Column("last_seen", sa.DateTime(timezone=True), nullable=True),
    sa.Column("look_alike", sa.String(LOOK_ALIKE_LENGTH), nullable=False, server_default=""),
    sa.UniqueConstraint("name_key", name="accounts_name_key"),
    sa.Index("accounts_look_alike", "look_alike"),
)
"""People who signed up (migration 0009); ``name_key`` is the casefolded name,
``look_alike`` the key of the names that look like it (migration 0013,
``core/people/look_alikes.py``)."""

account_sessions = sa.Table(
    "account_sessions",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column(
        "account_id", sa.String(ACCOUNT_ID_LENGTH), sa.ForeignKey("accounts.id"), nullable=False
    ),
    sa.Column("csrf", sa.String(64), nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    sa.Column("last_used", sa.DateTime(timezone=True), nullable=False),
)
"""Logged-in sessions, by the SHA-256 of their cookie (migration 0009)."""
sa.Index("account_sessions_account", account_sessions.c.account_id)

login_attempts = sa.Table(
    "login_attempts",
    metadata,
    sa.Column("key", sa.String(80), primary_key=True),
    sa.Column("failures", sa.Integer, nullable=False),
    sa.Column("first", sa.DateTime(timezone=True), nullable=False),
    sa.Column("locked_until", sa.DateTime(timezone=True), nullable=True),
)
"""Failed logins per name / address and sign-ups per address, in their window (0009)."""

seats.append_column(sa.Column("account_id", sa.String(ACCOUNT_ID_LENGTH), nullable=True))
sa.Index("seats_account", seats.c.account_id)
"""The account holding a seat (``NULL``: a guest or a bot; migration 0009)."""


# --- ratings (issue #10) ---

RATING_CLASS_LENGTH = 8
"""``heads-up`` or ``multi`` (``core/people/ratings.py``)."""

table_results = sa.Table(
    "table_results",
    metadata,
    sa.Column("table_id", sa.String(ID_LENGTH), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("game", sa.String(16), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("rating_class", sa.String(RATING_CLASS_LENGTH), nullable=False),
    sa.Column("finished", sa.DateTime(timezone=True), nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("note", sa.String(120), nullable=True),
)
"""Each finished table once settled (migration 0010): rated or not, and why not."""

seat_results = sa.Table(
    "seat_results",
    metadata,
    sa.Column("table_id", sa.String(ID_LENGTH), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("person", sa.Boolean, nullable=False),
    sa.Column("bot", sa.String(32), nullable=True),
    sa.Column("place", sa.Integer, nullable=False),
    sa.Column("won", sa.Boolean, nullable=False),
    sa.Column("score", sa.Integer, nullable=False),
    sa.Column("statistics", sa.JSON, nullable=False),
)
"""Each seat's place, win, score and figures at a finished table (migration 0010); a
profile finds its person's through ``seats.account_id``."""

ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("account_id", sa.String(ACCOUNT_ID_LENGTH), primary_key=True),
    sa.Column("rating_class", sa.String(RATING_CLASS_LENGTH), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
)
"""Each account's OpenSkill rating per class (migration 0010)."""
sa.Index("ratings_board", ratings.c.rating_class, ratings.c.mu)

rating_history = sa.Table(
    "rating_history",
    metadata,
    sa.Column("account_id", sa.String(ACCOUNT_ID_LENGTH), primary_key=True),
    sa.Column("table_id", sa.String(ID_LENGTH), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("rating_class", sa.String(RATING_CLASS_LENGTH), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("place", sa.Integer, nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("mu_before", sa.Float, nullable=False),
    sa.Column("sigma_before", sa.Float, nullable=False),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
)
"""One row per (account, rated table): the rating before and after (migration 0010)."""
sa.Index("rating_history_account", rating_history.c.account_id, rating_history.c.created)


# --- people (issue #10) ---

match_tickets = sa.Table(
    "match_tickets",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("account_id", sa.String(32), nullable=True),
    sa.Column("name", sa.String(32), nullable=False),
    sa.Column("address", sa.String(64), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("target", sa.String(8), nullable=False),
    sa.Column("clock", sa.String(8), nullable=False),
    sa.Column("rating", sa.Float, nullable=True),
    sa.Column("state", sa.String(10), nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    sa.Column("seen", sa.DateTime(timezone=True), nullable=False),
    sa.Column("claimed", sa.DateTime(timezone=True), nullable=True),
    sa.Column("table_id", sa.String(ID_LENGTH), nullable=True),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("game", sa.String(16), nullable=False, server_default="odin"),
)
"""Play now's queue: one row per ticket, waiting, matching, matched or over (0011); the
ticket's game (0012)."""
sa.Index("match_tickets_waiting", match_tickets.c.state, match_tickets.c.players)
sa.Index("match_tickets_account", match_tickets.c.account_id)

follows = sa.Table(
    "follows",
    metadata,
    sa.Column("follower", sa.String(32), primary_key=True),
    sa.Column("followed", sa.String(32), primary_key=True),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
)
"""Who follows whom, by account id (0011)."""
sa.Index("follows_followed", follows.c.followed)

blocks = sa.Table(
    "blocks",
    metadata,
    sa.Column("blocker", sa.String(32), primary_key=True),
    sa.Column("blocked", sa.String(32), primary_key=True),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
)
"""Who blocked whom, by account id (0011)."""
sa.Index("blocks_blocked", blocks.c.blocked)

reports = sa.Table(
    "reports",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("reporter", sa.String(32), nullable=False),
    sa.Column("reported", sa.String(32), nullable=False),
    sa.Column("reason", sa.String(16), nullable=False),
    sa.Column("text", sa.String(500), nullable=True),
    sa.Column("table_id", sa.String(ID_LENGTH), nullable=True),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
)
"""Reports of a person, for the operators (``odin admin reports``; 0011)."""
sa.Index("reports_created", reports.c.created)

invites = sa.Table(
    "invites",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("sender", sa.String(32), nullable=False),
    sa.Column("recipient", sa.String(32), nullable=False),
    sa.Column("table_id", sa.String(ID_LENGTH), nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
)
"""Open invitations to a table, until answered or old (0011)."""
sa.Index("invites_recipient", invites.c.recipient)


# ---------------------------------------------------------------- engines


def _sqlite_pragmas(dbapi_connection: Any, _: Any) -> None:
    """WAL and ``synchronous=NORMAL``: commits survive a killed process, and are cheap."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def make_engine(url: str) -> AsyncEngine:
    """The server's async engine (aiosqlite or asyncpg).

    PostgreSQL connections give up connecting after 5 s and any statement after 10 s, so
    a database that stops answering makes writes fail (unavailable, or commit outcome
    unknown) instead of hanging a table forever. No pre-ping: it costs a round trip per
    batch (about a tenth of the server's CPU under load), while a connection the database
    dropped fails once, invalidates the pool, and the core settles that write by
    reading the log back.
    """
    if url.startswith("sqlite"):
        engine = create_async_engine(url, connect_args={"timeout": 30})
        sa.event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return engine
    return create_async_engine(
        url,
        pool_size=10,
        max_overflow=10,
        connect_args={"timeout": 5, "command_timeout": 10},
    )


def sqlite_path(url: str | sa.URL) -> Path | None:
    """The database file of a SQLite URL; ``None`` for other databases and in-memory ones."""
    parsed = sa.make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database)


def make_sqlite_writer(engine: AsyncEngine) -> sa.Engine | None:
    """For SQLite, a plain engine on the same file for the event log's writer thread.

    aiosqlite hops to its thread for every statement, begin and commit; a batch written
    by one function in one thread hops once. ``None`` for other databases.
    """
    if engine.dialect.name != "sqlite":
        return None
    writer = sa.create_engine(
        engine.url.set(drivername="sqlite"),
        connect_args={"timeout": 30, "check_same_thread": False},
        poolclass=sa.pool.StaticPool,
    )
    sa.event.listen(writer, "connect", _sqlite_pragmas)
    sa.event.listen(writer, "connect", _no_autocheckpoint)
    return writer


def _no_autocheckpoint(dbapi_connection: Any, _: Any) -> None:
    # The writer's commits never wait for a checkpoint's fsync; see ``checkpoint``.
    dbapi_connection.execute("PRAGMA wal_autocheckpoint=0")


def checkpoint(engine: AsyncEngine) -> None:
    """Copy the SQLite WAL into the database file, from a connection of its own.

    Run in a thread, away from the writer: a PASSIVE checkpoint never blocks commits,
    so the fsync it needs never delays an action.
    """
    with sa.create_engine(
        engine.url.set(drivername="sqlite"), poolclass=sa.pool.NullPool
    ).connect() as connection:
        connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")


# ---------------------------------------------------------------- migrations


def alembic_config() -> Config:
    """Alembic's configuration, pointing at the migrations shipped inside the package."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def head_revision() -> str | None:
    """The newest schema revision shipped with this version."""
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


async def migrate(engine: AsyncEngine, revision: str = "head") -> None:
    """Bring the schema to ``revision`` (run on every start; a no-op when current).

    All of it in one transaction, on SQLite too: a server killed in the middle of an
    upgrade leaves the database as it was, and the next start upgrades it again.
    """
    if engine.dialect.name == "sqlite":
        await asyncio.to_thread(_migrate_sqlite, engine.url, revision)
        return
    # A connection of its own, without the server's 10 s limit on a statement: an upgrade
    # rewrites whole tables.
    migrating = create_async_engine(
        engine.url, poolclass=sa.pool.NullPool, connect_args={"timeout": 5}
    )
    try:
        async with migrating.begin() as connection:
            # Processes starting together migrate one after another.
            await connection.execute(sa.select(sa.func.pg_advisory_xact_lock(MIGRATION_KEY)))
            await connection.run_sync(_upgrade, revision)
    finally:
        await migrating.dispose()


def _upgrade(connection: sa.Connection, revision: str) -> None:
    config = alembic_config()
    config.attributes["connection"] = connection
    command.upgrade(config, revision)


def _migrate_sqlite(url: sa.URL, revision: str) -> None:
    # Python's sqlite3 opens transactions only before INSERT, UPDATE and DELETE, so DDL
    # would commit statement by statement. With the driver in autocommit and BEGIN
    # IMMEDIATE sent by hand, SQLite runs the whole upgrade (DDL included) as one
    # transaction, and takes the write lock before reading anything.
    engine = sa.create_engine(
        url.set(drivername="sqlite"), connect_args={"timeout": 30}, poolclass=sa.pool.NullPool
    )
    sa.event.listen(engine, "connect", _sqlite_pragmas)
    sa.event.listen(engine, "connect", _driver_autocommit)
    sa.event.listen(engine, "begin", _begin_immediate)
    try:
        with engine.begin() as connection:
            _upgrade(connection, revision)
    finally:
        engine.dispose()


def _driver_autocommit(dbapi_connection: Any, _: Any) -> None:
    dbapi_connection.isolation_level = None


def _begin_immediate(connection: sa.Connection) -> None:
    connection.exec_driver_sql("BEGIN IMMEDIATE")


async def schema_revision(engine: AsyncEngine) -> str | None:
    """The database's current revision (``None``: never migrated, e.g. a new file)."""

    def current(connection: sa.Connection) -> str | None:
        return MigrationContext.configure(connection).get_current_revision()

    async with engine.connect() as connection:
        return await connection.run_sync(current)
